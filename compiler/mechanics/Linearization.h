// The linearized equations of motion about a state: with M q'' = f(q, q', t),
// a small displacement dq obeys M dq'' + D dq' + K dq = 0, where
// K = -df/dq (stiffness) and D = -df/dq' (damping plus gyroscopic terms), so
// that x = (dq, dq') evolves by x' = A x with A = [[0, I], [-M^-1 K, -M^-1 D]].
// The same compiled program serves the search for equilibria (`mech
// equilibria`): f at rest with its Jacobian -K, the Hessian of the effective
// potential W = V - T0, and for holonomic constraints Phi, C = dPhi/dq and
// the Hessians of Phi (for the Newton system and for the reduced Hessian of
// W - lambda.Phi). Everything is derived symbolically and run by the
// interpreter; matrices here are plain row-major vectors of rows.
#pragma once

#include "mechanics/Evaluation.h"
#include "mechanics/Lagrange.h"
#include "symbolic/Diff.h"
#include "symbolic/Program.h"

#include <complex>
#include <vector>

namespace mech::mechanics {

using Matrix = std::vector<std::vector<double>>;

// Everything the program gives at one state (q, q', t).
struct LinearSample {
  // f (n), Q^nc (n), Phi (m; psi for a velocity constraint, its integral
  // without the constant for one with constant coefficients)
  std::vector<double> f, Qnc, phi;
  Matrix M, K, D, H;              // n x n; H: Hessian of W = V - T0
  Matrix dQnc;                    // dQ^nc/dq (n x n)
  Matrix C;                       // m x n
  std::vector<Matrix> phiHessian; // per constraint, n x n
  // psi (m) at the state and dpsi/dq (m x n): at rest, psi of a holonomic
  // constraint is dPhi/dt, which must vanish for rest to be admissible.
  std::vector<double> psi;
  Matrix psiGradient;
  // df/du (n x inputs): how the inputs enter M q'' = f.
  Matrix F;
};

// The input layout of a linearization program of `eq` with `params`
// params (accelerations and multipliers included).
InputLayout linearizationLayout(const Equations &eq, size_t params);

// d/dq_k and d/dq'_k for each coordinate, and its acceleration symbol.
struct CoordinatePartials {
  std::vector<sym::Differentiator> byQ, byQd;
  std::vector<sym::Expr> qdd;
};
CoordinatePartials coordinatePartials(const Equations &eq);
// d/du_i for each input.
std::vector<sym::Differentiator> inputPartials(const Equations &eq);

class Linearizer {
public:
  Linearizer(const Equations &equations, std::vector<double> params);

  LinearSample at(const State &state) const;
  // New param values (the program does not depend on them).
  void setParams(std::vector<double> params) { params_ = std::move(params); }

  const Equations &equations() const { return equations_; }
  const std::vector<double> &params() const { return params_; }
  size_t coordinates() const { return n_; }
  size_t constraintCount() const { return m_; }

private:
  const Equations &equations_;
  std::vector<double> params_;
  size_t n_ = 0, m_ = 0;
  InputLayout layout_;
  sym::Program program_;
};

// At rest on the constraints: the multipliers that balance f best (least
// squares of f + C^T lambda), what is left of f + C^T lambda (zero at an
// equilibrium), and the stiffness with the constraint forces' curvature,
// K - sum_i lambda_i Hess(Phi_i), as the reduced analysis of equilibria
// uses it. Without constraints: lambda empty, residual f, K unchanged.
struct RestWithConstraints {
  std::vector<double> lambda, residual;
  Matrix K;
};
RestWithConstraints restWithConstraints(const LinearSample &sample);
// Whether what rest leaves of f (f + C^T lambda) is not zero, to 1e-9 of
// f's size (at least 1): the state is no equilibrium, and K and D are the
// derivatives of f about a motion or a state that does not stay.
bool offEquilibrium(const LinearSample &sample, const RestWithConstraints &rest);

// A = [[0, I], [-M^-1 K, -M^-1 D]] (2n x 2n), or empty when M is singular.
// redundantMultipliersNote (mechanics/ConstraintProjection.h) for the
// constraint Jacobian of a sample.
std::string redundantMultipliersNote(const Equations &equations, const LinearSample &sample);

Matrix stateMatrix(const Matrix &M, const Matrix &K, const Matrix &D);

// B = dx'/du, the inputs' column of x' = A x + B u, at the sample's state:
// the accelerations X that M X = F (with constraints, M X + C^T L = F and
// C X = 0) gives, under zero rows for the positions. Over (q, q') without
// constraints (2n rows); with them over the reduced state (the positions of
// `coordinates`, the speeds of `speeds`). Empty when the system is singular
// or the model has no inputs.
Matrix inputMatrix(const LinearSample &sample, const std::vector<size_t> *coordinates = nullptr,
                   const std::vector<size_t> *speeds = nullptr);

// The eigenvalues of a square A, in Eigen's order (callers sort them).
std::vector<std::complex<double>> eigenvaluesOf(const Matrix &A);

} // namespace mech::mechanics
