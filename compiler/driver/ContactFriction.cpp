// The frictions of a ContactRun (driver/ContactRun.h): each sticks (its slip
// held at 0 by a force within the cone mu_s N) or slips with a sign (the
// force -sigma mu_k N). Where a slip reaches 0, the force that would hold it
// decides: within the cone it sticks, else it slips the way that force
// cannot hold. A normal force below 0 is an error, not a force clamped.
#include "driver/ContactRun.h"
#include "driver/ContactRunMode.h"
#include "driver/ContactTolerances.h"

#include "support/NumberText.h"

#include <cmath>

namespace mech::driver {

namespace {

// A force at the cone's edge is held: the relative rounding of mu_s N.
constexpr double kConeTolerance = 1e-12;

} // namespace

void ContactRun::frictionChanged(size_t i, bool sticks, double t, const double *x) {
  report_.frictionSwitches.push_back({t, i, sticks});
  if (sticks) {
    ++report_.sticksPerFriction[i];
    stuckSince_[i] = t;
  } else {
    ++report_.slipsPerFriction[i];
    if (!std::isnan(stuckSince_[i]))
      report_.stuckTime[i] += t - stuckSince_[i];
    stuckSince_[i] = NAN;
  }
  if (hooks_.friction)
    hooks_.friction(i, sticks, t, x);
}

double ContactRun::slipForce(size_t i, double t, const double *x) {
  contacts_.evaluateFrictions(t, x, filledParams(t));
  return -friction_[i] * contacts_.kineticCoefficients()[i] * contacts_.normals()[i];
}

bool ContactRun::settleFriction(size_t i, double t, const std::vector<double> &x,
                                std::string &error) {
  const std::string &name = eq_.frictions[i].slip.name;
  friction_[i] = 0;
  Mode &mode = modeFor(key());
  std::vector<double> lambda(mode.eq->constraints.size());
  if (mode.kernels->multipliers(t, x.data(), params_.data(), lambda.data()) != 0) {
    error = "the force that would hold friction '" + name + "' cannot be solved for";
    return false;
  }
  const double force =
      lambda[eq_.constraints.size() + static_cast<size_t>(mode.slots[resting_.size() + i])];
  contacts_.evaluateFrictions(t, x.data(), filledParams(t));
  const double normal = contacts_.normals()[i], limit = contacts_.staticCoefficients()[i] * normal;
  if (normal < 0) {
    error =
        "the normal force of friction '" + name + "' is negative (" + shortestNumber(normal) + ")";
    return false;
  }
  const bool sticks = std::abs(force) <= limit * (1 + kConeTolerance);
  if (!sticks)
    friction_[i] = force > 0 ? -1 : 1;
  frictionChanged(i, sticks, t, x.data());
  return true;
}

bool ContactRun::startFrictions(double t, const std::vector<double> &x, std::string &error) {
  if (eq_.frictions.empty())
    return true;
  contacts_.evaluateFrictions(t, x.data(), filledParams(t));
  std::vector<size_t> atRest;
  for (size_t i = 0; i < eq_.frictions.size(); ++i) {
    const std::string &name = eq_.frictions[i].slip.name;
    const double mus = contacts_.staticCoefficients()[i], muk = contacts_.kineticCoefficients()[i];
    if (!(muk >= 0 && muk <= mus)) {
      error = "the coefficients of friction '" + name + "' are mu_s = " + shortestNumber(mus) +
              ", mu_k = " + shortestNumber(muk) + " (0 <= mu_k <= mu_s is a friction law)";
      return false;
    }
    if (contacts_.normals()[i] < 0) {
      error = "the normal force of friction '" + name + "' is negative at the start (" +
              shortestNumber(contacts_.normals()[i]) + ")";
      return false;
    }
    const double slip = contacts_.slips()[i];
    friction_[i] = slip > 0 ? 1 : -1;
    if (std::abs(slip) <= kRestingRate)
      atRest.push_back(i);
  }
  for (size_t i : atRest)
    if (!settleFriction(i, t, x, error))
      return false;
  return true;
}

bool ContactRun::frictionSwitch(const mechanics::ModeEvent &what, double t,
                                const std::vector<double> &x, std::string &error) {
  const size_t i = what.index;
  switch (what.kind) {
  case mechanics::ModeEvent::Slips:
    friction_[i] = static_cast<signed char>(what.sign);
    frictionChanged(i, false, t, x.data());
    return true;
  case mechanics::ModeEvent::SlipStops:
    return settleFriction(i, t, x, error);
  default:
    error = "the normal force of friction '" + eq_.frictions[i].slip.name +
            "' turns negative (a friction law needs N >= 0: the bodies part)";
    return false;
  }
}

} // namespace mech::driver
