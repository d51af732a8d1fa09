// The cubic Hermite interpolant of a step from the states and derivatives at
// its ends: third-order accurate, enough for the fixed-step methods (RK4, the
// midpoint variational integrator) whose samples fall between steps.
#pragma once

#include <Eigen/Core>

namespace mech::runtime {

// The cubic with values y0, y1 and slopes f0, f1 at the ends of a step of
// size h, at t + theta·h.
inline void hermite(double theta, double h, const Eigen::VectorXd &y0, const Eigen::VectorXd &y1,
                    Eigen::Ref<const Eigen::VectorXd> f0, Eigen::Ref<const Eigen::VectorXd> f1,
                    Eigen::VectorXd &out) {
  double t2 = theta * theta, t3 = t2 * theta;
  double h00 = 2 * t3 - 3 * t2 + 1, h10 = t3 - 2 * t2 + theta;
  double h01 = 3 * t2 - 2 * t3, h11 = t3 - t2;
  out = h00 * y0 + (h10 * h) * f0 + h01 * y1 + (h11 * h) * f1;
}

} // namespace mech::runtime
