// Radau IIA of order 5 (three stages) for stiff systems x' = F(t, x), after
// Hairer & Wanner's RADAU5 (Solving ODEs II, §IV.8), with the exact Jacobian
// dF/dx from the caller: never finite differences, which would cost n
// evaluations of F and lose half the digits of the Newton matrix.
//
// The collocation equations of a step are solved by the simplified Newton
// iteration in the coordinates that diagonalize A⁻¹ (one real eigenvalue γ,
// one complex pair α ± iβ), so each iteration solves one real and one complex
// n×n system instead of one 3n×3n system; the LU decompositions are reused
// while h and the Jacobian stay the same, and the Jacobian is reused across
// steps while the iteration converges fast. The dense output is the
// collocation polynomial through the three stages, which also gives the next
// step's starting values. It is of order 3 between steps whatever the
// stiffness, while on stiff problems the steps' ends are far more accurate
// than the stage order suggests and the steps grow long accordingly: samples
// between steps can then miss the tolerance by orders of magnitude where the
// steps' ends meet it (Prothero–Robinson with g = sin, L = -1e6 and
// rtol = 1e-8: errors of 5e-5 at samples, of 2e-8 at the steps' ends). The error estimate is held
// to the tolerance as given, not to RADAU5's looser 0.1·tol^(2/3) (see the constructor of
// RadauStepper).
//
// The method has a driver of its own rather than being an EmbeddedPair under
// integrateAdaptive: RADAU5's step-size choice is entangled with its Newton
// iteration (the safety factor shrinks with the iterations a step needed; a
// slowly converging iteration shrinks h by a predicted factor, a diverging
// one halves it; an h that would change by less than 20% is kept so that the
// LU decompositions can be reused; a rejection recomputes a Jacobian that is
// not current; the error estimate is refined after a rejection), and its
// step-size controller is Gustafsson's predictive one with growth limits of
// its own, none of which the PI controller and the pair interface express.
// The driver keeps the adaptive driver's contract otherwise: samples from the
// dense output, the step projection, failures inside a step halve it and are
// reported when h underflows, failures at an accepted state at once.
#pragma once

#include "runtime/Integrator.h"
#include "runtime/RhsEvaluator.h"
#include "runtime/StepOutput.h"

#include <Eigen/Core>

namespace mech::runtime {

// The constants of the method, derived once from its Butcher tableau (see
// Radau5.cpp); public so that tests can check them against closed forms.
struct Radau5Coefficients {
  double c[3];       // the nodes; c[2] = 1
  Eigen::Matrix3d A; // the Runge–Kutta matrix
  // The eigenvalues of A⁻¹: γ real, α ± iβ with β > 0.
  double gamma, alpha, beta;
  // T⁻¹ A⁻¹ T = [[γ, 0, 0], [0, α, -β], [0, β, α]]: the first column the
  // unit real eigenvector, the others the real part and minus the imaginary
  // part of the eigenvector of α + iβ whose last component is 1 (RADAU5's
  // normalization, which its Newton tolerances were tuned with).
  Eigen::Matrix3d T, Tinv;
  // The error estimate of a step with stage increments z_i is
  // (γ/h − J)⁻¹ (F(t, y) + Σ errorWeights[i] z_i / h).
  double errorWeights[3];
};

const Radau5Coefficients &radau5Coefficients();

// Integrates from x0 (finite) at options.t0 under `options` (validated by
// `integrate`), with options.jacobian non-empty, handing each step to
// `output`, which has begun (StepOutput::begin) at t0. `rhs` counts the
// evaluations of F.
IntegrationResult integrateRadau(RhsEvaluator &rhs, const Eigen::VectorXd &x0,
                                 const IntegratorOptions &options, StepOutput &output);

} // namespace mech::runtime
