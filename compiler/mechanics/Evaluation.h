// Numeric evaluation of the derived equations at one state (`mech eval`):
// the interpreter runs the CSE'd program of T, V, Q, Q^nc, M and f, solves
// M q'' = f with Eigen's LDL^T (with constraints, the first-kind equations
// for q'' and the multipliers), then evaluates the outputs (which may use
// q'' and the multipliers). A singular mass matrix is a diagnostic naming
// the coordinates with no inertia; a model with no inertia at all evaluates
// with q'' undefined.
#pragma once

#include "mechanics/Lagrange.h"
#include "symbolic/Program.h"

#include <optional>
#include <string>
#include <vector>

namespace mech::mechanics {

struct State {
  double t = 0;
  std::vector<double> q, qd;
};

struct Evaluation {
  State state;
  std::optional<std::vector<double>> qdd;
  double T = 0, V = 0;
  std::vector<double> Q, Qnc, f;
  std::vector<std::vector<double>> M;
  std::vector<double> outputs;
  std::vector<std::string> notes;
  // With constraints: the multipliers, the generalized reaction C^T lambda
  // (per coordinate) and the residuals Phi (holonomic) or psi.
  std::vector<double> lambda, reaction, constraintResiduals;
};

// The layout of a program's inputs: params, q, q', q'', t, the multipliers.
struct InputLayout {
  size_t params = 0, coordinates = 0, multipliers = 0;
  int index(const sym::SymbolInfo &s) const;
  size_t time() const { return params + 3 * coordinates; }
  size_t multiplier(size_t i) const { return time() + 1 + i; }
  size_t size() const { return time() + 1 + multipliers; }
  // The inputs for params and a state (velocities missing from it are 0;
  // accelerations and multipliers 0).
  std::vector<double> inputs(const std::vector<double> &params, const State &state) const;
  // The same into `buffer` (of size()) for a state x = (q, q') at t, the
  // accelerations and multipliers left as they are; returns buffer's data.
  const double *fill(std::vector<double> &buffer, double t, const double *x,
                     const std::vector<double> &params) const;
};

// Names the non-finite values among those checked, so that a message can
// say which quantity the model does not define at a state instead of
// printing nan or inf as if it were a value: "V = nan, f[x] = nan".
class NonFiniteValues {
public:
  void check(const std::string &name, double value);
  // Each value named prefix[name] ("f[x]", "M[x,y]" with a two-part name).
  void check(const std::string &prefix, const std::vector<std::string> &names,
             const std::vector<double> &values);
  bool empty() const { return count_ == 0; }
  // The first few as "name = value", then "and N more".
  std::string text() const;

private:
  std::vector<std::string> shown_;
  size_t count_ = 0;
};

// The non-finite quantities of an evaluation (T, V, Q, Q^nc, f, M and the
// constraints' residuals), or "" when all are finite.
std::string nonFiniteQuantities(const Equations &equations, const Evaluation &e);

class Evaluator {
public:
  Evaluator(const Equations &equations, std::vector<double> params);

  // Reports a mass matrix that is singular, not positive definite or not
  // finite, and a model that is not finite at the state, at `where` and
  // returns nullopt.
  std::optional<Evaluation> at(const State &state, Diagnostics &diagnostics,
                               Location where = {}) const;

  const sym::Program &program() const { return program_; }

private:
  // The first-kind equations at the state whose program values are given
  // (C, gamma and the residual of each constraint from `at` on).
  std::optional<Evaluation> constrained(Evaluation &e, const std::vector<double> &values, size_t at,
                                        std::vector<double> &inputs, Diagnostics &diagnostics,
                                        Location where) const;
  void evaluateOutputs(Evaluation &e, std::vector<double> &inputs) const;
  // At rest with a mass matrix that cannot be solved (a weightless
  // mechanism): the multipliers from statics, with notes; q'' undefined.
  void staticReactions(Evaluation &e, const std::vector<double> &M, const std::vector<double> &C,
                       std::vector<double> &inputs) const;

  const Equations &equations_;
  std::vector<double> params_;
  InputLayout layout_;
  sym::Program program_, outputs_;
};

} // namespace mech::mechanics
