// The linearization program: one CSE'd program for f, Q^nc, M, K, D, the
// Hessian of W and the constraint terms, so that the shared subexpressions
// (the trigonometry of the positions) are computed once per state.
#include "mechanics/Linearization.h"

#include "mechanics/ConstraintProjection.h"
#include "symbolic/Diff.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>

namespace mech::mechanics {

InputLayout linearizationLayout(const Equations &eq, size_t params) {
  InputLayout layout;
  layout.params = params;
  layout.coordinates = eq.coordinates.size();
  layout.multipliers = eq.constraints.size();
  return layout;
}

CoordinatePartials coordinatePartials(const Equations &eq) {
  sym::Context &context = eq.T.context();
  CoordinatePartials partials;
  for (size_t k = 0; k < eq.coordinates.size(); ++k) {
    auto c = context.coordinate(eq.coordinates[k], static_cast<int>(k));
    partials.byQ.push_back(sym::partial(c.q));
    partials.byQd.push_back(sym::partial(c.qd));
    partials.qdd.push_back(c.qdd);
  }
  return partials;
}

std::vector<sym::Differentiator> inputPartials(const Equations &eq) {
  sym::Context &context = eq.T.context();
  std::vector<sym::Differentiator> partials;
  for (const Equations::Input &u : eq.inputs)
    partials.push_back(
        sym::partial(context.symbol(u.name, sym::SymbolKind::Param, static_cast<int>(u.param))));
  return partials;
}

Linearizer::Linearizer(const Equations &eq, std::vector<double> params)
    : equations_(eq), params_(std::move(params)), n_(eq.coordinates.size()),
      m_(eq.constraints.size()), layout_(linearizationLayout(eq, params_.size())) {
  auto [byQ, byQd, qdd] = coordinatePartials(eq);
  std::vector<sym::Expr> out(eq.f.begin(), eq.f.end());
  out.insert(out.end(), eq.Qnc.begin(), eq.Qnc.end());
  for (const Equations::Constraint &k : eq.constraints)
    out.push_back(k.holonomic ? k.phi : k.integral ? *k.integral : k.psi);
  auto square = [&](auto entry) {
    for (size_t j = 0; j < n_; ++j)
      for (size_t k = 0; k < n_; ++k)
        out.push_back(entry(j, k));
  };
  square([&](size_t j, size_t k) { return eq.M[j][k]; });
  square([&](size_t j, size_t k) { return -byQ[k](eq.f[j]); });
  square([&](size_t j, size_t k) { return -byQd[k](eq.f[j]); });
  // W = V - T0: the potential of the forces felt at rest (gravity, springs,
  // and the centrifugal potential -T0 of a rotating frame).
  sym::Expr W = eq.V - eq.T0;
  std::vector<sym::Expr> gradient;
  for (size_t j = 0; j < n_; ++j)
    gradient.push_back(byQ[j](W));
  square([&](size_t j, size_t k) { return byQ[k](gradient[j]); });
  square([&](size_t j, size_t k) { return byQ[k](eq.Qnc[j]); });
  for (const Equations::Constraint &c : eq.constraints)
    out.insert(out.end(), c.C.begin(), c.C.end());
  for (const Equations::Constraint &c : eq.constraints)
    square([&](size_t j, size_t k) { return byQ[k](c.C[j]); });
  for (const Equations::Constraint &c : eq.constraints)
    out.push_back(c.psi);
  for (const Equations::Constraint &c : eq.constraints)
    for (size_t k = 0; k < n_; ++k)
      out.push_back(byQ[k](c.psi));
  std::vector<sym::Differentiator> byU = inputPartials(eq);
  for (size_t j = 0; j < n_; ++j)
    for (sym::Differentiator &d : byU)
      out.push_back(d(eq.f[j]));
  program_ = sym::Program(out, [this](const sym::SymbolInfo &s) { return layout_.index(s); });
}

LinearSample Linearizer::at(const State &state) const {
  std::vector<double> v = program_.evaluate(layout_.inputs(params_, state));
  size_t at = 0;
  auto vector = [&](size_t count) {
    std::vector<double> r(v.begin() + static_cast<long>(at),
                          v.begin() + static_cast<long>(at + count));
    at += count;
    return r;
  };
  auto matrix = [&](size_t rows, size_t cols) {
    Matrix r(rows);
    for (auto &row : r)
      row = vector(cols);
    return r;
  };
  LinearSample s;
  s.f = vector(n_);
  s.Qnc = vector(n_);
  s.phi = vector(m_);
  s.M = matrix(n_, n_);
  s.K = matrix(n_, n_);
  s.D = matrix(n_, n_);
  s.H = matrix(n_, n_);
  s.dQnc = matrix(n_, n_);
  s.C = matrix(m_, n_);
  for (size_t i = 0; i < m_; ++i)
    s.phiHessian.push_back(matrix(n_, n_));
  s.psi = vector(m_);
  s.psiGradient = matrix(m_, n_);
  s.F = matrix(n_, equations_.inputs.size());
  return s;
}

RestWithConstraints restWithConstraints(const LinearSample &sample) {
  size_t n = sample.f.size(), m = sample.C.size();
  RestWithConstraints rest{{}, sample.f, sample.K};
  if (m == 0)
    return rest;
  Eigen::MatrixXd C(static_cast<long>(m), static_cast<long>(n));
  Eigen::VectorXd f(static_cast<long>(n));
  for (size_t j = 0; j < n; ++j)
    f(static_cast<long>(j)) = sample.f[j];
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j)
      C(static_cast<long>(i), static_cast<long>(j)) = sample.C[i][j];
  // min |f + C^T lambda|: dependent rows of C share the load (minimum norm).
  Eigen::VectorXd lambda = -C.transpose().completeOrthogonalDecomposition().solve(f);
  Eigen::VectorXd residual = f + C.transpose() * lambda;
  for (size_t i = 0; i < m; ++i)
    rest.lambda.push_back(lambda(static_cast<long>(i)));
  for (size_t j = 0; j < n; ++j)
    rest.residual[j] = residual(static_cast<long>(j));
  for (size_t i = 0; i < m; ++i)
    for (size_t a = 0; a < n; ++a)
      for (size_t b = 0; b < n; ++b)
        rest.K[a][b] -= rest.lambda[i] * sample.phiHessian[i][a][b];
  return rest;
}

bool offEquilibrium(const LinearSample &sample, const RestWithConstraints &rest) {
  double force = 0, scale = 0;
  for (double v : rest.residual)
    force = std::max(force, std::abs(v));
  for (double v : sample.f)
    scale = std::max(scale, std::abs(v));
  return force > 1e-9 * std::max(1.0, scale);
}

std::string redundantMultipliersNote(const Equations &eq, const LinearSample &sample) {
  std::vector<double> C;
  for (const std::vector<double> &row : sample.C)
    C.insert(C.end(), row.begin(), row.end());
  return redundantMultipliersNote(eq, C.data());
}

Matrix inputMatrix(const LinearSample &s, const std::vector<size_t> *coordinates,
                   const std::vector<size_t> *speeds) {
  auto n = static_cast<long>(s.M.size()), m = static_cast<long>(s.C.size());
  long inputs = s.F.empty() ? 0 : static_cast<long>(s.F[0].size());
  if (inputs == 0) // Eigen's solvers do not take empty right-hand sides
    return {};
  Eigen::MatrixXd kkt = Eigen::MatrixXd::Zero(n + m, n + m);
  Eigen::MatrixXd rhs = Eigen::MatrixXd::Zero(n + m, inputs);
  for (long i = 0; i < n; ++i) {
    for (long j = 0; j < n; ++j)
      kkt(i, j) = s.M[static_cast<size_t>(i)][static_cast<size_t>(j)];
    for (long k = 0; k < inputs; ++k)
      rhs(i, k) = s.F[static_cast<size_t>(i)][static_cast<size_t>(k)];
  }
  for (long r = 0; r < m; ++r)
    for (long j = 0; j < n; ++j)
      kkt(n + r, j) = kkt(j, n + r) = s.C[static_cast<size_t>(r)][static_cast<size_t>(j)];
  Eigen::FullPivLU<Eigen::MatrixXd> lu(kkt);
  if (!lu.isInvertible())
    return {};
  Eigen::MatrixXd X = lu.solve(rhs);
  std::vector<size_t> all(static_cast<size_t>(n));
  for (size_t j = 0; j < all.size(); ++j)
    all[j] = j;
  const std::vector<size_t> &positions = coordinates ? *coordinates : all;
  const std::vector<size_t> &rates = speeds ? *speeds : all;
  Matrix B(positions.size() + rates.size(), std::vector<double>(static_cast<size_t>(inputs), 0.0));
  for (size_t r = 0; r < rates.size(); ++r)
    for (long k = 0; k < inputs; ++k)
      B[positions.size() + r][static_cast<size_t>(k)] = X(static_cast<long>(rates[r]), k);
  return B;
}

Matrix stateMatrix(const Matrix &M, const Matrix &K, const Matrix &D) {
  auto n = static_cast<long>(M.size());
  Eigen::MatrixXd m(n, n), k(n, n), d(n, n);
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j) {
      m(i, j) = M[static_cast<size_t>(i)][static_cast<size_t>(j)];
      k(i, j) = K[static_cast<size_t>(i)][static_cast<size_t>(j)];
      d(i, j) = D[static_cast<size_t>(i)][static_cast<size_t>(j)];
    }
  Eigen::FullPivLU<Eigen::MatrixXd> lu(m);
  if (n == 0 || !lu.isInvertible())
    return {};
  Eigen::MatrixXd a = Eigen::MatrixXd::Zero(2 * n, 2 * n);
  a.topRightCorner(n, n).setIdentity();
  a.bottomLeftCorner(n, n) = -lu.solve(k);
  a.bottomRightCorner(n, n) = -lu.solve(d);
  Matrix r(static_cast<size_t>(2 * n), std::vector<double>(static_cast<size_t>(2 * n)));
  for (long i = 0; i < 2 * n; ++i)
    for (long j = 0; j < 2 * n; ++j)
      r[static_cast<size_t>(i)][static_cast<size_t>(j)] = a(i, j);
  return r;
}

std::vector<std::complex<double>> eigenvaluesOf(const Matrix &A) {
  auto n = static_cast<long>(A.size());
  if (n == 0)
    return {};
  Eigen::MatrixXd a(n, n);
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j)
      a(i, j) = A[static_cast<size_t>(i)][static_cast<size_t>(j)];
  Eigen::EigenSolver<Eigen::MatrixXd> solver(a, false);
  return {solver.eigenvalues().begin(), solver.eigenvalues().end()};
}

} // namespace mech::mechanics
