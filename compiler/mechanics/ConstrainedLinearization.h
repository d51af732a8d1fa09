// The linearization of a constrained model (holonomic, rheonomic or
// nonholonomic constraints) about any state on its constraints, as a
// first-order system in independent coordinates and independent speeds:
// x = (dq_i, du_i)' = A x. The route is Peterson, Gede and Hubbard's
// (Multibody Syst. Dyn. 33:143-161, 2015): the equations of the first kind
// E = M q'' - f - C^T lambda = 0, G = C q'' - gamma = 0 are differentiated
// symbolically in q and q' (with q'' and lambda as symbols, one CSE'd
// program), so that the sensitivities of the constrained accelerations come
// from one solve of their Jacobian, never from finite differences; the
// dependent coordinates follow the independent ones through the holonomic
// constraints, and the dependent speeds the independent ones (and the
// coordinates) through the velocity constraints psi = C q' + b = 0.
#pragma once

#include "mechanics/Evaluation.h"
#include "mechanics/Lagrange.h"
#include "mechanics/Linearization.h"
#include "symbolic/Program.h"

#include <optional>
#include <string>
#include <vector>

namespace mech::mechanics {

struct ReducedLinearization {
  // Indices into q: the independent coordinates (n - holonomic constraints)
  // and the coordinates whose speeds are independent (n - constraints).
  std::vector<size_t> coordinates, speeds;
  // Whether the user chose them (else pivoting on the constraint Jacobians).
  bool chosen = false;
  Matrix A; // over (q_coordinates..., q'_speeds...)
  // The second-order form in the independent speeds u (Kane's, or Maggi's,
  // equations: the equations of motion projected on the directions the
  // constraints allow, P_u^T (M q'' - f - C^T lambda) = 0, linearized):
  // Mr du' + Cr du + Kr dq_i = 0 with Mr = P_u^T M P_u (speeds x speeds),
  // Cr (speeds x speeds) and Kr (speeds x coordinates). Where the speeds
  // are the time derivatives of coordinates, as a bicycle's lean and steer
  // rates, these are the benchmark's M, v C1 and g K0 + v^2 K2.
  Matrix Mr, Cr, Kr;
  std::vector<double> qdd, lambda; // the accelerations and multipliers at the state
  // How all of q, q', q'' (n rows each) and the multipliers (m rows) move
  // with A's state (its columns): what the outputs' C is made of.
  Matrix stateQ, stateQd, stateQdd, stateLambda;
};

// The user's choice of independent coordinates and speeds (names, a speed
// with its prime); either list may be empty (then pivoting chooses).
struct IndependentChoice {
  std::vector<size_t> coordinates, speeds;
};

// The speeds taken as dependent under the constraint Jacobian C (m x n, at
// a state): the complement of `independent` when it is given, else the
// first m pivots of a column-pivoted QR, sorted. Nullopt with `why` when
// the number given is not n - m, when C's block in them is singular (the
// choice does not determine the others), or when pivoting finds the
// constraints redundant.
std::optional<std::vector<size_t>>
dependentSpeeds(const Matrix &C, const std::vector<size_t> &independent, std::string &why);

class ConstrainedLinearizer {
public:
  ConstrainedLinearizer(const Equations &equations, std::vector<double> params);

  // Linearizes at `state` (on the constraints). Nullopt with `error` set
  // when the constraints are redundant at the state, the choice does not
  // determine the dependent coordinates or speeds, or the equations of the
  // first kind are singular there.
  std::optional<ReducedLinearization> at(const State &state, const IndependentChoice &choice,
                                         std::string &error) const;
  // New param values (the program does not depend on them).
  void setParams(std::vector<double> params) { params_ = std::move(params); }

private:
  const Equations &equations_;
  std::vector<double> params_;
  size_t n_ = 0, m_ = 0;
  InputLayout layout_;
  // f, gamma, M, C; then the Jacobians of E and G and dpsi/dq, which
  // take the solved q'' and lambda.
  sym::Program values_, derivatives_;
};

// The indices 0..n-1 not in `dependent`, in order: the independent ones.
std::vector<size_t> complement(const std::vector<size_t> &dependent, size_t n);

} // namespace mech::mechanics
