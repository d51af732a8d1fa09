// Statics: Gauss-Newton on the reduced equilibrium conditions N^T f(P) = 0,
// N an orthonormal basis of the null space of C at q*. Working in the null
// space keeps the unknowns to the params (the multipliers follow by least
// squares afterwards), so the counts that decide whether the question is
// well posed are those of the statics problem itself: n - m conditions on
// k unknowns.
#include "mechanics/Statics.h"

#include "mechanics/ConstraintProjection.h"

#include "symbolic/Diff.h"
#include "symbolic/Program.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>

namespace mech::mechanics {

namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

constexpr int kMaxIterations = 100;
// Singular values below this fraction of the largest (after the columns are
// scaled to unit norm, so that unknowns in N and N*m compare) count as zero.
constexpr double kRankTolerance = 1e-9;
// A residual below this fraction of the forces involved is zero.
constexpr double kBalanceTolerance = 1e-9;
constexpr double kOnConstraintTolerance = 1e-8;

// f at rest, df/dP (one column per unknown), the rows of C and Phi at q*.
struct Sample {
  VectorXd f;
  MatrixXd J, C;
  VectorXd phi;
};

class Compiled {
public:
  Compiled(const Equations &eq, const std::vector<sym::Expr> &unknowns, size_t params)
      : n_(eq.coordinates.size()), m_(eq.constraints.size()), k_(unknowns.size()) {
    layout_.params = params;
    layout_.coordinates = n_;
    layout_.multipliers = m_;
    std::vector<sym::Expr> outputs(eq.f.begin(), eq.f.end());
    // One differentiator per unknown, so that its memo serves all of f.
    std::vector<sym::Differentiator> byUnknown;
    for (const sym::Expr &p : unknowns)
      byUnknown.push_back(sym::partial(p));
    for (size_t j = 0; j < n_; ++j)
      for (size_t c = 0; c < k_; ++c)
        outputs.push_back(byUnknown[c](eq.f[j]));
    for (const Equations::Constraint &k : eq.constraints)
      outputs.insert(outputs.end(), k.C.begin(), k.C.end());
    for (const Equations::Constraint &k : eq.constraints)
      outputs.push_back(k.holonomic ? k.phi : k.psi);
    program_ = sym::Program(outputs, [this](const sym::SymbolInfo &s) { return layout_.index(s); });
  }

  Sample at(const std::vector<double> &params, const State &state) const {
    State atRest{state.t, state.q, {}}; // the velocities stay 0
    std::vector<double> out = program_.evaluate(layout_.inputs(params, atRest));
    Sample s;
    auto N = static_cast<long>(n_), M = static_cast<long>(m_), K = static_cast<long>(k_);
    s.f = Eigen::Map<const VectorXd>(out.data(), N);
    s.J.resize(N, K);
    for (long j = 0; j < N; ++j)
      for (long c = 0; c < K; ++c)
        s.J(j, c) = out[static_cast<size_t>(N + j * K + c)];
    size_t at = n_ + n_ * k_;
    s.C.resize(M, N);
    for (long i = 0; i < M; ++i)
      for (long j = 0; j < N; ++j)
        s.C(i, j) = out[at + static_cast<size_t>(i * N + j)];
    at += m_ * n_;
    s.phi = Eigen::Map<const VectorXd>(out.data() + at, M);
    return s;
  }

private:
  size_t n_, m_, k_;
  InputLayout layout_;
  sym::Program program_;
};

// The column norms of J, with 1 for a zero column (it scales nothing).
VectorXd columnScales(const MatrixXd &J) {
  VectorXd d(J.cols());
  for (long c = 0; c < J.cols(); ++c) {
    double norm = J.col(c).norm();
    d(c) = norm > 0 ? norm : 1.0;
  }
  return d;
}

bool dependsOn(const sym::Expr &e, const sym::Expr &symbol) {
  return !sym::diff(e, symbol).isZero();
}

// An unknown inside a constraint would move the constraint surface, and
// q* with it: that is a different question from balancing q*. Reports each
// such pair.
bool unknownsMoveNoConstraint(const Equations &eq, const std::vector<sym::Expr> &unknowns,
                              const std::vector<std::string> &paramNames,
                              const StaticsProblem &problem, Diagnostics &diagnostics,
                              Location where) {
  bool ok = true;
  for (const Equations::Constraint &c : eq.constraints)
    for (size_t u = 0; u < unknowns.size(); ++u) {
      bool shapes = dependsOn(c.holonomic ? c.phi : c.psi, unknowns[u]);
      for (const sym::Expr &entry : c.C)
        shapes = shapes || dependsOn(entry, unknowns[u]);
      if (shapes) {
        diagnostics.error(where, "param '" + paramNames[problem.unknowns[u]] +
                                     "' appears in constraint '" + c.name +
                                     "': solve can only vary params that do not move the "
                                     "constraints");
        ok = false;
      }
    }
  return ok;
}

// The compiled model at q* with the unknowns set to given values and the
// other params at the problem's.
class Sampler {
public:
  Sampler(const Compiled &compiled, const StaticsProblem &problem)
      : compiled_(compiled), problem_(problem), params_(problem.params) {}

  Sample operator()(const VectorXd &values) {
    for (size_t u = 0; u < problem_.unknowns.size(); ++u)
      params_[problem_.unknowns[u]] = values(static_cast<long>(u));
    return compiled_.at(params_, problem_.state);
  }

private:
  const Compiled &compiled_;
  const StaticsProblem &problem_;
  std::vector<double> params_;
};

// A model undefined at q* has no balance to solve for.
bool finiteAt(const Equations &eq, const Sample &s, Diagnostics &diagnostics, Location where) {
  NonFiniteValues bad;
  bad.check("f", eq.coordinates, std::vector<double>(s.f.data(), s.f.data() + s.f.size()));
  if (!bad.empty() || !s.J.allFinite() || !s.C.allFinite()) {
    diagnostics.error(where, "the model is not finite at this configuration" +
                                 (bad.empty() ? std::string(" (its derivatives are not)")
                                              : " (" + bad.text() + ")") +
                                 ": no value balances it");
    return false;
  }
  return true;
}

// The configuration must lie on the holonomic constraints; the largest
// |Phi| goes into the result.
bool onConstraints(const Equations &eq, const State &state, const Sample &s,
                   StaticsSolution &result, Diagnostics &diagnostics, Location where) {
  size_t n = eq.coordinates.size(), m = eq.constraints.size();
  VectorXd q = Eigen::Map<const VectorXd>(state.q.data(), static_cast<long>(n));
  bool ok = true;
  for (size_t i = 0; i < m; ++i) {
    if (!eq.constraints[i].holonomic)
      continue;
    double phi = std::abs(s.phi(static_cast<long>(i)));
    result.constraintResidual = std::max(result.constraintResidual, phi);
    double tolerance =
        kOnConstraintTolerance * (1 + s.C.row(static_cast<long>(i)).cwiseAbs().dot(q.cwiseAbs()));
    if (!(phi <= tolerance)) {
      diagnostics.error(where, "the configuration is not on constraint '" + eq.constraints[i].name +
                                   "' (Phi = " + std::to_string(s.phi(static_cast<long>(i))) +
                                   "): give coordinates that satisfy it");
      ok = false;
    }
  }
  return ok;
}

// N: the directions the constraints allow (rows of C scaled to unit norm,
// so that the rank decision does not depend on their units). Redundant
// constraints (dependent rows; the configuration is on them, so they agree)
// allow what their independent rows allow.
MatrixXd allowedDirections(const MatrixXd &C, size_t m, size_t n) {
  MatrixXd N = MatrixXd::Identity(static_cast<long>(n), static_cast<long>(n));
  if (m > 0) {
    MatrixXd Cs = C;
    for (long i = 0; i < Cs.rows(); ++i)
      if (Cs.row(i).norm() > 0)
        Cs.row(i) /= Cs.row(i).norm();
    Eigen::JacobiSVD<MatrixXd> svd(Cs, Eigen::ComputeFullV);
    const VectorXd &sigma = svd.singularValues();
    long rank = 0;
    for (long i = 0; i < sigma.size(); ++i)
      if (sigma(i) > kRankTolerance * std::max(sigma(0), 1e-300))
        ++rank;
    N = svd.matrixV().rightCols(static_cast<long>(n) - rank);
  }
  return N;
}

// Gauss-Newton with backtracking on |N^T f|; the step is the minimum-norm
// least-squares solution of the linearized equations in scaled unknowns.
// Counts its iterations into `iterations`.
bool gaussNewton(const MatrixXd &N, Sampler &sample, size_t k, VectorXd &values, Sample &at,
                 int &iterations) {
  for (int iteration = 0; iteration < kMaxIterations; ++iteration) {
    ++iterations;
    VectorXd r = N.transpose() * at.f;
    MatrixXd Jr = N.transpose() * at.J;
    if (Jr.rows() == 0 || k == 0)
      return true;
    VectorXd d = columnScales(Jr);
    Eigen::CompleteOrthogonalDecomposition<MatrixXd> cod(Jr * d.asDiagonal().inverse());
    cod.setThreshold(kRankTolerance);
    VectorXd step = d.asDiagonal().inverse() * cod.solve(-r);
    double scale = at.f.norm();
    for (long c = 0; c < values.size(); ++c)
      scale = std::max(scale, Jr.col(c).norm() * std::abs(values(c)));
    double change = 0;
    for (long c = 0; c < values.size(); ++c)
      change += Jr.col(c).norm() * std::abs(step(c));
    if (!std::isfinite(change))
      return false;
    if (change <= 1e-14 * scale || r.norm() == 0)
      return true;
    double alpha = 1;
    for (int halving = 0; halving < 40; ++halving, alpha /= 2) {
      VectorXd trial = values + alpha * step;
      Sample next = sample(trial);
      if ((N.transpose() * next.f).norm() <= r.norm() || halving == 39) {
        values = trial;
        at = next;
        break;
      }
    }
    if (change <= 1e-12 * scale && alpha == 1)
      return true;
  }
  return false;
}

// Rank and free directions at the solution: the rank of N^T df/dP, and an
// orthonormal basis of its null space (in the unknowns' own units).
size_t analyse(const MatrixXd &N, const Sample &at, size_t k, MatrixXd &free) {
  MatrixXd Jr = N.transpose() * at.J;
  size_t rank = 0;
  free.resize(static_cast<long>(k), 0);
  if (k == 0)
    return rank;
  VectorXd d = columnScales(Jr);
  if (Jr.rows() == 0) {
    free = MatrixXd::Identity(static_cast<long>(k), static_cast<long>(k));
    return rank;
  }
  Eigen::JacobiSVD<MatrixXd> svd(Jr * d.asDiagonal().inverse(), Eigen::ComputeFullV);
  const VectorXd &sigma = svd.singularValues();
  for (long i = 0; i < sigma.size(); ++i)
    if (sigma(i) > kRankTolerance * std::max(sigma(0), 1e-300))
      ++rank;
  // Null vectors of the scaled matrix, back in the unknowns' own units.
  MatrixXd raw = d.asDiagonal().inverse() * svd.matrixV().rightCols(static_cast<long>(k - rank));
  if (raw.cols() > 0)
    free = Eigen::HouseholderQR<MatrixXd>(raw).householderQ() *
           MatrixXd::Identity(static_cast<long>(k), raw.cols());
  return rank;
}

// Under-determined: of all the values that balance, the one of minimum
// norm. Removes the components along the free directions, then polishes
// (for equations nonlinear in the unknowns the directions bend). An unknown
// that does not act on the balance at all keeps its value: zero would be
// the minimum norm, but says nothing about it.
void minimumNorm(const MatrixXd &N, Sampler &sample, size_t k, VectorXd &P, Sample &s,
                 MatrixXd &free, StaticsSolution &result) {
  MatrixXd Jr = N.transpose() * s.J;
  VectorXd keep = VectorXd::Zero(P.size());
  for (long c = 0; c < P.size(); ++c)
    if (Jr.rows() == 0 || Jr.col(c).norm() == 0) {
      result.inert.push_back(static_cast<size_t>(c));
      keep(c) = P(c);
    }
  VectorXd moving = P - keep;
  P = keep + moving - free * (free.transpose() * moving);
  for (size_t c : result.inert)
    P(static_cast<long>(c)) = keep(static_cast<long>(c));
  s = sample(P);
  result.converged = gaussNewton(N, sample, k, P, s, result.iterations) && result.converged;
  result.rank = analyse(N, s, k, free);
}

// The free directions as unit vectors with a readable sign: the first
// clearly non-zero component positive.
void listFreeDirections(const MatrixXd &free, StaticsSolution &result) {
  for (long c = 0; c < free.cols(); ++c) {
    VectorXd v = free.col(c);
    double largest = v.cwiseAbs().maxCoeff();
    for (long i = 0; i < v.size(); ++i)
      if (std::abs(v(i)) > 1e-9 * largest) {
        if (v(i) < 0)
          v = -v;
        break;
      }
    result.freeDirections.emplace_back(v.data(), v.data() + v.size());
  }
}

// Whether the values found balance q*, judged against the size of the
// forces at the solution and at the start values P0; and so how the
// problem is determined. Leaves s sampled at P.
void judgeBalance(const MatrixXd &N, Sampler &sample, size_t k, const VectorXd &P,
                  const VectorXd &P0, Sample &s, StaticsSolution &result) {
  VectorXd r = N.transpose() * s.f;
  result.residual = r.norm();
  result.forceScale = std::max(s.f.norm(), sample(P0).f.norm());
  s = sample(P);
  MatrixXd Jr = N.transpose() * s.J;
  for (long c = 0; c < P.size(); ++c)
    result.forceScale = std::max(
        {result.forceScale, Jr.col(c).norm() * std::abs(P(c)), Jr.col(c).norm() * std::abs(P0(c))});
  result.balanced = result.residual <= kBalanceTolerance * result.forceScale;
  if (result.rank < k)
    result.determined = StaticsSolution::Determined::Under;
  else if (!result.balanced)
    result.determined = StaticsSolution::Determined::Over;
}

// The static reactions and what stays unbalanced per coordinate.
void reactions(const Sample &s, size_t m, StaticsSolution &result) {
  VectorXd imbalance = s.f;
  if (m > 0) {
    // C^T lambda = -f: exact when balanced, least squares otherwise; of
    // the splits redundant constraints allow, the least-norm one.
    MatrixXd Ct = s.C.transpose();
    Eigen::CompleteOrthogonalDecomposition<MatrixXd> cod(Ct);
    cod.setThreshold(kRankTolerance);
    VectorXd lambda = cod.solve(-s.f);
    VectorXd reaction = Ct * lambda;
    imbalance += reaction;
    result.lambda.assign(lambda.data(), lambda.data() + lambda.size());
    result.reaction.assign(reaction.data(), reaction.data() + reaction.size());
  }
  result.imbalance.assign(imbalance.data(), imbalance.data() + imbalance.size());
}

} // namespace

const char *determinedName(StaticsSolution::Determined determined) {
  switch (determined) {
  case StaticsSolution::Determined::Under:
    return "under";
  case StaticsSolution::Determined::Over:
    return "over";
  default:
    return "exactly";
  }
}

std::optional<StaticsSolution> solveStatics(const Equations &eq,
                                            const std::vector<sym::Expr> &paramSymbols,
                                            const std::vector<std::string> &paramNames,
                                            const StaticsProblem &problem, Diagnostics &diagnostics,
                                            Location where) {
  size_t n = eq.coordinates.size(), m = eq.constraints.size(), k = problem.unknowns.size();
  std::vector<sym::Expr> unknowns;
  for (size_t u : problem.unknowns)
    unknowns.push_back(paramSymbols[u]);
  if (!unknownsMoveNoConstraint(eq, unknowns, paramNames, problem, diagnostics, where))
    return std::nullopt;

  Compiled compiled(eq, unknowns, problem.params.size());
  Sampler sample(compiled, problem);
  VectorXd P(static_cast<long>(k));
  for (size_t u = 0; u < k; ++u)
    P(static_cast<long>(u)) = problem.params[problem.unknowns[u]];
  const VectorXd P0 = P;

  StaticsSolution result;
  Sample s = sample(P);
  if (!finiteAt(eq, s, diagnostics, where) ||
      !onConstraints(eq, problem.state, s, result, diagnostics, where))
    return std::nullopt;
  const MatrixXd N = allowedDirections(s.C, m, n);
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  RowMajor rows = s.C;
  result.redundantNote = redundantMultipliersNote(eq, rows.data(), MultiplierSplit::LeastNorm);
  result.equations = static_cast<size_t>(N.cols());

  result.converged = gaussNewton(N, sample, k, P, s, result.iterations);
  if (!P.allFinite()) {
    diagnostics.error(where, "the equilibrium equations could not be solved from the params' "
                             "default values (Newton diverged); try other values with --set");
    return std::nullopt;
  }
  MatrixXd free;
  result.rank = analyse(N, s, k, free);
  if (result.rank < k)
    minimumNorm(N, sample, k, P, s, free, result);
  listFreeDirections(free, result);
  judgeBalance(N, sample, k, P, P0, s, result);
  result.values.assign(P.data(), P.data() + P.size());
  reactions(s, m, result);
  return result;
}

} // namespace mech::mechanics
