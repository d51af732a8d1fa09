// The PI step-size controller and the initial step.
#include "runtime/StepSizeController.h"

#include <limits>

namespace mech::runtime {

double StepSizeController::afterAccept(double h, double err, double hmax) {
  double fac = std::pow(err, s_.exponent) / std::pow(previousError_, s_.beta);
  fac = std::clamp(fac / s_.safety, 1 / s_.maxFactor, 1 / s_.minFactor);
  double hNew = h / fac;
  // Bounded below as in Hairer's codes: a tiny error would make the PI term
  // demand an enormous step next time.
  previousError_ = std::max(err, 1e-4);
  if (std::abs(hNew) > hmax)
    hNew = std::copysign(hmax, h);
  if (rejected_)
    hNew = std::copysign(std::min(std::abs(hNew), std::abs(h)), h);
  rejected_ = false;
  return hNew;
}

double StepSizeController::afterReject(double h, double err) {
  // NaN would slip through the comparisons below; treat it as infinitely bad.
  if (!(err < std::numeric_limits<double>::infinity()))
    err = std::numeric_limits<double>::infinity();
  rejected_ = true;
  return h / std::min(1 / s_.minFactor, std::pow(err, s_.exponent) / s_.safety);
}

double StepSizeController::afterFailure(double h) {
  rejected_ = true;
  return h / 2;
}

double initialStep(RhsEvaluator &f, double t0, const Eigen::VectorXd &x0,
                   Eigen::Ref<const Eigen::VectorXd> f0, int order, Tolerances tolerances,
                   double hmax, double direction) {
  const Eigen::Index n = x0.size();
  double dnf = 0, dny = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    double sk = tolerances.scale(x0(i), 0);
    dnf += (f0(i) / sk) * (f0(i) / sk);
    dny += (x0(i) / sk) * (x0(i) / sk);
  }
  double h = (dnf <= 1e-10 || dny <= 1e-10) ? 1e-6 : 0.01 * std::sqrt(dny / dnf);
  h = std::min(h, hmax);

  // An explicit Euler step estimates the second derivative.
  Eigen::VectorXd x1 = x0 + (direction * h) * f0;
  Eigen::VectorXd f1(n);
  if (!f(t0 + direction * h, x1.data(), f1.data()))
    return direction * h; // the step loop meets the failure and shrinks the step
  double der2 = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    double d = (f1(i) - f0(i)) / tolerances.scale(x0(i), 0);
    der2 += d * d;
  }
  der2 = std::sqrt(der2) / h;
  double der12 = std::max(der2, std::sqrt(dnf));
  double h1 = der12 <= 1e-15 ? std::max(1e-6, h * 1e-3) : std::pow(0.01 / der12, 1.0 / order);
  return direction * std::min({100 * h, h1, hmax});
}

} // namespace mech::runtime
