// Radau IIA of order 5: the method's constants, one step's simplified Newton
// iteration, error estimate and collocation polynomial, RADAU5's step-size
// and Jacobian-reuse policy, and the step loop (adaptive, or fixed for tests).
#include "runtime/Radau5.h"

#include "runtime/NewtonLu.h"
#include "runtime/StepOutput.h"
#include "runtime/StepSizeController.h"
#include "runtime/TimeGrid.h"

#include <Eigen/LU>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>

namespace mech::runtime {

namespace {

using Complex = std::complex<double>;
using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kInfinity = std::numeric_limits<double>::infinity();
// A step shorter than this relative to t no longer moves t reliably.
constexpr double kUnderflow = 1e-14;

// RADAU5's defaults. More Newton iterations than 7 rarely converge where
// fewer did not; a smaller step converges faster.
constexpr int kMaxIterations = 7;
// A fixed step cannot shrink when the iteration is slow (an index-2 DAE's
// first step from rest, far from its stages): it may iterate longer.
constexpr int kMaxFixedIterations = 30;
constexpr double kSafety = 0.9;
// h_new/h stays within [1/kMaxShrink, kMaxGrowth].
constexpr double kMaxGrowth = 8, kMaxShrink = 5;
// A Newton iteration that contracted at least this fast shows the Jacobian
// is still good enough to be kept for the next step.
constexpr double kThetaReuse = 0.001;
// ... or, once it contracts this many times slower than with a fresh
// Jacobian, that the Jacobian is stale. Measured on the DAE form
// (bench/README.md, "Stiff DAE"): 3 cuts the Jacobians of the Cartesian
// pendulum from 2182 to 863 at the same error; 10 cuts more but costs
// more right-hand sides and rejected steps than it saves on small models.
constexpr double kStaleTheta = 3;
// A new step within this factor of the old one is not worth new LU
// decompositions: h is kept.
constexpr double kKeepLow = 1.0, kKeepHigh = 1.2;

// The real root of λ³ + p2 λ² + p1 λ + p0 when it has only one: Cardano's
// formula, polished by Newton's method.
double realCubicRoot(double p2, double p1, double p0) {
  const double p = p1 - p2 * p2 / 3, q = 2 * p2 * p2 * p2 / 27 - p2 * p1 / 3 + p0;
  const double root = std::sqrt(q * q / 4 + p * p * p / 27);
  double x = std::cbrt(-q / 2 + root) + std::cbrt(-q / 2 - root) - p2 / 3;
  for (int i = 0; i < 3; ++i)
    x -= (((x + p2) * x + p1) * x + p0) / ((3 * x + 2 * p2) * x + p1);
  return x;
}

// An eigenvector of the 3×3 matrix M for its simple eigenvalue λ: the cross
// product of two rows of M − λI, orthogonal (without conjugation) to both
// and so to the third, which depends on them.
template <class Scalar>
Eigen::Matrix<Scalar, 3, 1> nullVector(const Eigen::Matrix3d &M, Scalar lambda) {
  Eigen::Matrix<Scalar, 3, 3> B = M.cast<Scalar>();
  B.diagonal().array() -= lambda;
  return {B(0, 1) * B(1, 2) - B(0, 2) * B(1, 1), B(0, 2) * B(1, 0) - B(0, 0) * B(1, 2),
          B(0, 0) * B(1, 1) - B(0, 1) * B(1, 0)};
}

Radau5Coefficients derive() {
  Radau5Coefficients k;
  const double r6 = std::sqrt(6.0);
  k.c[0] = (4 - r6) / 10;
  k.c[1] = (4 + r6) / 10;
  k.c[2] = 1;
  // clang-format off
  k.A << (88 - 7 * r6) / 360,     (296 - 169 * r6) / 1800, (-2 + 3 * r6) / 225,
         (296 + 169 * r6) / 1800, (88 + 7 * r6) / 360,     (-2 - 3 * r6) / 225,
         (16 - r6) / 36,          (16 + r6) / 36,          1.0 / 9;
  // clang-format on
  const Eigen::Matrix3d Ainv = k.A.inverse();

  // The eigenvalues of A⁻¹ are the roots of its characteristic cubic
  // λ³ + p2 λ² + p1 λ + p0: one real, γ, and a complex pair α ± iβ whose sum
  // and product follow from γ and the coefficients.
  const double p2 = -Ainv.trace();
  const double p1 = Ainv(0, 0) * Ainv(1, 1) - Ainv(0, 1) * Ainv(1, 0) + Ainv(0, 0) * Ainv(2, 2) -
                    Ainv(0, 2) * Ainv(2, 0) + Ainv(1, 1) * Ainv(2, 2) - Ainv(1, 2) * Ainv(2, 1);
  const double p0 = -Ainv.determinant();
  k.gamma = realCubicRoot(p2, p1, p0);
  k.alpha = (-p2 - k.gamma) / 2;
  k.beta = std::sqrt(-p0 / k.gamma - k.alpha * k.alpha);
  Eigen::Vector3d v = nullVector<double>(Ainv, k.gamma).normalized();
  if (v(2) < 0)
    v = -v;
  Eigen::Vector3cd w = nullVector<Complex>(Ainv, Complex(k.alpha, k.beta));
  w /= w(2);
  // A⁻¹(Re w) = α Re w − β Im w and A⁻¹(Im w) = β Re w + α Im w, so the
  // columns Re w, −Im w give the block [[α, −β], [β, α]].
  k.T.col(0) = v;
  k.T.col(1) = w.real();
  k.T.col(2) = -w.imag();
  k.Tinv = k.T.inverse();

  // The embedded formula y0 + h(γ0 F(t, y0) + Σ b̂_i F(Y_i)) with γ0 = 1/γ
  // and weights that integrate 1, s, s² exactly on the nodes (0, c) is of
  // order 3; its difference from the Radau solution (weights b = the last
  // row of A) estimates the error. As h F(Y) = A⁻¹ Z stage by stage, that
  // difference is γ0 h F(t, y0) + Σ e_j z_j with e = A⁻ᵀ (b̂ − b); filtered
  // through (I − h γ0 J)⁻¹ it equals (γ/h − J)⁻¹ (F(t, y0) + Σ γ e_j z_j / h).
  Eigen::Matrix3d moments;
  Eigen::Vector3d integrals;
  for (int p = 0; p < 3; ++p) {
    for (int i = 0; i < 3; ++i)
      moments(p, i) = std::pow(k.c[i], p);
    integrals(p) = 1.0 / (p + 1) - (p == 0 ? 1 / k.gamma : 0);
  }
  const Eigen::Vector3d bHat = moments.partialPivLu().solve(integrals);
  const Eigen::Vector3d e = Ainv.transpose() * (bHat - k.A.row(2).transpose());
  for (int j = 0; j < 3; ++j)
    k.errorWeights[j] = k.gamma * e(j);
  return k;
}

// The state between steps and the work of one step: the stage increments
// z_j = Y_j − y in the original (z_) and transformed (w_ = T⁻¹ z) coordinates,
// the Newton matrices' LU decompositions, the collocation polynomial of the
// last accepted step. Everything is allocated in the constructor.
class RadauStepper {
public:
  enum class Newton { Converged, TooSlow, Diverged, RhsFailed };

  // Components from algebraicFrom on (when >= 0) are algebraic: see
  // IntegratorOptions::algebraicFrom.
  RadauStepper(RhsEvaluator &f, const Jacobian &jacobian, Tolerances tolerances, long algebraicFrom,
               long auxiliaryFrom);

  // Begins at (t, x): F(t, x); no previous step to extrapolate from.
  bool start(double t, const Eigen::VectorXd &x);
  // Replaces the current state (a projection moved it): F afresh.
  bool moveTo(double t, const Eigen::VectorXd &x);
  // J at the current state; false, setting `failure`, when it fails.
  bool updateJacobian(double t, Failure &failure);
  // Decomposes γ/h − J and (α + iβ)/h − J unless they are current.
  void factorize(double h);
  // The simplified Newton iteration for the stages of a step of size h.
  // TooSlow: it would not converge in the iterations left, and a step
  // shrunk by shrinkFactor() would (only when mayShrink).
  Newton solve(double t, double h, bool mayShrink);
  // The error norm of the solved step (<= 1: accept); `refine` spends one
  // more F on an estimate that stays reliable for very stiff components.
  // False when that F fails.
  bool estimateError(double t, double h, bool refine, double &error);
  // y + z_3 and F there, as the candidate end state; false when F fails.
  bool finish(double tNew);
  // Makes the candidate the current state and keeps the stages' polynomial.
  void accept(double h);
  // The state at t + theta·h within the last accepted step, theta in [0, 1].
  void interpolate(double theta, Eigen::VectorXd &out) const;

  const Eigen::VectorXd &state() const { return y_; }
  Eigen::Ref<const Eigen::VectorXd> derivative() const { return f0_; }
  int iterations() const { return iterations_; }
  void setMaxIterations(int iterations) { maxIterations_ = iterations; }
  double theta() const { return theta_; }
  double shrinkFactor() const { return shrinkFactor_; }
  bool jacobianCurrent() const { return jacobianCurrent_; }
  long jacobianEvaluations() const { return jacobianEvaluations_; }
  long factorizations() const { return factorizations_; }
  long sparseFactorizations() const { return sparseFactorizations_; }

private:
  void startingValues(double h);
  bool evaluateStages(double t, double h);
  double newtonCorrection(double h);
  void applyCorrection();
  double errorNorm(double h) const;
  // The collocation polynomial of the last accepted step minus its end
  // value, at s steps (of that step's size) from its end, component i.
  double polynomial(Eigen::Index i, double s) const;

  RhsEvaluator &f_;
  const Jacobian &jacobian_;
  const Radau5Coefficients &k_;
  const Eigen::Index n_;
  Tolerances tolerances_;
  double newtonTolerance_ = 0; // of the Newton iteration, relative to the scale
  // B = diag(I, 0): the components before differential_ have a
  // derivative. The factor each component's error is judged with: h for
  // the index-2 components, 0 for the auxiliary ones from measured_ on.
  Eigen::Index differential_, measured_;
  double mass(Eigen::Index i) const { return i < differential_ ? 1.0 : 0.0; }
  double errorFactor(Eigen::Index i, double h) const {
    return i < differential_ ? 1.0 : i < measured_ ? std::abs(h) : 0.0;
  }
  Eigen::VectorXd y_, f0_, yNew_, fNew_, scale_, stageState_;
  Eigen::MatrixXd z_, w_, stageF_, dense_;
  RowMajorMatrix jacobianMatrix_;
  Eigen::MatrixXd realMatrix_;
  Eigen::MatrixXcd complexMatrix_;
  NewtonLu<double> realLu_;
  NewtonLu<Complex> complexLu_;
  Eigen::VectorXd realRhs_, realStep_, zTerm_, errorVector_;
  Eigen::VectorXcd complexRhs_, complexStep_;
  double factoredH_ = 0, hOld_ = 0;
  bool factored_ = false, jacobianCurrent_ = false, hasPolynomial_ = false;
  double faccon_ = 1, theta_ = kThetaReuse, shrinkFactor_ = 0.5;
  int iterations_ = 0, maxIterations_ = kMaxIterations;
  long jacobianEvaluations_ = 0, factorizations_ = 0, sparseFactorizations_ = 0;
};

RadauStepper::RadauStepper(RhsEvaluator &f, const Jacobian &jacobian, Tolerances tolerances,
                           long algebraicFrom, long auxiliaryFrom)
    : f_(f), jacobian_(jacobian), k_(radau5Coefficients()), n_(f.dimension()),
      tolerances_(tolerances), differential_(algebraicFrom >= 0 ? algebraicFrom : n_),
      measured_(auxiliaryFrom >= 0 ? auxiliaryFrom : n_), y_(n_), f0_(n_), yNew_(n_), fNew_(n_),
      scale_(n_), stageState_(n_), z_(n_, 3), w_(n_, 3), stageF_(n_, 3), dense_(n_, 3),
      jacobianMatrix_(n_, n_), realMatrix_(n_, n_), complexMatrix_(n_, n_), realLu_(n_),
      complexLu_(n_), realRhs_(n_), realStep_(n_), zTerm_(n_), errorVector_(n_), complexRhs_(n_),
      complexStep_(n_) {
  // RADAU5 holds its estimate to 0.1·tol^(2/3) rather than to tol, on the
  // grounds that the estimate, O(h⁴), overstates the error of a fifth-order
  // step. On stiff problems the order reduces to the stage order, and then
  // that loosening shows in full: on Prothero–Robinson, errors 100–1000
  // times tol. The tolerance is taken as given here, as SciPy's Radau does.
  const double tolerance = tolerances.rtol > 0 ? tolerances.rtol : tolerances.atol;
  // Iterating far below the error tolerance buys nothing, and nothing
  // below rounding is attainable.
  newtonTolerance_ = std::max(10 * kEps / tolerance, std::min(0.03, std::sqrt(tolerance)));
}

bool RadauStepper::start(double t, const Eigen::VectorXd &x) {
  hasPolynomial_ = false;
  return moveTo(t, x);
}

bool RadauStepper::moveTo(double t, const Eigen::VectorXd &x) {
  y_ = x;
  jacobianCurrent_ = false;
  for (Eigen::Index i = 0; i < n_; ++i)
    scale_(i) = tolerances_.scale(y_(i), 0);
  return f_(t, y_.data(), f0_.data());
}

bool RadauStepper::updateJacobian(double t, Failure &failure) {
  ++jacobianEvaluations_;
  factored_ = false;
  if (int status = jacobian_(t, y_.data(), jacobianMatrix_.data()); status != 0) {
    failure = {Outcome::RhsFailed, t, -1, status};
    return false;
  }
  // Row-major: entry k belongs to the row (component of x') k / n.
  if (int entry = firstNonFinite(jacobianMatrix_.data(), static_cast<long>(n_ * n_)); entry >= 0) {
    failure = {Outcome::NonFinite, t, static_cast<int>(entry / n_), 0};
    return false;
  }
  jacobianCurrent_ = true;
  return true;
}

void RadauStepper::factorize(double h) {
  if (factored_ && h == factoredH_)
    return;
  // γ/h B − J and (α + iβ)/h B − J.
  realMatrix_ = -jacobianMatrix_;
  realMatrix_.diagonal().head(differential_).array() += k_.gamma / h;
  realLu_.compute(realMatrix_);
  complexMatrix_ = -jacobianMatrix_.cast<Complex>();
  complexMatrix_.diagonal().head(differential_).array() += Complex(k_.alpha, k_.beta) / h;
  complexLu_.compute(complexMatrix_);
  ++factorizations_;
  sparseFactorizations_ += realLu_.sparse() ? 1 : 0;
  factored_ = true;
  factoredH_ = h;
}

double RadauStepper::polynomial(Eigen::Index i, double s) const {
  // Newton's form on the nodes 0, c2 − 1, c1 − 1 (and −1) of the last step.
  return s *
         (dense_(i, 0) + (s - (k_.c[1] - 1)) * (dense_(i, 1) + (s - (k_.c[0] - 1)) * dense_(i, 2)));
}

void RadauStepper::startingValues(double h) {
  // The last step's collocation polynomial, continued, predicts the stages:
  // much closer than zero once the steps are smooth, and free.
  if (!hasPolynomial_) {
    z_.setZero();
    w_.setZero();
    return;
  }
  const double ratio = h / hOld_;
  for (Eigen::Index i = 0; i < n_; ++i) {
    Eigen::Vector3d zi;
    for (int j = 0; j < 3; ++j)
      zi(j) = polynomial(i, k_.c[j] * ratio);
    const Eigen::Vector3d wi = k_.Tinv * zi;
    for (int j = 0; j < 3; ++j) {
      z_(i, j) = zi(j);
      w_(i, j) = wi(j);
    }
  }
}

bool RadauStepper::evaluateStages(double t, double h) {
  for (int j = 0; j < 3; ++j) {
    const double tj = t + k_.c[j] * h;
    stageState_ = y_ + z_.col(j);
    if (!f_.checkFinite(tj, stageState_.data()) ||
        !f_(tj, stageState_.data(), stageF_.col(j).data()))
      return false;
  }
  return true;
}

double RadauStepper::newtonCorrection(double h) {
  // The collocation equations (I ⊗ B) z = h (A ⊗ I) F(y + z), multiplied
  // by (h A)⁻¹ ⊗ I and written for w = (T⁻¹ ⊗ I) z, decouple into a real
  // system with γ/h B − J and a complex one with (α + iβ)/h B − J.
  for (Eigen::Index i = 0; i < n_; ++i) {
    const double g = mass(i) * k_.gamma / h, a = mass(i) * k_.alpha / h, b = mass(i) * k_.beta / h;
    const Eigen::Vector3d fi(stageF_(i, 0), stageF_(i, 1), stageF_(i, 2));
    const Eigen::Vector3d gi = k_.Tinv * fi;
    realRhs_(i) = gi(0) - g * w_(i, 0);
    complexRhs_(i) =
        Complex(gi(1) - a * w_(i, 1) + b * w_(i, 2), gi(2) - b * w_(i, 1) - a * w_(i, 2));
  }
  realStep_ = realLu_.solve(realRhs_);
  complexStep_ = complexLu_.solve(complexRhs_);
  // The index-2 components, measured times h as in the error estimate.
  double sum = 0;
  for (Eigen::Index i = 0; i < n_; ++i) {
    const double factor = errorFactor(i, h) / scale_(i);
    sum += (realStep_(i) * realStep_(i) + std::norm(complexStep_(i))) * factor * factor;
  }
  return n_ > 0 ? std::sqrt(sum / static_cast<double>(3 * n_)) : 0;
}

void RadauStepper::applyCorrection() {
  for (Eigen::Index i = 0; i < n_; ++i) {
    w_(i, 0) += realStep_(i);
    w_(i, 1) += complexStep_(i).real();
    w_(i, 2) += complexStep_(i).imag();
    const Eigen::Vector3d zi = k_.T * Eigen::Vector3d(w_(i, 0), w_(i, 1), w_(i, 2));
    for (int j = 0; j < 3; ++j)
      z_(i, j) = zi(j);
  }
}

RadauStepper::Newton RadauStepper::solve(double t, double h, bool mayShrink) {
  startingValues(h);
  // faccon estimates θ/(1 − θ), the factor from the last correction to the
  // remaining error; carried over from the last step, damped towards 1.
  faccon_ = std::pow(std::max(faccon_, kEps), 0.8);
  theta_ = kThetaReuse;
  double previousNorm = 0, previousRate = 0;
  for (iterations_ = 1;; ++iterations_) {
    if (!evaluateStages(t, h))
      return Newton::RhsFailed;
    const double norm = newtonCorrection(h);
    if (!std::isfinite(norm)) // a singular matrix, or an overflow
      return Newton::Diverged;
    if (iterations_ > 1 && iterations_ < maxIterations_) {
      const double rate = norm / previousNorm;
      theta_ = iterations_ == 2 ? rate : std::sqrt(rate * previousRate);
      previousRate = rate;
      if (!(theta_ < 0.99))
        return Newton::Diverged;
      faccon_ = theta_ / (1 - theta_);
      // The error left after the iterations still allowed, if the
      // contraction stays θ: too large means give up early, with the step
      // that would have converged.
      const int left = maxIterations_ - 1 - iterations_;
      const double predicted = faccon_ * norm * std::pow(theta_, left) / newtonTolerance_;
      if (mayShrink && predicted >= 1) {
        shrinkFactor_ = 0.8 * std::pow(std::clamp(predicted, 1e-4, 20.0), -1.0 / (4 + left));
        return Newton::TooSlow;
      }
    }
    previousNorm = std::max(norm, kEps);
    applyCorrection();
    if (faccon_ * norm <= newtonTolerance_)
      return Newton::Converged;
    if (iterations_ == maxIterations_)
      return Newton::Diverged;
  }
}

double RadauStepper::errorNorm(double h) const {
  double sum = 0;
  for (Eigen::Index i = 0; i < n_; ++i) {
    double ratio = errorFactor(i, h) * errorVector_(i) / tolerances_.scale(y_(i), y_(i) + z_(i, 2));
    sum += ratio * ratio;
  }
  double error = n_ > 0 ? std::sqrt(sum / static_cast<double>(n_)) : 0;
  // NaN (an overflow in the solve) counts as infinitely bad.
  return error < kInfinity ? std::max(error, 1e-10) : kInfinity;
}

bool RadauStepper::estimateError(double t, double h, bool refine, double &error) {
  // B (Σ e_j z_j / h): no term for the algebraic components.
  for (Eigen::Index i = 0; i < n_; ++i)
    zTerm_(i) = mass(i) *
                (k_.errorWeights[0] * z_(i, 0) + k_.errorWeights[1] * z_(i, 1) +
                 k_.errorWeights[2] * z_(i, 2)) /
                h;
  realRhs_ = f0_ + zTerm_;
  errorVector_ = realLu_.solve(realRhs_);
  error = errorNorm(h);
  if (error < 1 || !refine)
    return true;
  // For h·λ → −∞ the filtered estimate tends to a nonzero multiple of the
  // stiff component instead of to zero, which can reject good steps where
  // the solution starts or after a rejection; F at the estimate-shifted
  // state in place of F(t, y) cures that (Hairer & Wanner, IV.8).
  stageState_ = y_ + errorVector_;
  if (!f_.checkFinite(t, stageState_.data()) || !f_(t, stageState_.data(), fNew_.data()))
    return false;
  realRhs_ = fNew_ + zTerm_;
  errorVector_ = realLu_.solve(realRhs_);
  error = errorNorm(h);
  return true;
}

bool RadauStepper::finish(double tNew) {
  yNew_ = y_ + z_.col(2);
  return f_.checkFinite(tNew, yNew_.data()) && f_(tNew, yNew_.data(), fNew_.data());
}

void RadauStepper::accept(double h) {
  // Divided differences of the polynomial through (c_j − 1, z_j − z_3) and
  // (−1, −z_3), in the local time s of the step measured from its end.
  const double c1 = k_.c[0], c2 = k_.c[1];
  for (Eigen::Index i = 0; i < n_; ++i) {
    const double z1 = z_(i, 0), z2 = z_(i, 1), z3 = z_(i, 2);
    const double first = (z2 - z3) / (c2 - 1);  // on (0, c2 − 1)
    const double inner = (z1 - z2) / (c1 - c2); // on (c2 − 1, c1 − 1)
    const double second = (inner - first) / (c1 - 1);
    const double lower = (inner - z1 / c1) / c2; // on (c2 − 1, c1 − 1, −1)
    dense_(i, 0) = first;
    dense_(i, 1) = second;
    dense_(i, 2) = second - lower;
  }
  y_.swap(yNew_);
  f0_.swap(fNew_);
  for (Eigen::Index i = 0; i < n_; ++i)
    scale_(i) = tolerances_.scale(y_(i), 0);
  hOld_ = h;
  hasPolynomial_ = true;
  jacobianCurrent_ = false;
}

void RadauStepper::interpolate(double theta, Eigen::VectorXd &out) const {
  for (Eigen::Index i = 0; i < n_; ++i)
    out(i) = y_(i) + polynomial(i, theta - 1);
}

// RADAU5's step-size choice: the error's fourth root with a safety factor
// that falls as the Newton iterations rise, and Gustafsson's predictive
// controller, which extrapolates the error's trend from the last accepted
// step and so avoids repeated rejections where the error rises steadily.
class StepChoice {
public:
  // h / h_new after a step with error norm `error` that took `iterations`.
  double quotient(double error, int iterations) const {
    const double safety =
        std::min(kSafety, kSafety * (1 + 2 * kMaxIterations) / (iterations + 2 * kMaxIterations));
    return std::clamp(std::pow(error, 0.25) / safety, 1 / kMaxGrowth, kMaxShrink);
  }
  // The next step after an accepted one of size h.
  double afterAccept(double h, double error, int iterations) {
    double q = quotient(error, iterations);
    if (hasPrevious_) {
      const double predicted =
          (hPrevious_ / h) * std::pow(error * error / errorPrevious_, 0.25) / kSafety;
      q = std::max(q, std::clamp(predicted, 1 / kMaxGrowth, kMaxShrink));
    }
    hasPrevious_ = true;
    hPrevious_ = h;
    errorPrevious_ = std::max(0.01, error);
    return h / q;
  }

private:
  bool hasPrevious_ = false;
  double hPrevious_ = 0, errorPrevious_ = 0;
};

class RadauDriver {
public:
  RadauDriver(RhsEvaluator &f, const IntegratorOptions &options, StepOutput &output)
      : f_(f), o_(options), stepper_(f, options.jacobian, {options.rtol, options.atol},
                                     options.algebraicFrom, options.auxiliaryFrom),
        output_(output), projected_(f.dimension()) {}

  IntegrationResult run(const Eigen::VectorXd &x0);

private:
  // How an attempted step ended.
  struct Attempt {
    enum Kind { Accepted, TooLarge, Failed } kind = Accepted;
    double error = 0;
    double shrink = 0.5;    // Failed: the factor for the retry
    bool rhsFailed = false; // Failed: F failed (the evaluator knows where)
  };

  IntegrationResult adaptive(double h);
  IntegrationResult fixed();
  Attempt attempt(double t, double h, double tNew, bool refine);
  double nextStep(double h, double hNew, bool afterRejection) const;
  bool prepare(double t, double h, Failure &failure);
  bool deliver(double t, double h, double tNew, Failure &failure);
  IntegrationResult stop(const Failure &failure);

  RhsEvaluator &f_;
  const IntegratorOptions &o_;
  RadauStepper stepper_;
  StepChoice choice_;
  StepOutput &output_;
  Eigen::VectorXd projected_;
  IntegrationStats stats_;
  bool needJacobian_ = true;
  // The contraction and iterations of the last step with a fresh Jacobian.
  double freshTheta_ = 0;
  int freshIterations_ = 0;
};

IntegrationResult RadauDriver::stop(const Failure &failure) {
  stats_.rhsEvaluations = f_.evaluations();
  stats_.jacobianEvaluations = stepper_.jacobianEvaluations();
  stats_.factorizations = stepper_.factorizations();
  stats_.sparseFactorizations = stepper_.sparseFactorizations();
  return resultOf(failure, stats_);
}

IntegrationResult RadauDriver::run(const Eigen::VectorXd &x0) {
  const double hmax = std::abs(o_.tEnd - o_.t0);
  if (hmax == 0)
    return stop({Outcome::Finished});
  if (!stepper_.start(o_.t0, x0))
    return stop(f_.lastFailure());
  if (o_.fixedStep)
    return fixed();
  const double direction = output_.direction();
  const Tolerances tolerances{o_.rtol, o_.atol};
  // The estimate's local error is O(h⁴): order 4 for Hairer's initial step.
  return adaptive(o_.step > 0 ? direction * std::min(o_.step, hmax)
                              : initialStep(f_, o_.t0, x0, stepper_.derivative(), 4, tolerances,
                                            hmax, direction));
}

bool RadauDriver::prepare(double t, double h, Failure &failure) {
  if (needJacobian_) {
    if (!stepper_.updateJacobian(t, failure))
      return false;
    needJacobian_ = false;
  }
  stepper_.factorize(h);
  return true;
}

bool RadauDriver::deliver(double t, double h, double tNew, Failure &failure) {
  auto interpolate = [&](double ts, Eigen::VectorXd &out) {
    stepper_.interpolate((ts - t) / h, out);
  };
  if (!output_.step(t, tNew, stepper_.state(), interpolate, failure))
    return false;
  if (o_.project) {
    // The projected state starts the next step, with F evaluated afresh.
    projected_ = stepper_.state();
    if (!o_.project(tNew, projected_.data())) {
      failure = {Outcome::RhsFailed, tNew};
      return false;
    }
    if (projected_ != stepper_.state() && !stepper_.moveTo(tNew, projected_)) {
      failure = f_.lastFailure();
      return false;
    }
  }
  if (o_.stepped && !o_.stepped(tNew, stepper_.state().data())) {
    failure = {Outcome::RhsFailed, tNew};
    return false;
  }
  return true;
}

RadauDriver::Attempt RadauDriver::attempt(double t, double h, double tNew, bool refine) {
  Attempt a;
  switch (stepper_.solve(t, h, true)) {
  case RadauStepper::Newton::Converged:
    break;
  case RadauStepper::Newton::TooSlow:
    return {Attempt::Failed, 0, stepper_.shrinkFactor(), false};
  case RadauStepper::Newton::Diverged:
    return {Attempt::Failed, 0, 0.5, false};
  case RadauStepper::Newton::RhsFailed:
    return {Attempt::Failed, 0, 0.5, true};
  }
  if (!stepper_.estimateError(t, h, refine, a.error))
    return {Attempt::Failed, 0, 0.5, true};
  if (!(a.error < 1))
    return {Attempt::TooLarge, a.error, 0, false};
  // F at the end state is needed by the next step's error estimate; a
  // failure there is one of this step, which a smaller step may avoid.
  if (!stepper_.finish(tNew))
    return {Attempt::Failed, 0, 0.5, true};
  return a;
}

double RadauDriver::nextStep(double h, double hNew, bool afterRejection) const {
  hNew = std::copysign(std::min(std::abs(hNew), std::abs(o_.tEnd - o_.t0)), h);
  if (afterRejection)
    hNew = std::copysign(std::min(std::abs(hNew), std::abs(h)), h);
  // Keeping h keeps the LU decompositions, if the Jacobian is kept too.
  const double ratio = hNew / h;
  if (!needJacobian_ && ratio >= kKeepLow && ratio <= kKeepHigh)
    return h;
  return hNew;
}

IntegrationResult RadauDriver::adaptive(double h) {
  const double direction = output_.direction();
  double t = o_.t0;
  bool rejected = false;   // whether the last attempt was rejected
  bool failedLast = false; // whether that rejection came from a failure of F
  Failure failure;
  for (;;) {
    if (stats_.accepted + stats_.rejected >= o_.maxSteps)
      return stop({Outcome::MaxSteps, t});
    if (std::abs(h) < kUnderflow * std::abs(t) || t + h == t)
      return stop(failedLast ? failure : Failure{Outcome::StepSizeUnderflow, t});
    // Stretch a step that would stop just short of the end.
    const bool last = direction * (t + 1.01 * h - o_.tEnd) >= 0;
    if (last)
      h = o_.tEnd - t;
    const double tNew = last ? o_.tEnd : t + h;
    if (!prepare(t, h, failure))
      return stop(failure);

    const Attempt a = attempt(t, h, tNew, stats_.accepted == 0 || rejected);
    if (a.kind != Attempt::Accepted) {
      ++stats_.rejected;
      rejected = true;
      failedLast = a.kind == Attempt::Failed && a.rhsFailed;
      if (failedLast)
        failure = f_.lastFailure();
      // A Jacobian from an earlier state may be why the step failed.
      needJacobian_ = !stepper_.jacobianCurrent();
      if (a.kind == Attempt::Failed)
        h *= a.shrink;
      else // a first step far too large is cut the faster
        h = stats_.accepted == 0 ? h / 10 : h / choice_.quotient(a.error, stepper_.iterations());
      continue;
    }
    ++stats_.accepted;
    failedLast = false;
    const double hNew = choice_.afterAccept(h, a.error, stepper_.iterations());
    if (stepper_.jacobianCurrent()) {
      freshTheta_ = stepper_.theta();
      freshIterations_ = stepper_.iterations();
    }
    stepper_.accept(h);
    if (!deliver(t, h, tNew, failure))
      return stop(failure);
    if (last)
      return stop({Outcome::Finished});
    // A slowly contracting iteration asks for a fresh Jacobian, unless it
    // converged within two iterations anyway (as SciPy's Radau judges: a
    // Jacobian costs more than an iteration it would save).
    // Nor when it contracts about as fast as it did with a fresh Jacobian:
    // an index-2 DAE's iteration contracts at about 3e-3 whatever the
    // Jacobian's age (its algebraic rows), and a new one would cost more
    // than it saves.
    const bool asFresh =
        stepper_.theta() <= kStaleTheta * freshTheta_ && stepper_.iterations() <= freshIterations_;
    needJacobian_ = stepper_.theta() > kThetaReuse && stepper_.iterations() > 2 && !asFresh;
    h = nextStep(h, hNew, rejected);
    rejected = false;
    t = tNew;
  }
}

IntegrationResult RadauDriver::fixed() {
  stepper_.setMaxIterations(kMaxFixedIterations);
  TimeGrid steps(o_.t0, o_.tEnd, o_.step);
  steps.advance(); // t0 is where we are
  double t = o_.t0;
  Failure failure;
  for (; !steps.done(); steps.advance()) {
    if (stats_.accepted >= o_.maxSteps)
      return stop({Outcome::MaxSteps, t});
    const double tNew = steps.next(), h = tNew - t;
    RadauStepper::Newton newton = RadauStepper::Newton::Diverged;
    for (;;) { // once more with a fresh Jacobian if an old one failed
      if (!prepare(t, h, failure))
        return stop(failure);
      newton = stepper_.solve(t, h, false);
      if (newton != RadauStepper::Newton::Diverged || stepper_.jacobianCurrent())
        break;
      needJacobian_ = true;
    }
    if (newton == RadauStepper::Newton::RhsFailed)
      return stop(f_.lastFailure());
    if (newton != RadauStepper::Newton::Converged)
      return stop({Outcome::NoConvergence, t});
    if (!stepper_.finish(tNew))
      return stop(f_.lastFailure());
    ++stats_.accepted;
    stepper_.accept(h);
    if (!deliver(t, h, tNew, failure))
      return stop(failure);
    needJacobian_ = stepper_.theta() > kThetaReuse;
    t = tNew;
  }
  return stop({Outcome::Finished});
}

} // namespace

const Radau5Coefficients &radau5Coefficients() {
  static const Radau5Coefficients coefficients = derive();
  return coefficients;
}

IntegrationResult integrateRadau(RhsEvaluator &rhs, const Eigen::VectorXd &x0,
                                 const IntegratorOptions &options, StepOutput &output) {
  RadauDriver driver(rhs, options, output);
  return driver.run(x0);
}

} // namespace mech::runtime
