// The step loop of the adaptive methods: choose the first step, attempt,
// accept or reject under the PI controller, hand the samples within each
// accepted step to the caller from the dense output, and turn the first
// failure that shrinking the step cannot avoid into the run's Outcome.
#pragma once

#include "runtime/EmbeddedPair.h"
#include "runtime/Integrator.h"

#include <Eigen/Core>

namespace mech::runtime {

// Integrates from x0 (finite) with `pair`, whose rhs() counts evaluations.
IntegrationResult integrateAdaptive(EmbeddedPair &pair, const Eigen::VectorXd &x0,
                                    const IntegratorOptions &options, const SampleCallback &sample);

} // namespace mech::runtime
