// Assembling the kernels from the programs: inputs mapped to arguments,
// the shared dynamics function, the solves, the stores of the results.
#include "jit/KernelModule.h"

#include "jit/CompiledModel.h"
#include "jit/Emitter.h"
#include "mechanics/Evaluation.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>

namespace mech::jit {

using mechanics::InputLayout;
using mechanics::KernelPrograms;

namespace {

// The values of a program's inputs in one kernel, in the layout the
// programs were built with (KernelPrograms::build): params from p, q and q'
// from x = (q, q'), t, and q'' and the multipliers once solved.
struct KernelInputs {
  llvm::Value *t, *x, *p;
  std::vector<llvm::Value *> qdd;    // set once solved
  std::vector<llvm::Value *> lambda; // likewise
};

// q'' and the multipliers from the solve of M q'' = f (with constraints, of
// the first-kind equations), and its status.
struct Solution {
  llvm::Value *status;
  std::vector<llvm::Value *> qdd, lambda;
};

// Emits the kernels of one module, in the order the module lists them; each
// kernel is a member, around the shared dynamics function and solve.
class ModuleEmitter {
public:
  ModuleEmitter(const KernelPrograms &programs, llvm::LLVMContext &context, llvm::Module &module,
                size_t segmentSize)
      : programs_(programs), e_(context, module, segmentSize), b_(e_.builder()),
        n_(programs.coordinates), m_(programs.constraints),
        dynamicsSize_(n_ * n_ + n_ + m_ * n_ + m_), layout_{programs.params, programs.coordinates,
                                                            programs.constraints} {}

  void emit(KernelSelection selection) {
    envelope_ = selection.hostSolves && !programs_.envelopePlan.empty();
    augmented_ = selection.hostSolves && programs_.augmentedSolve;
    dynamicsFunction();
    massMatrixKernel();
    forcingKernel();
    rhsKernel();
    multipliersKernel();
    constraintsKernel();
    energyKernel();
    outputsKernel();
    // Only the variational integrator needs it.
    if (selection.momentumForce)
      momentumForceKernel();
    if (selection.jacobian)
      jacobianPartsKernel();
  }

private:
  // The value of input `index` of a program; q'' and the multipliers are 0
  // in kernels that do not solve for them.
  llvm::Value *inputValue(const KernelInputs &in, uint32_t index) {
    if (index < layout_.params)
      return e_.load(in.p, index);
    if (index < layout_.time()) {
      size_t k = index - layout_.params; // q, q', q'', n of each
      if (k < 2 * layout_.coordinates)
        return e_.load(in.x, k);
      return in.qdd.empty() ? e_.constant(0) : in.qdd[k - 2 * layout_.coordinates];
    }
    if (index == layout_.time())
      return in.t;
    return in.lambda.empty() ? e_.constant(0) : in.lambda[index - layout_.multiplier(0)];
  }

  std::function<llvm::Value *(uint32_t)> inputs(const KernelInputs &in) {
    return [this, &in](uint32_t index) { return inputValue(in, index); };
  }

  // The inputs of a kernel (t, x, p, out) that solves nothing.
  static KernelInputs argumentInputs(llvm::Function *f) {
    return {f->getArg(0), f->getArg(1), f->getArg(2), {}, {}};
  }

  // The outputs of `program` at the kernel's arguments, stored to out.
  void storeProgram(llvm::Function *f, const sym::Program &program) {
    KernelInputs in = argumentInputs(f);
    e_.emitOutputs(program, inputs(in), f->getArg(3));
  }

  // A buffer in the current kernel's entry block.
  llvm::Value *buffer(llvm::Function *f, size_t size) {
    llvm::IRBuilder<> entry(&f->getEntryBlock(), f->getEntryBlock().begin());
    return entry.CreateAlloca(b_.getDoubleTy(), b_.getInt64(size));
  }

  llvm::Value *callDynamics(llvm::Function *f, llvm::Value *x) {
    llvm::Value *Mf = buffer(f, dynamicsSize_);
    b_.CreateCall(dynamics_, {f->getArg(0), x, f->getArg(2), Mf});
    return Mf;
  }

  // mech_dynamics(t, x, p, out): M (row-major), f, C, gamma. The one copy of
  // the largest program, called by the kernels below (and inlined into them
  // by the optimizer when it is small): code generation time grows faster
  // than linearly with the size of a function.
  void dynamicsFunction() {
    dynamics_ = e_.kernel("mech_dynamics");
    dynamics_->setLinkage(llvm::Function::InternalLinkage);
    storeProgram(dynamics_, programs_.dynamics);
    e_.ret(b_.getInt32(0));
  }

  // The dynamics and the solve, shared by rhs, multipliers and outputs:
  // in loops with constraints or many coordinates, unrolled otherwise.
  Solution solve(llvm::Function *f) { return solveWith(callDynamics(f, f->getArg(1))); }

  // The solve on dynamics already evaluated into Mf, which it overwrites.
  Solution solveWith(llvm::Value *Mf) {
    llvm::Function *f = b_.GetInsertBlock()->getParent();
    llvm::Value *y = b_.CreateConstInBoundsGEP1_64(b_.getDoubleTy(), Mf, n_ * n_);
    if (m_ > 0 || envelope_ || augmented_) {
      llvm::Value *qdd = buffer(f, n_);
      llvm::Value *lambda = m_ > 0 ? buffer(f, m_) : llvm::ConstantPointerNull::get(b_.getPtrTy());
      llvm::Value *status = augmented_  ? callAugmentedSolve(Mf, qdd, lambda)
                            : envelope_ ? callEnvelopeSolve(Mf, qdd, lambda)
                                        : e_.solveConstrainedLoops(n_, m_, Mf, qdd, lambda);
      Solution solution{status, {}, {}};
      for (size_t j = 0; j < n_; ++j)
        solution.qdd.push_back(e_.load(qdd, j));
      for (size_t i = 0; i < m_; ++i)
        solution.lambda.push_back(e_.load(lambda, i));
      return solution;
    }
    if (n_ <= kUnrolledSolveLimit) {
      std::vector<llvm::Value *> M(n_ * n_), rhs(n_);
      for (size_t i = 0; i < n_ * n_; ++i)
        M[i] = e_.load(Mf, i);
      for (size_t j = 0; j < n_; ++j)
        rhs[j] = e_.load(y, j);
      llvm::Value *status = e_.solveUnrolled(n_, M, rhs);
      return {status, rhs, {}};
    }
    llvm::Value *status = e_.solveLoops(n_, Mf, y);
    std::vector<llvm::Value *> qdd(n_);
    for (size_t j = 0; j < n_; ++j)
      qdd[j] = e_.load(y, j);
    return {status, qdd, {}};
  }

  // The runtime's envelope solve (runtime/EnvelopeSolve.h) with the model's
  // plan, a constant of the module: the interpreter calls the same function.
  llvm::Value *callEnvelopeSolve(llvm::Value *Mf, llvm::Value *qdd, llvm::Value *lambda) {
    llvm::Module &module = *b_.GetInsertBlock()->getModule();
    llvm::FunctionCallee solve = module.getOrInsertFunction(
        "mech_solve_constrained_envelope",
        llvm::FunctionType::get(
            b_.getInt32Ty(), {b_.getPtrTy(), b_.getPtrTy(), b_.getPtrTy(), b_.getPtrTy()}, false));
    return b_.CreateCall(solve, {envelopePlan(), Mf, qdd, lambda});
  }

  // The same with the augmented Lagrangian's solve (runtime/AugmentedSolve.h):
  // the plan, or null for the dense factorization.
  llvm::Value *callAugmentedSolve(llvm::Value *Mf, llvm::Value *qdd, llvm::Value *lambda) {
    llvm::Module &module = *b_.GetInsertBlock()->getModule();
    llvm::Type *ptr = b_.getPtrTy(), *i64 = b_.getInt64Ty();
    llvm::FunctionCallee solve = module.getOrInsertFunction(
        "mech_solve_constrained_augmented",
        llvm::FunctionType::get(b_.getInt32Ty(), {ptr, i64, i64, ptr, ptr, ptr}, false));
    llvm::Value *plan = programs_.envelopePlan.empty()
                            ? llvm::ConstantPointerNull::get(b_.getPtrTy())
                            : envelopePlan();
    return b_.CreateCall(solve, {plan, b_.getInt64(n_), b_.getInt64(m_), Mf, qdd, lambda});
  }

  // The model's envelope plan, a constant of the module.
  llvm::Value *envelopePlan() {
    if (!envelopePlan_) {
      llvm::Module &module = *b_.GetInsertBlock()->getModule();
      llvm::Constant *data = llvm::ConstantDataArray::get(
          module.getContext(), llvm::ArrayRef<int32_t>(programs_.envelopePlan));
      envelopePlan_ =
          new llvm::GlobalVariable(module, data->getType(), true, llvm::GlobalValue::PrivateLinkage,
                                   data, "mech_envelope_plan");
    }
    return envelopePlan_;
  }

  // mech_mass_matrix(t, q, p, M): reads only q, so the dynamics get x = (q, 0).
  void massMatrixKernel() {
    llvm::Function *f = e_.kernel("mech_mass_matrix");
    llvm::Value *x = buffer(f, 2 * n_);
    for (size_t j = 0; j < n_; ++j) {
      e_.store(e_.load(f->getArg(1), j), x, j);
      e_.store(e_.constant(0), x, n_ + j);
    }
    llvm::Value *Mf = callDynamics(f, x);
    e_.copyLoops(n_ * n_, Mf, f->getArg(3));
    e_.ret(b_.getInt32(0));
  }

  // mech_forcing(t, x, p, f)
  void forcingKernel() {
    llvm::Function *f = e_.kernel("mech_forcing");
    llvm::Value *Mf = callDynamics(f, f->getArg(1));
    e_.copyLoops(n_, e_.offset(Mf, n_ * n_), f->getArg(3));
    e_.ret(b_.getInt32(0));
  }

  // mech_rhs(t, x, p, xdot)
  void rhsKernel() {
    llvm::Function *f = e_.kernel("mech_rhs");
    Solution solution = solve(f);
    for (size_t j = 0; j < n_; ++j) {
      e_.store(e_.load(f->getArg(1), n_ + j), f->getArg(3), j);
      e_.store(solution.qdd[j], f->getArg(3), n_ + j);
    }
    e_.ret(solution.status);
  }

  // mech_multipliers(t, x, p, lambda): one per constraint
  void multipliersKernel() {
    llvm::Function *f = e_.kernel("mech_multipliers");
    llvm::Value *status = b_.getInt32(0);
    if (m_ > 0) {
      Solution solution = solve(f);
      for (size_t i = 0; i < m_; ++i)
        e_.store(solution.lambda[i], f->getArg(3), i);
      status = solution.status;
    }
    e_.ret(status);
  }

  // mech_constraints(t, x, p, out): Phi (m), psi (m), C (m*n)
  void constraintsKernel() {
    llvm::Function *f = e_.kernel("mech_constraints");
    storeProgram(f, programs_.residuals);
    e_.ret(b_.getInt32(0));
  }

  // mech_energy(t, x, p, out): T, V
  void energyKernel() {
    llvm::Function *f = e_.kernel("mech_energy");
    storeProgram(f, programs_.energy);
    e_.ret(b_.getInt32(0));
  }

  // mech_outputs(t, x, p, out): may use q''
  void outputsKernel() {
    llvm::Function *f = e_.kernel("mech_outputs");
    size_t count = programs_.outputs.outputs().size();
    llvm::Value *status = b_.getInt32(0);
    if (count > 0) {
      Solution solution = solve(f);
      status = solution.status;
      KernelInputs in{f->getArg(0), f->getArg(1), f->getArg(2), solution.qdd, solution.lambda};
      e_.emitOutputs(programs_.outputs, inputs(in), f->getArg(3));
    }
    e_.ret(status);
  }

  // mech_momentum_force(t, x, p, out): dL/dq' (n), then dL/dq + Q^nc (n)
  void momentumForceKernel() {
    llvm::Function *f = e_.kernel("mech_momentum_force");
    storeProgram(f, programs_.momentumForce);
    e_.ret(b_.getInt32(0));
  }

  // mech_jacobian_parts(t, x, p, out): M (n*n), C (m*n), then dr/dq and
  // dr/dq' ((n+m)*n each) at the solved q'' and multipliers.
  void jacobianPartsKernel() {
    llvm::Function *f = e_.kernel("mech_jacobian_parts");
    // M and C are stored before the solve overwrites them in place.
    llvm::Value *Mf = callDynamics(f, f->getArg(1));
    e_.copyLoops(n_ * n_, Mf, f->getArg(3));
    e_.copyLoops(m_ * n_, e_.offset(Mf, n_ * n_ + n_), e_.offset(f->getArg(3), n_ * n_));
    Solution solution = solveWith(Mf);
    KernelInputs in{f->getArg(0), f->getArg(1), f->getArg(2), solution.qdd, solution.lambda};
    e_.emitOutputs(programs_.jacobian, inputs(in), f->getArg(3), n_ * n_ + m_ * n_);
    e_.ret(solution.status);
  }

  const KernelPrograms &programs_;
  Emitter e_;
  llvm::IRBuilder<> &b_;
  size_t n_, m_, dynamicsSize_;
  // The order of the inputs, as KernelPrograms::build numbered them.
  InputLayout layout_;
  llvm::Function *dynamics_ = nullptr;
  // The constrained solve calls the runtime (KernelSelection::hostSolves).
  bool envelope_ = false, augmented_ = false;
  llvm::GlobalVariable *envelopePlan_ = nullptr;
};

} // namespace

std::unique_ptr<llvm::Module> emitModule(const KernelPrograms &programs, llvm::LLVMContext &context,
                                         KernelSelection selection, size_t segmentSize) {
  auto module = std::make_unique<llvm::Module>("mech_model", context);
  ModuleEmitter(programs, context, *module, segmentSize).emit(selection);
  return module;
}

} // namespace mech::jit
