// Code generation: one visitor over the program's instructions writing one
// llvm::Value per instruction, then the kernels around it.
#include "jit/CompiledModel.h"

#include "jit/Jit.h"
#include "jit/ObjectCache.h"
#include "support/Diagnostics.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <functional>
#include <map>
#include <sys/stat.h>

namespace mech::jit {

using mechanics::KernelPrograms;
using sym::Instruction;
using sym::Operand;

namespace {

class Emitter {
public:
  Emitter(llvm::LLVMContext &context, llvm::Module &module)
      : context_(context), module_(module), b_(context) {
    llvm::FastMathFlags flags;
    flags.setAllowContract(true); // FMA contraction only: results stay IEEE
    b_.setFastMathFlags(flags);
  }

  llvm::Type *f64() { return b_.getDoubleTy(); }
  llvm::Type *ptr() { return b_.getPtrTy(); }
  llvm::Value *constant(double v) { return llvm::ConstantFP::get(f64(), v); }

  // int name(double t, const double *a, const double *p, double *out)
  llvm::Function *kernel(const std::string &name) {
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

  llvm::Value *load(llvm::Value *base, size_t index) {
    return b_.CreateLoad(f64(), b_.CreateConstInBoundsGEP1_64(f64(), base, index));
  }
  void store(llvm::Value *value, llvm::Value *base, size_t index) {
    b_.CreateStore(value, b_.CreateConstInBoundsGEP1_64(f64(), base, index));
  }

  // Emits the instructions of `program` needed for the given outputs.
  std::vector<llvm::Value *> emit(const sym::Program &program, const std::vector<size_t> &wanted,
                                  const std::function<llvm::Value *(uint32_t)> &input) {
    const auto &code = program.instructions();
    const auto &ops = program.operands();
    std::vector<bool> needed(code.size(), false);
    for (size_t w : wanted)
      needed[program.outputs()[w]] = true;
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
    // sin and cos of one argument come from one sincos call.
    std::map<uint32_t, std::pair<long, long>> trig;
    for (size_t i = 0; i < code.size(); ++i)
      if (needed[i] && code[i].op == Instruction::Op::Function &&
          (code[i].fn == sym::Fn::Sin || code[i].fn == sym::Fn::Cos)) {
        auto &pair = trig.try_emplace(ops[code[i].first].value, -1, -1).first->second;
        (code[i].fn == sym::Fn::Sin ? pair.first : pair.second) = static_cast<long>(i);
      }
    std::vector<llvm::Value *> v(code.size(), nullptr);
    for (size_t i = 0; i < code.size(); ++i) {
      if (!needed[i] || v[i] != nullptr)
        continue;
      const Instruction &instr = code[i];
      const Operand *o = ops.data() + instr.first;
      switch (instr.op) {
      case Instruction::Op::Constant:
        v[i] = constant(instr.constant);
        break;
      case Instruction::Op::Input:
        v[i] = input(instr.first);
        break;
      case Instruction::Op::Sum: {
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
        v[i] = s ? s : constant(0);
        break;
      }
      case Instruction::Op::Product: {
        llvm::Value *p = nullptr;
        llvm::Value *divisor = nullptr; // factors with negative powers, divided once
        for (uint32_t k = 0; k < instr.count; ++k) {
          llvm::Value *x = v[o[k].value];
          llvm::Value *factor = nullptr;
          bool inverse = false;
          switch (o[k].mode) {
          case Operand::Mode::IntegerPower: {
            int power = o[k].power;
            inverse = power < 0;
            factor = integerPower(x, inverse ? -power : power);
            break;
          }
          case Operand::Mode::Sqrt:
            factor = unaryIntrinsic(llvm::Intrinsic::sqrt, x);
            break;
          case Operand::Mode::InverseSqrt:
            factor = unaryIntrinsic(llvm::Intrinsic::sqrt, x);
            inverse = true;
            break;
          case Operand::Mode::GeneralPower:
            factor = b_.CreateBinaryIntrinsic(llvm::Intrinsic::pow, x, v[o[k].exponent]);
            break;
          case Operand::Mode::Scaled:
            factor = x;
            break;
          }
          llvm::Value *&target = inverse ? divisor : p;
          target = target ? b_.CreateFMul(target, factor) : factor;
        }
        if (instr.constant != 1)
          p = p ? b_.CreateFMul(constant(instr.constant), p) : constant(instr.constant);
        if (p == nullptr)
          p = constant(1);
        v[i] = divisor ? b_.CreateFDiv(p, divisor) : p;
        break;
      }
      case Instruction::Op::Function: {
        llvm::Value *x = v[o[0].value];
        auto pair = trig.find(o[0].value);
        if ((instr.fn == sym::Fn::Sin || instr.fn == sym::Fn::Cos) && pair != trig.end() &&
            pair->second.first >= 0 && pair->second.second >= 0) {
          auto [s, c] = sincos(x);
          v[static_cast<size_t>(pair->second.first)] = s;
          v[static_cast<size_t>(pair->second.second)] = c;
          break;
        }
        v[i] = function(instr.fn, x, instr.count > 1 ? v[o[1].value] : nullptr);
        break;
      }
      }
      if (v[i] == nullptr)
        internalError("code generation produced no value");
    }
    std::vector<llvm::Value *> result;
    for (size_t w : wanted)
      result.push_back(v[program.outputs()[w]]);
    return result;
  }

  // x^k for k >= 0 by repeated squaring in straight-line code.
  llvm::Value *integerPower(llvm::Value *x, int k) {
    if (k == 0)
      return constant(1);
    if (k == 1)
      return x;
    if (k > 16)
      return b_.CreateIntrinsic(f64(), llvm::Intrinsic::powi, {x, b_.getInt32(k)});
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

  llvm::Value *unaryIntrinsic(llvm::Intrinsic::ID id, llvm::Value *x) {
    return b_.CreateUnaryIntrinsic(id, x);
  }

  llvm::Value *libm(const char *name, std::vector<llvm::Value *> args) {
    std::vector<llvm::Type *> types(args.size(), f64());
    llvm::FunctionCallee callee =
        module_.getOrInsertFunction(name, llvm::FunctionType::get(f64(), types, false));
    auto *call = b_.CreateCall(callee, args);
    call->setDoesNotThrow();
    return call;
  }

  std::pair<llvm::Value *, llvm::Value *> sincos(llvm::Value *x) {
    llvm::Value *s = stackSlot(f64()), *c = stackSlot(f64());
    llvm::FunctionCallee callee = module_.getOrInsertFunction(
        "sincos", llvm::FunctionType::get(b_.getVoidTy(), {f64(), ptr(), ptr()}, false));
    b_.CreateCall(callee, {x, s, c});
    return {b_.CreateLoad(f64(), s), b_.CreateLoad(f64(), c)};
  }

  llvm::Value *function(sym::Fn fn, llvm::Value *x, llvm::Value *y) {
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

  llvm::Value *ret(llvm::Value *status) {
    b_.CreateRet(status);
    return status;
  }

  // Unrolled LDL^T solve of M y = f; returns the status (0 or 1) as i32.
  llvm::Value *solveUnrolled(size_t n, std::vector<llvm::Value *> M,
                             std::vector<llvm::Value *> &y) {
    llvm::Value *largest = constant(0);
    for (size_t j = 0; j < n; ++j)
      largest = b_.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, largest,
                                         unaryIntrinsic(llvm::Intrinsic::fabs, M[j * n + j]));
    llvm::Value *tolerance = b_.CreateFMul(constant(1e-13), largest);
    llvm::Value *bad = b_.getFalse();
    std::vector<llvm::Value *> d(n);
    for (size_t j = 0; j < n; ++j) {
      llvm::Value *dj = M[j * n + j];
      for (size_t k = 0; k < j; ++k)
        dj = b_.CreateFSub(dj, b_.CreateFMul(b_.CreateFMul(M[j * n + k], M[j * n + k]), d[k]));
      d[j] = dj;
      bad = b_.CreateOr(bad, b_.CreateFCmpULE(dj, tolerance));
      for (size_t i = j + 1; i < n; ++i) {
        llvm::Value *s = M[i * n + j];
        for (size_t k = 0; k < j; ++k)
          s = b_.CreateFSub(s, b_.CreateFMul(b_.CreateFMul(M[i * n + k], M[j * n + k]), d[k]));
        M[i * n + j] = b_.CreateFDiv(s, dj);
      }
    }
    for (size_t i = 0; i < n; ++i)
      for (size_t k = 0; k < i; ++k)
        y[i] = b_.CreateFSub(y[i], b_.CreateFMul(M[i * n + k], y[k]));
    for (size_t i = 0; i < n; ++i)
      y[i] = b_.CreateFDiv(y[i], d[i]);
    for (size_t i = n; i-- > 0;)
      for (size_t k = i + 1; k < n; ++k)
        y[i] = b_.CreateFSub(y[i], b_.CreateFMul(M[k * n + i], y[k]));
    return b_.CreateZExt(bad, b_.getInt32Ty());
  }

  // for (i = from; i < to; ++i) body(i), with i64 induction.
  void loop(llvm::Value *from, llvm::Value *to, const std::function<void(llvm::Value *)> &body) {
    llvm::Function *f = b_.GetInsertBlock()->getParent();
    llvm::BasicBlock *before = b_.GetInsertBlock();
    llvm::BasicBlock *header = llvm::BasicBlock::Create(context_, "loop", f);
    llvm::BasicBlock *inside = llvm::BasicBlock::Create(context_, "body", f);
    llvm::BasicBlock *after = llvm::BasicBlock::Create(context_, "done", f);
    b_.CreateBr(header);
    b_.SetInsertPoint(header);
    llvm::PHINode *i = b_.CreatePHI(b_.getInt64Ty(), 2);
    i->addIncoming(from, before);
    b_.CreateCondBr(b_.CreateICmpSLT(i, to), inside, after);
    b_.SetInsertPoint(inside);
    body(i);
    llvm::Value *next = b_.CreateAdd(i, b_.getInt64(1));
    i->addIncoming(next, b_.GetInsertBlock());
    b_.CreateBr(header);
    b_.SetInsertPoint(after);
  }

  llvm::Value *at(llvm::Value *base, llvm::Value *index) {
    return b_.CreateInBoundsGEP(f64(), base, index);
  }
  llvm::Value *element(llvm::Value *base, llvm::Value *row, llvm::Value *column, size_t n) {
    return at(base, b_.CreateAdd(b_.CreateMul(row, b_.getInt64(n)), column));
  }

  // LDL^T in place of the n*n matrix A in memory (row-major); the status
  // (i32 1) when a pivot is not above relativeTolerance times the largest
  // diagonal entry. Mirrors mechanics::solveLdlt.
  llvm::Value *factorLoops(size_t n, llvm::Value *A, double relativeTolerance) {
    llvm::Value *zero = b_.getInt64(0), *size = b_.getInt64(n);
    llvm::Value *status = stackSlot(b_.getInt32Ty());
    b_.CreateStore(b_.getInt32(0), status);
    llvm::Value *largestSlot = stackSlot(f64());
    b_.CreateStore(constant(0), largestSlot);
    loop(zero, size, [&](llvm::Value *j) {
      llvm::Value *diag =
          unaryIntrinsic(llvm::Intrinsic::fabs, b_.CreateLoad(f64(), element(A, j, j, n)));
      b_.CreateStore(b_.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum,
                                              b_.CreateLoad(f64(), largestSlot), diag),
                     largestSlot);
    });
    llvm::Value *tolerance =
        b_.CreateFMul(constant(relativeTolerance), b_.CreateLoad(f64(), largestSlot));
    llvm::Value *acc = stackSlot(f64());
    loop(zero, size, [&](llvm::Value *j) {
      b_.CreateStore(b_.CreateLoad(f64(), element(A, j, j, n)), acc);
      loop(zero, j, [&](llvm::Value *k) {
        llvm::Value *l = b_.CreateLoad(f64(), element(A, j, k, n));
        llvm::Value *dk = b_.CreateLoad(f64(), element(A, k, k, n));
        b_.CreateStore(
            b_.CreateFSub(b_.CreateLoad(f64(), acc), b_.CreateFMul(b_.CreateFMul(l, l), dk)), acc);
      });
      llvm::Value *dj = b_.CreateLoad(f64(), acc);
      b_.CreateStore(dj, element(A, j, j, n));
      llvm::Value *bad = b_.CreateZExt(b_.CreateFCmpULE(dj, tolerance), b_.getInt32Ty());
      b_.CreateStore(b_.CreateOr(b_.CreateLoad(b_.getInt32Ty(), status), bad), status);
      loop(b_.CreateAdd(j, b_.getInt64(1)), size, [&](llvm::Value *i) {
        b_.CreateStore(b_.CreateLoad(f64(), element(A, i, j, n)), acc);
        loop(zero, j, [&](llvm::Value *k) {
          llvm::Value *term =
              b_.CreateFMul(b_.CreateFMul(b_.CreateLoad(f64(), element(A, i, k, n)),
                                          b_.CreateLoad(f64(), element(A, j, k, n))),
                            b_.CreateLoad(f64(), element(A, k, k, n)));
          b_.CreateStore(b_.CreateFSub(b_.CreateLoad(f64(), acc), term), acc);
        });
        b_.CreateStore(b_.CreateFDiv(b_.CreateLoad(f64(), acc), dj), element(A, i, j, n));
      });
    });
    return b_.CreateLoad(b_.getInt32Ty(), status);
  }

  // Forward substitution, diagonal, back substitution with a factored A; y
  // (n doubles in memory) in place.
  void substituteLoops(size_t n, llvm::Value *A, llvm::Value *y) {
    llvm::Value *zero = b_.getInt64(0), *size = b_.getInt64(n);
    loop(zero, size, [&](llvm::Value *i) {
      loop(zero, i, [&](llvm::Value *k) {
        llvm::Value *yi = b_.CreateLoad(f64(), at(y, i));
        llvm::Value *term = b_.CreateFMul(b_.CreateLoad(f64(), element(A, i, k, n)),
                                          b_.CreateLoad(f64(), at(y, k)));
        b_.CreateStore(b_.CreateFSub(yi, term), at(y, i));
      });
    });
    loop(zero, size, [&](llvm::Value *i) {
      b_.CreateStore(
          b_.CreateFDiv(b_.CreateLoad(f64(), at(y, i)), b_.CreateLoad(f64(), element(A, i, i, n))),
          at(y, i));
    });
    loop(zero, size, [&](llvm::Value *step) {
      llvm::Value *i = b_.CreateSub(b_.getInt64(n - 1), step);
      loop(b_.CreateAdd(i, b_.getInt64(1)), size, [&](llvm::Value *k) {
        llvm::Value *yi = b_.CreateLoad(f64(), at(y, i));
        llvm::Value *term = b_.CreateFMul(b_.CreateLoad(f64(), element(A, k, i, n)),
                                          b_.CreateLoad(f64(), at(y, k)));
        b_.CreateStore(b_.CreateFSub(yi, term), at(y, i));
      });
    });
  }

  // LDL^T solve of M y = f with loops over memory; M overwritten.
  llvm::Value *solveLoops(size_t n, llvm::Value *M, llvm::Value *y) {
    llvm::Value *status = factorLoops(n, M, mechanics::kPivotTolerance);
    substituteLoops(n, M, y);
    return status;
  }

  // The first-kind equations from the buffer M (n*n), f (n), C (m*n),
  // gamma (m), as mechanics::solveConstrained (read that for the method);
  // q'' into qdd and the multipliers into lambda (memory). Returns the
  // status: 0, kStatusSingularMassMatrix or kStatusRedundantConstraints.
  llvm::Value *solveConstrainedLoops(size_t n, size_t m, llvm::Value *Mf, llvm::Value *qdd,
                                     llvm::Value *lambda) {
    llvm::Value *M = Mf, *f = offset(Mf, n * n), *C = offset(Mf, n * n + n),
                *gamma = offset(Mf, n * n + n + m * n);
    llvm::Value *zero = b_.getInt64(0), *nn = b_.getInt64(n), *mm = b_.getInt64(m);
    // s = max diag(M) / max |C_i|^2 (1 for a zero C; diag 0 counts as 1).
    llvm::Value *inertia = stackSlot(f64()), *rows = stackSlot(f64()), *acc = stackSlot(f64());
    b_.CreateStore(constant(0), inertia);
    b_.CreateStore(constant(0), rows);
    loop(zero, nn, [&](llvm::Value *j) {
      llvm::Value *d =
          unaryIntrinsic(llvm::Intrinsic::fabs, b_.CreateLoad(f64(), element(M, j, j, n)));
      b_.CreateStore(
          b_.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, b_.CreateLoad(f64(), inertia), d),
          inertia);
    });
    loop(zero, mm, [&](llvm::Value *i) {
      b_.CreateStore(constant(0), acc);
      loop(zero, nn, [&](llvm::Value *k) {
        llvm::Value *c = b_.CreateLoad(f64(), element(C, i, k, n));
        b_.CreateStore(b_.CreateFAdd(b_.CreateLoad(f64(), acc), b_.CreateFMul(c, c)), acc);
      });
      b_.CreateStore(b_.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, b_.CreateLoad(f64(), rows),
                                              b_.CreateLoad(f64(), acc)),
                     rows);
    });
    llvm::Value *I = b_.CreateLoad(f64(), inertia), *R = b_.CreateLoad(f64(), rows);
    llvm::Value *numerator = b_.CreateSelect(b_.CreateFCmpOGT(I, constant(0)), I, constant(1));
    llvm::Value *s =
        b_.CreateSelect(b_.CreateFCmpOEQ(R, constant(0)), constant(1), b_.CreateFDiv(numerator, R));
    // M += s C^T C, y = f + s C^T gamma.
    llvm::Value *y = stackSlot(f64(), n);
    loop(zero, nn,
         [&](llvm::Value *j) { b_.CreateStore(b_.CreateLoad(f64(), at(f, j)), at(y, j)); });
    loop(zero, mm, [&](llvm::Value *i) {
      llvm::Value *sg = b_.CreateFMul(s, b_.CreateLoad(f64(), at(gamma, i)));
      loop(zero, nn, [&](llvm::Value *j) {
        llvm::Value *cij = b_.CreateLoad(f64(), element(C, i, j, n));
        b_.CreateStore(b_.CreateFAdd(b_.CreateLoad(f64(), at(y, j)), b_.CreateFMul(cij, sg)),
                       at(y, j));
        llvm::Value *scj = b_.CreateFMul(s, cij);
        loop(zero, nn, [&](llvm::Value *k) {
          llvm::Value *target = element(M, j, k, n);
          llvm::Value *term = b_.CreateFMul(scj, b_.CreateLoad(f64(), element(C, i, k, n)));
          b_.CreateStore(b_.CreateFAdd(b_.CreateLoad(f64(), target), term), target);
        });
      });
    });
    llvm::Value *status = stackSlot(b_.getInt32Ty());
    b_.CreateStore(factorLoops(n, M, mechanics::kPivotTolerance), status);
    substituteLoops(n, M, y);
    // Z = (M + s C^T C)^-1 C^T by rows of C; S = C Z^T; r = C y - gamma.
    llvm::Value *Z = stackSlot(f64(), m * n), *S = stackSlot(f64(), m * m), *r = lambda;
    loop(zero, mm, [&](llvm::Value *i) {
      loop(zero, nn, [&](llvm::Value *k) {
        b_.CreateStore(b_.CreateLoad(f64(), element(C, i, k, n)), element(Z, i, k, n));
      });
      substituteLoops(n, M, element(Z, i, zero, n));
    });
    loop(zero, mm, [&](llvm::Value *i) {
      b_.CreateStore(b_.CreateFNeg(b_.CreateLoad(f64(), at(gamma, i))), acc);
      loop(zero, nn, [&](llvm::Value *k) {
        llvm::Value *term = b_.CreateFMul(b_.CreateLoad(f64(), element(C, i, k, n)),
                                          b_.CreateLoad(f64(), at(y, k)));
        b_.CreateStore(b_.CreateFAdd(b_.CreateLoad(f64(), acc), term), acc);
      });
      b_.CreateStore(b_.CreateLoad(f64(), acc), at(r, i));
      loop(zero, mm, [&](llvm::Value *j) {
        b_.CreateStore(constant(0), acc);
        loop(zero, nn, [&](llvm::Value *k) {
          llvm::Value *term = b_.CreateFMul(b_.CreateLoad(f64(), element(C, i, k, n)),
                                            b_.CreateLoad(f64(), element(Z, j, k, n)));
          b_.CreateStore(b_.CreateFAdd(b_.CreateLoad(f64(), acc), term), acc);
        });
        b_.CreateStore(b_.CreateLoad(f64(), acc), element(S, i, j, m));
      });
    });
    llvm::Value *schurBad = factorLoops(m, S, mechanics::kSchurTolerance);
    llvm::Value *previous = b_.CreateLoad(b_.getInt32Ty(), status);
    b_.CreateStore(
        b_.CreateSelect(b_.CreateICmpNE(previous, b_.getInt32(0)),
                        b_.getInt32(mechanics::kStatusSingularMassMatrix),
                        b_.CreateSelect(b_.CreateICmpNE(schurBad, b_.getInt32(0)),
                                        b_.getInt32(mechanics::kStatusRedundantConstraints),
                                        b_.getInt32(0))),
        status);
    substituteLoops(m, S, r); // r = mu = -lambda
    loop(zero, nn, [&](llvm::Value *k) {
      b_.CreateStore(b_.CreateLoad(f64(), at(y, k)), acc);
      loop(zero, mm, [&](llvm::Value *i) {
        llvm::Value *term = b_.CreateFMul(b_.CreateLoad(f64(), element(Z, i, k, n)),
                                          b_.CreateLoad(f64(), at(r, i)));
        b_.CreateStore(b_.CreateFSub(b_.CreateLoad(f64(), acc), term), acc);
      });
      b_.CreateStore(b_.CreateLoad(f64(), acc), at(qdd, k));
    });
    loop(zero, mm, [&](llvm::Value *i) {
      b_.CreateStore(b_.CreateFNeg(b_.CreateLoad(f64(), at(r, i))), at(r, i));
    });
    return b_.CreateLoad(b_.getInt32Ty(), status);
  }

  // Stack memory in the current function's entry block.
  llvm::Value *stackSlot(llvm::Type *type, size_t count = 1) {
    llvm::Function *f = b_.GetInsertBlock()->getParent();
    llvm::IRBuilder<> entry(&f->getEntryBlock(), f->getEntryBlock().begin());
    return entry.CreateAlloca(type, b_.getInt64(count));
  }
  llvm::Value *offset(llvm::Value *base, size_t index) {
    return b_.CreateConstInBoundsGEP1_64(f64(), base, index);
  }

  llvm::IRBuilder<> &builder() { return b_; }

private:
  llvm::LLVMContext &context_;
  llvm::Module &module_;
  llvm::IRBuilder<> b_;
};

// Input index of a program (params, q, q', q'', t, multipliers) -> value
// in a kernel.
struct Inputs {
  size_t params, n;
  llvm::Value *t, *x, *p;
  std::vector<llvm::Value *> qdd;    // set once solved
  std::vector<llvm::Value *> lambda; // likewise
};

// Which kernels a module holds beyond the ones every simulation uses.
struct KernelSelection {
  bool momentumForce = false;
};

std::unique_ptr<llvm::Module> emitModule(const KernelPrograms &programs, llvm::LLVMContext &context,
                                         KernelSelection selection) {
  auto module = std::make_unique<llvm::Module>("mech_model", context);
  Emitter e(context, *module);
  llvm::IRBuilder<> &b = e.builder();
  size_t n = programs.coordinates, np = programs.params, m = programs.constraints;
  size_t dynamicsSize = n * n + n + m * n + m;
  auto inputFor = [&](Inputs &in) {
    return [&e, &in, &b](uint32_t index) -> llvm::Value * {
      if (index < in.params)
        return e.load(in.p, index);
      size_t k = index - in.params;
      if (k < 2 * in.n)
        return e.load(in.x, k);
      if (k < 3 * in.n)
        return in.qdd.empty() ? llvm::ConstantFP::get(b.getDoubleTy(), 0.0) : in.qdd[k - 2 * in.n];
      if (k == 3 * in.n)
        return in.t;
      return in.lambda.empty() ? llvm::ConstantFP::get(b.getDoubleTy(), 0.0)
                               : in.lambda[k - 3 * in.n - 1];
    };
  };
  auto all = [](size_t count) {
    std::vector<size_t> indices(count);
    for (size_t i = 0; i < count; ++i)
      indices[i] = i;
    return indices;
  };

  // mech_dynamics(t, x, p, out): M (row-major), f, C, gamma. The one copy of the
  // largest program, called by the kernels below (and inlined into them by
  // the optimizer when it is small): code generation time grows faster
  // than linearly with the size of a function.
  llvm::Function *dynamics = e.kernel("mech_dynamics");
  dynamics->setLinkage(llvm::Function::InternalLinkage);
  {
    Inputs in{np, n, dynamics->getArg(0), dynamics->getArg(1), dynamics->getArg(2), {}, {}};
    auto values = e.emit(programs.dynamics, all(dynamicsSize), inputFor(in));
    for (size_t i = 0; i < values.size(); ++i)
      e.store(values[i], dynamics->getArg(3), i);
    e.ret(b.getInt32(0));
  }
  // A buffer in the current kernel's entry block.
  auto buffer = [&](llvm::Function *f, size_t size) -> llvm::Value * {
    llvm::IRBuilder<> entry(&f->getEntryBlock(), f->getEntryBlock().begin());
    return entry.CreateAlloca(b.getDoubleTy(), b.getInt64(size));
  };
  auto callDynamics = [&](llvm::Function *f, llvm::Value *x) {
    llvm::Value *Mf = buffer(f, dynamicsSize);
    b.CreateCall(dynamics, {f->getArg(0), x, f->getArg(2), Mf});
    return Mf;
  };
  // The dynamics and the solve of M q'' = f (with constraints, of the
  // first-kind equations), shared by rhs, multipliers and outputs.
  struct Solution {
    llvm::Value *status;
    std::vector<llvm::Value *> qdd, lambda;
  };
  auto solve = [&](llvm::Function *f) -> Solution {
    llvm::Value *Mf = callDynamics(f, f->getArg(1));
    llvm::Value *y = b.CreateConstInBoundsGEP1_64(b.getDoubleTy(), Mf, n * n);
    llvm::Value *status = nullptr;
    if (m > 0) {
      llvm::Value *qdd = buffer(f, n), *lambda = buffer(f, m);
      status = e.solveConstrainedLoops(n, m, Mf, qdd, lambda);
      Solution solution{status, {}, {}};
      for (size_t j = 0; j < n; ++j)
        solution.qdd.push_back(e.load(qdd, j));
      for (size_t i = 0; i < m; ++i)
        solution.lambda.push_back(e.load(lambda, i));
      return solution;
    }
    if (n <= kUnrolledSolveLimit) {
      std::vector<llvm::Value *> M(n * n), rhs(n);
      for (size_t i = 0; i < n * n; ++i)
        M[i] = e.load(Mf, i);
      for (size_t j = 0; j < n; ++j)
        rhs[j] = e.load(y, j);
      status = e.solveUnrolled(n, M, rhs);
      return {status, rhs, {}};
    }
    status = e.solveLoops(n, Mf, y);
    std::vector<llvm::Value *> qdd(n);
    for (size_t j = 0; j < n; ++j)
      qdd[j] = e.load(y, j);
    return {status, qdd, {}};
  };

  // mech_mass_matrix(t, q, p, M): reads only q.
  {
    llvm::Function *f = e.kernel("mech_mass_matrix");
    llvm::Value *x = buffer(f, 2 * n);
    for (size_t j = 0; j < n; ++j) {
      e.store(e.load(f->getArg(1), j), x, j);
      e.store(e.constant(0), x, n + j);
    }
    llvm::Value *Mf = callDynamics(f, x);
    for (size_t i = 0; i < n * n; ++i)
      e.store(e.load(Mf, i), f->getArg(3), i);
    e.ret(b.getInt32(0));
  }
  // mech_forcing(t, x, p, f)
  {
    llvm::Function *f = e.kernel("mech_forcing");
    llvm::Value *Mf = callDynamics(f, f->getArg(1));
    for (size_t j = 0; j < n; ++j)
      e.store(e.load(Mf, n * n + j), f->getArg(3), j);
    e.ret(b.getInt32(0));
  }
  // mech_rhs(t, x, p, xdot)
  {
    llvm::Function *f = e.kernel("mech_rhs");
    Solution solution = solve(f);
    for (size_t j = 0; j < n; ++j) {
      e.store(e.load(f->getArg(1), n + j), f->getArg(3), j);
      e.store(solution.qdd[j], f->getArg(3), n + j);
    }
    e.ret(solution.status);
  }
  // mech_multipliers(t, x, p, lambda): one per constraint
  {
    llvm::Function *f = e.kernel("mech_multipliers");
    llvm::Value *status = b.getInt32(0);
    if (m > 0) {
      Solution solution = solve(f);
      for (size_t i = 0; i < m; ++i)
        e.store(solution.lambda[i], f->getArg(3), i);
      status = solution.status;
    }
    e.ret(status);
  }
  // mech_constraints(t, x, p, out): Phi (m), psi (m), C (m*n)
  {
    llvm::Function *f = e.kernel("mech_constraints");
    Inputs in{np, n, f->getArg(0), f->getArg(1), f->getArg(2), {}, {}};
    auto values =
        e.emit(programs.residuals, all(programs.residuals.outputs().size()), inputFor(in));
    for (size_t i = 0; i < values.size(); ++i)
      e.store(values[i], f->getArg(3), i);
    e.ret(b.getInt32(0));
  }
  // mech_energy(t, x, p, out): T, V
  {
    llvm::Function *f = e.kernel("mech_energy");
    Inputs in{np, n, f->getArg(0), f->getArg(1), f->getArg(2), {}, {}};
    auto values = e.emit(programs.energy, {0, 1}, inputFor(in));
    e.store(values[0], f->getArg(3), 0);
    e.store(values[1], f->getArg(3), 1);
    e.ret(b.getInt32(0));
  }
  // mech_outputs(t, x, p, out): may use q''
  {
    llvm::Function *f = e.kernel("mech_outputs");
    size_t count = programs.outputs.outputs().size();
    llvm::Value *status = b.getInt32(0);
    if (count > 0) {
      Solution solution = solve(f);
      status = solution.status;
      Inputs in{np, n, f->getArg(0), f->getArg(1), f->getArg(2), solution.qdd, solution.lambda};
      auto values = e.emit(programs.outputs, all(count), inputFor(in));
      for (size_t i = 0; i < count; ++i)
        e.store(values[i], f->getArg(3), i);
    }
    e.ret(status);
  }
  // mech_momentum_force(t, x, p, out): dL/dq' (n), then dL/dq + Q^nc (n);
  // only the variational integrator needs it.
  if (selection.momentumForce) {
    llvm::Function *f = e.kernel("mech_momentum_force");
    Inputs in{np, n, f->getArg(0), f->getArg(1), f->getArg(2), {}, {}};
    auto values = e.emit(programs.momentumForce, all(2 * n), inputFor(in));
    for (size_t i = 0; i < values.size(); ++i)
      e.store(values[i], f->getArg(3), i);
    e.ret(b.getInt32(0));
  }
  return module;
}

class CompiledKernels : public mechanics::Kernels {
public:
  using Fn = int (*)(double, const double *, const double *, double *);
  std::unique_ptr<Jit> jit;
  Fn massMatrix_ = nullptr, forcing_ = nullptr, rhs_ = nullptr, energy_ = nullptr,
     outputs_ = nullptr, momentumForce_ = nullptr, multipliers_ = nullptr, constraints_ = nullptr;

  int massMatrix(double t, const double *q, const double *p, double *M) override {
    return massMatrix_(t, q, p, M);
  }
  int forcing(double t, const double *x, const double *p, double *f) override {
    return forcing_(t, x, p, f);
  }
  int rhs(double t, const double *x, const double *p, double *xdot) override {
    return rhs_(t, x, p, xdot);
  }
  int energy(double t, const double *x, const double *p, double *TV) override {
    return energy_(t, x, p, TV);
  }
  int outputs(double t, const double *x, const double *p, double *out) override {
    return outputs_(t, x, p, out);
  }
  int momentumForce(double t, const double *x, const double *p, double *out) override {
    return momentumForce_ ? momentumForce_(t, x, p, out) : mechanics::kStatusKernelNotCompiled;
  }
  int multipliers(double t, const double *x, const double *p, double *lambda) override {
    return multipliers_(t, x, p, lambda);
  }
  int constraints(double t, const double *x, const double *p, double *out) override {
    return constraints_(t, x, p, out);
  }
};

bool verify(llvm::Module &module, std::string &error) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  if (llvm::verifyModule(module, &stream)) {
    error = "internal compiler error: invalid LLVM IR: " + stream.str();
    return false;
  }
  return true;
}

// This build of mech: its version and the size and time of its executable,
// so that a rebuilt code generator never reuses another build's objects.
std::string buildIdentity() {
  std::string identity = "mech " MECH_VERSION;
  struct stat info;
  if (stat("/proc/self/exe", &info) == 0)
    identity += "; " + std::to_string(info.st_size) + " bytes; modified " +
                std::to_string(info.st_mtim.tv_sec) + "." + std::to_string(info.st_mtim.tv_nsec);
  return identity;
}

std::string irText(const llvm::Module &module) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  module.print(stream, nullptr);
  return stream.str();
}

// Object code for the module, from the cache when it holds it.
std::string objectCode(Jit &jit, llvm::Module &module, const ObjectCache *cache, bool &hit,
                       std::string &error) {
  hit = false;
  std::string key;
  if (cache != nullptr) {
    jit.prepare(module);
    key = sha256Hex(buildIdentity() + "\n" + jit.targetDescription() + "\n" + irText(module));
    if (std::optional<std::string> object = cache->load(key)) {
      hit = true;
      return *object;
    }
  }
  std::string object = jit.emitObject(module, error);
  if (cache != nullptr && !object.empty())
    cache->store(key, object);
  return object;
}

} // namespace

std::unique_ptr<mechanics::Kernels> compileKernels(const KernelPrograms &programs,
                                                   std::string &error,
                                                   const CompileOptions &options, bool *cacheHit) {
  auto kernels = std::make_unique<CompiledKernels>();
  kernels->jit = Jit::create(error);
  if (!kernels->jit)
    return nullptr;
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module =
      emitModule(programs, context, KernelSelection{options.momentumForce});
  if (!verify(*module, error))
    return nullptr;
  bool hit = false;
  std::string object = objectCode(*kernels->jit, *module, options.cache, hit, error);
  if (cacheHit != nullptr)
    *cacheHit = hit;
  if (object.empty() || !kernels->jit->addObject(object, error))
    return nullptr;
  auto lookup = [&](const char *name) {
    return reinterpret_cast<CompiledKernels::Fn>(kernels->jit->lookup(name, error));
  };
  kernels->massMatrix_ = lookup("mech_mass_matrix");
  kernels->forcing_ = lookup("mech_forcing");
  kernels->rhs_ = lookup("mech_rhs");
  kernels->energy_ = lookup("mech_energy");
  kernels->outputs_ = lookup("mech_outputs");
  kernels->multipliers_ = lookup("mech_multipliers");
  kernels->constraints_ = lookup("mech_constraints");
  if (options.momentumForce && !(kernels->momentumForce_ = lookup("mech_momentum_force")))
    return nullptr;
  if (!kernels->massMatrix_ || !kernels->forcing_ || !kernels->rhs_ || !kernels->energy_ ||
      !kernels->outputs_ || !kernels->multipliers_ || !kernels->constraints_)
    return nullptr;
  kernels->coordinates = programs.coordinates;
  kernels->constraintCount = programs.constraints;
  kernels->params = programs.params;
  kernels->outputCount = programs.outputs.outputs().size();
  return kernels;
}

std::string kernelsIr(const KernelPrograms &programs, std::string &error) {
  std::unique_ptr<Jit> jit = Jit::create(error);
  if (!jit)
    return "";
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module =
      emitModule(programs, context, KernelSelection{/*momentumForce=*/true});
  if (!verify(*module, error))
    return "";
  jit->optimize(*module);
  std::string text;
  llvm::raw_string_ostream stream(text);
  module->print(stream, nullptr);
  return stream.str();
}

} // namespace mech::jit
