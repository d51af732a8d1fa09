// The pieces of a run shared by simulate and sweep (driver/RunPieces.h).
#include "driver/RunPieces.h"

#include "driver/InitialState.h"
#include "support/NumberText.h"

#include <algorithm>
#include <cmath>

namespace mech::driver {

bool tracksEnergy(const mechanics::Equations &eq) {
  // A contact whose surface moves (a gap with t in it) works on what rests
  // on it: the energy is not kept between impacts either; nor with friction,
  // which takes it (or, from a moving belt, gives it).
  bool movingContact = std::any_of(eq.contacts.begin(), eq.contacts.end(),
                                   [](const auto &c) { return c.gap.phi.has(sym::kHasTime); });
  return eq.conservative && eq.T1.isZero() && eq.T0.isZero() && !movingContact &&
         eq.frictions.empty();
}

void EnergyDrift::sample(mechanics::Kernels &kernels, const std::vector<double> &params, double t,
                         const double *x) {
  double TV[2];
  kernels.energy(t, x, params.data(), TV);
  double e = TV[0] + TV[1] - jumps_;
  if (!started_) {
    started_ = true;
    energy0_ = e;
  } else if (energy0_ != 0) {
    relative_ = std::max(relative_, std::abs(e - energy0_) / std::abs(energy0_));
  }
  change_ = std::max(change_, std::abs(e - energy0_));
  terms_ = std::max({terms_, std::abs(energy0_), std::abs(TV[0]) + std::abs(TV[1])});
}

runtime::RightHandSide recordingRhs(mechanics::Kernels &kernels, const std::vector<double> &params,
                                    size_t n, Refusal &refusal) {
  return [&kernels, &params, n, &refusal](double t, const double *x, double *dx) {
    int status = kernels.rhs(t, x, params.data(), dx);
    if (status != 0) {
      refusal.state.assign(x, x + 2 * n);
      refusal.t = t;
    }
    return status;
  };
}

runtime::LagrangianForm lagrangianFormOf(mechanics::Kernels &kernels,
                                         const std::vector<double> &params, size_t n,
                                         std::vector<double> &buffer) {
  buffer.resize(2 * n);
  runtime::LagrangianForm lagrangian;
  lagrangian.coordinates = static_cast<long>(n);
  lagrangian.momentumAndForce = [&kernels, &params, &buffer, n](double t, const double *x,
                                                                double *momentum, double *force) {
    int status = kernels.momentumForce(t, x, params.data(), buffer.data());
    std::copy(buffer.begin(), buffer.begin() + static_cast<long>(n), momentum);
    std::copy(buffer.begin() + static_cast<long>(n), buffer.end(), force);
    return status;
  };
  lagrangian.massMatrix = [&kernels, &params](double t, const double *q, double *M) {
    return kernels.massMatrix(t, q, params.data(), M);
  };
  return lagrangian;
}

std::string failureText(const runtime::IntegrationResult &result, const mechanics::Equations &eq,
                        mechanics::Kernels &kernels, const std::vector<double> &params,
                        const Refusal &refusal, const std::vector<std::string> &columns) {
  const std::string at = "at t = " + formatNumber(result.failureTime, 6);
  std::string text = result.message();
  bool kernelRefused = result.rhsStatus == mechanics::kStatusSingularMassMatrix ||
                       result.rhsStatus == mechanics::kStatusRedundantConstraints;
  if (result.outcome == runtime::Outcome::RhsFailed && result.rhsStatus == 0) {
    text = "the state could not be projected onto the constraints " + at;
  } else if (result.outcome == runtime::Outcome::RhsFailed && kernelRefused &&
             !refusal.state.empty()) {
    text =
        describeFailure(eq, kernels, params, result.rhsStatus, refusal.t, refusal.state.data(), at);
  } else if (result.outcome == runtime::Outcome::NonFinite && result.event >= 0) {
    text = "event '" + eq.events[static_cast<size_t>(result.event)].name + "' is not finite " + at;
  } else if (result.outcome == runtime::Outcome::NonFinite && result.failureComponent >= 0 &&
             static_cast<size_t>(result.failureComponent) < columns.size()) {
    text += " ('" + columns[static_cast<size_t>(result.failureComponent)] + "')";
  }
  return text;
}

} // namespace mech::driver
