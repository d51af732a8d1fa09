// One Dormand–Prince 5(4) step, its error norm and its dense output.
#include "runtime/Dopri5.h"

#include "runtime/Dopri5Tableau.h"

#include <cmath>

namespace mech::runtime {

using namespace dopri5;

Dopri5::Dopri5(RhsEvaluator &f, Tolerances tolerances) : EmbeddedPair(f, tolerances, kStages, 5) {}

ControllerSettings Dopri5::controllerSettings() const {
  ControllerSettings s;
  s.beta = 0.04;
  // Hairer's exponent for the I part when a PI term is present.
  s.exponent = 0.2 - 0.75 * s.beta;
  s.minFactor = 0.2;
  s.maxFactor = 10;
  return s;
}

bool Dopri5::attempt(double t, double h, double &error) {
  for (int j = 1; j < 6; ++j)
    if (!stage(j, t, h, c[j], std::span(a[j], j)))
      return false;
  stages_.combine(y_, h, std::span(a[6], 6), yNew_);
  if (!f_.checkFinite(t + h, yNew_.data()) || !stages_.evaluate(f_, 6, t + h, yNew_))
    return false;

  const Eigen::Index n = y_.size();
  double sum = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    double ratio = h * stages_.sum(e, i) / tolerances_.scale(y_(i), yNew_(i));
    sum += ratio * ratio;
  }
  error = n > 0 ? std::sqrt(sum / static_cast<double>(n)) : 0;
  return true;
}

bool Dopri5::accept(double, double h, bool interpolating) {
  if (interpolating)
    prepareDenseOutput(h);
  y_.swap(yNew_);
  stages_.k.col(0) = stages_.k.col(6);
  return true;
}

// Stages 6 and 7 are both at t + h: |k7 − k6| / |y7 − y6| estimates the
// largest |eigenvalue| of dF/dx, as in Hairer's DOPRI5.
double Dopri5::stiffnessProduct(double h) const {
  const double dy = (yNew_ - stageState_).squaredNorm();
  const double dk = (stages_.k.col(6) - stages_.k.col(5)).squaredNorm();
  return dy > 0 ? std::abs(h) * std::sqrt(dk / dy) : 0;
}

void Dopri5::prepareDenseOutput(double h) {
  // y(t + θh) = y0 + θ(Δ + (1-θ)(r2 + θ(r3 + (1-θ) r4))): the cubic Hermite
  // terms from y0, y1, F0, F1, plus the fourth-order correction r4.
  const Eigen::MatrixXd &k = stages_.k;
  for (Eigen::Index i = 0; i < y_.size(); ++i) {
    double delta = yNew_(i) - y_(i);
    double r2 = h * k(i, 0) - delta;
    dense_(i, 0) = y_(i);
    dense_(i, 1) = delta;
    dense_(i, 2) = r2;
    dense_(i, 3) = delta - h * k(i, 6) - r2;
    dense_(i, 4) = h * stages_.sum(d, i);
  }
}

void Dopri5::interpolate(double theta, Eigen::VectorXd &out) const {
  double s = 1 - theta;
  out = dense_.col(0) +
        theta * (dense_.col(1) + s * (dense_.col(2) + theta * (dense_.col(3) + s * dense_.col(4))));
}

} // namespace mech::runtime
