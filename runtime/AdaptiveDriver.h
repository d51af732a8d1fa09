// The step loop of the adaptive methods: choose the first step, attempt,
// accept or reject under the PI controller, hand the samples within each
// accepted step to the caller from the dense output, and turn the first
// failure that shrinking the step cannot avoid into the run's Outcome.
#pragma once

#include "runtime/EmbeddedPair.h"
#include "runtime/Integrator.h"
#include "runtime/StepOutput.h"

#include <Eigen/Core>

namespace mech::runtime {

// Watches the accepted steps of an explicit run for stiffness (--method
// auto, runtime/AutoSwitch.h).
class StiffnessMonitor {
public:
  virtual ~StiffnessMonitor() = default;
  // After an accepted step of size h that ends at (t, x) (as projected),
  // with hRho the step times the pair's estimate of the largest |eigenvalue|
  // of dF/dx along it (EmbeddedPair::stiffnessProduct): true ends the run
  // there, as Finished, for the caller to continue by other means.
  virtual bool switchAfter(double t, double h, const Eigen::VectorXd &x, double hRho) = 0;
};

// Integrates from x0 (finite) at options.t0 with `pair`, whose rhs() counts
// evaluations, handing each accepted step to `output`, which has begun at
// t0. A `monitor` sees every accepted step but the last.
IntegrationResult integrateAdaptive(EmbeddedPair &pair, const Eigen::VectorXd &x0,
                                    const IntegratorOptions &options, StepOutput &output,
                                    StiffnessMonitor *monitor = nullptr);

} // namespace mech::runtime
