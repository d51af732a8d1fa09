// The stabilised index-2 form of a constrained model.
#include "mechanics/DaeForm.h"

#include "symbolic/Diff.h"

#include <Eigen/Cholesky>

#include <algorithm>

namespace mech::mechanics {

namespace {

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

} // namespace

DaeForm::DaeForm(const Equations &equations, const KernelPrograms &programs, Kernels &kernels,
                 const std::vector<double> &params, InputFill fill)
    : kernels_(kernels), programs_(programs), params_(params), fill_(std::move(fill)),
      n_(equations.coordinates.size()),
      m_(equations.constraints.size()), layout_{params.size(), n_, m_} {
  for (size_t k = 0; k < m_; ++k)
    if (equations.constraints[k].holonomic)
      holonomic_.push_back(k);
  sym::Context &c = equations.T.context();
  std::vector<sym::Expr> psiByQ;
  for (const Equations::Constraint &k : equations.constraints)
    for (size_t j = 0; j < n_; ++j)
      psiByQ.push_back(
          sym::partial(c.coordinate(equations.coordinates[j], static_cast<int>(j)).q)(k.psi));
  InputLayout layout = layout_;
  psiByQ_ = sym::Program(psiByQ, [layout](const sym::SymbolInfo &s) { return layout.index(s); });
  p_.resize(params.size());
  M_.resize(n_ * n_);
  factor_.resize(n_ * n_);
  f_.resize(n_);
  residuals_.resize(2 * m_ + m_ * n_);
  inputs_.assign(layout_.size(), 0.0);
  parts_.resize(programs.jacobian.outputs().size());
  psiParts_.resize(m_ * n_);
  acceleration_.resize(static_cast<Eigen::Index>(n_));
}

void DaeForm::paramsAt(double t, const double *x) {
  std::copy(params_.begin(), params_.end(), p_.begin());
  if (fill_)
    fill_(t, x, p_.data());
}

int DaeForm::initialState(double t, const double *x, std::vector<double> &y) {
  y.assign(static_cast<size_t>(dimension()), 0.0);
  std::copy(x, x + 2 * n_, y.begin());
  paramsAt(t, x);
  return kernels_.multipliers(t, x, p_.data(), y.data() + 2 * n_);
}

// M, f, Phi, psi and C at y, and v' = M^-1 (f + C^T lambda); M is kept.
int DaeForm::dynamics(double t, const double *y) {
  paramsAt(t, y);
  if (int status = kernels_.massMatrix(t, y, p_.data(), M_.data()); status != kStatusOk)
    return status;
  if (int status = kernels_.forcing(t, y, p_.data(), f_.data()); status != kStatusOk)
    return status;
  if (m_ > 0)
    if (int status = kernels_.constraints(t, y, p_.data(), residuals_.data()); status != kStatusOk)
      return status;
  const double *lambda = y + 2 * n_, *C = residuals_.data() + 2 * m_;
  for (size_t j = 0; j < n_; ++j) {
    double force = f_[j];
    for (size_t k = 0; k < m_; ++k)
      force += C[k * n_ + j] * lambda[k];
    acceleration_(static_cast<Eigen::Index>(j)) = force;
  }
  // solveLdlt overwrites the matrix it solves with: a copy, so that the
  // Jacobian has M.
  factor_ = M_;
  return runtime::solveLdlt(n_, factor_.data(), acceleration_.data());
}

int DaeForm::rhs(double t, const double *y, double *F) {
  if (int status = dynamics(t, y); status != kStatusOk)
    return status;
  const double *mu = y + 2 * n_ + m_, *C = residuals_.data() + 2 * m_;
  for (size_t j = 0; j < n_; ++j) {
    double velocity = y[n_ + j];
    for (size_t h = 0; h < holonomic_.size(); ++h)
      velocity += C[holonomic_[h] * n_ + j] * mu[h];
    F[j] = velocity;
    F[n_ + j] = acceleration_(static_cast<Eigen::Index>(j));
  }
  for (size_t k = 0; k < m_; ++k)
    F[2 * n_ + k] = residuals_[m_ + k]; // psi
  for (size_t h = 0; h < holonomic_.size(); ++h)
    F[2 * n_ + m_ + h] = residuals_[holonomic_[h]]; // Phi
  return kStatusOk;
}

int DaeForm::jacobian(double t, const double *y, double *J) {
  if (int status = dynamics(t, y); status != kStatusOk)
    return status;
  // The residual's derivatives with q'' and lambda at y's values.
  std::copy(p_.begin(), p_.end(), inputs_.begin());
  std::copy(y, y + 2 * n_, inputs_.begin() + static_cast<long>(layout_.params));
  for (size_t j = 0; j < n_; ++j)
    inputs_[layout_.params + 2 * n_ + j] = acceleration_(static_cast<Eigen::Index>(j));
  inputs_[layout_.time()] = t;
  std::copy(y + 2 * n_, y + 2 * n_ + m_, inputs_.begin() + static_cast<long>(layout_.time() + 1));
  programs_.jacobian.evaluate(inputs_.data(), parts_.data(), scratch_);
  psiByQ_.evaluate(inputs_.data(), psiParts_.data(), scratch_);
  const auto n = static_cast<Eigen::Index>(n_), m = static_cast<Eigen::Index>(m_);
  const auto h = static_cast<Eigen::Index>(holonomic_.size());
  const Eigen::Index size = dimension();
  Eigen::Map<RowMajor> out(J, size, size);
  out.setZero();
  const Eigen::Map<const RowMajor> M(M_.data(), n, n), C(residuals_.data() + 2 * m_, m, n);
  const Eigen::Map<const RowMajor> byQ(parts_.data(), n, n);
  const Eigen::Map<const RowMajor> byV(parts_.data() + (n_ + m_) * n_, n, n);
  const Eigen::LDLT<Eigen::MatrixXd> ldlt(M);
  if (ldlt.info() != Eigen::Success || !(ldlt.vectorD().array() > 0).all())
    return kStatusSingularMassMatrix;
  out.block(0, n, n, n).setIdentity();
  for (Eigen::Index k = 0; k < h; ++k)
    out.block(0, 2 * n + m + k, n, 1) = C.row(static_cast<Eigen::Index>(holonomic_[k])).transpose();
  out.block(n, 0, n, n) = ldlt.solve(Eigen::MatrixXd(byQ));
  out.block(n, n, n, n) = ldlt.solve(Eigen::MatrixXd(byV));
  if (m > 0) {
    out.block(n, 2 * n, n, m) = ldlt.solve(Eigen::MatrixXd(C.transpose()));
    out.block(2 * n, 0, m, n) = Eigen::Map<const RowMajor>(psiParts_.data(), m, n);
    out.block(2 * n, n, m, n) = C;
  }
  for (Eigen::Index k = 0; k < h; ++k)
    out.block(2 * n + m + k, 0, 1, n) = C.row(static_cast<Eigen::Index>(holonomic_[k]));
  return kStatusOk;
}

} // namespace mech::mechanics
