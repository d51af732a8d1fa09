// Assembling dF/dx from the kernel's parts (mechanics/StateJacobian.h) with
// one LU of the first-kind matrix for all 2n right-hand sides.
#include "mechanics/StateJacobian.h"

#include <Eigen/Dense>

namespace mech::mechanics {

StateJacobian::StateJacobian(Kernels &kernels)
    : kernels_(kernels), n_(kernels.coordinates), m_(kernels.constraintCount) {
  parts_.resize(n_ * n_ + (kernels.hasReactions ? 2 : 1) * m_ * n_ + 2 * (n_ + m_) * n_);
}

int StateJacobian::operator()(double t, const double *x, const double *p, double *J) {
  long n = static_cast<long>(n_), m = static_cast<long>(m_), size = n + m;
  if (int status = kernels_.jacobianParts(t, x, p, parts_.data()); status != kStatusOk)
    return status;
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  // W (the reactions) follows C where the kernels have reactions.
  const long w = kernels_.hasReactions ? m * n : 0;
  Eigen::Map<const RowMajor> M(parts_.data(), n, n), C(parts_.data() + n * n, m, n),
      W(parts_.data() + n * n + (w ? m * n : 0), m, n);
  Eigen::Map<const RowMajor> byQ(parts_.data() + n * n + m * n + w, size, n),
      byQd(parts_.data() + n * n + m * n + w + size * n, size, n);
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(size, size);
  K.topLeftCorner(n, n) = M;
  K.topRightCorner(n, m) = -W.transpose();
  K.bottomLeftCorner(m, n) = C;
  Eigen::MatrixXd rhs(size, 2 * n);
  rhs << byQ, byQd;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu(K);
  Eigen::MatrixXd d = lu.solve(rhs); // dq''/dq, dq''/dq' in the first n rows
  if (!d.allFinite() || !(lu.rcond() > 1e-15))
    return kStatusSingularMassMatrix;
  Eigen::Map<RowMajor> out(J, 2 * n, 2 * n);
  out.setZero();
  out.topRightCorner(n, n).setIdentity();
  out.bottomRows(n) = d.topRows(n);
  return kStatusOk;
}

} // namespace mech::mechanics
