// Dormand–Prince 8(5,3) after Hairer's DOP853: twelve stages per step (eleven
// new evaluations of F, since F at the accepted state starts the next step),
// an error norm that combines the fifth- and third-order estimates, and the
// seventh-order dense output, which costs three more evaluations in each step
// with samples inside it. Step control as in DOP853: beta = 0, factors in
// [1/3, 6].
#pragma once

#include "runtime/EmbeddedPair.h"

namespace mech::runtime {

class Dop853 final : public EmbeddedPair {
public:
  Dop853(RhsEvaluator &f, Tolerances tolerances);

  int order() const override { return 8; }
  ControllerSettings controllerSettings() const override;
  bool attempt(double t, double h, double &error) override;
  bool accept(double t, double h, bool interpolating) override;
  void interpolate(double theta, Eigen::VectorXd &out) const override;

private:
  bool prepareDenseOutput(double t, double h);
};

} // namespace mech::runtime
