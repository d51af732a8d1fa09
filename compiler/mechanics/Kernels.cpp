// The programs behind the kernels, and the interpreter back end.
#include "mechanics/Kernels.h"
#include "support/NumberText.h"

#include "mechanics/Evaluation.h"
#include "symbolic/Diff.h"
#include "symbolic/Readable.h"
#include "symbolic/ZeroTest.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace mech::mechanics {

namespace {

// Relative to the largest value of the batch, a value above this at a
// random point shows an entry is not identically zero. A zero that rounding
// leaves above it is only computed, as it would be without the test.
constexpr double kPlainlyNonzero = 1e-6;

// The first `count` outputs of `program` (built from `entries`) replaced by
// 0 where they are proven identically zero; true when any was. The exact
// test (symbolic/ZeroTest.h) runs only on the entries that are not plainly
// nonzero at a random point, in double precision: all 40,200 entries of M
// and f of a 200-link chain are, and testing them exactly would take about
// a second before the first step.
bool zeroProvenZero(std::vector<sym::Expr> &entries, size_t count, const sym::Program &program,
                    size_t inputCount) {
  uint64_t state = 0x9e3779b97f4a7c15ull;
  std::vector<double> inputs(inputCount);
  for (double &x : inputs) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    x = 0.3 + 1.4 * static_cast<double>(state >> 11) * (1.0 / 9007199254740992.0);
  }
  std::vector<double> values = program.evaluate(inputs);
  double largest = 0;
  for (size_t i = 0; i < count; ++i)
    if (std::isfinite(values[i]))
      largest = std::max(largest, std::abs(values[i]));
  std::vector<size_t> candidates;
  std::vector<sym::Expr> tested;
  for (size_t i = 0; i < count; ++i)
    if (!entries[i].isZero() && !(std::abs(values[i]) > kPlainlyNonzero * largest)) {
      candidates.push_back(i);
      tested.push_back(entries[i]);
    }
  std::vector<bool> zero = sym::areIdenticallyZero(tested);
  bool any = false;
  for (size_t k = 0; k < candidates.size(); ++k)
    if (zero[k]) {
      entries[candidates[k]] = entries[candidates[k]].context().zero();
      any = true;
    }
  return any;
}

// Dynamics programs of at most this many instructions are also tried with
// the display forms of M and f. The forms of larger ones cost more time
// before the first step than they are likely to save: the Whipple
// bicycle's (about 3,000 instructions) take half a second and are no
// cheaper; a 40-link chain's (10,000) take a second.
constexpr size_t kReadableFormsBudget = 1500;

// A candidate must be this much cheaper: Program::cost is a rough count,
// and the double pendulum's display forms, 5% cheaper by it, ran 8% slower.
constexpr double kRequiredSaving = 0.9;

// Replaces the first `count` entries by their display forms (the normal
// form, checked equal by the zero test) where that lowers the program's
// weighted operation count (Program::cost): per entry alone first, then
// the whole program against the one it replaces, since sharing between
// entries decides the real count. True when the program was replaced.
bool useCheaperForms(std::vector<sym::Expr> &entries, size_t count, sym::Program &program,
                     const sym::Program::InputMap &inputs) {
  if (program.instructions().size() > kReadableFormsBudget)
    return false;
  std::vector<sym::Expr> forms =
      sym::readableForms(std::vector<sym::Expr>(entries.begin(), entries.begin() + count));
  std::vector<sym::Expr> chosen = entries;
  bool any = false;
  for (size_t i = 0; i < count; ++i) {
    if (forms[i] == entries[i])
      continue;
    if (sym::Program({forms[i]}, inputs).cost() < sym::Program({entries[i]}, inputs).cost()) {
      chosen[i] = forms[i];
      any = true;
    }
  }
  if (!any)
    return false;
  sym::Program candidate(chosen, inputs);
  if (!(candidate.cost() < kRequiredSaving * program.cost()))
    return false;
  entries = std::move(chosen);
  program = std::move(candidate);
  return true;
}

} // namespace

KernelPrograms KernelPrograms::build(const Equations &equations, size_t params, bool cheaperForms) {
  KernelPrograms programs;
  size_t n = equations.coordinates.size(), m = equations.constraints.size();
  programs.coordinates = n;
  programs.params = params;
  programs.constraints = m;
  InputLayout layout{params, n, m};
  auto inputs = [layout](const sym::SymbolInfo &s) { return layout.index(s); };
  std::vector<sym::Expr> dynamics;
  for (size_t j = 0; j < n; ++j)
    for (size_t k = 0; k < n; ++k)
      dynamics.push_back(equations.M[j][k]);
  for (size_t j = 0; j < n; ++j)
    dynamics.push_back(equations.f[j]);
  size_t entriesOfMf = dynamics.size();
  std::vector<sym::Expr> residuals;
  for (const Equations::Constraint &k : equations.constraints) {
    dynamics.insert(dynamics.end(), k.C.begin(), k.C.end());
    residuals.push_back(k.holonomic ? k.phi : k.phi.context().zero());
  }
  for (const Equations::Constraint &k : equations.constraints)
    dynamics.push_back(k.gamma);
  for (const Equations::Constraint &k : equations.constraints)
    residuals.push_back(k.psi);
  for (const Equations::Constraint &k : equations.constraints)
    residuals.insert(residuals.end(), k.C.begin(), k.C.end());
  // Non-ideal reactions: W (m*n) after gamma, C's rows where a constraint
  // has none.
  for (size_t i = 0; i < m; ++i)
    if (!equations.constraints[i].reaction.empty())
      programs.reactionRows.push_back(i);
  if (!programs.reactionRows.empty())
    for (const Equations::Constraint &k : equations.constraints) {
      const std::vector<sym::Expr> &w = k.reaction.empty() ? k.C : k.reaction;
      dynamics.insert(dynamics.end(), w.begin(), w.end());
    }
  programs.dynamics = sym::Program(dynamics, inputs);
  // Entries of M and f proven identically zero are not computed (the top's
  // M[phi, theta]).
  if (zeroProvenZero(dynamics, entriesOfMf, programs.dynamics, layout.size()))
    programs.dynamics = sym::Program(dynamics, inputs);
  // M and f in their display forms where those compute in fewer operations.
  if (cheaperForms)
    useCheaperForms(dynamics, entriesOfMf, programs.dynamics, inputs);
  if (programs.reactionRows.empty()) {
    std::vector<bool> nonzeroM(n * n), nonzeroC(m * n);
    for (size_t i = 0; i < n * n; ++i)
      nonzeroM[i] = !dynamics[i].isZero();
    for (size_t i = 0; i < m * n; ++i)
      nonzeroC[i] = !dynamics[entriesOfMf + i].isZero();
    programs.envelopePlan = runtime::planEnvelopeSolve(n, m, nonzeroM, nonzeroC);
  }
  programs.energy = sym::Program({equations.T, equations.V}, inputs);
  programs.outputs = sym::Program(equations.outputs, inputs);
  std::vector<sym::Expr> momentumForce = equations.momentum;
  momentumForce.insert(momentumForce.end(), equations.force.begin(), equations.force.end());
  programs.momentumForce = sym::Program(momentumForce, inputs);
  programs.residuals = sym::Program(residuals, inputs);
  return programs;
}

// r = (f + C^T lambda - M q'', gamma - C q''), differentiated by q and q'
// with q'' and lambda as free symbols: the kernel sets them to the solved
// values, where r = 0, so that implicit differentiation gives dq''/dx.
void KernelPrograms::addJacobian(const Equations &equations) {
  size_t n = coordinates, m = constraints;
  sym::Context &c = equations.T.context();
  std::vector<sym::Context::Coordinate> q;
  for (size_t k = 0; k < n; ++k)
    q.push_back(c.coordinate(equations.coordinates[k], static_cast<int>(k)));
  std::vector<sym::Expr> r;
  for (size_t j = 0; j < n; ++j) {
    std::vector<sym::Expr> terms{equations.f[j]};
    for (size_t i = 0; i < n; ++i)
      terms.push_back(-(equations.M[j][i] * q[i].qdd));
    for (size_t k = 0; k < m; ++k) {
      const Equations::Constraint &row = equations.constraints[k];
      terms.push_back((row.reaction.empty() ? row.C : row.reaction)[j] * equations.multipliers[k]);
    }
    r.push_back(c.add(terms));
  }
  for (size_t k = 0; k < m; ++k) {
    std::vector<sym::Expr> terms{equations.constraints[k].gamma};
    for (size_t i = 0; i < n; ++i)
      terms.push_back(-(equations.constraints[k].C[i] * q[i].qdd));
    r.push_back(c.add(terms));
  }
  std::vector<sym::Expr> out;
  for (bool velocity : {false, true})
    for (const sym::Expr &row : r)
      for (size_t k = 0; k < n; ++k)
        out.push_back(sym::partial(velocity ? q[k].qd : q[k].q)(row));
  InputLayout layout{params, n, m};
  jacobian = sym::Program(out, [layout](const sym::SymbolInfo &s) { return layout.index(s); });
  hasJacobian = true;
}

namespace {

class InterpretedKernels : public Kernels {
public:
  explicit InterpretedKernels(const KernelPrograms &programs)
      : programs_(programs), layout_{programs.params, programs.coordinates, programs.constraints} {
    coordinates = programs.coordinates;
    params = programs.params;
    constraintCount = programs.constraints;
    hasReactions = !programs.reactionRows.empty();
    outputCount = programs.outputs.outputs().size();
    size_t n = coordinates, m = constraintCount;
    inputs_.assign(layout_.size(), 0.0);
    values_.resize(n * n + n + m * n + m + (hasReactions ? m * n : 0));
    qdd_.resize(n);
    lambda_.resize(m);
  }

  int massMatrix(double t, const double *q, const double *p, double *M) override {
    load(t, q, nullptr, p);
    evaluateDynamics();
    std::copy(values_.begin(), values_.begin() + static_cast<long>(coordinates * coordinates), M);
    return kStatusOk;
  }

  int forcing(double t, const double *x, const double *p, double *f) override {
    size_t n = coordinates;
    load(t, x, x + n, p);
    evaluateDynamics();
    std::copy(values_.data() + n * n, values_.data() + n * n + n, f);
    return kStatusOk;
  }

  int rhs(double t, const double *x, const double *p, double *xdot) override {
    size_t n = coordinates;
    int status = accelerations(t, x, p);
    std::copy(x + n, x + 2 * n, xdot);
    std::copy(qdd_.begin(), qdd_.end(), xdot + n);
    return status;
  }

  int multipliers(double t, const double *x, const double *p, double *lambda) override {
    int status = accelerations(t, x, p);
    std::copy(lambda_.begin(), lambda_.end(), lambda);
    return status;
  }

  int constraints(double t, const double *x, const double *p, double *out) override {
    load(t, x, x + coordinates, p);
    programs_.residuals.evaluate(inputs_.data(), out, scratch_);
    return kStatusOk;
  }

  int energy(double t, const double *x, const double *p, double *TV) override {
    load(t, x, x + coordinates, p);
    programs_.energy.evaluate(inputs_.data(), TV, scratch_);
    return kStatusOk;
  }

  int momentumForce(double t, const double *x, const double *p, double *out) override {
    load(t, x, x + coordinates, p);
    programs_.momentumForce.evaluate(inputs_.data(), out, scratch_);
    return kStatusOk;
  }

  int outputs(double t, const double *x, const double *p, double *out) override {
    int status = accelerations(t, x, p);
    loadSolution();
    programs_.outputs.evaluate(inputs_.data(), out, scratch_);
    return status;
  }

  size_t inconsistentConstraint() const override { return culprit_; }

  int jacobianParts(double t, const double *x, const double *p, double *out) override {
    if (!programs_.hasJacobian)
      return kStatusKernelNotCompiled;
    size_t n = coordinates, m = constraintCount;
    load(t, x, x + n, p);
    evaluateDynamics();
    // M and C before the solve overwrites them in place.
    std::copy(values_.begin(), values_.begin() + static_cast<long>(n * n), out);
    std::copy(values_.begin() + static_cast<long>(n * n + n),
              values_.begin() + static_cast<long>(n * n + n + m * n), out + n * n);
    const size_t reactions = hasReactions ? m * n : 0; // W after C
    std::copy(values_.begin() + static_cast<long>(n * n + n + m * n + m),
              values_.begin() + static_cast<long>(n * n + n + m * n + m + reactions),
              out + n * n + m * n);
    int status = solveLoaded();
    loadSolution();
    programs_.jacobian.evaluate(inputs_.data(), out + n * n + m * n + reactions, scratch_);
    return status;
  }

private:
  void load(double t, const double *q, const double *qd, const double *p) {
    size_t n = coordinates;
    std::copy(p, p + params, inputs_.begin());
    std::copy(q, q + n, inputs_.begin() + static_cast<long>(params));
    if (qd != nullptr)
      std::copy(qd, qd + n, inputs_.begin() + static_cast<long>(params + n));
    inputs_[layout_.time()] = t;
  }
  void evaluateDynamics() { programs_.dynamics.evaluate(inputs_.data(), values_.data(), scratch_); }

  // The solved q'' and multipliers as inputs of the programs that read them.
  void loadSolution() {
    size_t n = coordinates;
    std::copy(qdd_.begin(), qdd_.end(), inputs_.begin() + static_cast<long>(params + 2 * n));
    for (size_t i = 0; i < constraintCount; ++i)
      inputs_[layout_.multiplier(i)] = lambda_[i];
  }

  // q'' (and the multipliers) at x into qdd_ and lambda_.
  int accelerations(double t, const double *x, const double *p) {
    load(t, x, x + coordinates, p);
    evaluateDynamics();
    return solveLoaded();
  }

  // q'' (and the multipliers) from the evaluated dynamics, solved in place.
  int solveLoaded() {
    size_t n = coordinates, m = constraintCount;
    double *M = values_.data(), *f = M + n * n, *C = f + n, *gamma = C + m * n;
    // The runtime's solves, as the generated code calls them (no reactions:
    // KernelPrograms::build plans none with them, and refuses augmented).
    const std::vector<int32_t> &plan = programs_.envelopePlan;
    if (programs_.augmentedSolve)
      return runtime::solveConstrainedAugmented(plan.empty() ? nullptr : plan.data(), n, m, M,
                                                qdd_.data(), lambda_.data());
    if (!plan.empty())
      return runtime::solveConstrainedEnvelope(plan.data(), M, qdd_.data(), lambda_.data());
    if (m == 0) {
      std::copy(f, f + n, qdd_.begin());
      return solveLdlt(n, M, qdd_.data());
    }
    if (hasReactions) {
      const std::vector<size_t> &rows = programs_.reactionRows;
      return runtime::solveWithReactions(n, m, M, f, C, gamma + m, gamma, rows.data(), rows.size(),
                                         qdd_.data(), lambda_.data(), &culprit_);
    }
    return solveConstrained(n, m, M, f, C, gamma, qdd_.data(), lambda_.data());
  }

  const KernelPrograms &programs_;
  InputLayout layout_;
  std::vector<double> inputs_, values_, scratch_, qdd_, lambda_;
  size_t culprit_ = 0;
};

} // namespace

std::unique_ptr<Kernels> interpretedKernels(const KernelPrograms &programs) {
  return std::make_unique<InterpretedKernels>(programs);
}

std::vector<std::string> coordinatesWithoutInertia(const double *M,
                                                   const std::vector<std::string> &names) {
  size_t n = names.size();
  // Over the finite entries: an infinite one is not "all the inertia"
  // (describeMassMatrixFault reports it first).
  double largest = 0;
  for (size_t i = 0; i < n * n; ++i)
    if (std::isfinite(M[i]))
      largest = std::max(largest, std::abs(M[i]));
  std::vector<std::string> result;
  for (size_t j = 0; j < n; ++j) {
    double row = 0;
    for (size_t k = 0; k < n; ++k)
      row = std::max(row, std::abs(M[j * n + k]));
    if (row <= 1e-14 * largest && std::isfinite(row))
      result.push_back(names[j]);
  }
  return result;
}

std::string describeMissingInertia(const std::vector<std::string> &coordinates) {
  if (coordinates.empty())
    return "";
  std::string text = coordinates.size() > 1 ? ": coordinates " : ": coordinate ";
  for (size_t i = 0; i < coordinates.size(); ++i)
    text += (i ? ", '" : "'") + coordinates[i] + "'";
  return text + (coordinates.size() > 1 ? " have no inertia" : " has no inertia");
}

namespace {

std::string shortNumber(double value) {
  return formatNumber(value, 3);
}

// The first entry of M that is not finite, as "M[x,y] = inf", or "".
std::string nonFiniteEntry(const double *M, const std::vector<std::string> &names) {
  size_t n = names.size();
  for (size_t j = 0; j < n; ++j)
    for (size_t k = 0; k < n; ++k)
      if (double v = M[j * n + k]; !std::isfinite(v))
        return "M[" + names[j] + "," + names[k] + "] = " +
               (std::isnan(v) ? "nan"
                : v > 0       ? "inf"
                              : "-inf");
  return "";
}

} // namespace

std::string negativeEnergyDirection(const double *M, const double *C, size_t m,
                                    const std::vector<std::string> &names) {
  auto n = static_cast<long>(names.size());
  Eigen::MatrixXd Mm =
      Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(M, n,
                                                                                               n);
  Eigen::MatrixXd N = Eigen::MatrixXd::Identity(n, n);
  if (m > 0 && C) {
    Eigen::MatrixXd Cm =
        Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
            C, static_cast<long>(m), n);
    Eigen::FullPivLU<Eigen::MatrixXd> lu(Cm);
    N = lu.kernel();
    if (lu.rank() == n)
      return "";
  }
  Eigen::MatrixXd reduced = N.transpose() * (Mm + Mm.transpose()) / 2 * N;
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(reduced);
  if (eigen.info() != Eigen::Success || eigen.eigenvalues().size() == 0)
    return "";
  double largest = eigen.eigenvalues().cwiseAbs().maxCoeff();
  if (!(eigen.eigenvalues()(0) < -1e-12 * largest))
    return "";
  Eigen::VectorXd v = N * eigen.eigenvectors().col(0);
  Eigen::Index at = 0;
  v.cwiseAbs().maxCoeff(&at);
  v /= v(at);
  std::string text;
  for (long j = 0; j < n; ++j)
    if (std::abs(v(j)) > 1e-12)
      text +=
          (text.empty() ? "" : ", ") + names[static_cast<size_t>(j)] + "' = " + shortNumber(v(j));
  return text;
}

std::string describeMassMatrixFault(const double *M, const double *C, size_t m,
                                    const std::vector<std::string> &names,
                                    const std::string &when) {
  if (std::string entry = nonFiniteEntry(M, names); !entry.empty())
    return "the mass matrix is not finite " + when + " (" + entry + ")";
  if (std::string direction = negativeEnergyDirection(M, C, m, names); !direction.empty())
    return "the mass matrix is not positive definite " + when +
           ": the kinetic energy is negative for " + direction;
  std::string missing = describeMissingInertia(coordinatesWithoutInertia(M, names));
  if (m > 0 && missing.empty())
    return "mass matrix is not positive definite " + when +
           " on the directions the constraints allow";
  if (missing.empty())
    return "mass matrix is singular " + when;
  return "mass matrix is singular " + when + missing;
}

} // namespace mech::mechanics
