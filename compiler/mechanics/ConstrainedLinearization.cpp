// The reduced linearization (mechanics/ConstrainedLinearization.h). With
// P_q the map from independent to all coordinate perturbations (through the
// holonomic rows of C), P_u and R those from independent speeds and from
// coordinates to all speed perturbations (through psi = 0), and F_q, F_q'
// the sensitivities of the constrained accelerations:
//   dq_i' = S_q (R P_q dq_i + P_u du_i)
//   du_i' = S_u ((F_q + F_q' R) P_q dq_i + F_q' P_u du_i)
// where S_q, S_u pick the independent rows.
#include "mechanics/ConstrainedLinearization.h"

#include "mechanics/Kernels.h"
#include "mechanics/MatrixRows.h"
#include "symbolic/Diff.h"

#include <Eigen/Dense>

namespace mech::mechanics {

namespace {

using Dense = Eigen::MatrixXd;

// `rows` x `cols` blocks read from v in order, from `at` on.
Dense take(const std::vector<double> &v, size_t &at, size_t rows, size_t cols) {
  Dense r(static_cast<long>(rows), static_cast<long>(cols));
  for (size_t i = 0; i < rows; ++i)
    for (size_t j = 0; j < cols; ++j)
      r(static_cast<long>(i), static_cast<long>(j)) = v[at++];
  return r;
}

// The two programs' outputs, in order: the values (f, gamma, M, C), then
// the derivatives at the solved q'' and lambda.
struct Blocks {
  Dense f, gamma, M, C, dEdq, dEdqd, dGdq, dGdqd, psiq;

  void readValues(const std::vector<double> &v, size_t n, size_t m) {
    size_t at = 0;
    f = take(v, at, n, 1), gamma = take(v, at, m, 1);
    M = take(v, at, n, n), C = take(v, at, m, n);
  }
  void readDerivatives(const std::vector<double> &v, size_t n, size_t m) {
    size_t at = 0;
    dEdq = take(v, at, n, n), dEdqd = take(v, at, n, n);
    dGdq = take(v, at, m, n), dGdqd = take(v, at, m, n), psiq = take(v, at, m, n);
  }
};

// The columns of `rows` (r x n) taken as dependent: the user's complement,
// or the first r pivots of a column-pivoted QR. Empty when they do not
// make the r x r block invertible.
std::optional<std::vector<size_t>>
dependentColumns(const Dense &rows, const std::vector<size_t> &independent, std::string &why) {
  auto r = static_cast<size_t>(rows.rows()), n = static_cast<size_t>(rows.cols());
  std::vector<size_t> dependent;
  if (!independent.empty()) {
    if (independent.size() + r != n) {
      why = "needs " + std::to_string(n - r) + " independent, " +
            std::to_string(independent.size()) + " given";
      return std::nullopt;
    }
    for (size_t j = 0; j < n; ++j)
      if (std::find(independent.begin(), independent.end(), j) == independent.end())
        dependent.push_back(j);
  } else if (r > 0) {
    Eigen::ColPivHouseholderQR<Dense> qr(rows);
    for (size_t k = 0; k < r; ++k)
      dependent.push_back(
          static_cast<size_t>(qr.colsPermutation().indices()(static_cast<long>(k))));
    std::sort(dependent.begin(), dependent.end());
  }
  if (r == 0)
    return dependent;
  Dense block(static_cast<long>(r), static_cast<long>(r));
  for (size_t k = 0; k < r; ++k)
    block.col(static_cast<long>(k)) = rows.col(static_cast<long>(dependent[k]));
  Eigen::FullPivLU<Dense> lu(block);
  lu.setThreshold(1e-10);
  if (!lu.isInvertible()) {
    why = independent.empty() ? "the constraints are redundant at the state"
                              : "the rest do not determine the others";
    return std::nullopt;
  }
  return dependent;
}

// The n x k map from the independent perturbations to all of them under
// rows * d = 0 (identity on the independent, solved on the dependent).
Dense followMap(const Dense &rows, const std::vector<size_t> &dependent,
                const std::vector<size_t> &independent) {
  auto n = rows.cols();
  auto r = static_cast<long>(dependent.size()), k = static_cast<long>(independent.size());
  Dense P = Dense::Zero(n, k);
  Dense Bd(rows.rows(), r), Bi(rows.rows(), k);
  for (long c = 0; c < r; ++c)
    Bd.col(c) = rows.col(static_cast<long>(dependent[static_cast<size_t>(c)]));
  for (long c = 0; c < k; ++c) {
    Bi.col(c) = rows.col(static_cast<long>(independent[static_cast<size_t>(c)]));
    P(static_cast<long>(independent[static_cast<size_t>(c)]), c) = 1;
  }
  if (r > 0) {
    Dense solved = -Eigen::FullPivLU<Dense>(Bd).solve(Bi);
    for (long c = 0; c < r; ++c)
      P.row(static_cast<long>(dependent[static_cast<size_t>(c)])) = solved.row(c);
  }
  return P;
}

Dense pickRows(const Dense &m, const std::vector<size_t> &rows) {
  Dense r(static_cast<long>(rows.size()), m.cols());
  for (size_t k = 0; k < rows.size(); ++k)
    r.row(static_cast<long>(k)) = m.row(static_cast<long>(rows[k]));
  return r;
}

// The rows of `m` that no others determine (a redundant constraint's row
// goes): a column-pivoted QR of m^T, its rank at 1e-10.
std::vector<size_t> independentRows(const Dense &m) {
  std::vector<size_t> kept;
  if (m.rows() == 0)
    return kept;
  Eigen::ColPivHouseholderQR<Dense> qr(m.transpose());
  qr.setThreshold(1e-10);
  for (long k = 0; k < qr.rank(); ++k)
    kept.push_back(static_cast<size_t>(qr.colsPermutation().indices()(k)));
  std::sort(kept.begin(), kept.end());
  return kept;
}

// The sensitivities of the constrained accelerations and multipliers:
// K [dq''; dlambda] = -[dE; dG] for each perturbation of q and of q', with
// K = [[M, -C^T], [C, 0]]: F_q, F_q' are the top n rows, L_q, L_q' the
// rest. Nullopt when K is singular but for redundant rows of C.
std::optional<std::pair<Dense, Dense>> sensitivities(const Blocks &b) {
  auto N = b.M.rows(), Mc = b.C.rows();
  Dense K = Dense::Zero(N + Mc, N + Mc);
  K.topLeftCorner(N, N) = b.M;
  K.topRightCorner(N, Mc) = -b.C.transpose();
  K.bottomLeftCorner(Mc, N) = b.C;
  Dense dq(N + Mc, N), dqd(N + Mc, N);
  dq << b.dEdq, b.dGdq;
  dqd << b.dEdqd, b.dGdqd;
  Eigen::FullPivLU<Dense> kkt(K);
  if (kkt.isInvertible())
    return std::pair<Dense, Dense>{-kkt.solve(dq), -kkt.solve(dqd)};
  // Redundant constraints: K is singular along (0, dlambda) with C^T dlambda
  // = 0 only, when its rank is n plus C's. dq'' is then unique and the
  // least-norm solution picks one split of dlambda (as the statics do);
  // any other rank loss is M's, singular on the motions C allows.
  Eigen::FullPivLU<Dense> rows(b.C);
  rows.setThreshold(1e-10);
  kkt.setThreshold(1e-10);
  if (kkt.rank() != N + rows.rank())
    return std::nullopt;
  Eigen::CompleteOrthogonalDecomposition<Dense> leastNorm(K);
  leastNorm.setThreshold(1e-10);
  return std::pair<Dense, Dense>{-leastNorm.solve(dq), -leastNorm.solve(dqd)};
}

// A from the maps (see the file's comment), and the second-order form in
// the speeds: the projected equations Mr du' = -(Kr dq_i + Cr du) have the
// solutions of A's speed rows, so Cr = -Mr A_uu and Kr = -Mr A_uq.
void assemble(ReducedLinearization &r, const Dense &M, const Dense &Pq, const Dense &Pu,
              const Dense &R, const Dense &Fq, const Dense &Fqd) {
  auto nq = static_cast<long>(r.coordinates.size()), nu = static_cast<long>(r.speeds.size());
  Dense A(nq + nu, nq + nu);
  A.topLeftCorner(nq, nq) = pickRows(R * Pq, r.coordinates);
  A.topRightCorner(nq, nu) = pickRows(Pu, r.coordinates);
  A.bottomLeftCorner(nu, nq) = pickRows((Fq + Fqd * R) * Pq, r.speeds);
  A.bottomRightCorner(nu, nu) = pickRows(Fqd * Pu, r.speeds);
  r.A = rowsOf(A);
  Dense Mr = Pu.transpose() * M * Pu;
  r.Mr = rowsOf(Mr);
  r.Cr = rowsOf(-Mr * A.bottomRightCorner(nu, nu));
  r.Kr = rowsOf(-Mr * A.bottomLeftCorner(nu, nq));
}

} // namespace

std::optional<std::vector<size_t>>
dependentSpeeds(const Matrix &C, const std::vector<size_t> &independent, std::string &why) {
  size_t n = C.empty() ? 0 : C[0].size();
  return dependentColumns(toEigen(C, C.size(), n), independent, why);
}

ConstrainedLinearizer::ConstrainedLinearizer(const Equations &eq, std::vector<double> params)
    : equations_(eq), params_(std::move(params)), n_(eq.coordinates.size()),
      m_(eq.constraints.size()), layout_(linearizationLayout(eq, params_.size())) {
  sym::Context &c = eq.T.context();
  auto [byQ, byQd, qdd] = coordinatePartials(eq);
  // E = M q'' - f - C^T lambda and G = C q'' - gamma, with q'' and lambda symbols.
  std::vector<sym::Expr> E, G;
  for (size_t j = 0; j < n_; ++j) {
    std::vector<sym::Expr> terms = {-eq.f[j]};
    for (size_t k = 0; k < n_; ++k)
      terms.push_back(eq.M[j][k] * qdd[k]);
    for (size_t i = 0; i < m_; ++i)
      terms.push_back(-eq.constraints[i].C[j] * eq.multipliers[i]);
    E.push_back(c.add(terms));
  }
  for (const Equations::Constraint &k : eq.constraints) {
    std::vector<sym::Expr> terms = {-k.gamma};
    for (size_t j = 0; j < n_; ++j)
      terms.push_back(k.C[j] * qdd[j]);
    G.push_back(c.add(terms));
  }
  // The values first, on their own: the derivatives need the q'' and
  // lambda that the values give, so they are a second program.
  std::vector<sym::Expr> out(eq.f.begin(), eq.f.end());
  for (const Equations::Constraint &k : eq.constraints)
    out.push_back(k.gamma);
  for (size_t j = 0; j < n_; ++j)
    out.insert(out.end(), eq.M[j].begin(), eq.M[j].end());
  for (const Equations::Constraint &k : eq.constraints)
    out.insert(out.end(), k.C.begin(), k.C.end());
  auto index = [this](const sym::SymbolInfo &s) { return layout_.index(s); };
  values_ = sym::Program(out, index);
  out.clear();
  auto jacobian = [&](const std::vector<sym::Expr> &rows, std::vector<sym::Differentiator> &by) {
    for (const sym::Expr &row : rows)
      for (size_t k = 0; k < n_; ++k)
        out.push_back(by[k](row));
  };
  jacobian(E, byQ);
  jacobian(E, byQd);
  jacobian(G, byQ);
  jacobian(G, byQd);
  std::vector<sym::Expr> psi;
  for (const Equations::Constraint &k : eq.constraints)
    psi.push_back(k.psi);
  jacobian(psi, byQ);
  derivatives_ = sym::Program(out, index);
}

std::optional<ReducedLinearization> ConstrainedLinearizer::at(const State &state,
                                                              const IndependentChoice &choice,
                                                              std::string &error) const {
  size_t n = n_, m = m_;
  auto N = static_cast<long>(n), Mc = static_cast<long>(m);
  std::vector<double> inputs = layout_.inputs(params_, state);
  Blocks b;
  b.readValues(values_.evaluate(inputs), n, m);

  // The accelerations and multipliers at the state, then the Jacobians there.
  ReducedLinearization r;
  r.qdd.assign(n, 0.0);
  r.lambda.assign(m, 0.0);
  {
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> M = b.M, C = b.C;
    if (solveConstrained(n, m, M.data(), b.f.data(), C.data(), b.gamma.data(), r.qdd.data(),
                         r.lambda.data()) != kStatusOk) {
      error = "the equations of the first kind are singular at the state";
      return std::nullopt;
    }
  }
  for (size_t k = 0; k < n; ++k)
    inputs[layout_.params + 2 * n + k] = r.qdd[k];
  for (size_t i = 0; i < m; ++i)
    inputs[layout_.multiplier(i)] = r.lambda[i];
  b.readDerivatives(derivatives_.evaluate(inputs), n, m);

  std::optional<std::pair<Dense, Dense>> F = sensitivities(b);
  if (!F) {
    error = "the equations of the first kind are singular at the state";
    return std::nullopt;
  }
  const Dense Fq = F->first.topRows(N), Fqd = F->second.topRows(N);
  const Dense Lq = F->first.bottomRows(Mc), Lqd = F->second.bottomRows(Mc);

  // The holonomic rows (with the integrable velocity constraints, whose rows
  // of C are dPhi/dq) choose the independent coordinates, all rows the speeds.
  std::vector<size_t> holonomicRows;
  for (size_t i = 0; i < m; ++i)
    if (equations_.constraints[i].holonomic || equations_.constraints[i].integrable)
      holonomicRows.push_back(i);
  // Redundant constraints leave out the rows that depend on others: the
  // motions they allow are those of the rest.
  Dense H = pickRows(b.C, holonomicRows);
  H = pickRows(H, independentRows(H));
  const std::vector<size_t> kept = independentRows(b.C);
  const Dense Cu = pickRows(b.C, kept), psiq = pickRows(b.psiq, kept);
  const long Mu = Cu.rows();
  std::string why;
  auto dependentQ = dependentColumns(H, choice.coordinates, why);
  if (!dependentQ) {
    error = "independent coordinates: " + why;
    return std::nullopt;
  }
  auto dependentU = dependentColumns(Cu, choice.speeds, why);
  if (!dependentU) {
    error = "independent speeds: " + why;
    return std::nullopt;
  }
  r.chosen = !choice.coordinates.empty() || !choice.speeds.empty();
  r.coordinates = complement(*dependentQ, n);
  r.speeds = complement(*dependentU, n);
  Dense Pq = followMap(H, *dependentQ, r.coordinates);
  Dense Pu = followMap(Cu, *dependentU, r.speeds);
  // The dependent speeds also follow the coordinates: C_d dq'_d = -psi_q dq.
  Dense R = Dense::Zero(N, N);
  if (Mu > 0) {
    Dense Cd(Mu, Mu);
    for (long c = 0; c < Mu; ++c)
      Cd.col(c) = Cu.col(static_cast<long>((*dependentU)[static_cast<size_t>(c)]));
    Dense solved = -Eigen::FullPivLU<Dense>(Cd).solve(psiq);
    for (long c = 0; c < Mu; ++c)
      R.row(static_cast<long>((*dependentU)[static_cast<size_t>(c)])) = solved.row(c);
  }
  assemble(r, b.M, Pq, Pu, R, Fq, Fqd);
  // The state's maps: dq = Pq dq_i, dq' = R Pq dq_i + Pu du_i, and q'' and
  // lambda through their sensitivities.
  auto nq = Pq.cols(), nu = Pu.cols();
  Dense Tq = Dense::Zero(N, nq + nu), Tqd(N, nq + nu);
  Tq.leftCols(nq) = Pq;
  Tqd << R * Pq, Pu;
  Dense Tqdd = Fq * Tq + Fqd * Tqd, Tl = Lq * Tq + Lqd * Tqd;
  r.stateQ = rowsOf(Tq), r.stateQd = rowsOf(Tqd), r.stateQdd = rowsOf(Tqdd);
  r.stateLambda = rowsOf(Tl);
  return r;
}

std::vector<size_t> complement(const std::vector<size_t> &dependent, size_t n) {
  std::vector<size_t> rest;
  for (size_t j = 0; j < n; ++j)
    if (std::find(dependent.begin(), dependent.end(), j) == dependent.end())
      rest.push_back(j);
  return rest;
}

} // namespace mech::mechanics
