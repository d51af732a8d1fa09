// Assembling the kernels from the programs: inputs mapped to arguments,
// the shared dynamics function, the solves, the stores of the results.
#include "jit/KernelModule.h"

#include "jit/CompiledModel.h"
#include "jit/Emitter.h"

namespace mech::jit {

using mechanics::KernelPrograms;

namespace {

// Input index of a program (params, q, q', q'', t, multipliers) -> value
// in a kernel.
struct Inputs {
  size_t params, n;
  llvm::Value *t, *x, *p;
  std::vector<llvm::Value *> qdd;    // set once solved
  std::vector<llvm::Value *> lambda; // likewise
};

} // namespace

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

} // namespace mech::jit
