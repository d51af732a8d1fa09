// Putting a state on the constraint manifold: positions onto Phi(q, t) = 0
// (holonomic constraints) by Gauss-Newton, velocities onto psi = C q' + ... = 0
// (every constraint) by one linear projection. Both changes are the smallest
// in the metric of the mass matrix, so that a correction moves the light
// coordinates rather than the heavy ones; the initial state additionally
// keeps the coordinates the user gave where the constraints allow. Used for
// the initial state (with a note, or an error under --strict-init) and
// after every step of a simulation, against drift. Purely numeric: the
// model is seen through ConstrainedSystem (mechanics adapts its compiled
// kernels to it).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace mech::runtime {

// What the projection reads of a model at (t, x = (q, q')).
class ConstrainedSystem {
public:
  virtual ~ConstrainedSystem() = default;
  virtual size_t coordinates() const = 0;
  virtual size_t constraintCount() const = 0;
  // Whether constraint i is holonomic (Phi(q, t) = 0 is a constraint).
  virtual bool holonomic(size_t i) const = 0;
  // Phi (m values, 0 for nonholonomic constraints), psi (m) and the rows
  // of C (m*n, row-major).
  virtual void constraints(double t, const double *x, double *out) = 0;
  virtual void massMatrix(double t, const double *x, double *M) = 0; // n*n
  virtual void forcing(double t, const double *x, double *f) = 0;    // n
};

struct ProjectionResult {
  bool ok = true;      // converged (dependent rows of C that agree are fine)
  double residual = 0; // max |Phi| and |psi| after the projection
  int iterations = 0;
};

class ConstraintProjector {
public:
  explicit ConstraintProjector(ConstrainedSystem &system);

  // The largest |Phi| (holonomic) and |psi| at x = (q, q').
  double residual(double t, const double *x);

  // Moves q (x's first half) onto Phi = 0. Each entry of `preferences`
  // marks coordinates to keep: they are tried in order (the first set whose
  // coordinates can stay while the others satisfy the constraints wins),
  // and then, when `orNoneKept`, none is kept (else the last set's failure
  // is the result: coordinates the user holds must stay).
  // When the start is degenerate (a constraint's gradient vanishes along
  // every free coordinate), the free coordinates are first nudged along the
  // generalized force at rest, i.e. downhill: a pendulum rod from y = 0 then
  // finds the hanging position.
  ProjectionResult projectPositions(double t, double *x,
                                    const std::vector<std::vector<bool>> &preferences = {},
                                    bool orNoneKept = true);
  // Moves q' onto psi = 0 for every constraint, keeping the velocities of
  // the first set of `preferences` that the constraints allow (marked by
  // coordinate, as for positions), else (when `orNoneKept`) the smallest
  // change of all.
  ProjectionResult projectVelocities(double t, double *x,
                                     const std::vector<std::vector<bool>> &preferences = {},
                                     bool orNoneKept = true);

  // Positions, then velocities, after a step of a run: as at the start,
  // but a residual that no step removes (near a singular position, rows of
  // C that are nearly dependent and disagree) is left for the next
  // projections rather than an error.
  ProjectionResult projectAlongRun(double t, double *x);

private:
  struct Linearization;
  // `alongRun`: leastChangeStep's, as projectAlongRun asks.
  ProjectionResult projectPositionsMoving(double t, double *x, const std::vector<bool> &frozen,
                                          bool alongRun = false);
  ProjectionResult projectVelocitiesMoving(double t, double *x, const std::vector<bool> &frozen,
                                           bool alongRun = false);
  // The rows in use (the holonomic ones for positions), their residuals and
  // scale; false when there are none. Then the metric: M, regularized when
  // singular.
  bool rowsAt(double t, const double *x, bool positions, Linearization &out);
  void metricAt(double t, const double *x, Linearization &out);
  // Coordinates that the projection moved by whole turns from `start` and
  // that the constraints allow back by whole turns (angles) are put back:
  // the assembly stays on the turn the user gave.
  void backOnTheirTurn(double t, double *x, const std::vector<double> &start);
  // |Phi| over the holonomic rows.
  double positionResidual(double t, const double *x);
  // q += the largest fraction 2^-k of `step` that lowers |Phi| below
  // `before` (k up to kMaxHalvings).
  void stepBack(double t, double *x, const double *step, double before);

  ConstrainedSystem &system_;
  std::vector<double> residuals_, M_;
};

// The names of the constraints whose rows of C (m*n, row-major) depend on
// the others: each dependent row with the rows it is a combination of.
std::vector<std::string> dependentConstraints(const double *C, size_t m, size_t n,
                                              const std::vector<std::string> &names);

} // namespace mech::runtime
