// Step-size selection for the embedded pairs: Gustafsson's PI controller in
// the form of Hairer's DOPRI5/DOP853 codes, and Hairer's estimate of a first
// step from the initial state and one extra evaluation of F.
#pragma once

#include "runtime/RhsEvaluator.h"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>

namespace mech::runtime {

struct Tolerances {
  double rtol = 0, atol = 0;
  // The error scale of a component whose values over a step were a and b.
  double scale(double a, double b) const {
    return atol + rtol * std::max(std::abs(a), std::abs(b));
  }
};

// h_new = h · safety / (err^exponent / err_prev^beta), bounded to
// [minFactor, maxFactor] · h. beta = 0 is the classic I controller; a small
// beta > 0 damps the oscillation of h that the I controller shows where
// stability rather than accuracy limits the step.
struct ControllerSettings {
  double exponent = 0.2;
  double beta = 0;
  double minFactor = 0.2, maxFactor = 10;
  double safety = 0.9;
};

class StepSizeController {
public:
  explicit StepSizeController(ControllerSettings settings) : s_(settings) {}

  // The next step after one of size h was accepted with error norm err <= 1;
  // |h_new| <= hmax, and no growth right after a rejection.
  double afterAccept(double h, double err, double hmax);
  // The retry after a step of size h was rejected with error norm err > 1.
  double afterReject(double h, double err);
  // The retry after a step failed without an error estimate: halving it
  // bisects towards the point where the failure starts.
  double afterFailure(double h);

private:
  ControllerSettings s_;
  double previousError_ = 1e-4;
  bool rejected_ = false;
};

// Hairer's HINIT: the step for which an explicit Euler step's estimated local
// error of order `order` meets the tolerances, also bounded by 100 times a
// first guess ‖x0‖/‖F0‖ and by hmax. Evaluates F once more. Signed like
// direction (±1).
double initialStep(RhsEvaluator &f, double t0, const Eigen::VectorXd &x0,
                   Eigen::Ref<const Eigen::VectorXd> f0, int order, Tolerances tolerances,
                   double hmax, double direction);

} // namespace mech::runtime
