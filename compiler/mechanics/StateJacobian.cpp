// Assembling dF/dx from the kernel's parts (mechanics/StateJacobian.h) with
// one LU of the first-kind matrix for all 2n right-hand sides.
#include "mechanics/StateJacobian.h"

#include "runtime/DenseSolve.h"

#include <Eigen/Dense>

#include <algorithm>
#include <numeric>

namespace mech::mechanics {

namespace {

// The rows of C that the acceleration solve keeps (runtime::
// solveConstrained): the pivoted factorization of the same Schur complement
// C (M + s C^T C)^-1 C^T, its independent rows in their order in C; and
// whether the solve regularizes noticeably there (its smallest kept pivot
// within kRegularizedPivots regularizations of S's largest diagonal entry).
struct KeptRows {
  std::vector<long> rows;
  bool regularized = false;
};
// Pivots of S below this many regularizations (kSchurRegularization times
// S's largest diagonal entry) are where the solve's three refinement passes
// no longer recover S's own solution: measured on the N-four-bar, an exact
// Jacobian there (entries as 1/sigma^2) against a regularized right-hand
// side made radau's Newton iteration stall and its steps shrink a
// thousandfold at each singular position.
constexpr double kRegularizedPivots = 1e3;

template <class Rows> KeptRows independentRows(const Rows &M, const Rows &C) {
  const size_t n = static_cast<size_t>(M.rows()), m = static_cast<size_t>(C.rows());
  KeptRows kept;
  if (m == 0)
    return kept;
  Eigen::MatrixXd regular = M, Ct = C.transpose();
  const double s = runtime::constraintScale(n, m, M.data(), C.data());
  regular += s * Ct * C;
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  RowMajor S = C * regular.ldlt().solve(Ct);
  const double largest = S.diagonal().cwiseAbs().maxCoeff();
  std::vector<size_t> order(m);
  const size_t rank = runtime::factorPivotedLdlt(m, S.data(), order.data(), kDependentRowTolerance);
  kept.rows.assign(order.begin(), order.begin() + static_cast<long>(rank));
  std::sort(kept.rows.begin(), kept.rows.end());
  for (size_t j = 0; j < rank; ++j)
    kept.regularized = kept.regularized || S(static_cast<long>(j), static_cast<long>(j)) <
                                               kRegularizedPivots * kSchurRegularization * largest;
  return kept;
}

} // namespace

StateJacobian::StateJacobian(Kernels &kernels)
    : kernels_(kernels), n_(kernels.coordinates), m_(kernels.constraintCount) {
  parts_.resize(n_ * n_ + (kernels.hasReactions ? 2 : 1) * m_ * n_ + 2 * (n_ + m_) * n_);
}

int StateJacobian::operator()(double t, const double *x, const double *p, double *J) {
  const long n = static_cast<long>(n_), m = static_cast<long>(m_), size = n + m;
  if (int status = kernels_.jacobianParts(t, x, p, parts_.data()); status != kStatusOk)
    return status;
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  // W (the reactions) follows C where the kernels have reactions.
  const long w = kernels_.hasReactions ? m * n : 0;
  Eigen::Map<const RowMajor> M(parts_.data(), n, n), C(parts_.data() + n * n, m, n),
      W(parts_.data() + n * n + (w ? m * n : 0), m, n);
  Eigen::Map<const RowMajor> byQ(parts_.data() + n * n + m * n + w, size, n),
      byQd(parts_.data() + n * n + m * n + w + size * n, size, n);
  // [M, -W^T; C, eps I] restricted to `rows` of C, solved for the 2n
  // right-hand sides; false when it is singular.
  Eigen::MatrixXd d;
  auto solveWith = [&](const std::vector<long> &rows, double eps) {
    const long k = static_cast<long>(rows.size()), reduced = n + k;
    Eigen::MatrixXd K = Eigen::MatrixXd::Zero(reduced, reduced), rhs(reduced, 2 * n);
    K.topLeftCorner(n, n) = M;
    rhs.topRows(n) << byQ.topRows(n), byQd.topRows(n);
    for (long i = 0; i < k; ++i) {
      const long row = rows[static_cast<size_t>(i)];
      K.block(0, n + i, n, 1) = -W.row(row).transpose();
      K.block(n + i, 0, 1, n) = C.row(row);
      K(n + i, n + i) = eps;
      rhs.row(n + i) << byQ.row(n + row), byQd.row(n + row);
    }
    Eigen::PartialPivLU<Eigen::MatrixXd> lu(K);
    d = lu.solve(rhs); // dq''/dq, dq''/dq' in the first n rows
    return d.allFinite() && lu.rcond() > 1e-15;
  };
  // Rows of C that depend on the others (redundant constraints) carry no
  // multiplier in the acceleration solve (runtime::solveConstrained), so
  // near the state q'' is that of the other rows alone: they are left out.
  // Near a singular position rows are nearly dependent, and the solve
  // regularizes its Schur complement (S + eps I): so does the Jacobian,
  // which needs only to be near for Newton's iteration, but near the
  // right-hand side it is the derivative of.
  KeptRows kept = independentRows(M, C);
  std::vector<long> all(static_cast<size_t>(m));
  std::iota(all.begin(), all.end(), 0);
  if (kept.regularized || !solveWith(all, 0)) {
    const double inertia = M.diagonal().cwiseAbs().maxCoeff(),
                 rowSize = m > 0 ? C.rowwise().squaredNorm().maxCoeff() : 0;
    const double eps = kSchurRegularization * rowSize / (inertia > 0 ? inertia : 1);
    if ((kept.regularized || !solveWith(kept.rows, 0)) && !solveWith(kept.rows, eps))
      return kStatusSingularMassMatrix;
  }
  Eigen::Map<RowMajor> out(J, 2 * n, 2 * n);
  out.setZero();
  out.topRightCorner(n, n).setIdentity();
  out.bottomRows(n) = d.topRows(n);
  return kStatusOk;
}

} // namespace mech::mechanics
