// The midpoint variational integrator for mechanical systems x = (q, q'): the
// discrete Euler–Lagrange equations of L_d(q0, q1) = h L((q0 + q1)/2,
// (q1 - q0)/h), forces not derived from L entering by the discrete
// Lagrange–d'Alembert principle, solved in position–momentum form. The map is
// symplectic and keeps the momentum of a cyclic coordinate exactly (the
// discrete Noether theorem), so the energy error of a conservative system
// stays bounded over long runs instead of drifting; the method is second
// order.
#pragma once

#include "runtime/Integrator.h"
#include "runtime/RhsEvaluator.h"

#include <Eigen/Core>

namespace mech::runtime {

// Integrates from x0 (finite, 2·lagrangian.coordinates components) in steps of
// options.step (> 0), the last one shortened to end exactly at tEnd. F is only
// called for samples that fall between steps (the Hermite interpolant needs
// the derivatives at the step's ends); stats.rhsEvaluations counts every call
// into the model: F, the momenta with the forces, and the mass matrix.
IntegrationResult integrateMidpoint(RhsEvaluator &f, const LagrangianForm &lagrangian,
                                    const Eigen::VectorXd &x0, const IntegratorOptions &options,
                                    const SampleCallback &sample);

} // namespace mech::runtime
