// The classic fourth-order Runge–Kutta method at a fixed step, for reference
// runs and for comparisons with the adaptive methods. Samples between steps
// come from the cubic Hermite interpolant of the states and derivatives at
// the step's ends, which is as accurate as the method itself.
#pragma once

#include "runtime/Integrator.h"
#include "runtime/RhsEvaluator.h"

#include <Eigen/Core>

namespace mech::runtime {

// Integrates from x0 (finite) in steps of options.step (> 0), the last one
// shortened to end exactly at tEnd.
IntegrationResult integrateRk4(RhsEvaluator &f, const Eigen::VectorXd &x0,
                               const IntegratorOptions &options, const SampleCallback &sample);

} // namespace mech::runtime
