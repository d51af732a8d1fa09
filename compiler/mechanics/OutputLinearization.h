// The output rows of a linearization's state space, x' = A x + B u,
// y = C x + D u: C = dy/dx and D = dy/du for the model's outputs, over A's
// state (q and q' without constraints; the independent coordinates and
// speeds with them). An output may read accelerations and multipliers;
// they move with the state and the inputs too, so
//   C = y_q Tq + y_q' Tq' + y_q'' Tq'' + y_lambda Tlambda,
//   D = y_u + y_q'' Xu + y_lambda Lu,
// where T* are the sensitivities of q, q', q'' and lambda to A's state and
// Xu, Lu those of q'' and lambda to the inputs. The partials of y are
// symbolic (one CSE'd program); the sensitivities come from the same
// solves that made A and B.
#pragma once

#include "mechanics/ConstrainedLinearization.h"
#include "mechanics/Evaluation.h"
#include "mechanics/Lagrange.h"
#include "mechanics/Linearization.h"
#include "symbolic/Program.h"

#include <optional>
#include <string>
#include <vector>

namespace mech::mechanics {

// How q, q', q'' and the multipliers move with A's state (columns) and q''
// and the multipliers with the inputs: n, n, n and m rows.
struct StateSensitivities {
  Matrix q, qd, qdd, lambda;
  Matrix qddInputs, lambdaInputs;      // n x inputs, m x inputs
  std::vector<double> qddAt, lambdaAt; // q'' and the multipliers at the state
};

// For a model without constraints, from A over (q, q'): q'' moves as A's
// lower rows, and with the inputs as M X = df/du gives. Nullopt when A was not formed (M singular).
std::optional<StateSensitivities> freeSensitivities(const LinearSample &sample, const Matrix &A);
// For a constrained model, from its reduced linearization (which holds the
// state's maps) and the sample (M, C, F for the inputs). Nullopt when the
// first-kind matrix is singular.
std::optional<StateSensitivities> constrainedSensitivities(const LinearSample &sample,
                                                           const ReducedLinearization &reduced);

class OutputLinearizer {
public:
  OutputLinearizer(const Equations &equations, std::vector<double> params);
  // C (outputs x states) and D (outputs x inputs) at `state`.
  std::pair<Matrix, Matrix> at(const State &state, const StateSensitivities &s) const;

private:
  const Equations &equations_;
  std::vector<double> params_;
  size_t n_ = 0, m_ = 0, inputs_ = 0;
  InputLayout layout_;
  // Per output: dy/dq, dy/dq', dy/dq'' (n each), dy/dlambda (m), dy/du.
  sym::Program partials_;
};

} // namespace mech::mechanics
