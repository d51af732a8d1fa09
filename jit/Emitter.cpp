// Emission of programs: the per-instruction visitor, powers, elementary
// functions (LLVM intrinsics where LLVM has one, libm otherwise).
#include "jit/Emitter.h"

#include "support/Diagnostics.h"

#include <map>

namespace mech::jit {

using sym::Instruction;
using sym::Operand;

// int name(double t, const double *a, const double *p, double *out)
llvm::Function *Emitter::kernel(const std::string &name) {
  auto *type = llvm::FunctionType::get(b_.getInt32Ty(), {f64(), ptr(), ptr(), ptr()}, false);
  auto *f = llvm::Function::Create(type, llvm::Function::ExternalLinkage, name, module_);
  const char *names[] = {"t", "x", "p", "out"};
  for (size_t i = 0; i < 4; ++i)
    f->getArg(static_cast<unsigned>(i))->setName(names[i]);
  for (unsigned i = 1; i < 4; ++i)
    f->addParamAttr(i, llvm::Attribute::NoAlias);
  f->addFnAttr(llvm::Attribute::NoUnwind);
  b_.SetInsertPoint(llvm::BasicBlock::Create(context_, "entry", f));
  return f;
}

// Which instructions the outputs depend on, by a backward sweep (an
// instruction's operands come before it).
std::vector<bool> Emitter::neededInstructions(const sym::Program &program) {
  const auto &code = program.instructions();
  const auto &ops = program.operands();
  std::vector<bool> needed(code.size(), false);
  for (uint32_t output : program.outputs())
    needed[output] = true;
  for (size_t i = code.size(); i-- > 0;) {
    if (!needed[i] || code[i].op == Instruction::Op::Constant ||
        code[i].op == Instruction::Op::Input)
      continue;
    for (uint32_t k = 0; k < code[i].count; ++k) {
      needed[ops[code[i].first + k].value] = true;
      if (ops[code[i].first + k].mode == Operand::Mode::GeneralPower)
        needed[ops[code[i].first + k].exponent] = true;
    }
  }
  return needed;
}

// argument -> (instruction of its sin, instruction of its cos), -1 where
// absent, among the needed instructions: sin and cos of one argument come
// from one sincos call.
Emitter::SincosPairs Emitter::sincosPairs(const sym::Program &program,
                                          const std::vector<bool> &needed) {
  const auto &code = program.instructions();
  const auto &ops = program.operands();
  std::map<uint32_t, std::pair<long, long>> trig;
  for (size_t i = 0; i < code.size(); ++i)
    if (needed[i] && code[i].op == Instruction::Op::Function &&
        (code[i].fn == sym::Fn::Sin || code[i].fn == sym::Fn::Cos)) {
      auto &pair = trig.try_emplace(ops[code[i].first].value, -1, -1).first->second;
      (code[i].fn == sym::Fn::Sin ? pair.first : pair.second) = static_cast<long>(i);
    }
  return trig;
}

// Emits `program` and stores its outputs to out[offset...]: in the current
// function, or in functions of a bounded size when it is large.
void Emitter::emitOutputs(const sym::Program &program,
                          const std::function<llvm::Value *(uint32_t)> &input, llvm::Value *out,
                          size_t offset) {
  std::vector<bool> needed = neededInstructions(program);
  if (segmentable(program, needed)) {
    emitSegmented(program, needed, input, out, offset);
    return;
  }
  const auto &code = program.instructions();
  SincosPairs trig = sincosPairs(program, needed);
  std::vector<llvm::Value *> v(code.size(), nullptr);
  std::map<size_t, llvm::Value *> inverses;
  for (size_t i = 0; i < code.size(); ++i)
    // v[i] may already hold the other half of a sincos pair.
    if (needed[i] && v[i] == nullptr)
      emitInstruction(program, i, trig, v, inverses, input);
  for (size_t w = 0; w < program.outputs().size(); ++w)
    store(v[program.outputs()[w]], out, offset + w);
}

// Instruction i into v[i] (and its sincos partner), its operands in v.
void Emitter::emitInstruction(const sym::Program &program, size_t i, const SincosPairs &trig,
                              std::vector<llvm::Value *> &v,
                              std::map<size_t, llvm::Value *> &inverses,
                              const std::function<llvm::Value *(uint32_t)> &input) {
  const auto &code = program.instructions();
  const Instruction &instr = code[i];
  // Constants and inputs have no operands (an input's `first` is its
  // index): no pointer is formed for them, as none may be past the table.
  bool hasOperands = instr.op != Instruction::Op::Constant && instr.op != Instruction::Op::Input;
  const Operand *o = hasOperands ? program.operands().data() + instr.first : nullptr;
  switch (instr.op) {
  case Instruction::Op::Constant:
    v[i] = constant(instr.constant);
    break;
  case Instruction::Op::Input:
    v[i] = input(instr.first);
    break;
  case Instruction::Op::Sum:
    v[i] = emitSum(instr, o, v);
    break;
  case Instruction::Op::Product:
    v[i] = emitProduct(instr, o, v);
    break;
  case Instruction::Op::Function:
    if (sym::isMatrixFn(instr.fn))
      v[i] = emitMatrixFunction(code, o, i, v, inverses);
    else
      emitFunction(instr, o, trig, v, i);
    break;
  }
  if (v[i] == nullptr)
    internalError("code generation produced no value");
}

// constant + sum scale_k x_k, left to right; scales of +-1 are an add or a
// subtract rather than a multiplication.
llvm::Value *Emitter::emitSum(const Instruction &instr, const Operand *o,
                              const std::vector<llvm::Value *> &v) {
  llvm::Value *s = instr.constant != 0 ? constant(instr.constant) : nullptr;
  for (uint32_t k = 0; k < instr.count; ++k) {
    llvm::Value *x = v[o[k].value];
    double c = o[k].scale;
    if (s == nullptr) {
      s = c == 1 ? x : c == -1 ? b_.CreateFNeg(x) : b_.CreateFMul(constant(c), x);
    } else if (c == 1) {
      s = b_.CreateFAdd(s, x);
    } else if (c == -1) {
      s = b_.CreateFSub(s, x);
    } else {
      s = b_.CreateFAdd(s, b_.CreateFMul(constant(c), x));
    }
  }
  return s ? s : constant(0);
}

// constant * f1 * f2 * ..., left to right, a factor with a negative power
// as 1 / x^k and an inverse square root as a division: the interpreter's
// order (sym::Program::evaluate), so that both give the same bits. A
// constant of 1 is left out (1 * x is x).
llvm::Value *Emitter::emitProduct(const Instruction &instr, const Operand *o,
                                  const std::vector<llvm::Value *> &v) {
  llvm::Value *p = instr.constant != 1 ? constant(instr.constant) : nullptr;
  for (uint32_t k = 0; k < instr.count; ++k) {
    llvm::Value *x = v[o[k].value];
    llvm::Value *factor = nullptr;
    switch (o[k].mode) {
    case Operand::Mode::IntegerPower: {
      int power = o[k].power;
      factor = power < 0 ? b_.CreateFDiv(constant(1), integerPower(x, -power))
                         : integerPower(x, power);
      break;
    }
    case Operand::Mode::Sqrt:
      factor = unaryIntrinsic(llvm::Intrinsic::sqrt, x);
      break;
    case Operand::Mode::InverseSqrt:
      p = b_.CreateFDiv(p ? p : constant(1), unaryIntrinsic(llvm::Intrinsic::sqrt, x));
      continue;
    case Operand::Mode::GeneralPower:
      factor = b_.CreateBinaryIntrinsic(llvm::Intrinsic::pow, x, v[o[k].exponent]);
      break;
    case Operand::Mode::Scaled:
      factor = x;
      break;
    }
    p = p ? b_.CreateFMul(p, factor) : factor;
  }
  return p ? p : constant(1);
}

// Instruction i, a function; a sin or cos whose partner is also needed
// fills both halves of the pair from one sincos call.
void Emitter::emitFunction(const Instruction &instr, const Operand *o, const SincosPairs &trig,
                           std::vector<llvm::Value *> &v, size_t i) {
  llvm::Value *x = v[o[0].value];
  if (instr.fn == sym::Fn::Select) { // both branches computed, one chosen: no jump
    v[i] = b_.CreateSelect(b_.CreateFCmpOGT(x, constant(0)), v[o[1].value], v[o[2].value]);
    return;
  }
  if (instr.fn == sym::Fn::Smooth) {
    v[i] = x;
    return;
  }
  auto pair = trig.find(o[0].value);
  if ((instr.fn == sym::Fn::Sin || instr.fn == sym::Fn::Cos) && pair != trig.end() &&
      pair->second.first >= 0 && pair->second.second >= 0) {
    auto [s, c] = sincos(x);
    v[static_cast<size_t>(pair->second.first)] = s;
    v[static_cast<size_t>(pair->second.second)] = c;
    return;
  }
  v[i] = function(instr.fn, x, instr.count > 1 ? v[o[1].value] : nullptr);
}

// x^k for k >= 0 by repeated squaring in straight-line code, the
// multiplications of sym::integerPower (at most 62 of them).
llvm::Value *Emitter::integerPower(llvm::Value *x, int k) {
  if (k == 0)
    return constant(1);
  if (k == 1)
    return x;
  llvm::Value *result = nullptr, *base = x;
  while (k > 0) {
    if (k & 1)
      result = result ? b_.CreateFMul(result, base) : base;
    k >>= 1;
    if (k)
      base = b_.CreateFMul(base, base);
  }
  return result;
}

llvm::Value *Emitter::libm(const char *name, std::vector<llvm::Value *> args) {
  std::vector<llvm::Type *> types(args.size(), f64());
  llvm::FunctionCallee callee =
      module_.getOrInsertFunction(name, llvm::FunctionType::get(f64(), types, false));
  auto *call = b_.CreateCall(callee, args);
  call->setDoesNotThrow();
  return call;
}

std::pair<llvm::Value *, llvm::Value *> Emitter::sincos(llvm::Value *x) {
  llvm::Value *s = stackSlot(f64()), *c = stackSlot(f64());
  llvm::FunctionCallee callee = module_.getOrInsertFunction(
      "sincos", llvm::FunctionType::get(b_.getVoidTy(), {f64(), ptr(), ptr()}, false));
  b_.CreateCall(callee, {x, s, c});
  return {b_.CreateLoad(f64(), s), b_.CreateLoad(f64(), c)};
}

llvm::Value *Emitter::function(sym::Fn fn, llvm::Value *x, llvm::Value *y) {
  using sym::Fn;
  switch (fn) {
  case Fn::Sin:
    return unaryIntrinsic(llvm::Intrinsic::sin, x);
  case Fn::Cos:
    return unaryIntrinsic(llvm::Intrinsic::cos, x);
  case Fn::Exp:
    return unaryIntrinsic(llvm::Intrinsic::exp, x);
  case Fn::Log:
    return unaryIntrinsic(llvm::Intrinsic::log, x);
  case Fn::Abs:
    return unaryIntrinsic(llvm::Intrinsic::fabs, x);
  case Fn::Sign: {
    llvm::Value *positive = b_.CreateUIToFP(b_.CreateFCmpOGT(x, constant(0)), f64());
    llvm::Value *negative = b_.CreateUIToFP(b_.CreateFCmpOLT(x, constant(0)), f64());
    return b_.CreateFSub(positive, negative);
  }
  case Fn::Select:
  case Fn::Smooth:
  case Fn::Matrix:
  case Fn::Det:
  case Fn::InvEntry:
    break; // emitFunction and emitMatrixFunction handle these before here
  case Fn::Tan:
    return libm("tan", {x});
  case Fn::Asin:
    return libm("asin", {x});
  case Fn::Acos:
    return libm("acos", {x});
  case Fn::Atan:
    return libm("atan", {x});
  case Fn::Atan2:
    return libm("atan2", {x, y});
  case Fn::Sinh:
    return libm("sinh", {x});
  case Fn::Cosh:
    return libm("cosh", {x});
  case Fn::Tanh:
    return libm("tanh", {x});
  }
  internalError("unhandled function in code generation");
}

// Stack memory in the current function's entry block.
llvm::Value *Emitter::stackSlot(llvm::Type *type, size_t count) {
  llvm::Function *f = b_.GetInsertBlock()->getParent();
  llvm::IRBuilder<> entry(&f->getEntryBlock(), f->getEntryBlock().begin());
  return entry.CreateAlloca(type, b_.getInt64(count));
}

} // namespace mech::jit
