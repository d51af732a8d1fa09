// --method auto: DOPRI5 until its steps are limited by stability rather
// than accuracy (Hairer's test: h·ρ near the edge of its stability region,
// ρ estimated from two stages at the same time, for 15 accepted steps), then
// Radau IIA from there, with a note saying when and why. Before switching,
// and when an explicit run is headed for very many steps, the eigenvalues of
// dF/dx at the state say what the fast motion is: a fast oscillation that is
// excited and does not decay over the rest of the run is real motion, which
// an implicit step would damp, so it is never stepped over silently: auto
// keeps resolving it with DOPRI5 and warns why the run is long (the step
// limit then stops it with that warning on record).
#pragma once

#include "runtime/Integrator.h"
#include "runtime/RhsEvaluator.h"
#include "runtime/StepOutput.h"

#include <Eigen/Core>

#include <complex>
#include <optional>
#include <string>
#include <vector>

namespace mech::runtime {

// The fast part of the spectrum of dF/dx at a state: eigenvalues whose
// magnitude is at least kFastGap times the smallest nonzero one.
struct FastModes {
  static constexpr double kFastGap = 100;
  // The fastest eigenvalue (Im >= 0), and the slowest nonzero magnitude.
  std::complex<double> fastest;
  double slowest = 0;
  bool any = false;
  // The fast oscillation (Im > 0) whose energy decays least, if any.
  std::optional<std::complex<double>> persistentOscillation;
};

// The fast modes of the n×n matrix J (row-major); an oscillation counts as
// persistent when its energy, ∝ exp(2 Re λ t), loses less than a factor e
// over `span`.
FastModes fastModes(const double *J, long n, double span);

IntegrationResult integrateAuto(RhsEvaluator &rhs, const Eigen::VectorXd &x0,
                                const IntegratorOptions &options, StepOutput &output);

} // namespace mech::runtime
