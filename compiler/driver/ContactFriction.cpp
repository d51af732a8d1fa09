// The frictions of a ContactRun (driver/ContactRun.h): each sticks (its slip
// held at 0 by a force within the cone mu_s N) or slips with a sign (the
// force -sigma mu_k N). Where a slip reaches 0, the force that would hold it
// decides: within the cone it sticks, else it slips the way that force
// cannot hold. A normal force below 0 is an error, not a force clamped. A
// friction whose normal force is a contact's acts while the contact rests
// (mechanics::kFrictionOff otherwise).
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
    endStick(i, t);
  }
  if (hooks_.friction)
    hooks_.friction(i, sticks, t, x);
}

void ContactRun::endStick(size_t i, double t) {
  if (!std::isnan(stuckSince_[i]))
    report_.stuckTime[i] += t - stuckSince_[i];
  stuckSince_[i] = NAN;
}

double ContactRun::slipForce(size_t i, double t, const double *x) {
  if (friction_[i] == mechanics::kFrictionOff)
    return 0;
  contacts_.evaluateFrictions(t, x, filledParams(t, x));
  double normal = contacts_.normals()[i];
  if (eq_.frictions[i].contact >= 0) { // the contact's force in the mode now
    Mode &mode = modeFor(key());
    std::vector<double> lambda(mode.eq->constraints.size());
    normal = mode.kernels->multipliers(t, x, params_.data(), lambda.data()) == 0
                 ? contactForce(mode, lambda, static_cast<size_t>(eq_.frictions[i].contact))
                 : NAN;
  }
  return -friction_[i] * contacts_.kineticCoefficients()[i] * normal;
}

// Resting contact c's force among a mode's multipliers `lambda` (0 where
// it does not rest).
double ContactRun::contactForce(const Mode &mode, const std::vector<double> &lambda,
                                size_t c) const {
  const int slot = mode.slots[c];
  return slot < 0 ? 0 : lambda[eq_.constraints.size() + static_cast<size_t>(slot)];
}

// The frictions whose normal force is a contact's follow it: where it rests
// they stick or slip (as at the start), where it is open they do not act.
bool ContactRun::contactFrictionsFollow(double t, const std::vector<double> &x,
                                        std::string &error) {
  for (size_t i = 0; i < eq_.frictions.size(); ++i) {
    const int contact = eq_.frictions[i].contact;
    if (contact < 0)
      continue;
    const bool rests = resting_[static_cast<size_t>(contact)];
    if (!rests && friction_[i] != mechanics::kFrictionOff) {
      endStick(i, t);
      friction_[i] = mechanics::kFrictionOff;
    } else if (rests && friction_[i] == mechanics::kFrictionOff) {
      contacts_.evaluateFrictions(t, x.data(), filledParams(t, x.data()));
      const double slip = contacts_.slips()[i];
      friction_[i] = slip > 0 ? 1 : -1;
      if (std::abs(slip) <= kRestingRate && !settleFriction(i, t, x, error))
        return false;
      if (!frictionConsistent(t, x, error))
        return false;
    }
  }
  return true;
}

// Whether the mode now can be solved: a contact's force that drives a
// sliding friction may have no value (Painleve's paradox, `error` says).
bool ContactRun::frictionConsistent(double t, const std::vector<double> &x, std::string &error) {
  Mode &mode = modeFor(key());
  if (!mode.kernels->hasReactions)
    return true;
  std::vector<double> lambda(mode.eq->constraints.size());
  const int status = mode.kernels->multipliers(t, x.data(), params_.data(), lambda.data());
  if (status == mechanics::kStatusInconsistentReactions)
    error = paradox(mode, x.data());
  return status != mechanics::kStatusInconsistentReactions;
}

bool ContactRun::settleFriction(size_t i, double t, const std::vector<double> &x,
                                std::string &error) {
  const std::string &name = eq_.frictions[i].slip.name;
  friction_[i] = 0;
  Mode &mode = modeFor(key());
  std::vector<double> lambda(mode.eq->constraints.size());
  if (int status = mode.kernels->multipliers(t, x.data(), params_.data(), lambda.data());
      status != 0) {
    error = status == mechanics::kStatusInconsistentReactions
                ? paradox(mode, x.data())
                : "the force that would hold friction '" + name + "' cannot be solved for";
    return false;
  }
  const double force =
      lambda[eq_.constraints.size() + static_cast<size_t>(mode.slots[resting_.size() + i])];
  contacts_.evaluateFrictions(t, x.data(), filledParams(t, x.data()));
  const int contact = eq_.frictions[i].contact;
  const double normal = contact < 0 ? contacts_.normals()[i]
                                    : contactForce(mode, lambda, static_cast<size_t>(contact));
  const double limit = contacts_.staticCoefficients()[i] * normal;
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

// Painleve's paradox in `mode` at the state x: the contact whose force has
// no value, the frictions sliding on it, and the state.
std::string ContactRun::paradox(Mode &mode, const double *x) const {
  const size_t n = eq_.coordinates.size();
  const size_t row = mode.kernels->inconsistentConstraint();
  size_t contact = 0;
  for (size_t i = 0; i < resting_.size(); ++i)
    if (mode.slots[i] >= 0 && eq_.constraints.size() + static_cast<size_t>(mode.slots[i]) == row)
      contact = i;
  std::string sliding, state;
  for (size_t i = 0; i < eq_.frictions.size(); ++i)
    if (eq_.frictions[i].contact == static_cast<int>(contact) &&
        (friction_[i] == 1 || friction_[i] == -1))
      sliding += std::string(sliding.empty() ? "" : ", ") + "'" + eq_.frictions[i].slip.name +
                 "' (slip " + (friction_[i] > 0 ? "> 0" : "< 0") + ")";
  for (size_t j = 0; j < 2 * n; ++j)
    state += std::string(j ? ", " : "") + eq_.coordinates[j % n] + (j < n ? "" : "'") + " = " +
             shortestNumber(x[j]);
  return "the force of contact '" + eq_.contacts[contact].gap.name + "' has no unique value " +
         "with friction " + sliding +
         " sliding: its gap's acceleration does not grow with the force (Painleve's " +
         "paradox: no motion of rigid bodies with this friction law is consistent there, " +
         "and mech does not guess one); the state: " + state;
}

bool ContactRun::startFrictions(double t, const std::vector<double> &x, std::string &error) {
  if (eq_.frictions.empty())
    return true;
  contacts_.evaluateFrictions(t, x.data(), filledParams(t, x.data()));
  std::vector<size_t> atRest;
  for (size_t i = 0; i < eq_.frictions.size(); ++i) {
    const std::string &name = eq_.frictions[i].slip.name;
    const double mus = contacts_.staticCoefficients()[i], muk = contacts_.kineticCoefficients()[i];
    if (!(muk >= 0 && muk <= mus)) {
      error = "the coefficients of friction '" + name + "' are mu_s = " + shortestNumber(mus) +
              ", mu_k = " + shortestNumber(muk) + " (0 <= mu_k <= mu_s is a friction law)";
      return false;
    }
    if (eq_.frictions[i].contact >= 0) { // acts once its contact rests (contactFrictionsFollow)
      friction_[i] = mechanics::kFrictionOff;
      continue;
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
