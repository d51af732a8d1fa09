// One DOP853 step, its error norm and its dense output.
#include "runtime/Dop853.h"

#include "runtime/Dop853Tableau.h"

#include <cmath>

namespace mech::runtime {

using namespace dop853;

Dop853::Dop853(RhsEvaluator &f, Tolerances tolerances) : EmbeddedPair(f, tolerances, kStages, 8) {}

ControllerSettings Dop853::controllerSettings() const {
  ControllerSettings s;
  s.beta = 0;
  s.exponent = 1.0 / 8 - 0.2 * s.beta;
  s.minFactor = 0.333;
  s.maxFactor = 6;
  return s;
}

bool Dop853::attempt(double t, double h, double &error) {
  for (int j = 1; j < kStepStages; ++j)
    if (!stage(j, t, h, c[j], std::span(a[j], j)))
      return false;
  stages_.combine(y_, h, std::span(a[12], kStepStages), yNew_);
  if (!f_.checkFinite(t + h, yNew_.data()))
    return false;

  // Neither embedded formula's error behaves like the eighth-order error; the
  // quotient E5² / sqrt(E5² + 0.01 E3²), about 10 E5²/E3 for small steps,
  // does (Hairer, Nørsett & Wanner, II.10).
  const Eigen::Index n = y_.size();
  double sum5 = 0, sum3 = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    double sk = tolerances_.scale(y_(i), yNew_(i));
    double r5 = stages_.sum(e5, i) / sk, r3 = stages_.sum(e3, i) / sk;
    sum5 += r5 * r5;
    sum3 += r3 * r3;
  }
  double denominator = sum5 + 0.01 * sum3;
  if (denominator <= 0)
    denominator = 1;
  error = n > 0 ? std::abs(h) * sum5 / std::sqrt(static_cast<double>(n) * denominator) : 0;
  return true;
}

bool Dop853::accept(double t, double h, bool interpolating) {
  // F at the new state: the next step's first stage.
  if (!stages_.evaluate(f_, 12, t + h, yNew_))
    return false;
  if (interpolating && !prepareDenseOutput(t, h))
    return false;
  y_.swap(yNew_);
  stages_.k.col(0) = stages_.k.col(12);
  return true;
}

bool Dop853::prepareDenseOutput(double t, double h) {
  // Three stages only the dense output needs.
  for (int j = 13; j < kStages; ++j)
    if (!stage(j, t, h, c[j], std::span(a[j], j)))
      return false;

  // y(t + θh) = y0 + θ(Δ + (1-θ)(r2 + θ(r3 + (1-θ)(r4 + θ(r5 + (1-θ)(r6 + θ r7)))))).
  const Eigen::MatrixXd &k = stages_.k;
  for (Eigen::Index i = 0; i < y_.size(); ++i) {
    double delta = yNew_(i) - y_(i);
    double r2 = h * k(i, 0) - delta;
    dense_(i, 0) = y_(i);
    dense_(i, 1) = delta;
    dense_(i, 2) = r2;
    dense_(i, 3) = delta - h * k(i, 12) - r2;
    for (int r = 0; r < 4; ++r)
      dense_(i, 4 + r) = h * stages_.sum(d[r], i);
  }
  return true;
}

void Dop853::interpolate(double theta, Eigen::VectorXd &out) const {
  double s = 1 - theta;
  // Inner terms first; each component of out depends on its own value only.
  out = dense_.col(4) + theta * (dense_.col(5) + s * (dense_.col(6) + theta * dense_.col(7)));
  out = dense_.col(0) +
        theta * (dense_.col(1) + s * (dense_.col(2) + theta * (dense_.col(3) + s * out)));
}

} // namespace mech::runtime
