// Weighted least-change projection: dq = -W^-1 C^T (C W^-1 C^T)^-1 r, with
// W the mass matrix (regularized: it may be singular) plus a heavy weight
// on the coordinates to keep.
#include "runtime/ConstraintProjection.h"

#include "runtime/DenseSolve.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>

namespace mech::runtime {

namespace {

constexpr int kMaxIterations = 50;
// A Gauss-Newton step that does not lower |Phi| is halved up to this many
// times: a rough start then converges to the nearby assembly instead of one
// thousands of turns away.
constexpr int kMaxHalvings = 30;
constexpr double kTolerance = 1e-13;
// Singular values of C W^-1 C^T below this fraction of the largest count as
// zero at the start: the rank the projection works with there.
constexpr double kRankTolerance = 1e-10;

} // namespace

struct ConstraintProjector::Linearization {
  Eigen::MatrixXd C; // the rows in use
  Eigen::VectorXd r; // their residuals
  Eigen::MatrixXd W; // the metric
  double scale = 1;  // of the residuals, for the tolerance: 1 + max |C|
};

namespace {

// The change dq with C dq = -r smallest in the metric W:
// dq = -W^-1 C^T (C W^-1 C^T)^+ r. Dependent rows of C (redundant
// constraints, a linkage at a singular position) are fine: at the start
// the pseudo-inverse (rank decided at kRankTolerance) gives the
// least-squares step; along a run (`anyResidual`) the Schur complement is
// solved as the equations of motion solve theirs (solveRegularizedSchur),
// so that the step stays bounded where C is losing rank. Unless
// `anyResidual`, false when the step cannot remove
// even half of an r above `negligible` to first order: the rows ask for
// what no step can do (a gradient that vanishes, or conflicting
// constraints), which is an error at the start; along a run, near a
// singular position, what is left is the branch's error, which the next
// projections remove.
bool leastChangeStep(const Eigen::MatrixXd &C, const Eigen::VectorXd &r,
                     const Eigen::LDLT<Eigen::MatrixXd> &metric, double negligible,
                     bool anyResidual, Eigen::VectorXd &step) {
  Eigen::MatrixXd WinvCt = metric.solve(C.transpose());
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  RowMajor S = C * WinvCt;
  Eigen::VectorXd mu = r;
  if (anyResidual) {
    solveRegularizedSchur(static_cast<size_t>(S.rows()), S.data(), mu.data());
  } else {
    Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> schur(S);
    schur.setThreshold(kRankTolerance);
    mu = schur.solve(r);
  }
  step = -WinvCt * mu;
  return anyResidual || (C * step + r).norm() <= std::max(0.5 * r.norm(), negligible);
}

// Frozen coordinates neither move nor couple to the others: their columns
// of C vanish and their rows of the metric keep only the diagonal.
void freeze(Eigen::MatrixXd &C, Eigen::MatrixXd &W, const std::vector<bool> &frozen) {
  for (size_t j = 0; j < frozen.size() && j < static_cast<size_t>(C.cols()); ++j)
    if (frozen[j]) {
      long k = static_cast<long>(j);
      C.col(k).setZero();
      double diagonal = W(k, k);
      W.row(k).setZero();
      W.col(k).setZero();
      W(k, k) = diagonal;
    }
}

} // namespace

ConstraintProjector::ConstraintProjector(ConstrainedSystem &system) : system_(system) {
  size_t n = system.coordinates(), m = system.constraintCount();
  residuals_.resize(2 * m + m * n);
  M_.resize(n * n);
}

double ConstraintProjector::residual(double t, const double *x) {
  size_t m = system_.constraintCount();
  system_.constraints(t, x, residuals_.data());
  double worst = 0;
  for (size_t i = 0; i < m; ++i) {
    if (system_.holonomic(i))
      worst = std::max(worst, std::abs(residuals_[i]));
    worst = std::max(worst, std::abs(residuals_[m + i]));
  }
  return worst;
}

bool ConstraintProjector::rowsAt(double t, const double *x, bool positions, Linearization &out) {
  size_t n = system_.coordinates(), m = system_.constraintCount();
  system_.constraints(t, x, residuals_.data());
  std::vector<size_t> rows;
  for (size_t i = 0; i < m; ++i)
    if (!positions || system_.holonomic(i))
      rows.push_back(i);
  out.C.resize(static_cast<long>(rows.size()), static_cast<long>(n));
  out.r.resize(static_cast<long>(rows.size()));
  for (size_t k = 0; k < rows.size(); ++k) {
    size_t i = rows[k];
    out.r(static_cast<long>(k)) = positions ? residuals_[i] : residuals_[m + i];
    for (size_t j = 0; j < n; ++j)
      out.C(static_cast<long>(k), static_cast<long>(j)) = residuals_[2 * m + i * n + j];
  }
  out.scale = 1 + (rows.empty() || n == 0 ? 0 : out.C.cwiseAbs().maxCoeff());
  return !rows.empty();
}

void ConstraintProjector::metricAt(double t, const double *x, Linearization &out) {
  size_t n = system_.coordinates();
  system_.massMatrix(t, x, M_.data());
  out.W = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
      M_.data(), static_cast<long>(n), static_cast<long>(n));
  // A singular M (massless coordinates) still needs a metric: a small
  // multiple of the identity, relative to the largest inertia. A regular M
  // is kept as it is, so that the change is the least in its own metric.
  double largest = n ? out.W.diagonal().cwiseAbs().maxCoeff() : 0;
  Eigen::LDLT<Eigen::MatrixXd> factors(out.W);
  bool regular =
      n && factors.info() == Eigen::Success && factors.vectorD().minCoeff() > 1e-12 * largest;
  if (!regular)
    out.W.diagonal().array() += (largest > 0 ? largest : 1) * 1e-6;
}

ProjectionResult ConstraintProjector::projectPositions(
    double t, double *x, const std::vector<std::vector<bool>> &preferences, bool orNoneKept) {
  size_t n = system_.coordinates();
  std::vector<double> start(x, x + n);
  ProjectionResult failed;
  failed.ok = false;
  for (const std::vector<bool> &kept : preferences) {
    if (std::find(kept.begin(), kept.end(), true) == kept.end())
      continue;
    ProjectionResult result = projectPositionsMoving(t, x, kept);
    if (result.ok) {
      backOnTheirTurn(t, x, start);
      return result;
    }
    failed = result;
    std::copy(start.begin(), start.end(), x);
  }
  if (!orNoneKept)
    return failed;
  ProjectionResult result = projectPositionsMoving(t, x, {});
  if (result.ok)
    backOnTheirTurn(t, x, start);
  return result;
}

void ConstraintProjector::backOnTheirTurn(double t, double *x, const std::vector<double> &start) {
  const double turn = 2 * M_PI;
  double tolerance = -1; // what the projection reached, read at the first turn
  for (size_t j = 0; j < start.size(); ++j) {
    double turns = std::round((x[j] - start[j]) / turn);
    if (turns == 0)
      continue;
    if (tolerance < 0)
      tolerance = std::max(positionResidual(t, x), kTolerance);
    double projected = x[j];
    x[j] -= turns * turn;
    if (!(positionResidual(t, x) <= 2 * tolerance))
      x[j] = projected;
  }
}

ProjectionResult ConstraintProjector::projectPositionsMoving(double t, double *x,
                                                             const std::vector<bool> &frozen,
                                                             bool alongRun) {
  size_t n = system_.coordinates();
  auto isFrozen = [&](size_t j) { return j < frozen.size() && frozen[j]; };
  ProjectionResult result;
  bool nudged = false;
  Linearization lin;
  // A failure reports the lowest residual the iteration reached.
  double lowest = std::numeric_limits<double>::infinity();
  auto failed = [&] {
    result.ok = false;
    result.residual = lowest;
    return result;
  };
  for (; result.iterations < kMaxIterations; ++result.iterations) {
    if (!rowsAt(t, x, /*positions=*/true, lin))
      return result; // no holonomic constraints
    result.residual = lin.r.cwiseAbs().maxCoeff();
    lowest = std::min(lowest, result.residual);
    if (result.residual <= kTolerance * lin.scale)
      return result;
    metricAt(t, x, lin);
    freeze(lin.C, lin.W, frozen);
    Eigen::LDLT<Eigen::MatrixXd> metric(lin.W);
    Eigen::VectorXd step;
    if (!leastChangeStep(lin.C, lin.r, metric, kTolerance * lin.scale, alongRun, step)) {
      if (nudged || result.iterations > 0)
        return failed();
      // Degenerate start: step downhill (along M^-1 f at rest) and retry.
      std::vector<double> rest(2 * n, 0.0), f(n);
      std::copy(x, x + n, rest.begin());
      system_.forcing(t, rest.data(), f.data());
      Eigen::VectorXd direction =
          metric.solve(Eigen::Map<const Eigen::VectorXd>(f.data(), static_cast<long>(n)));
      for (size_t j = 0; j < n; ++j)
        if (isFrozen(j))
          direction(static_cast<long>(j)) = 0;
      double size = direction.cwiseAbs().maxCoeff();
      if (!(size > 0))
        return failed();
      for (size_t j = 0; j < n; ++j)
        x[j] += 1e-3 * direction(static_cast<long>(j)) / size;
      nudged = true;
      continue;
    }
    stepBack(t, x, step.data(), lin.r.norm());
  }
  return failed();
}

double ConstraintProjector::positionResidual(double t, const double *x) {
  size_t m = system_.constraintCount();
  system_.constraints(t, x, residuals_.data());
  double sum = 0;
  for (size_t i = 0; i < m; ++i)
    if (system_.holonomic(i))
      sum += residuals_[i] * residuals_[i];
  return std::sqrt(sum);
}

void ConstraintProjector::stepBack(double t, double *x, const double *step, double before) {
  size_t n = system_.coordinates();
  std::vector<double> start(x, x + n);
  double fraction = 1;
  for (int halving = 0; halving <= kMaxHalvings; ++halving, fraction /= 2) {
    for (size_t j = 0; j < n; ++j)
      x[j] = start[j] + fraction * step[j];
    double after = positionResidual(t, x);
    if (after < before)
      return;
  }
  for (size_t j = 0; j < n; ++j) // no decrease along the step: take it whole
    x[j] = start[j] + step[j];
}

ProjectionResult ConstraintProjector::projectAlongRun(double t, double *x) {
  // No preferences, and no turns to restore: a step moves q by its error.
  ProjectionResult result = projectPositionsMoving(t, x, {}, /*alongRun=*/true);
  if (result.ok)
    result = projectVelocitiesMoving(t, x, {}, /*alongRun=*/true);
  return result;
}

ProjectionResult ConstraintProjector::projectVelocities(
    double t, double *x, const std::vector<std::vector<bool>> &preferences, bool orNoneKept) {
  ProjectionResult failed;
  failed.ok = false;
  for (const std::vector<bool> &kept : preferences) {
    if (std::find(kept.begin(), kept.end(), true) == kept.end())
      continue;
    failed = projectVelocitiesMoving(t, x, kept);
    if (failed.ok)
      return failed;
  }
  return orNoneKept ? projectVelocitiesMoving(t, x, {}) : failed;
}

ProjectionResult ConstraintProjector::projectVelocitiesMoving(double t, double *x,
                                                              const std::vector<bool> &frozen,
                                                              bool alongRun) {
  size_t n = system_.coordinates();
  ProjectionResult result;
  Linearization lin;
  if (!rowsAt(t, x, /*positions=*/false, lin))
    return result;
  // Already on them to rounding (a sticking slip that the mode's equations
  // keep exactly): the step would move nothing.
  if (lin.r.cwiseAbs().maxCoeff() <= std::numeric_limits<double>::epsilon() * lin.scale) {
    result.residual = lin.r.cwiseAbs().maxCoeff();
    return result;
  }
  metricAt(t, x, lin);
  freeze(lin.C, lin.W, frozen);
  // psi is linear in q': one step is exact, but for what rows that are
  // dependent to kRankTolerance disagree on, which no velocity removes: the
  // positions' rounding times the speeds, or a conflict when larger.
  Eigen::LDLT<Eigen::MatrixXd> metric(lin.W);
  Eigen::VectorXd step;
  double speeds =
      Eigen::Map<const Eigen::VectorXd>(x + n, static_cast<long>(n)).cwiseAbs().maxCoeff();
  double negligible = kRankTolerance * lin.scale * (1 + speeds);
  if (!leastChangeStep(lin.C, lin.r, metric, negligible, alongRun, step)) {
    result.ok = false;
    result.residual = lin.r.cwiseAbs().maxCoeff();
    return result;
  }
  for (size_t j = 0; j < n; ++j)
    x[n + j] += step(static_cast<long>(j));
  result.iterations = 1;
  result.residual = residual(t, x);
  return result;
}

std::vector<std::string> dependentConstraints(const double *C, size_t m, size_t n,
                                              const std::vector<std::string> &names) {
  using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Eigen::Map<const Matrix> rows(C, static_cast<long>(m), static_cast<long>(n));
  std::vector<size_t> independent;
  std::vector<bool> involved(m, false);
  for (size_t i = 0; i < m; ++i) {
    Eigen::VectorXd row = rows.row(static_cast<long>(i)).transpose();
    double size = row.norm();
    if (size == 0) {
      involved[i] = true;
      continue;
    }
    if (!independent.empty()) {
      Eigen::MatrixXd basis(static_cast<long>(n), static_cast<long>(independent.size()));
      for (size_t k = 0; k < independent.size(); ++k)
        basis.col(static_cast<long>(k)) = rows.row(static_cast<long>(independent[k])).transpose();
      Eigen::VectorXd coefficients = basis.colPivHouseholderQr().solve(row);
      if ((basis * coefficients - row).norm() <= 1e-8 * size) {
        involved[i] = true;
        for (size_t k = 0; k < independent.size(); ++k)
          if (std::abs(coefficients(static_cast<long>(k))) > 1e-8)
            involved[independent[k]] = true;
        continue;
      }
    }
    independent.push_back(i);
  }
  std::vector<std::string> result;
  for (size_t i = 0; i < m; ++i)
    if (involved[i])
      result.push_back(names[i]);
  return result;
}

} // namespace mech::runtime
