// Common-subexpression elimination into a straight-line program, and its
// interpreter. Because nodes are hash-consed, every distinct subexpression
// of the outputs becomes exactly one instruction; the program is what both
// back ends (this interpreter and the LLVM JIT) execute.
#pragma once

#include "symbolic/Expr.h"

#include <functional>
#include <vector>

namespace mech::sym {

struct Instruction {
  enum class Op : uint8_t { Constant, Input, Sum, Product, Function };
  Op op;
  Fn fn = Fn::Sin;
  // Function Matrix: where its inverse starts in the evaluation's scratch,
  // past the instructions' values (its own value is its determinant);
  // InvEntry: the entry's place there.
  uint32_t scratch = 0;
  double constant = 0; // Constant: value; Sum: constant term; Product: coefficient
  uint32_t first = 0;  // Input: input index; otherwise first operand
  uint32_t count = 0;  // number of operands
};

// An operand of a Sum (value * scale) or a Product (value ^ exponent).
struct Operand {
  enum class Mode : uint8_t { Scaled, IntegerPower, Sqrt, InverseSqrt, GeneralPower };
  Mode mode;
  uint32_t value;
  double scale = 1;      // Scaled
  int32_t power = 1;     // IntegerPower
  uint32_t exponent = 0; // GeneralPower: the exponent's instruction
};

// Weights of Program::cost, in multiply-equivalents: roughly the relative
// throughput of these operations in compiled code on x86-64 with glibc's
// libm (an addition or multiplication 1, a division 4, a square root 6, an
// elementary function 60, pow 80; sin and cos of one argument count once,
// as one sincos call computes both). A choice between programs that differ
// by a few percent in this count is not a claim about run time.
inline constexpr double kCostDivide = 4, kCostSqrt = 6, kCostFunction = 60, kCostPow = 80;

class Program {
public:
  // Maps a symbol to an input index, or -1 when the symbol has no value.
  using InputMap = std::function<int(const SymbolInfo &)>;

  Program() = default;
  // Fails (throws InternalError) if an output uses a symbol without input.
  Program(const std::vector<Expr> &outputs, const InputMap &inputs);

  void evaluate(const double *inputs, double *outputs, std::vector<double> &scratch) const;
  std::vector<double> evaluate(const std::vector<double> &inputs) const;

  const std::vector<Instruction> &instructions() const { return instructions_; }
  const std::vector<Operand> &operands() const { return operands_; }
  const std::vector<uint32_t> &outputs() const { return outputs_; }
  // Size of the outputs written as trees, i.e. before CSE.
  double treeSize() const { return treeSize_; }
  // The work of one evaluation in multiply-equivalents (kCost* below), to
  // choose between equal programs.
  double cost() const;

private:
  uint32_t emit(const Node *n, const InputMap &inputs);

  std::vector<Instruction> instructions_;
  std::vector<Operand> operands_;
  std::vector<uint32_t> outputs_;
  double treeSize_ = 0;
  uint32_t scratchSize_ = 0; // the instructions' values and the matrices' inverses
};

} // namespace mech::sym
