// The outputs' C and D (mechanics/OutputLinearization.h).
#include "mechanics/OutputLinearization.h"

#include "mechanics/MatrixRows.h"

namespace mech::mechanics {

namespace {

using Dense = Eigen::MatrixXd;

size_t inputCount(const LinearSample &s) {
  return s.F.empty() ? 0 : s.F[0].size();
}

// q'' and the multipliers' sensitivities to the inputs: the first-kind
// system K [X; L] = [F; 0], K = [[M, -C^T], [C, 0]] (M X = F without
// constraints). Nullopt when K is singular.
std::optional<std::pair<Dense, Dense>> inputSensitivities(const LinearSample &s) {
  const size_t n = s.M.size(), m = s.C.size(), p = inputCount(s);
  const auto N = static_cast<long>(n), Mc = static_cast<long>(m);
  Dense K = Dense::Zero(N + Mc, N + Mc), rhs = Dense::Zero(N + Mc, static_cast<long>(p));
  K.topLeftCorner(N, N) = toEigen(s.M, n, n);
  if (m > 0) {
    Dense C = toEigen(s.C, m, n);
    K.topRightCorner(N, Mc) = -C.transpose();
    K.bottomLeftCorner(Mc, N) = C;
  }
  Eigen::FullPivLU<Dense> lu(K);
  if (!lu.isInvertible())
    return std::nullopt;
  if (p == 0)
    return std::pair<Dense, Dense>{Dense::Zero(N, 0), Dense::Zero(Mc, 0)};
  rhs.topRows(N) = toEigen(s.F, n, p);
  Dense X = lu.solve(rhs);
  return std::pair<Dense, Dense>{X.topRows(N), X.bottomRows(Mc)};
}

} // namespace

std::optional<StateSensitivities> freeSensitivities(const LinearSample &sample, const Matrix &A) {
  const size_t n = sample.M.size();
  if (A.size() != 2 * n)
    return std::nullopt;
  auto inputs = inputSensitivities(sample);
  if (!inputs)
    return std::nullopt;
  StateSensitivities s;
  Dense I = Dense::Identity(static_cast<long>(n), static_cast<long>(n));
  Dense Tq = Dense::Zero(static_cast<long>(n), static_cast<long>(2 * n)), Tqd = Tq;
  Tq.leftCols(static_cast<long>(n)) = I;
  Tqd.rightCols(static_cast<long>(n)) = I;
  s.q = rowsOf(Tq), s.qd = rowsOf(Tqd);
  s.qdd.assign(A.begin() + static_cast<long>(n), A.end());
  s.qddInputs = rowsOf(inputs->first);
  // q'' at the state: M q'' = f.
  Eigen::FullPivLU<Dense> lu(toEigen(sample.M, n, n));
  Dense f = Dense::Zero(static_cast<long>(n), 1);
  for (size_t i = 0; i < n; ++i)
    f(static_cast<long>(i), 0) = sample.f[i];
  Dense qdd = lu.solve(f);
  for (size_t i = 0; i < n; ++i)
    s.qddAt.push_back(qdd(static_cast<long>(i), 0));
  return s;
}

std::optional<StateSensitivities> constrainedSensitivities(const LinearSample &sample,
                                                           const ReducedLinearization &reduced) {
  auto inputs = inputSensitivities(sample);
  if (!inputs)
    return std::nullopt;
  StateSensitivities s;
  s.q = reduced.stateQ, s.qd = reduced.stateQd, s.qdd = reduced.stateQdd;
  s.lambda = reduced.stateLambda;
  s.qddInputs = rowsOf(inputs->first);
  s.lambdaInputs = rowsOf(inputs->second);
  s.qddAt = reduced.qdd, s.lambdaAt = reduced.lambda;
  return s;
}

OutputLinearizer::OutputLinearizer(const Equations &eq, std::vector<double> params)
    : equations_(eq), params_(std::move(params)), n_(eq.coordinates.size()),
      m_(eq.constraints.size()), inputs_(eq.inputs.size()),
      layout_(linearizationLayout(eq, params_.size())) {
  auto [byQ, byQd, qdd] = coordinatePartials(eq);
  std::vector<sym::Differentiator> byU = inputPartials(eq);
  std::vector<sym::Differentiator> byQdd, byLambda;
  for (const sym::Expr &a : qdd)
    byQdd.push_back(sym::partial(a));
  for (const sym::Expr &l : eq.multipliers)
    byLambda.push_back(sym::partial(l));
  std::vector<sym::Expr> out;
  for (const sym::Expr &y : eq.outputs)
    for (auto *by : {&byQ, &byQd, &byQdd, &byLambda, &byU})
      for (sym::Differentiator &d : *by)
        out.push_back(d(y));
  partials_ = sym::Program(out, [this](const sym::SymbolInfo &s) { return layout_.index(s); });
}

std::pair<Matrix, Matrix> OutputLinearizer::at(const State &state,
                                               const StateSensitivities &s) const {
  const size_t n = n_, m = m_, p = inputs_, outputs = equations_.outputs.size();
  const size_t states = s.q.empty() ? 0 : s.q[0].size();
  std::vector<double> inputs = layout_.inputs(params_, state);
  for (size_t k = 0; k < n && k < s.qddAt.size(); ++k)
    inputs[layout_.params + 2 * n + k] = s.qddAt[k];
  for (size_t i = 0; i < m && i < s.lambdaAt.size(); ++i)
    inputs[layout_.multiplier(i)] = s.lambdaAt[i];
  std::vector<double> v = partials_.evaluate(inputs);
  const size_t width = 3 * n + m + p;
  Dense Yq(outputs, n), Yqd(outputs, n), Yqdd(outputs, n), Yl(outputs, m), Yu(outputs, p);
  for (size_t r = 0; r < outputs; ++r) {
    const double *row = v.data() + r * width;
    for (size_t k = 0; k < n; ++k) {
      Yq(static_cast<long>(r), static_cast<long>(k)) = row[k];
      Yqd(static_cast<long>(r), static_cast<long>(k)) = row[n + k];
      Yqdd(static_cast<long>(r), static_cast<long>(k)) = row[2 * n + k];
    }
    for (size_t i = 0; i < m; ++i)
      Yl(static_cast<long>(r), static_cast<long>(i)) = row[3 * n + i];
    for (size_t i = 0; i < p; ++i)
      Yu(static_cast<long>(r), static_cast<long>(i)) = row[3 * n + m + i];
  }
  Dense C = Yq * toEigen(s.q, n, states) + Yqd * toEigen(s.qd, n, states) +
            Yqdd * toEigen(s.qdd, n, states);
  Dense D = Yu + Yqdd * toEigen(s.qddInputs, n, p);
  if (m > 0) {
    C += Yl * toEigen(s.lambda, m, states);
    D += Yl * toEigen(s.lambdaInputs, m, p);
  }
  return {rowsOf(C), rowsOf(D)};
}

} // namespace mech::mechanics
