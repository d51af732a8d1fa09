// The runtime's projection onto the constraints (runtime/
// ConstraintProjection.h) on a model's compiled kernels, and the reports of
// constraint trouble in the model's names: redundant multipliers and why a
// solve failed.
#pragma once

#include "mechanics/Kernels.h"
#include "runtime/ConstraintProjection.h"

#include <string>
#include <vector>

namespace mech::mechanics {

using runtime::dependentConstraints;
using runtime::ProjectionResult;

// A model's kernels with its param values, as the projection sees them.
class KernelSystem : public runtime::ConstrainedSystem {
public:
  KernelSystem(Kernels &kernels, const std::vector<double> &params, std::vector<bool> holonomic)
      : kernels_(kernels), params_(params), holonomic_(std::move(holonomic)) {}
  size_t coordinates() const override;
  size_t constraintCount() const override;
  bool holonomic(size_t i) const override;
  void constraints(double t, const double *x, double *out) override;
  void massMatrix(double t, const double *x, double *M) override;
  void forcing(double t, const double *x, double *f) override;

private:
  Kernels &kernels_;
  const std::vector<double> &params_;
  std::vector<bool> holonomic_;
};

// runtime::ConstraintProjector on the kernels (see there for what each
// projection keeps); `holonomic` flags the constraints (holonomicFlags).
class ConstraintProjector {
public:
  ConstraintProjector(Kernels &kernels, const std::vector<double> &params,
                      std::vector<bool> holonomic);

  double residual(double t, const double *x) { return projector_.residual(t, x); }
  ProjectionResult projectPositions(double t, double *x,
                                    const std::vector<std::vector<bool>> &preferences = {},
                                    bool orNoneKept = true) {
    return projector_.projectPositions(t, x, preferences, orNoneKept);
  }
  ProjectionResult projectVelocities(double t, double *x,
                                     const std::vector<std::vector<bool>> &preferences = {},
                                     bool orNoneKept = true) {
    return projector_.projectVelocities(t, x, preferences, orNoneKept);
  }
  // Positions, then velocities: the projection after a step
  // (runtime::ConstraintProjector::projectAlongRun). False when it fails.
  bool project(double t, double *x) { return projector_.projectAlongRun(t, x).ok; }
  // An output sample x at t (2n values), which the dense output puts off the
  // constraints by the local error: a copy in `buffer` projected onto them,
  // or x itself when it is on them or the projection fails. `before` gets
  // the residual of x.
  const double *onConstraints(double t, const double *x, std::vector<double> &buffer,
                              double &before);

private:
  KernelSystem system_;
  runtime::ConstraintProjector projector_;
};

// The constraints whose rows of C (m*n, row-major) are dependent at the
// state, quoted and listed ("'c1', 'c2' and 'c3'"), or "".
std::string redundantConstraints(const Equations &equations, const double *C);

// Which split of a unique reaction C^T lambda among redundant constraints a
// report shows: the least-norm one (the statics and linearize), or the one
// in which the rows that the pivoted factorization of the Schur complement
// finds dependent carry nothing (the equations of motion's solve,
// runtime::solveConstrained).
enum class MultiplierSplit { LeastNorm, Pivoted };

// For reports of multipliers: a note when the constraints are redundant at
// the state (dependent rows of C, m*n row-major), else "". Only C^T lambda
// is determined then, and the multipliers shown are the `split`.
std::string redundantMultipliersNote(const Equations &equations, const double *C,
                                     MultiplierSplit split = MultiplierSplit::LeastNorm);

// Per constraint, whether it is holonomic (the projector's positions step).
std::vector<bool> holonomicFlags(const Equations &equations);

// Why solving the equations failed with `status`, given M (n*n) and C (m*n)
// at the state, with `when` ("at t = 2.5") after the headline: "mass matrix
// is singular at t = 2.5: coordinate 'phi' has no inertia", "constraints 'a'
// and 'b' are redundant or conflicting at t = 0 (...)".
std::string describeSolveFailure(const Equations &equations, int status, const double *M,
                                 const double *C, const std::string &when);

} // namespace mech::mechanics
