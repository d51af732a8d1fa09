// The IR emitter of the kernels: an IRBuilder that writes one llvm::Value
// per instruction of a CSE'd program (sin and cos of one argument from one
// sincos call), and the linear algebra the kernels need around it (LDL^T
// unrolled or in loops, the first-kind KKT solve). Each operation is the
// interpreter's, in its order and without contraction into FMA, so that
// both back ends give the same bits.
#pragma once

#include "jit/CompiledModel.h"
#include "symbolic/Program.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace mech::jit {

class Emitter {
public:
  Emitter(llvm::LLVMContext &context, llvm::Module &module,
          size_t segmentSize = kSegmentInstructions)
      : context_(context), module_(module), b_(context), segmentSize_(segmentSize) {
    // No fast-math flags, not even FMA contraction: the kernels round as
    // the interpreter does, bit for bit (BackendTest).
  }

  llvm::Type *f64() { return b_.getDoubleTy(); }
  llvm::Type *ptr() { return b_.getPtrTy(); }
  llvm::Value *constant(double v) { return llvm::ConstantFP::get(f64(), v); }

  // int name(double t, const double *a, const double *p, double *out)
  llvm::Function *kernel(const std::string &name);

  llvm::Value *load(llvm::Value *base, size_t index) {
    return b_.CreateLoad(f64(), b_.CreateConstInBoundsGEP1_64(f64(), base, index));
  }
  void store(llvm::Value *value, llvm::Value *base, size_t index) {
    b_.CreateStore(value, b_.CreateConstInBoundsGEP1_64(f64(), base, index));
  }

  // Emits `program` with its inputs from `input` and stores its outputs to
  // out[offset], out[offset + 1], ...
  void emitOutputs(const sym::Program &program, const std::function<llvm::Value *(uint32_t)> &input,
                   llvm::Value *out, size_t offset = 0);

  // x^k for k >= 0 by repeated squaring in straight-line code (as
  // sym::integerPower).
  llvm::Value *integerPower(llvm::Value *x, int k);

  llvm::Value *unaryIntrinsic(llvm::Intrinsic::ID id, llvm::Value *x) {
    return b_.CreateUnaryIntrinsic(id, x);
  }

  llvm::Value *libm(const char *name, std::vector<llvm::Value *> args);

  std::pair<llvm::Value *, llvm::Value *> sincos(llvm::Value *x);

  llvm::Value *function(sym::Fn fn, llvm::Value *x, llvm::Value *y);

  llvm::Value *ret(llvm::Value *status) {
    b_.CreateRet(status);
    return status;
  }

  // Unrolled LDL^T solve of M y = f; returns the status (0 or 1) as i32.
  llvm::Value *solveUnrolled(size_t n, std::vector<llvm::Value *> M, std::vector<llvm::Value *> &y);

  // for (i = from; i < to; ++i) body(i), with i64 induction.
  void loop(llvm::Value *from, llvm::Value *to, const std::function<void(llvm::Value *)> &body);

  llvm::Value *at(llvm::Value *base, llvm::Value *index);
  llvm::Value *element(llvm::Value *base, llvm::Value *row, llvm::Value *column, size_t n);

  // LDL^T in place of the n*n matrix A in memory (row-major); the status
  // (i32 1) when a pivot is not above relativeTolerance times the largest
  // diagonal entry. Mirrors runtime::solveLdlt.
  llvm::Value *factorLoops(size_t n, llvm::Value *A, double relativeTolerance);

  // runtime::constraintScale of M (n*n) and C (m*n) in memory.
  llvm::Value *constraintScaleLoops(size_t n, size_t m, llvm::Value *M, llvm::Value *C);
  // S mu = r (r in place) for the Schur complement S (m*m in memory), as
  // runtime::solveRegularizedSchur solves it.
  void regularizedSchurLoops(size_t m, llvm::Value *S, llvm::Value *r);
  // runtime::factorPivotedLdlt (`order` n i64s; `dependentRows` n doubles
  // get 1 for a dependent row, else 0); *a and *b of `type` exchanged; count
  // doubles copied.
  void factorPivotedLoops(size_t n, llvm::Value *A, llvm::Value *order, double relativeTolerance,
                          llvm::Value *dependentRows);
  void swapSlots(llvm::Type *type, llvm::Value *a, llvm::Value *b);
  void copyLoops(size_t count, llvm::Value *from, llvm::Value *to);
  // The largest diagonal entry of A (n*n in memory), or of its magnitude.
  llvm::Value *largestDiagonalLoops(size_t n, llvm::Value *A, bool magnitude);

  // Forward substitution, diagonal, back substitution with a factored A; y
  // (n doubles in memory) in place.
  void substituteLoops(size_t n, llvm::Value *A, llvm::Value *y);

  // LDL^T solve of M y = f with loops over memory; M overwritten.
  llvm::Value *solveLoops(size_t n, llvm::Value *M, llvm::Value *y);

  // The first-kind equations from the buffer M (n*n), f (n), C (m*n),
  // gamma (m), as runtime::solveConstrained (read that for the method);
  // q'' into qdd and the multipliers into lambda (memory). Returns the
  // status: 0 or kStatusSingularMassMatrix.
  llvm::Value *solveConstrainedLoops(size_t n, size_t m, llvm::Value *Mf, llvm::Value *qdd,
                                     llvm::Value *lambda);

  // Stack memory in the current function's entry block.
  llvm::Value *stackSlot(llvm::Type *type, size_t count = 1);
  llvm::Value *offset(llvm::Value *base, size_t index) {
    return b_.CreateConstInBoundsGEP1_64(f64(), base, index);
  }

  llvm::IRBuilder<> &builder() { return b_; }

private:
  friend class SegmentedProgram;
  // Instruction argument -> (sin, cos) instructions of it, -1 where absent.
  using SincosPairs = std::map<uint32_t, std::pair<long, long>>;
  // Which instructions the given outputs depend on.
  static std::vector<bool> neededInstructions(const sym::Program &program);
  // The sin/cos pairs among the needed instructions.
  static SincosPairs sincosPairs(const sym::Program &program, const std::vector<bool> &needed);
  void emitInstruction(const sym::Program &program, size_t i, const SincosPairs &trig,
                       std::vector<llvm::Value *> &v, std::map<size_t, llvm::Value *> &inverses,
                       const std::function<llvm::Value *(uint32_t)> &input);
  // Whether the needed instructions are many enough to be split into
  // functions, and free of matrix functions (whose inverses live in the
  // function that factors them).
  bool segmentable(const sym::Program &program, const std::vector<bool> &needed) const;
  // emitOutputs, with the instructions in a chain of functions that
  // exchange the values crossing them through a scratch array in the
  // caller's frame and store the outputs they define.
  void emitSegmented(const sym::Program &program, const std::vector<bool> &needed,
                     const std::function<llvm::Value *(uint32_t)> &input, llvm::Value *out,
                     size_t offset);
  // The instructions of emit, one member per kind that takes more than a line.
  llvm::Value *emitSum(const sym::Instruction &instr, const sym::Operand *o,
                       const std::vector<llvm::Value *> &v);
  llvm::Value *emitProduct(const sym::Instruction &instr, const sym::Operand *o,
                           const std::vector<llvm::Value *> &v);
  void emitFunction(const sym::Instruction &instr, const sym::Operand *o, const SincosPairs &trig,
                    std::vector<llvm::Value *> &v, size_t i);
  // A packed matrix (factored once: its determinant, its inverse kept in
  // `inverses` under its instruction), its det, or an entry of its inverse.
  llvm::Value *emitMatrixFunction(const std::vector<sym::Instruction> &code, const sym::Operand *o,
                                  size_t i, const std::vector<llvm::Value *> &v,
                                  std::map<size_t, llvm::Value *> &inverses);
  // Gauss-Jordan with partial pivoting of the n*n matrix A in memory
  // (overwritten), its inverse into `inverse`; returns the determinant.
  // Mirrors sym::invertDense.
  llvm::Value *invertLoops(size_t n, llvm::Value *A, llvm::Value *inverse);

  llvm::LLVMContext &context_;
  llvm::Module &module_;
  llvm::IRBuilder<> b_;
  size_t segmentSize_;
};

} // namespace mech::jit
