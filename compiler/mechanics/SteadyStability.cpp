// The stability of steady motions (mechanics/SteadyStability.h).
#include "mechanics/SteadyStability.h"

#include "support/NumberText.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

namespace mech::mechanics {

namespace {

using Eigen::MatrixXd;

} // namespace

SteadyStability::SteadyStability(const Equations &equations, const std::vector<double> &params,
                                 const Linearizer &linearizer, std::vector<size_t> turning,
                                 bool routh)
    : equations_(equations), params_(params), turning_(std::move(turning)), holonomic_(routh),
      routh_(routh && equations.constraints.empty() && !turning_.empty()), linearizer_(linearizer) {
  if (!routh_)
    matrices_.emplace(equations, params);
}

void SteadyStability::classify(SteadyMotion &motion) {
  if (routh_)
    reduceByRouth(motion);
  else
    dropStructuralZeros(motion);
}

// A over (q, q'); the turning positions' columns are zero (cyclic), so
// they go, and the momenta p_R = M_R. q' + b_R are conserved: on dp = 0,
// dw = -M_RR^-1 (P_S dq_S + M_RS dq_S') with P_S = dp_R/dq_S, which
// d(dp)/dt = 0 gives exactly as -(M_R. A_vv) in the S columns. What is
// left is A_mu over (dq_S, dq_S') = [[0, I], [-M~^-1 K_mu, -M~^-1 G]], with
// M~ = M_SS - M_SR M_RR^-1 M_RS, so K_mu = -M~ (A_mu's lower left).
void SteadyStability::reduceByRouth(SteadyMotion &motion) {
  LinearSample s = linearizer_.at(motion.state);
  Matrix A = stateMatrix(s.M, s.K, s.D);
  if (A.empty()) {
    motion.verdict = SteadyVerdict::Undetermined;
    motion.criterion = "the mass matrix is singular here (a coordinate singularity?)";
    return;
  }
  size_t n = equations_.coordinates.size();
  std::vector<size_t> S;
  for (size_t j = 0; j < n; ++j)
    if (std::find(turning_.begin(), turning_.end(), j) == turning_.end())
      S.push_back(j);
  size_t nS = S.size();
  auto block = [&](const std::vector<size_t> &rows, const std::vector<size_t> &cols, auto entry) {
    MatrixXd b(static_cast<long>(rows.size()), static_cast<long>(cols.size()));
    for (size_t i = 0; i < rows.size(); ++i)
      for (size_t j = 0; j < cols.size(); ++j)
        b(static_cast<long>(i), static_cast<long>(j)) = entry(rows[i], cols[j]);
    return b;
  };
  auto mass = [&](size_t i, size_t j) { return s.M[i][j]; };
  auto byPosition = [&](size_t i, size_t j) { return A[n + i][j]; };
  auto bySpeed = [&](size_t i, size_t j) { return A[n + i][n + j]; };
  std::vector<size_t> all(n);
  for (size_t j = 0; j < n; ++j)
    all[j] = j;
  MatrixXd MRR = block(turning_, turning_, mass), MRS = block(turning_, S, mass);
  MatrixXd MSS = block(S, S, mass);
  MatrixXd P = -block(turning_, all, mass) * block(all, S, bySpeed);
  Eigen::LDLT<MatrixXd> inertia(MRR);
  MatrixXd Wq = -inertia.solve(P), Wv = -inertia.solve(MRS);
  MatrixXd lowerLeft = block(S, S, byPosition) + block(S, turning_, bySpeed) * Wq;
  MatrixXd lowerRight = block(S, S, bySpeed) + block(S, turning_, bySpeed) * Wv;
  MatrixXd reducedMass = MSS - MRS.transpose() * inertia.solve(MRS);
  MatrixXd K = -reducedMass * lowerLeft;
  K = (K + K.transpose()) / 2;

  Matrix Amu(2 * nS, std::vector<double>(2 * nS, 0.0));
  for (size_t i = 0; i < nS; ++i) {
    Amu[i][nS + i] = 1;
    for (size_t j = 0; j < nS; ++j) {
      Amu[nS + i][j] = lowerLeft(static_cast<long>(i), static_cast<long>(j));
      Amu[nS + i][nS + j] = lowerRight(static_cast<long>(i), static_cast<long>(j));
    }
  }
  for (int primes = 0; primes < 2; ++primes)
    for (size_t j : S)
      motion.reducedStates.push_back(equations_.coordinates[j] + (primes ? "'" : ""));
  motion.eigenvalues = keptEigenvalues(Amu, std::vector<bool>(2 * nS, false));

  if (nS > 0) {
    Eigen::SelfAdjointEigenSolver<MatrixXd> hessian(K);
    for (long k = 0; k < K.rows(); ++k)
      motion.amendedHessian.push_back(hessian.eigenvalues()(k));
  }
  double largest = 0;
  for (double h : motion.amendedHessian)
    largest = std::max(largest, std::abs(h));
  bool minimum = !motion.amendedHessian.empty() &&
                 std::all_of(motion.amendedHessian.begin(), motion.amendedHessian.end(),
                             [&](double h) { return h > 1e-9 * largest; });
  if (minimum && equations_.conservative) {
    decideByEigenvalues(motion, ""); // the frequencies; Routh's verdict is stronger
    motion.verdict = SteadyVerdict::Stable;
    motion.criterion = "Routh: at fixed momenta the amended potential V - T0 + 1/2 (p - b)^T "
                       "I^-1 (p - b) has a minimum here (its Hessian is positive definite)";
    return;
  }
  decideByEigenvalues(motion,
                      minimum ? "" : "the amended potential has no minimum at fixed momenta");
}

// With constraints: A in independent coordinates and speeds (pivoting), its
// structurally zero states (ignorable coordinates, speeds that do not
// change) dropped, each one zero eigenvalue.
void SteadyStability::dropStructuralZeros(SteadyMotion &motion) {
  std::string why;
  std::optional<StateMatrix> A = matrices_->at(motion.state, params_, {}, why);
  if (!A) {
    motion.verdict = SteadyVerdict::Undetermined;
    motion.criterion = "the linearization is not formed here: " + why;
    return;
  }
  std::vector<bool> dropped = structuralZeroStates({A->A});
  std::string droppedNames;
  for (size_t k = 0; k < dropped.size(); ++k) {
    if (dropped[k])
      droppedNames += (droppedNames.empty() ? "" : ", ") + A->names[k];
    else
      motion.reducedStates.push_back(A->names[k]);
  }
  if (!droppedNames.empty())
    motion.notes.push_back("structurally zero states dropped (ignorable coordinates, speeds that "
                           "do not change): " +
                           droppedNames);
  motion.eigenvalues = keptEigenvalues(A->A, dropped);
  decideByEigenvalues(motion, "");
}

void SteadyStability::decideByEigenvalues(SteadyMotion &motion, const std::string &context) {
  double largest = 0, top = -INFINITY;
  for (std::complex<double> z : motion.eigenvalues) {
    largest = std::max(largest, std::abs(z));
    top = std::max(top, z.real());
  }
  double threshold = 1e-9 * largest;
  std::vector<double> frequencies;
  size_t zeros = 0;
  for (std::complex<double> z : motion.eigenvalues) {
    if (z.imag() > threshold)
      frequencies.push_back(z.imag());
    if (std::abs(z) <= threshold)
      ++zeros;
  }
  std::sort(frequencies.begin(), frequencies.end());
  std::string prefix = context.empty() ? "" : context + "; ";
  // A conservative holonomic system's eigenvalues come in pairs +-lambda:
  // it cannot decay. A nonholonomic one can (a bicycle's weave), although
  // its energy is conserved.
  bool conservative = equations_.conservative && holonomic_;
  if (motion.eigenvalues.empty()) {
    motion.verdict = SteadyVerdict::Neutral;
    motion.criterion = prefix + "no coordinate is left to move after the reduction";
  } else if (top > threshold) {
    motion.verdict = SteadyVerdict::Unstable;
    motion.criterion = prefix +
                       "an eigenvalue of the reduced linearization has a positive real "
                       "part (Re = " +
                       formatNumber(top, 6) + ")";
  } else if (!conservative && top < -threshold) {
    motion.verdict = SteadyVerdict::AsymptoticallyStable;
    motion.criterion = prefix +
                       "every eigenvalue of the reduced linearization has a negative "
                       "real part" +
                       (equations_.conservative
                            ? std::string(" (linearly; a nonholonomic system can decay although "
                                          "its energy is conserved)")
                            : "");
  } else {
    motion.verdict = SteadyVerdict::Neutral;
    motion.criterion = prefix +
                       "the eigenvalues of the reduced linearization lie on the "
                       "imaginary axis" +
                       (conservative ? "" : " or to its left") +
                       (!context.empty() && conservative ? " (gyroscopic stabilization)" : "");
  }
  if (motion.verdict != SteadyVerdict::Unstable)
    motion.frequencies = frequencies;
  if (zeros > 0)
    motion.notes.push_back(std::to_string(zeros) + " zero eigenvalue" + (zeros == 1 ? "" : "s") +
                           " of the reduced linearization: neighbouring steady motions (other "
                           "rates or positions), not oscillations");
}

} // namespace mech::mechanics
