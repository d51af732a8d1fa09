// Dormand–Prince 5(4): six evaluations of F per step thanks to FSAL, a
// fourth-order error estimate driving a PI controller (beta = 0.04, the value
// Hairer's DOPRI5 recommends), and Shampine's fourth-order dense output.
#pragma once

#include "runtime/EmbeddedPair.h"

namespace mech::runtime {

class Dopri5 final : public EmbeddedPair {
public:
  Dopri5(RhsEvaluator &f, Tolerances tolerances);

  int order() const override { return 5; }
  ControllerSettings controllerSettings() const override;
  bool attempt(double t, double h, double &error) override;
  bool accept(double t, double h, bool interpolating) override;
  void interpolate(double theta, Eigen::VectorXd &out) const override;
  double stiffnessProduct(double h) const override;

private:
  void prepareDenseOutput(double h);
};

} // namespace mech::runtime
