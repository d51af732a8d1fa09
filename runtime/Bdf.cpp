// BDF of orders 1–5: the formulas' constants, the backward-difference history
// and its re-sampling at a new step, one step's Newton iteration and error
// estimate, the choice of the next order and step, and the step loops
// (adaptive, or at a fixed order and step for tests).
#include "runtime/Bdf.h"

#include "runtime/NewtonLu.h"
#include "runtime/StepOutput.h"
#include "runtime/StepSizeController.h"
#include "runtime/TimeGrid.h"

#include <Eigen/LU>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace mech::runtime {

namespace {

using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

constexpr int kMaxOrder = kBdfMaxOrder;
// The differences ∇^0 … ∇^{k+2} of the current order k: the last two hold
// the correction of the step just taken and the difference of two
// corrections, which estimate the errors of orders k and k + 1.
constexpr int kColumns = kMaxOrder + 3;
// Shampine and Reichelt's NDF in place of plain BDF (see Bdf.h): off.
constexpr bool kUseNdf = false;
// Their κ_k, which make the formulas of orders 1–4 more accurate at a small
// cost in stability; order 5's is left unchanged.
constexpr double kKappa[kMaxOrder + 1] = {0, -0.1850, -1.0 / 9, -0.0823, -0.0415, 0};

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kInfinity = std::numeric_limits<double>::infinity();
// A step shorter than this relative to t no longer moves t reliably.
constexpr double kUnderflow = 1e-14;
// The predictor is close, so a healthy iteration converges in 1–3 sweeps;
// one that needs more is better restarted with a fresh Jacobian or a shorter
// step than continued (ode15s and SciPy use 4 too).
constexpr int kMaxIterations = 4;
// At fixed steps the step cannot shrink instead: more sweeps.
constexpr int kMaxFixedIterations = 12;
// h_new/h after an accepted step or an error rejection stays within these.
constexpr double kMinFactor = 0.2, kMaxFactor = 10;
constexpr double kSafety = 0.9;
// A step within this factor of the current one, at the same order, is not
// worth a new decomposition: h is kept.
constexpr double kKeepLow = 1.0, kKeepHigh = 1.2;

using Square = Eigen::Matrix<double, kMaxOrder + 1, kMaxOrder + 1>;

struct Coefficients {
  // γ_k = Σ_{j=1..k} 1/j. The corrector of order k, with the predictor's
  // correction d = x_{n+1} − x_pred, reads α_k d + Σ_{j=1..k} γ_j ∇^j x_n =
  // h F(x_{n+1}), α_k = (1 − κ_k) γ_k.
  double gamma[kMaxOrder + 1];
  double alpha[kMaxOrder + 1];
  // errorConstant[k] · ∇^{k+1} x_{n+1} is the leading term of order k's
  // truncation error (the defect of the exact solution in its formula).
  double errorConstant[kMaxOrder + 1];
  // differencing(j, q) = (−1)^q C(j, q): ∇^j x_0 = Σ_q differencing(j, q) x_{−q}.
  Square differencing;
};

Coefficients derive() {
  Coefficients c;
  c.gamma[0] = c.alpha[0] = c.errorConstant[0] = 0; // order 0 does not exist
  for (int k = 1; k <= kMaxOrder; ++k) {
    c.gamma[k] = c.gamma[k - 1] + 1.0 / k;
    const double kappa = kUseNdf ? kKappa[k] : 0;
    c.alpha[k] = (1 - kappa) * c.gamma[k];
    c.errorConstant[k] = kappa * c.gamma[k] + 1.0 / (k + 1);
  }
  c.differencing.setZero();
  for (int j = 0; j <= kMaxOrder; ++j) {
    double binomial = 1;
    for (int q = 0; q <= j; ++q) {
      c.differencing(j, q) = (q % 2 == 0 ? 1 : -1) * binomial;
      binomial = binomial * (j - q) / (q + 1);
    }
  }
  return c;
}

const Coefficients &coefficients() {
  static const Coefficients c = derive();
  return c;
}

// ‖v / scale‖ in the root-mean-square norm of the other integrators.
double scaledNorm(const Eigen::Ref<const Eigen::VectorXd> &v, const Eigen::VectorXd &scale) {
  if (v.size() == 0)
    return 0;
  return std::sqrt((v.array() / scale.array()).square().sum() / static_cast<double>(v.size()));
}

// The history as differences of equally spaced values, the current
// Jacobian and decomposition, and the work of one step. Everything is
// allocated in the constructor.
class BdfStepper {
public:
  enum class Newton { Converged, Diverged, RhsFailed };
  struct Choice {
    int order;
    double factor; // h_new / h
  };

  BdfStepper(RhsEvaluator &f, const Jacobian &jacobian, Tolerances tolerances);

  // Begins at (t, x) at order 1 with F(t, x), which derivative() returns;
  // false when F fails. firstStep(h) then sets the spacing.
  bool start(double t, const Eigen::VectorXd &x);
  void firstStep(double h);
  // Begins at history[0] at time t, the values spaced by h, at `order`.
  void startFromHistory(double t, const std::vector<Eigen::VectorXd> &history, int order, double h);
  // Re-samples the history at the spacing h (signed) if it is a new one.
  void setStep(double h);
  void setOrder(int order);
  void setMaxIterations(int iterations) { maxIterations_ = iterations; }
  // J at the current state; false, setting `failure`, when it fails.
  bool updateJacobian(Failure &failure);
  // Decomposes I − (h/α_k) J unless that is current.
  void factorize();
  // The corrector of a step from the current state to tNew = t + h.
  Newton solve(double tNew);
  // The error norm of the solved step (<= 1: accept).
  double estimateError();
  // Makes the solved step's end the current state, updating the history.
  void accept(double tNew);
  // After accept: the next order and step, from the last step's error
  // estimates once k + 1 steps were taken at this h and order.
  Choice choose();
  // After an error rejection: the factor for the retry at the same order.
  double shrinkAfterError() const;
  // Replaces the current state by x (a projection moved it).
  void shift(const Eigen::VectorXd &x);
  // The state at t within the last accepted step.
  void interpolate(double t, Eigen::VectorXd &out) const;

  const Eigen::VectorXd &state() const { return y_; }
  const Eigen::VectorXd &derivative() const { return fNew_; }
  double step() const { return h_; }
  int order() const { return order_; }
  bool jacobianCurrent() const { return jacobianCurrent_; }
  long jacobianEvaluations() const { return jacobianEvaluations_; }
  long factorizations() const { return factorizations_; }
  long sparseFactorizations() const { return sparseFactorizations_; }

private:
  void resample(double ratio);
  double filteredNorm(const Eigen::Ref<const Eigen::VectorXd> &difference, double constant);
  double safety() const;

  RhsEvaluator &f_;
  const Jacobian &jacobian_;
  const Coefficients &k_;
  const Eigen::Index n_;
  Tolerances tolerances_;
  double newtonTolerance_ = 0; // of the Newton iteration, relative to the scale
  Eigen::MatrixXd D_, resampled_;
  Eigen::VectorXd y_, predicted_, psi_, yNew_, d_, fNew_, residual_, delta_, scale_, errorScale_;
  RowMajorMatrix jacobianMatrix_;
  Eigen::MatrixXd newtonMatrix_;
  NewtonLu<double> lu_;
  double t_ = 0, h_ = 0, factoredC_ = 0, error_ = 0;
  int order_ = 1, equalSteps_ = 0, iterations_ = 0, maxIterations_ = kMaxIterations;
  bool factored_ = false, jacobianCurrent_ = false;
  long jacobianEvaluations_ = 0, factorizations_ = 0, sparseFactorizations_ = 0;
};

BdfStepper::BdfStepper(RhsEvaluator &f, const Jacobian &jacobian, Tolerances tolerances)
    : f_(f), jacobian_(jacobian), k_(coefficients()), n_(f.dimension()), tolerances_(tolerances),
      D_(Eigen::MatrixXd::Zero(n_, kColumns)), resampled_(n_, kMaxOrder + 1), y_(n_),
      predicted_(n_), psi_(n_), yNew_(n_), d_(n_), fNew_(n_), residual_(n_), delta_(n_), scale_(n_),
      errorScale_(n_), jacobianMatrix_(n_, n_), newtonMatrix_(n_, n_), lu_(n_) {
  const double tolerance = tolerances.rtol > 0 ? tolerances.rtol : tolerances.atol;
  // Iterating far below the error tolerance buys nothing, and nothing
  // below rounding is attainable.
  newtonTolerance_ = std::max(10 * kEps / tolerance, std::min(0.03, std::sqrt(tolerance)));
}

bool BdfStepper::start(double t, const Eigen::VectorXd &x) {
  t_ = t;
  y_ = x;
  D_.setZero();
  D_.col(0) = x;
  order_ = 1;
  equalSteps_ = 0;
  jacobianCurrent_ = false;
  return f_(t, y_.data(), fNew_.data());
}

void BdfStepper::firstStep(double h) {
  // x_{-1} = x_0 − h F(x_0): the one past value order 1 needs, exact to
  // O(h²), which order 1's error already is.
  h_ = h;
  D_.col(1) = h * fNew_;
}

void BdfStepper::startFromHistory(double t, const std::vector<Eigen::VectorXd> &history, int order,
                                  double h) {
  t_ = t;
  h_ = h;
  order_ = order;
  equalSteps_ = 0;
  jacobianCurrent_ = false;
  y_ = history[0];
  D_.setZero();
  for (int j = 0; j <= order; ++j)
    for (int q = 0; q <= j; ++q)
      D_.col(j) += k_.differencing(j, q) * history[static_cast<size_t>(q)];
}

void BdfStepper::resample(double ratio) {
  // The history's polynomial is Σ_i ∇^i x_n b_i(s) in the step fraction
  // s = (t − t_n)/h, with b_i(s) = Π_{l<i} (s + l)/(l + 1). Its values at the
  // new points s = −q·ratio, differenced, are the new history: a linear map
  // W = differencing · values of the differences 0 … k.
  const int m = order_ + 1;
  Square values = Square::Zero(); // the product below reads it all
  for (int q = 0; q < m; ++q) {
    values(q, 0) = 1;
    for (int i = 1; i < m; ++i)
      values(q, i) = values(q, i - 1) * ((i - 1) - q * ratio) / i;
  }
  const Square W = k_.differencing * values;
  for (int j = 0; j < m; ++j) {
    resampled_.col(j).setZero();
    for (int i = 0; i < m; ++i)
      resampled_.col(j) += W(j, i) * D_.col(i);
  }
  D_.leftCols(m) = resampled_.leftCols(m);
}

void BdfStepper::setStep(double h) {
  if (h == h_)
    return;
  resample(h / h_);
  h_ = h;
  // The differences beyond order k are of the old spacing: the order may
  // change again only after k + 1 steps at this one.
  equalSteps_ = 0;
}

void BdfStepper::setOrder(int order) {
  if (order == order_)
    return;
  order_ = order;
  equalSteps_ = 0;
}

bool BdfStepper::updateJacobian(Failure &failure) {
  ++jacobianEvaluations_;
  factored_ = false;
  if (int status = jacobian_(t_, y_.data(), jacobianMatrix_.data()); status != 0) {
    failure = {Outcome::RhsFailed, t_, -1, status};
    return false;
  }
  // Row-major: entry k belongs to the row (component of x') k / n.
  if (int entry = firstNonFinite(jacobianMatrix_.data(), static_cast<long>(n_ * n_)); entry >= 0) {
    failure = {Outcome::NonFinite, t_, static_cast<int>(entry / n_), 0};
    return false;
  }
  jacobianCurrent_ = true;
  return true;
}

void BdfStepper::factorize() {
  const double c = h_ / k_.alpha[order_];
  if (factored_ && c == factoredC_)
    return;
  newtonMatrix_ = -c * jacobianMatrix_;
  newtonMatrix_.diagonal().array() += 1;
  lu_.compute(newtonMatrix_);
  ++factorizations_;
  sparseFactorizations_ += lu_.sparse() ? 1 : 0;
  factored_ = true;
  factoredC_ = c;
}

BdfStepper::Newton BdfStepper::solve(double tNew) {
  const int k = order_;
  const double alpha = k_.alpha[k], c = h_ / alpha;
  // The predictor extrapolates the history's polynomial to s = 1; the
  // corrector's known part ψ/α_k is the same polynomial's contribution.
  predicted_ = D_.col(0);
  psi_.setZero();
  for (int j = 1; j <= k; ++j) {
    predicted_ += D_.col(j);
    psi_ += (k_.gamma[j] / alpha) * D_.col(j);
  }
  for (Eigen::Index i = 0; i < n_; ++i)
    scale_(i) = tolerances_.scale(y_(i), predicted_(i));
  yNew_ = predicted_;
  d_.setZero();
  double previousNorm = 0;
  for (iterations_ = 1; iterations_ <= maxIterations_; ++iterations_) {
    if (!f_.checkFinite(tNew, yNew_.data()) || !f_(tNew, yNew_.data(), fNew_.data()))
      return Newton::RhsFailed;
    // The corrector residual c·F − ψ/α_k − d, through (I − cJ)⁻¹.
    residual_ = c * fNew_ - psi_ - d_;
    delta_ = lu_.solve(residual_);
    const double norm = scaledNorm(delta_, scale_);
    if (!std::isfinite(norm)) // a singular matrix, or an overflow
      return Newton::Diverged;
    double rate = 0;
    if (iterations_ > 1) {
      // With contraction `rate`, the error left after the sweeps still
      // allowed is rate^(left+1)/(1 − rate)·norm: too large means give up
      // now, for a fresh Jacobian or a shorter step.
      rate = norm / previousNorm;
      const int left = maxIterations_ - iterations_;
      if (rate >= 1 || std::pow(rate, left + 1) / (1 - rate) * norm > newtonTolerance_)
        return Newton::Diverged;
    }
    yNew_ += delta_;
    d_ += delta_;
    // The first sweep has no rate to bound the error left, so it cannot
    // declare convergence unless it changed nothing.
    if (norm == 0 || (iterations_ > 1 && rate / (1 - rate) * norm < newtonTolerance_))
      return Newton::Converged;
    previousNorm = norm;
  }
  return Newton::Diverged;
}

double BdfStepper::filteredNorm(const Eigen::Ref<const Eigen::VectorXd> &difference,
                                double constant) {
  // A defect τ in the corrector's equations moves its solution by
  // (I − cJ)⁻¹ τ: that, not τ, is the local error. The two agree where
  // |cJ| is small; on stiff components the filter matters both ways. The
  // predictor extrapolates whatever the history holds in a stiff component
  // (rounding, the damped remains of earlier errors), the corrector removes
  // it, and d still carries it: unfiltered, it rejects good steps and keeps
  // the order low. And a defect in a slow component can reach a stiff one
  // multiplied: on the forced oscillator of BdfTest, x's defect reaches
  // v ≈ (F0 sin wt − k x)/c times k/c = 1e3, which d does not show while the
  // steps stay equal. Unfiltered, as in ode15s and SciPy, that oscillator
  // took 50 061 steps here at rtol 1e-6 (SciPy's BDF: 4 552) with velocity
  // errors 34 times the tolerance; filtered, 242 steps within it. The cost:
  // one more solve with the LU at hand per estimate.
  residual_ = constant * difference;
  delta_ = lu_.solve(residual_);
  return scaledNorm(delta_, errorScale_);
}

double BdfStepper::estimateError() {
  for (Eigen::Index i = 0; i < n_; ++i)
    errorScale_(i) = tolerances_.scale(y_(i), yNew_(i));
  const double error = filteredNorm(d_, k_.errorConstant[order_]);
  // NaN counts as infinitely bad.
  error_ = error < kInfinity ? error : kInfinity;
  return error_;
}

void BdfStepper::accept(double tNew) {
  // d = ∇^{k+1} x_{n+1} (the predictor's polynomial has no (k+1)-th
  // difference), ∇^{k+2} x_{n+1} = d − ∇^{k+1} x_n, and the lower
  // differences follow from ∇^j x_{n+1} = ∇^j x_n + ∇^{j+1} x_{n+1}.
  const int k = order_;
  D_.col(k + 2) = d_ - D_.col(k + 1);
  D_.col(k + 1) = d_;
  for (int j = k; j >= 0; --j)
    D_.col(j) += D_.col(j + 1);
  // The same value up to rounding; the iterate is the step's result.
  D_.col(0) = yNew_;
  y_ = yNew_;
  t_ = tNew;
  ++equalSteps_;
  jacobianCurrent_ = false;
}

double BdfStepper::safety() const {
  // Less optimistic after a laborious iteration, whose step was near the
  // limit of convergence.
  return kSafety * (2 * maxIterations_ + 1) / (2 * maxIterations_ + iterations_);
}

BdfStepper::Choice BdfStepper::choose() {
  const int k = order_;
  if (equalSteps_ < k + 1)
    return {k, 1};
  // Order q's error at this h scales as h^(q+1): each order's estimate
  // gives the step it would allow, and the largest wins (ties: order k).
  auto factor = [](double error, int q) { return std::pow(error, -1.0 / (q + 1)); };
  Choice best{k, factor(error_, k)};
  if (k > 1) {
    const double lower = filteredNorm(D_.col(k), k_.errorConstant[k - 1]);
    if (factor(lower, k - 1) > best.factor)
      best = {k - 1, factor(lower, k - 1)};
  }
  if (k < kMaxOrder) {
    const double higher = filteredNorm(D_.col(k + 2), k_.errorConstant[k + 1]);
    if (factor(higher, k + 1) > best.factor)
      best = {k + 1, factor(higher, k + 1)};
  }
  best.factor = std::min(kMaxFactor, safety() * best.factor);
  // Growing h by a little is not worth a new decomposition.
  if (best.order == k && best.factor >= kKeepLow && best.factor <= kKeepHigh)
    best.factor = 1;
  return best;
}

double BdfStepper::shrinkAfterError() const {
  return std::max(kMinFactor, safety() * std::pow(error_, -1.0 / (order_ + 1)));
}

void BdfStepper::shift(const Eigen::VectorXd &x) {
  // The history becomes that of the states actually accepted, each of them
  // projected: moving x_n by δ moves every backward difference at n by δ,
  // as if the step's correction d had been d + δ. Shifting the value alone
  // would leave a polynomial through unprojected past values.
  delta_ = x - y_;
  for (int j = 0; j <= order_ + 2; ++j)
    D_.col(j) += delta_;
  y_ = x;
  jacobianCurrent_ = false;
}

void BdfStepper::interpolate(double t, Eigen::VectorXd &out) const {
  // The history's polynomial in Newton's backward form, s in [−1, 0].
  const double s = (t - t_) / h_;
  out = D_.col(0);
  double basis = 1;
  for (int j = 1; j <= order_; ++j) {
    basis *= (s + (j - 1)) / j;
    out += basis * D_.col(j);
  }
}

class BdfDriver {
public:
  BdfDriver(RhsEvaluator &f, const IntegratorOptions &options, const SampleCallback &sample)
      : f_(f), o_(options), sample_(sample),
        stepper_(f, options.jacobian, {options.rtol, options.atol}),
        output_(options, sample, f.dimension()), projected_(f.dimension()) {}

  IntegrationResult run(const Eigen::VectorXd &x0);
  IntegrationResult runFixed(const std::vector<Eigen::VectorXd> &history, int order);

private:
  // How the corrector of an attempted step ended, after a retry with a
  // fresh Jacobian if an old one failed; Fatal: the Jacobian failed.
  enum class Corrector { Converged, Diverged, RhsFailed, Fatal };

  IntegrationResult adaptive(double t);
  Corrector correct(double tNew);
  void reject(Corrector corrector);
  // The samples of an accepted step, its projection, the step's watch.
  bool deliver(double t, double tNew);
  bool project(double tNew);
  void applyChoice(BdfStepper::Choice choice);
  IntegrationResult stop(const Failure &failure);

  RhsEvaluator &f_;
  const IntegratorOptions &o_;
  const SampleCallback &sample_;
  BdfStepper stepper_;
  StepOutput output_;
  Eigen::VectorXd projected_;
  IntegrationStats stats_;
  Failure failure_;         // the failure that stops the run, or the last of F
  bool failedLast_ = false; // whether the last rejection came from a failure of F
  bool needJacobian_ = true;
};

IntegrationResult BdfDriver::stop(const Failure &failure) {
  stats_.rhsEvaluations = f_.evaluations();
  stats_.jacobianEvaluations = stepper_.jacobianEvaluations();
  stats_.factorizations = stepper_.factorizations();
  stats_.sparseFactorizations = stepper_.sparseFactorizations();
  return resultOf(failure, stats_);
}

IntegrationResult BdfDriver::run(const Eigen::VectorXd &x0) {
  if (Failure ended; !output_.begin(o_.t0, x0, ended))
    return stop(ended);
  const double hmax = std::abs(o_.tEnd - o_.t0);
  if (hmax == 0)
    return stop({Outcome::Finished});
  if (!stepper_.start(o_.t0, x0))
    return stop(f_.lastFailure());
  const double direction = output_.direction();
  // Order 1's local error is O(h²): order 2 in Hairer's initial step.
  stepper_.firstStep(o_.step > 0 ? direction * std::min(o_.step, hmax)
                                 : initialStep(f_, o_.t0, x0, stepper_.derivative(), 2,
                                               {o_.rtol, o_.atol}, hmax, direction));
  return adaptive(o_.t0);
}

BdfDriver::Corrector BdfDriver::correct(double tNew) {
  for (;;) {
    if (needJacobian_) {
      if (!stepper_.updateJacobian(failure_))
        return Corrector::Fatal;
      needJacobian_ = false;
    }
    stepper_.factorize();
    const BdfStepper::Newton newton = stepper_.solve(tNew);
    if (newton == BdfStepper::Newton::Converged)
      return Corrector::Converged;
    // A Jacobian from an earlier state may be why: renew it, same step.
    if (!stepper_.jacobianCurrent()) {
      needJacobian_ = true;
      continue;
    }
    return newton == BdfStepper::Newton::RhsFailed ? Corrector::RhsFailed : Corrector::Diverged;
  }
}

void BdfDriver::reject(Corrector corrector) {
  ++stats_.rejected;
  failedLast_ = corrector == Corrector::RhsFailed;
  if (failedLast_)
    failure_ = f_.lastFailure();
  const double h = stepper_.step();
  if (corrector == Corrector::Converged) { // the error was too large
    stepper_.setStep(h * stepper_.shrinkAfterError());
    return;
  }
  // Halving bisects towards where F starts to fail, and shortens the step
  // until the iteration converges.
  stepper_.setStep(h / 2);
}

bool BdfDriver::deliver(double t, double tNew) {
  auto interpolate = [&](double ts, Eigen::VectorXd &out) { stepper_.interpolate(ts, out); };
  if (!output_.step(t, tNew, stepper_.state(), interpolate, failure_) || !project(tNew))
    return false;
  if (o_.stepped && !o_.stepped(tNew, stepper_.state().data())) {
    failure_ = {Outcome::RhsFailed, tNew};
    return false;
  }
  return true;
}

bool BdfDriver::project(double tNew) {
  if (!o_.project)
    return true;
  projected_ = stepper_.state();
  if (!o_.project(tNew, projected_.data())) {
    failure_ = {Outcome::RhsFailed, tNew};
    return false;
  }
  if (projected_ == stepper_.state())
    return true;
  if (!f_.checkFinite(tNew, projected_.data())) {
    failure_ = f_.lastFailure();
    return false;
  }
  stepper_.shift(projected_);
  return true;
}

void BdfDriver::applyChoice(BdfStepper::Choice choice) {
  stepper_.setOrder(choice.order);
  double h = stepper_.step() * choice.factor;
  h = std::copysign(std::min(std::abs(h), std::abs(o_.tEnd - o_.t0)), h);
  stepper_.setStep(h);
}

IntegrationResult BdfDriver::adaptive(double t) {
  const double direction = output_.direction();
  for (;;) {
    if (stats_.accepted + stats_.rejected >= o_.maxSteps)
      return stop({Outcome::MaxSteps, t});
    const double h = stepper_.step();
    if (std::abs(h) < kUnderflow * std::abs(t) || t + h == t)
      return stop(failedLast_ ? failure_ : Failure{Outcome::StepSizeUnderflow, t});
    // Stretch a step that would stop just short of the end.
    const bool last = direction * (t + 1.01 * h - o_.tEnd) >= 0;
    if (last)
      stepper_.setStep(o_.tEnd - t);
    const double tNew = last ? o_.tEnd : t + h;

    const Corrector corrector = correct(tNew);
    if (corrector == Corrector::Fatal)
      return stop(failure_);
    if (corrector != Corrector::Converged || !(stepper_.estimateError() <= 1)) {
      reject(corrector);
      continue;
    }
    ++stats_.accepted;
    failedLast_ = false;
    stepper_.accept(tNew);
    // Chosen from the step's own estimates, before a projection moves it.
    const BdfStepper::Choice choice = stepper_.choose();
    if (!deliver(t, tNew))
      return stop(failure_);
    if (last)
      return stop({Outcome::Finished});
    applyChoice(choice);
    t = tNew;
  }
}

IntegrationResult BdfDriver::runFixed(const std::vector<Eigen::VectorXd> &history, int order) {
  if (Failure ended; !output_.begin(o_.t0, history[0], ended))
    return stop(ended);
  stepper_.startFromHistory(o_.t0, history, order, output_.direction() * o_.step);
  stepper_.setMaxIterations(kMaxFixedIterations);
  TimeGrid steps(o_.t0, o_.tEnd, o_.step);
  steps.advance(); // t0 is where we are
  double t = o_.t0;
  for (; !steps.done(); steps.advance()) {
    if (stats_.accepted >= o_.maxSteps)
      return stop({Outcome::MaxSteps, t});
    const double tNew = steps.next(), h = tNew - t;
    // The grid's points are t0 + j·step rounded: only a short last step
    // changes the spacing.
    if (std::abs(h - stepper_.step()) > 1e-9 * std::abs(h))
      stepper_.setStep(h);
    switch (correct(tNew)) {
    case Corrector::Converged:
      break;
    case Corrector::Fatal:
      return stop(failure_);
    case Corrector::RhsFailed:
      return stop(f_.lastFailure());
    case Corrector::Diverged:
      return stop({Outcome::NoConvergence, t});
    }
    ++stats_.accepted;
    stepper_.accept(tNew);
    if (!deliver(t, tNew))
      return stop(failure_);
    t = tNew;
  }
  return stop({Outcome::Finished});
}

} // namespace

IntegrationResult integrateBdf(RhsEvaluator &rhs, const Eigen::VectorXd &x0,
                               const IntegratorOptions &options, const SampleCallback &sample) {
  BdfDriver driver(rhs, options, sample);
  return driver.run(x0);
}

IntegrationResult integrateBdfFixedOrder(RhsEvaluator &rhs,
                                         const std::vector<Eigen::VectorXd> &history, int order,
                                         const IntegratorOptions &options,
                                         const SampleCallback &sample) {
  auto require = [](bool condition, const char *what) {
    if (!condition)
      throw std::invalid_argument(std::string("fixed-order bdf: ") + what);
  };
  require(order >= 1 && order <= kMaxOrder, "the order must be 1 to 5");
  require(history.size() >= static_cast<size_t>(order) + 1,
          "order k needs the solution at k + 1 points");
  for (const Eigen::VectorXd &x : history)
    require(x.size() == rhs.dimension(), "every value of the history needs the system's dimension");
  require(options.step > 0 && std::isfinite(options.step), "the step must be positive");
  require(static_cast<bool>(options.jacobian), "the Jacobian is required");
  require(std::isfinite(options.t0) && std::isfinite(options.tEnd), "t0 and tEnd must be finite");
  require(options.dt > 0 && options.atol > 0 && options.rtol >= 0,
          "dt and atol must be positive, rtol not negative");
  BdfDriver driver(rhs, options, sample);
  return driver.runFixed(history, order);
}

} // namespace mech::runtime
