// The numeric kernels of a model, x = (q, q') throughout, with a plain C
// signature over double arrays. Two back ends implement them: the
// interpreter (InterpretedKernels, over the CSE'd programs) and the LLVM JIT
// (jit/CompiledModel). Each returns 0, or 1 when the mass matrix is not
// positive definite at the state (2: a kernel the JIT was not asked for).
#pragma once

#include "mechanics/Lagrange.h"
#include "symbolic/Program.h"

#include "runtime/AugmentedSolve.h"
#include "runtime/DenseSolve.h"
#include "runtime/EnvelopeSolve.h"

#include <memory>
#include <vector>

namespace mech::mechanics {

inline constexpr int kStatusOk = runtime::kSolveOk;
inline constexpr int kStatusSingularMassMatrix = runtime::kSolveSingular;
inline constexpr int kStatusKernelNotCompiled = 2;
// The constraint Jacobian C has dependent rows at the state.
inline constexpr int kStatusRedundantConstraints = runtime::kSolveRedundant;
// A reaction row's force does not grow with its acceleration (Kernels::culprit).
inline constexpr int kStatusInconsistentReactions = runtime::kSolveInconsistent;

class Kernels {
public:
  virtual ~Kernels() = default;
  virtual int massMatrix(double t, const double *q, const double *p, double *M) = 0; // n*n
  virtual int forcing(double t, const double *x, const double *p, double *f) = 0;    // n
  virtual int rhs(double t, const double *x, const double *p, double *xdot) = 0;     // 2n
  virtual int energy(double t, const double *x, const double *p, double *TV) = 0;    // T, V
  virtual int outputs(double t, const double *x, const double *p, double *out) = 0;
  // The momenta dL/dq' (n), then the forces dL/dq + Q^nc (n).
  virtual int momentumForce(double t, const double *x, const double *p, double *out) = 0;
  // With constraints: the multipliers (one per constraint), and the
  // residuals Phi (0 for nonholonomic constraints), psi and the rows of C.
  virtual int multipliers(double t, const double *x, const double *p, double *lambda) = 0;
  virtual int constraints(double t, const double *x, const double *p, double *out) = 0;
  // The parts of the state Jacobian dF/dx (mechanics/StateJacobian.h): M
  // (n*n) and C (m*n), W (m*n) with reactions, then dr/dq and dr/dq'
  // ((n+m)*n each, row-major) of the residual r = (f + W^T lambda - M q'',
  // gamma - C q'') (W = C without reactions) with q'' and
  // lambda held at their solved values. kStatusKernelNotCompiled unless the
  // programs have the Jacobian (KernelPrograms::addJacobian) and the back
  // end compiled it.
  virtual int jacobianParts(double, const double *, const double *, double *) {
    return kStatusKernelNotCompiled;
  }
  size_t coordinates = 0, params = 0, outputCount = 0, constraintCount = 0;
  // After kStatusInconsistentReactions: the constraint whose force has no
  // unique value.
  virtual size_t inconsistentConstraint() const { return 0; }
  // Some multipliers act along a reaction W other than C (KernelPrograms::
  // reactionRows).
  bool hasReactions = false;
};

// The programs every back end compiles: M (row-major) and f together, T and
// V, the outputs (which may use q'', taken from the solution of M q'' = f),
// and the momenta with the forces.
struct KernelPrograms {
  size_t coordinates = 0, params = 0, constraints = 0;
  // n*n entries of M, n of f, then m*n of C (by rows) and m of gamma, then
  // with reactions m*n of W (by rows).
  sym::Program dynamics;
  // The constraints whose multipliers act along a reaction other than C
  // (mechanics::Equations::Constraint::reaction): the JIT does not compile
  // such programs, the interpreter solves them with their consistency
  // check (runtime::solveWithReactions).
  std::vector<size_t> reactionRows;
  // A sparse M (and C) of many coordinates, no reactions: the plan of the
  // envelope solve (runtime/EnvelopeSolve.h) that both back ends use in
  // place of the dense one; empty otherwise.
  std::vector<int32_t> envelopePlan;
  // Solve by the augmented Lagrangian iteration (runtime/AugmentedSolve.h,
  // `--constraints augmented`) instead of the Schur complement; not with
  // reactions.
  bool augmentedSolve = false;
  sym::Program energy; // T, V
  sym::Program outputs;
  sym::Program momentumForce; // n momenta, then n forces
  sym::Program residuals;     // m of Phi, m of psi, m*n of C
  // dr/dq and dr/dq' of the residual of the first-kind equations (see
  // Kernels::jacobianParts); empty until addJacobian, which only the
  // implicit integrators need (it differentiates f and M once more).
  sym::Program jacobian;
  bool hasJacobian = false;
  void addJacobian(const Equations &equations);
  // With cheaperForms, M and f are computed from their display forms where
  // those take fewer operations (small programs only; Kernels.cpp).
  static KernelPrograms build(const Equations &equations, size_t params, bool cheaperForms = true);
};

// The dense solves live in runtime/ (runtime/DenseSolve.h).
using runtime::constraintScale;
using runtime::kDependentRowTolerance;
using runtime::kPivotTolerance;
using runtime::kSchurRefinements;
using runtime::kSchurRegularization;
using runtime::kSchurTolerance;
using runtime::solveConstrained;
using runtime::solveLdlt;

std::unique_ptr<Kernels> interpretedKernels(const KernelPrograms &programs);

// The coordinates whose row of M (n*n, row-major) vanishes: they have no
// inertia. Empty when every row has an entry.
std::vector<std::string> coordinatesWithoutInertia(const double *M,
                                                   const std::vector<std::string> &names);
// ": coordinate 'phi' has no inertia" (or the plural), or "" when none.
std::string describeMissingInertia(const std::vector<std::string> &coordinates);

// Why the mass matrix M (n*n, row-major) cannot be solved with, `when`
// ("at this state") placed after its subject: an entry that is not finite
// ("the mass matrix is not finite at this state (M[x,x] = inf)"), a
// direction of negative kinetic energy ("... is not positive definite at
// this state: the kinetic energy is negative for x' = 1, y' = -0.5"), or
// the coordinates without inertia. With m constraints (C row-major m*n,
// may be null when m = 0) only the directions they allow count.
// A velocity along which the kinetic energy q'^T M q' / 2 is negative,
// within the directions m constraints allow (C row-major m*n, null when
// m = 0), as "x' = 1, y' = -0.5" (largest component 1); "" when none.
std::string negativeEnergyDirection(const double *M, const double *C, size_t m,
                                    const std::vector<std::string> &names);
std::string describeMassMatrixFault(const double *M, const double *C, size_t m,
                                    const std::vector<std::string> &names, const std::string &when);

} // namespace mech::mechanics
