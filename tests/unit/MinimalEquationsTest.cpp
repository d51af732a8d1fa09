// The minimal equations (mechanics/MinimalEquations.h) against the
// equations of the first kind, solved here with Eigen: at random states
// (q, u), with the dependent speeds from the printed kinematic equations,
//  - the kinematic equations satisfy every velocity constraint psi = 0;
//  - M_r equals B^T M B with B from the numeric constraint Jacobian
//    (B_v = -C_v^-1 C_u);
//  - M_r u' = f_r holds with u' the independent rows of the q'' that
//    [M, -C^T; C, 0] [q''; lambda] = [f; gamma] gives;
// for the expressions as derived and as displayed (the `where` names
// substituted back), so that what `mech equations --minimal` prints is
// what is checked. Also the symbolic elimination on its own.
#include "MechanicsTestSupport.h"

#include "driver/InitialState.h"
#include "mechanics/ConstrainedLinearization.h"
#include "mechanics/MinimalEquations.h"
#include "mechanics/SymbolicElimination.h"
#include "symbolic/Subs.h"
#include "symbolic/ZeroTest.h"

#include <Eigen/Dense>

#include <cstdlib>
#include <limits>

namespace mech::test {
namespace {

using mechanics::MinimalEquations;
using sym::Expr;
using Dense = Eigen::MatrixXd;

// The display forms with their named subexpressions substituted back, in
// the order that each definition uses only the names before it.
std::vector<Expr> withoutNames(const std::vector<Expr> &exprs,
                               const std::vector<sym::NamedSubexpression> &where) {
  std::vector<std::pair<Expr, Expr>> expanded;
  for (const sym::NamedSubexpression &named : where) {
    sym::Substitution s;
    for (const auto &[name, value] : expanded)
      s.set(name, value);
    expanded.emplace_back(named.name, s(named.definition));
  }
  sym::Substitution s;
  for (const auto &[name, value] : expanded)
    s.set(name, value);
  std::vector<Expr> out;
  for (const Expr &e : exprs)
    out.push_back(s(e));
  return out;
}

// The kinematic equations, M_r (row by row) and f_r, in one list.
std::vector<Expr> flattened(const MinimalEquations &m) {
  std::vector<Expr> out = m.kinematics;
  for (const auto &row : m.Mr)
    out.insert(out.end(), row.begin(), row.end());
  out.insert(out.end(), m.fr.begin(), m.fr.end());
  return out;
}

// What the first-kind equations give at (q, q'): M, f, C, gamma and psi.
struct FirstKind {
  Dense M, C;
  Eigen::VectorXd f, gamma, psi;
};

FirstKind firstKind(const mechanics::Equations &eq, const std::vector<double> &params,
                    const mechanics::State &s) {
  size_t n = eq.coordinates.size(), m = eq.constraints.size();
  std::vector<Expr> exprs(eq.f.begin(), eq.f.end());
  for (const auto &row : eq.M)
    exprs.insert(exprs.end(), row.begin(), row.end());
  for (const auto &k : eq.constraints) {
    exprs.insert(exprs.end(), k.C.begin(), k.C.end());
    exprs.push_back(k.gamma);
    exprs.push_back(k.psi);
  }
  std::vector<double> v = evaluateExpressions(eq, exprs, params, s);
  FirstKind r{Dense(n, n), Dense(m, n), Eigen::VectorXd(n), Eigen::VectorXd(m), Eigen::VectorXd(m)};
  size_t at = 0;
  for (size_t j = 0; j < n; ++j)
    r.f(static_cast<long>(j)) = v[at++];
  for (size_t j = 0; j < n; ++j)
    for (size_t k = 0; k < n; ++k)
      r.M(static_cast<long>(j), static_cast<long>(k)) = v[at++];
  for (size_t i = 0; i < m; ++i) {
    for (size_t j = 0; j < n; ++j)
      r.C(static_cast<long>(i), static_cast<long>(j)) = v[at++];
    r.gamma(static_cast<long>(i)) = v[at++];
    r.psi(static_cast<long>(i)) = v[at++];
  }
  return r;
}

// Checks the minimal equations `m` (their expressions `exprs`, flattened)
// at `samples` random states with angles and positions within `spread`.
void checkAgainstFirstKind(const mechanics::Equations &eq, const std::vector<double> &params,
                           const MinimalEquations &m, const std::vector<Expr> &exprs, double spread,
                           int samples) {
  size_t n = eq.coordinates.size(), k = m.independent.size(), d = m.dependent.size();
  Lcg random(12345);
  for (int sample = 0; sample < samples; ++sample) {
    mechanics::State s = state(std::vector<double>(n), std::vector<double>(n));
    for (size_t j = 0; j < n; ++j)
      s.q[j] = random.uniform(-spread, spread);
    for (size_t a = 0; a < k; ++a)
      s.qd[m.independent[a]] = random.uniform(-2, 2);
    // The dependent speeds must not be read: NaN makes any use show.
    for (size_t j : m.dependent)
      s.qd[j] = std::numeric_limits<double>::quiet_NaN();
    std::vector<double> v = evaluateExpressions(eq, exprs, params, s);
    for (size_t j = 0; j < d; ++j)
      s.qd[m.dependent[j]] = v[j];
    INFO("sample " << sample);
    FirstKind fk = firstKind(eq, params, s);
    for (long i = 0; i < fk.psi.size(); ++i)
      MECH_CHECK_NEAR(fk.psi(i), 0.0, 1e-10, 1.0);
    // B from the numeric Jacobian.
    Dense Cv(fk.C.rows(), static_cast<long>(d)), Cu(fk.C.rows(), static_cast<long>(k));
    for (size_t j = 0; j < d; ++j)
      Cv.col(static_cast<long>(j)) = fk.C.col(static_cast<long>(m.dependent[j]));
    for (size_t a = 0; a < k; ++a)
      Cu.col(static_cast<long>(a)) = fk.C.col(static_cast<long>(m.independent[a]));
    Dense Bv = -Cv.fullPivLu().solve(Cu),
          B = Dense::Zero(static_cast<long>(n), static_cast<long>(k));
    for (size_t a = 0; a < k; ++a)
      B(static_cast<long>(m.independent[a]), static_cast<long>(a)) = 1;
    for (size_t j = 0; j < d; ++j)
      B.row(static_cast<long>(m.dependent[j])) = Bv.row(static_cast<long>(j));
    Dense expectedMr = B.transpose() * fk.M * B;
    // The first kind: [M, -C^T; C, 0] [q''; lambda] = [f; gamma].
    long N = static_cast<long>(n), Mc = fk.C.rows();
    Dense K = Dense::Zero(N + Mc, N + Mc);
    K.topLeftCorner(N, N) = fk.M;
    K.topRightCorner(N, Mc) = -fk.C.transpose();
    K.bottomLeftCorner(Mc, N) = fk.C;
    Eigen::VectorXd rhs(N + Mc);
    rhs << fk.f, fk.gamma;
    Eigen::VectorXd qdd = K.fullPivLu().solve(rhs).head(N);
    double scale = expectedMr.cwiseAbs().maxCoeff();
    for (size_t a = 0; a < k; ++a) {
      double lhs = 0;
      for (size_t b = 0; b < k; ++b) {
        double Mr = v[d + a * k + b];
        MECH_CHECK_NEAR(Mr, expectedMr(static_cast<long>(a), static_cast<long>(b)), 1e-9, scale);
        lhs += Mr * qdd(static_cast<long>(m.independent[b]));
      }
      double fr = v[d + k * k + a];
      MECH_CHECK_NEAR(lhs, fr, 1e-8, scale * qdd.cwiseAbs().maxCoeff() + std::abs(fr));
    }
  }
}

struct Case {
  std::string file;
  std::vector<std::string> independent; // speeds; empty: pivoting at init
  double spread;
};

void checkExample(const Case &c) {
  INFO(c.file);
  auto loaded = loadExample(c.file);
  const mechanics::Equations &eq = loaded->equations();
  std::vector<double> params = loaded->paramValues(0);
  // Where the command chooses: the model's init configuration.
  std::vector<std::string> notes;
  auto init = driver::consistentState(*loaded, "", driver::Velocities::GivenOrInit, notes);
  REQUIRE(init);
  mechanics::Matrix C = mechanics::constraintJacobianAt(eq, params, *init);
  std::vector<size_t> independent;
  for (const std::string &name : c.independent)
    independent.push_back(static_cast<size_t>(
        std::find(eq.coordinates.begin(), eq.coordinates.end(), name) - eq.coordinates.begin()));
  std::string why;
  auto dependent = mechanics::dependentSpeeds(C, independent, why);
  INFO(why);
  REQUIRE(dependent);
  REQUIRE(dependent->size() == eq.constraints.size());
  auto minimal = mechanics::minimalEquations(eq, *dependent, C);
  REQUIRE(minimal);
  checkAgainstFirstKind(eq, params, *minimal, flattened(*minimal), c.spread, 8);
  MinimalEquations shown = mechanics::readableMinimal(*minimal);
  checkAgainstFirstKind(eq, params, shown, withoutNames(flattened(shown), shown.where), c.spread,
                        8);
}

TEST_CASE("minimal equations agree with the first kind", "[minimal]") {
  std::vector<Case> cases{
      {"rolling_coin.mech", {}, 3.0},       {"rolling_coin.mech", {"x", "heading", "lean"}, 1.0},
      {"knife_edge.mech", {}, 1.2},         {"rolling_disk.mech", {}, 3.0},
      {"cartesian_pendulum.mech", {}, 0.5}, {"whipple_bicycle.mech", {}, 0.3},
  };
  // The bicycle's second choice in the release pass only: the sanitizer
  // pass (scripts/test.sh sets MECH_SANITIZER_PASS) derives the bicycle
  // once, 25 s under ASan, with the same code.
  if (!std::getenv("MECH_SANITIZER_PASS"))
    cases.push_back({"whipple_bicycle.mech", {"lean", "steer", "thR"}, 0.3});
  for (const Case &c : cases)
    checkExample(c);
}

TEST_CASE("the bicycle's independent speeds are its lean, steer and rear wheel rates",
          "[minimal]") {
  auto loaded = loadExample("whipple_bicycle.mech");
  const mechanics::Equations &eq = loaded->equations();
  std::vector<double> params = loaded->paramValues(0);
  size_t n = eq.coordinates.size();
  mechanics::Matrix C = mechanics::constraintJacobianAt(
      eq, params, state(std::vector<double>(n), std::vector<double>(n)));
  std::string why;
  auto dependent = mechanics::dependentSpeeds(C, {}, why);
  REQUIRE(dependent);
  auto minimal = mechanics::minimalEquations(eq, *dependent, C);
  REQUIRE(minimal);
  std::vector<std::string> names;
  for (size_t j : minimal->independent)
    names.push_back(eq.coordinates[j]);
  CHECK(names == std::vector<std::string>{"lean", "steer", "thR"});
}

TEST_CASE("symbolic elimination solves a sparse system exactly", "[minimal]") {
  sym::Context c;
  auto p = [&](const char *name, int i) { return c.symbol(name, sym::SymbolKind::Param, i); };
  Expr a = p("a", 0), b = p("b", 1), d = p("d", 2), e = p("e", 3), f = p("f", 4), g = p("g", 5);
  Expr zero = c.zero(), one = c.one();
  std::vector<std::vector<Expr>> A = {
      {a, b, zero}, {zero, one, d}, {e, zero, sym::apply(sym::Fn::Sin, f)}};
  std::vector<Expr> rhs = {g, a * g, one};
  std::vector<std::vector<double>> values = {{1, 2, 0}, {0, 1, 3}, {4, 0, 0.5}};
  auto x = mechanics::solveByElimination(A, rhs, values);
  REQUIRE(x);
  for (size_t i = 0; i < 3; ++i) {
    Expr row = zero;
    for (size_t j = 0; j < 3; ++j)
      row = row + A[i][j] * (*x)[j];
    CHECK(sym::areEqual(row, rhs[i]));
  }
  // Singular at the reference state: no regular pivot is left.
  std::vector<std::vector<Expr>> singular = {{a, b}, {d, e}};
  CHECK_FALSE(mechanics::solveByElimination(singular, {g, g}, {{1, 2}, {2, 4}}));
}

} // namespace
} // namespace mech::test
