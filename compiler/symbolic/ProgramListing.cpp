// The text of a program (symbolic/ProgramListing.h). A sum prints as
// c + s1*%a + ..., a product as c * %a^k * sqrt(%b) ..., each operand as the
// interpreter reads it.
#include "symbolic/ProgramListing.h"

#include "support/NumberText.h"

#include <sstream>

namespace mech::sym {

namespace {

std::string value(uint32_t i) {
  return "%" + std::to_string(i);
}

std::string nameOr(const std::vector<std::string> &names, size_t i, const std::string &fallback) {
  return i < names.size() ? names[i] : fallback + "[" + std::to_string(i) + "]";
}

std::string sumText(const Program &p, const Instruction &in) {
  std::string text = in.constant != 0 ? formatNumber(in.constant) : "";
  for (uint32_t k = 0; k < in.count; ++k) {
    const Operand &o = p.operands()[in.first + k];
    std::string term = (o.scale == 1 ? "" : formatNumber(o.scale) + "*") + value(o.value);
    text += text.empty() ? term : " + " + term;
  }
  return text.empty() ? "0" : text;
}

std::string factorText(const Operand &o) {
  switch (o.mode) {
  case Operand::Mode::IntegerPower:
    return value(o.value) + (o.power == 1 ? "" : "^" + std::to_string(o.power));
  case Operand::Mode::Sqrt:
    return "sqrt(" + value(o.value) + ")";
  case Operand::Mode::InverseSqrt:
    return "1/sqrt(" + value(o.value) + ")";
  case Operand::Mode::GeneralPower:
    return value(o.value) + "^" + value(o.exponent);
  case Operand::Mode::Scaled:
    return formatNumber(o.scale) + "*" + value(o.value);
  }
  return "?";
}

std::string productText(const Program &p, const Instruction &in) {
  std::string text = in.constant != 1 ? formatNumber(in.constant) : "";
  for (uint32_t k = 0; k < in.count; ++k) {
    std::string factor = factorText(p.operands()[in.first + k]);
    text += text.empty() ? factor : " * " + factor;
  }
  return text.empty() ? "1" : text;
}

std::string instructionText(const Program &p, const Instruction &in,
                            const std::vector<std::string> &inputNames) {
  switch (in.op) {
  case Instruction::Op::Constant:
    return formatNumber(in.constant);
  case Instruction::Op::Input:
    return nameOr(inputNames, in.first, "in");
  case Instruction::Op::Sum:
    return sumText(p, in);
  case Instruction::Op::Product:
    return productText(p, in);
  case Instruction::Op::Function: {
    std::string args;
    for (uint32_t k = 0; k < in.count; ++k)
      args += (k == 0 ? "" : ", ") + value(p.operands()[in.first + k].value);
    return std::string(fnName(in.fn)) + "(" + args + ")";
  }
  }
  return "?";
}

} // namespace

std::string programListing(const Program &program, const std::vector<std::string> &inputNames,
                           const std::vector<std::string> &outputNames) {
  std::ostringstream out;
  out << "  " << program.instructions().size() << " instructions, cost "
      << formatNumber(program.cost(), 6) << " (as trees: " << formatNumber(program.treeSize(), 6)
      << " nodes)\n";
  for (size_t i = 0; i < program.instructions().size(); ++i)
    out << "  " << value(static_cast<uint32_t>(i)) << " = "
        << instructionText(program, program.instructions()[i], inputNames) << "\n";
  for (size_t k = 0; k < program.outputs().size(); ++k)
    out << "  " << nameOr(outputNames, k, "out") << " = " << value(program.outputs()[k]) << "\n";
  return out.str();
}

} // namespace mech::sym
