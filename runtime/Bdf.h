// The backward differentiation formulas of orders 1 to 5 with variable order
// and step, for stiff systems x' = F(t, x), with the exact Jacobian dF/dx from
// the caller (never finite differences, which would cost n evaluations of F
// per Jacobian and lose half the digits of the Newton matrix).
//
// The variant: plain BDF, in the quasi-constant-step form of Shampine and
// Reichelt's ode15s ("The MATLAB ODE suite", SIAM J. Sci. Comput. 18, 1997)
// and of SciPy's BDF. The solution's history is held as the backward
// differences ∇^j x_n (j = 0 … k) of the values at equally spaced past points;
// a change of h re-samples the interpolating polynomial they define at the
// new spacing, so the formulas keep their constant-step coefficients; h
// and the order change only after k + 1 steps at one h and order, or on a
// rejection. The paper's NDF modification (order k's formula shifted by κ_k
// times a (k+1)-th difference: more accurate at orders 1–4, a little less
// stable) is built in behind the constant kUseNdf in Bdf.cpp, off: the
// issue asks for BDF, whose orders and stability regions are the textbook
// ones (BdfTest passes with it on too).
//
// A step predicts x_{n+1} by extrapolating the polynomial, then solves the
// corrector Σ_{j=1..k} (1/j) ∇^j x_{n+1} = h F(t_{n+1}, x_{n+1}) by a
// simplified Newton iteration with the LU of I − (h/γ_k) J, γ_k = Σ 1/j. The
// LU is kept while h and the order stay; the Jacobian, evaluated only at
// accepted states, is kept across steps while the iteration converges, and
// renewed when it does not. The difference between corrector and predictor
// is ∇^{k+1} x_{n+1}, which times 1/(k+1) estimates the formula's defect;
// unlike ode15s and SciPy, the error test takes it through (I − (h/γ_k) J)⁻¹
// as Radau's estimate is filtered, which gives the local error on stiff
// components (see filteredNorm in Bdf.cpp: 242 steps instead of thousands
// on BdfTest's stiff oscillator). After k + 1 steps at one h, the estimates
// for orders k − 1 and k + 1 (from ∇^k and ∇^{k+2}) and the step each would
// allow pick the next order and h. The samples between steps come from the
// polynomial through the last k + 1 values, as accurate as the steps' ends.
//
// The tolerance bounds each step's local error, so the global error is
// their accumulation: on stretches where nothing damps it, 10–100 times the
// tolerance (SciPy's BDF alike), where Radau, whose estimate is of a lower
// order than its solution, stays within the tolerance.
//
// Like Radau, the method has a driver of its own rather than the adaptive
// driver's EmbeddedPair interface: a step's size and order depend on the
// history and the Newton iteration. It keeps the adaptive driver's contract:
// samples from the dense output, the step projection, failures inside a step
// halve it and are reported when h underflows, failures at an accepted state
// (the Jacobian's included) at once.
#pragma once

#include "runtime/Integrator.h"
#include "runtime/RhsEvaluator.h"

#include <Eigen/Core>

#include <vector>

namespace mech::runtime {

constexpr int kBdfMaxOrder = 5;

// Integrates from x0 (finite) under `options` (validated by `integrate`),
// with options.jacobian non-empty. `rhs` counts the evaluations of F.
IntegrationResult integrateBdf(RhsEvaluator &rhs, const Eigen::VectorXd &x0,
                               const IntegratorOptions &options, const SampleCallback &sample);

// For tests and benchmarks: the formula of the fixed order `order` (1 … 5) at
// the fixed step options.step (> 0) without error control, to measure the
// order of the formulas themselves. A formula of order k needs the solution
// at k + 1 equally spaced points before its first step: history[j] is x at
// options.t0 − j·step (in the direction of integration), j = 0 … order,
// exact values from the caller. Samples and the projection as in
// integrateBdf; the tolerances bound the Newton iteration only. Throws
// std::invalid_argument for an order out of range, a short or ragged
// history, a step that is not positive, or a missing Jacobian.
IntegrationResult integrateBdfFixedOrder(RhsEvaluator &rhs,
                                         const std::vector<Eigen::VectorXd> &history, int order,
                                         const IntegratorOptions &options,
                                         const SampleCallback &sample);

} // namespace mech::runtime
