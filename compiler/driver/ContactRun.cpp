// The segments of a run with contacts and resets, the modes they run in
// and the switches between them but impacts (driver/ContactImpact.cpp). A
// free contact found open by more than kTouchingGap (scaled by its rate) at
// a sample is an impact the event search missed: an error, not a body
// passing through.
#include "driver/ContactRun.h"
#include "driver/ChatterWatch.h"
#include "driver/ContactRunMode.h"
#include "driver/ContactTolerances.h"

#include "mechanics/ConstraintProjection.h"
#include "mechanics/EventFunctions.h"
#include "mechanics/StateJacobian.h"
#include "support/NumberText.h"

#include <algorithm>
#include <cmath>

namespace mech::driver {

const ContactModes::Mode &ContactModes::operator()(const mechanics::ModeKey &key) {
  auto [found, added] = modes_.try_emplace(key);
  Mode &mode = found->second;
  if (!added)
    return mode;
  mode.equations = mechanics::modeEquations(model_, key);
  // The model's own kernels serve where no contact rests and there is no
  // friction nor switch (which always change the equations).
  if (std::find(key.begin(), key.end(), 1) == key.end() && model_.frictions.empty() &&
      model_.switches.empty())
    return mode;
  mode.programs = std::make_unique<mechanics::KernelPrograms>(
      mechanics::KernelPrograms::build(mode.equations, params_));
  if (jacobian_)
    mode.programs->addJacobian(mode.equations);
  std::string name;
  const size_t held = model_.contacts.size() + model_.frictions.size();
  for (size_t i = 0; i < key.size(); ++i)
    name += i == held && i > 0                  ? (key[i] > 0 ? "|+" : "|-")
            : i > held                          ? (key[i] > 0 ? "+" : "-")
            : i < model_.contacts.size()        ? (key[i] ? "1" : "0")
            : key[i] == 0                       ? "s"
            : key[i] == mechanics::kFrictionOff ? "o"
            : key[i] > 0                        ? "+"
                                                : "-";
  mode.kernels = compile_(*mode.programs, name);
  return mode;
}

ContactRun::ContactRun(const mechanics::Equations &equations, mechanics::Kernels &kernels,
                       ContactModes &modes, const std::vector<double> &params,
                       mechanics::InputFill fill, bool projection, Hooks hooks)
    : eq_(equations), kernels_(kernels), sharedModes_(modes), params_(params),
      fill_(std::move(fill)), projection_(projection), hooks_(std::move(hooks)),
      contacts_(equations, params.size()), restitution_(contacts_.restitutions(params)),
      resting_(equations.contacts.size(), false), friction_(equations.frictions.size(), 1) {
  for (size_t i = 0; i < equations.frictions.size(); ++i)
    if (equations.frictions[i].contact >= 0)
      friction_[i] = mechanics::kFrictionOff;
  report_.impactsPerContact.assign(equations.contacts.size(), 0);
  report_.sticksPerFriction.assign(equations.frictions.size(), 0);
  report_.slipsPerFriction.assign(equations.frictions.size(), 0);
  report_.stuckTime.assign(equations.frictions.size(), 0.0);
  stuckSince_.assign(equations.frictions.size(), NAN);
  branch_.assign(equations.switches.size(), -1);
  quickFlips_.assign(equations.switches.size(), 0);
  quickSince_.assign(equations.switches.size(), NAN);
  report_.switchesPerLaw.assign(equations.switches.size(), 0);
  report_.firstSwitch.assign(equations.switches.size(), NAN);
  for (size_t k = 0; k < equations.switches.size(); ++k)
    report_.switchPlaces.push_back(switchPlace(k, true));
}

ContactRun::~ContactRun() = default;

mechanics::ModeKey ContactRun::key() const {
  mechanics::ModeKey key(resting_.begin(), resting_.end());
  key.insert(key.end(), friction_.begin(), friction_.end());
  key.insert(key.end(), branch_.begin(), branch_.end());
  return key;
}

ContactRun::Mode &ContactRun::modeFor(const mechanics::ModeKey &key) {
  std::unique_ptr<Mode> &slot = modes_[key];
  if (slot)
    return *slot;
  slot = std::make_unique<Mode>();
  Mode &mode = *slot;
  const ContactModes::Mode &shared = sharedModes_(key);
  mode.eq = &shared.equations;
  mode.kernels = shared.kernels ? shared.kernels.get() : &kernels_;
  mode.projector = std::make_unique<mechanics::ConstraintProjector>(
      *mode.kernels, params_, mechanics::holonomicFlags(*mode.eq));
  mode.events =
      std::make_unique<mechanics::EventFunctions>(*mode.eq, *mode.kernels, params_, fill_);
  int next = 0;
  for (size_t i = 0; i < resting_.size() + friction_.size(); ++i)
    mode.slots.push_back((i < resting_.size() ? key[i] == 1 : key[i] == 0) ? next++ : -1);
  return mode;
}

const std::vector<double> &ContactRun::filledParams(double t, const double *x) {
  if (!fill_)
    return params_;
  filled_ = params_;
  fill_(t, x, filled_.data());
  return filled_;
}

std::pair<double, double> ContactRun::energy(double t, const double *x) {
  double TV[2] = {0, 0};
  kernels_.energy(t, x, params_.data(), TV);
  return {TV[0], TV[1]};
}

// phi'' of every contact at x in the current mode: C q'' - gamma, with
// q'' from the mode's equations (the resting contacts' forces included);
// the contacts' functions are left evaluated at x. 0 where q'' cannot be
// solved for.
std::vector<double> ContactRun::gapAccelerations(double t, const std::vector<double> &x) {
  Mode &mode = modeFor(key());
  const size_t n = eq_.coordinates.size(), k = eq_.contacts.size();
  std::vector<double> xdot(2 * n), a(k, 0.0);
  contacts_.evaluate(t, x.data(), filledParams(t, x.data()));
  if (mode.kernels->rhs(t, x.data(), params_.data(), xdot.data()) != 0)
    return a;
  for (size_t i = 0; i < k; ++i) {
    a[i] = -contacts_.gammas()[i];
    for (size_t j = 0; j < n; ++j)
      a[i] += contacts_.rows()[i * n + j] * xdot[n + j];
  }
  return a;
}

// The contacts at rest at the start: touching, not moving apart or
// together, and pressed by the motion. A contact that is violated at the
// start is an error.
bool ContactRun::startModes(double t, const double *x, std::string &error) {
  for (size_t i = 0; i < restitution_.size(); ++i)
    if (!(restitution_[i] >= 0 && restitution_[i] <= 1)) {
      error = "the restitution of contact '" + eq_.contacts[i].gap.name + "' is " +
              shortestNumber(restitution_[i]) + ", outside [0, 1]";
      return false;
    }
  std::vector<double> a =
      gapAccelerations(t, std::vector<double>(x, x + 2 * eq_.coordinates.size()));
  for (size_t i = 0; i < eq_.contacts.size(); ++i) {
    double gap = contacts_.gaps()[i];
    if (gap < -kTouchingGap) {
      error = "contact '" + eq_.contacts[i].gap.name + "' is violated at the start (gap " +
              shortestNumber(gap) + " < 0)";
      return false;
    }
    resting_[i] = gap <= kTouchingGap && std::abs(contacts_.rates()[i]) <= kRestingRate && a[i] < 0;
  }
  return true;
}

// Whether a free contact's gap is negative at a sample beyond what locating
// its impact leaves (the event search missed a crossing): `message` says so.
bool ContactRun::crossedUnseen(double t, const double *x, std::string &message) {
  if (eq_.contacts.empty())
    return false;
  contacts_.evaluate(t, x, filledParams(t, x));
  for (size_t i = 0; i < eq_.contacts.size(); ++i) {
    double gap = contacts_.gaps()[i];
    if (!resting_[i] && gap < -kTouchingGap * std::max(1.0, std::abs(contacts_.rates()[i]))) {
      message = "contact '" + eq_.contacts[i].gap.name + "' has the gap " + shortestNumber(gap) +
                " with no impact found before it (the search for the " +
                "crossing missed it: try smaller --rtol and --atol)";
      return true;
    }
  }
  return false;
}

// A free contact that touches at the start and closes: it collides at once.
std::optional<size_t> ContactRun::closingAtStart(double t, const std::vector<double> &x) {
  contacts_.evaluate(t, x.data(), filledParams(t, x.data()));
  for (size_t i = 0; i < eq_.contacts.size(); ++i)
    if (!resting_[i] && contacts_.gaps()[i] <= kTouchingGap && contacts_.rates()[i] < -kRestingRate)
      return i;
  return std::nullopt;
}

// An event's resets, from the state before it; the new state must keep the
// model's constraints.
bool ContactRun::reset(size_t event, double t, std::vector<double> &x, std::string &error) {
  std::vector<double> before = x;
  contacts_.reset(event, t, before.data(), filledParams(t, before.data()), x.data());
  if (!eq_.constraints.empty()) {
    double residual = modeFor(key()).projector->residual(t, x.data());
    double scale = 0;
    for (double v : x)
      scale = std::max(scale, std::abs(v));
    if (!(residual <= 1e-8 * std::max(1.0, scale))) {
      error = "the resets of event '" + eq_.events[event].name +
              "' break the constraints (residual " + shortestNumber(residual) + ")";
      return false;
    }
  }
  auto [T1, V1] = energy(t, x.data());
  auto [T0, V0] = energy(t, before.data());
  double change = (T1 + V1) - (T0 + V0);
  report_.energyChangedAtResets += change;
  ++report_.resets;
  if (hooks_.energyJump)
    hooks_.energyJump(change);
  return true;
}

// Integrates one segment from (t, x) in the current mode, to the event
// that ends it or the end; its stats are added to `total`. `atEvent` gets
// the state at the event, `missed` a crossing the search did not see.
runtime::IntegrationResult ContactRun::segment(const runtime::IntegratorOptions &options,
                                               const Progress &at, std::vector<double> &atEvent,
                                               std::string &missed,
                                               runtime::IntegrationResult &total) {
  Mode &mode = modeFor(key());
  hooks_.modeChanged(*mode.kernels, *mode.projector, mode.slots);
  runtime::IntegratorOptions o = options;
  o.t0 = at.t;
  if (!at.first)
    o.sampleOrigin = options.t0;
  if (shortFlight_ > 0 && options.method != runtime::Method::Rk4)
    o.step = std::min(o.step > 0 ? o.step : shortFlight_, shortFlight_);
  shortFlight_ = 0;
  o.maxSteps = options.maxSteps - total.stats.accepted - total.stats.rejected;
  if (projection_ && !mode.eq->constraints.empty())
    o.project = [&mode](double t, double *x) { return mode.projector->project(t, x); };
  if (options.jacobian) {
    if (!mode.jacobian)
      mode.jacobian = std::make_unique<mechanics::StateJacobian>(*mode.kernels);
    o.jacobian = [&mode, this](double t, const double *x, double *J) {
      return (*mode.jacobian)(t, x, params_.data(), J);
    };
  }
  for (const mechanics::Equations::Event &e : mode.eq->events)
    o.events.events.push_back({e.direction, e.stop, !e.restartOnly});
  // After the mode's events, the watched switches (driver/ChatterWatch.h):
  // once one chatters the event functions fail, which ends the segment.
  const size_t own = mode.eq->events.size(), watched = watch_ ? watch_->size() : 0;
  o.events.events.insert(o.events.events.end(), watched, {0, false});
  o.events.functions = [&mode, this, own, watched](double t, const double *x, double *g) {
    if (watched && watch_->chattering())
      return 1;
    if (int status = (*mode.events)(t, x, g); status != 0 || !watched)
      return status;
    watch_->evaluate(t, x, g + own);
    return 0;
  };
  const size_t declared = eq_.events.size();
  atEvent.resize(at.x.size());
  o.events.record = [&, declared, own](int event, double t, const double *x) {
    if (static_cast<size_t>(event) >= own) {
      watch_->crossed(static_cast<size_t>(event) - own, t);
      return;
    }
    std::copy(x, x + atEvent.size(), atEvent.begin());
    if (static_cast<size_t>(event) < declared && hooks_.declared)
      hooks_.declared(event, t, x);
  };
  o.events.chattered = [&, declared](int event, int times, double a, double b) {
    if (static_cast<size_t>(event) < declared && hooks_.chattered)
      hooks_.chattered(event, times, a, b);
  };
  // A law held on its branch may be undefined past its switch (sqrt(x) of
  // if(x > 0, sqrt(x), 0) at x < 0), where the step that crosses it
  // evaluates its stages: there the model's own kernels, which choose the
  // branch by the state, stand in, so that the step can end past the
  // crossing and the crossing be found. (Only where no contact rests and
  // nothing sticks: those kernels are of that mode.)
  const bool liveFallback =
      !eq_.switches.empty() && eq_.frictions.empty() &&
      std::none_of(resting_.begin(), resting_.end(), [](bool r) { return r; });
  runtime::RightHandSide rhs = [&mode, this, liveFallback](double t, const double *x, double *dx) {
    int status = mode.kernels->rhs(t, x, params_.data(), dx);
    const size_t size = 2 * eq_.coordinates.size();
    if (liveFallback && status == mechanics::kStatusOk &&
        !std::all_of(dx, dx + size, [](double v) { return std::isfinite(v); }))
      status = kernels_.rhs(t, x, params_.data(), dx);
    if (status == mechanics::kStatusInconsistentReactions)
      paradoxState_.assign(x, x + size);
    return status;
  };
  runtime::SampleCallback sample = [&](double t, const double *x) {
    return hooks_.sample(t, x) && !crossedUnseen(t, x, missed);
  };
  runtime::IntegrationResult result = runtime::integrate(rhs, at.x, o, sample);
  total.stats.accepted += result.stats.accepted;
  total.stats.rejected += result.stats.rejected;
  total.stats.rhsEvaluations += result.stats.rhsEvaluations;
  total.notes.insert(total.notes.end(), result.notes.begin(), result.notes.end());
  total.warnings.insert(total.warnings.end(), result.warnings.begin(), result.warnings.end());
  return result;
}

// Applies the switch of mode event `what` at (at.t, at.x): a reset, an
// impact or a lift-off, then writes the state after it (a lift-off leaves
// the state as it is). False, with `error` set (or empty: interrupted),
// when the run ends there.
bool ContactRun::applySwitch(const mechanics::ModeEvent &what, Progress &at, long maxSwitches,
                             std::string &error) {
  at.switchesHere = at.t == at.lastSwitch ? at.switchesHere + 1 : 0;
  at.lastSwitch = at.t;
  if (++at.switches > maxSwitches) {
    error = "more than " + std::to_string(maxSwitches) +
            " impacts, rests, lift-offs and resets (--max-steps bounds them too)";
    return false;
  }
  if (at.switchesHere > kMaxSwitchesAtOneTime) {
    error = "more than " + std::to_string(kMaxSwitchesAtOneTime) +
            " switches of contacts or resets at one instant: they accumulate there";
    return false;
  }
  if (what.kind == mechanics::ModeEvent::Switch) {
    if (!lawSwitched(what.index, at, error))
      return false;
    Mode &next = modeFor(key());
    hooks_.modeChanged(*next.kernels, *next.projector, next.slots);
    return true;
  }
  if (what.kind == mechanics::ModeEvent::Slips || what.kind == mechanics::ModeEvent::SlipStops ||
      what.kind == mechanics::ModeEvent::NormalNegative) {
    if (!frictionSwitch(what, at.t, at.x, error))
      return false;
    Mode &next = modeFor(key());
    hooks_.modeChanged(*next.kernels, *next.projector, next.slots);
    return true;
  }
  if (what.kind == mechanics::ModeEvent::LiftOff) {
    resting_[what.index] = false;
    report_.switches.push_back({at.t, what.index, false});
    if (hooks_.contact)
      hooks_.contact(what.index, "lifts off", at.t, at.x.data(), nullptr);
    return contactFrictionsFollow(at.t, at.x, error);
  }
  bool ok = what.kind == mechanics::ModeEvent::Declared ? reset(what.index, at.t, at.x, error)
                                                        : impact(what.index, at.t, at.x, error);
  if (!ok || !contactFrictionsFollow(at.t, at.x, error))
    return false;
  Mode &next = modeFor(key());
  hooks_.modeChanged(*next.kernels, *next.projector, next.slots);
  return hooks_.sample(at.t, at.x.data());
}

// The result of a run that ended at `t`: interrupted when `error` is empty,
// else failed (the caller reports `error`).
runtime::IntegrationResult ContactRun::endedAt(runtime::IntegrationResult total, double t,
                                               const std::string &error) {
  total.outcome = error.empty() ? runtime::Outcome::Interrupted : runtime::Outcome::RhsFailed;
  total.failureTime = t;
  return total;
}

runtime::IntegrationResult ContactRun::run(const std::vector<double> &x0,
                                           const runtime::IntegratorOptions &options,
                                           std::string &error) {
  runtime::IntegrationResult result = segments(x0, options, error);
  // A friction stuck at the end was stuck until then.
  const double end =
      result.outcome == runtime::Outcome::Finished ? options.tEnd : result.failureTime;
  for (size_t i = 0; i < friction_.size(); ++i)
    endStick(i, end);
  return result;
}

runtime::IntegrationResult ContactRun::segments(const std::vector<double> &x0,
                                                const runtime::IntegratorOptions &options,
                                                std::string &error) {
  runtime::IntegrationResult total;
  Progress at{x0, options.t0};
  holdBranches(at.t, at.x.data());
  if (!startFrictions(at.t, at.x, error) || !startModes(at.t, at.x.data(), error) ||
      !contactFrictionsFollow(at.t, at.x, error))
    return endedAt(total, at.t, error);
  // Contacts that touch at the start while closing collide there.
  if (std::optional<size_t> closing = closingAtStart(at.t, at.x)) {
    Mode &mode = modeFor(key());
    hooks_.modeChanged(*mode.kernels, *mode.projector, mode.slots);
    if (!hooks_.sample(at.t, at.x.data()) ||
        !applySwitch({mechanics::ModeEvent::Impact, *closing}, at, options.maxSteps, error))
      return endedAt(total, at.t, error);
    at.first = false;
  }
  for (;;) {
    std::vector<double> atEvent;
    std::string missed;
    runtime::IntegrationResult result = segment(options, at, atEvent, missed, total);
    if (!missed.empty()) {
      error = missed;
      return endedAt(total, result.failureTime, error);
    }
    if (watch_ && watch_->chattering()) {
      error = "a force chatters"; // the caller says which, at its declaration
      return endedAt(total, result.failureTime, error);
    }
    if (result.outcome == runtime::Outcome::RhsFailed &&
        result.rhsStatus == mechanics::kStatusInconsistentReactions && !paradoxState_.empty()) {
      error = paradox(modeFor(key()), paradoxState_.data());
      return endedAt(total, result.failureTime, error);
    }
    at.first = false;
    std::optional<mechanics::ModeEvent> what;
    if (result.outcome == runtime::Outcome::Stopped)
      what = mechanics::modeEvent(eq_, key(), static_cast<size_t>(result.event));
    if (!what ||
        (what->kind == mechanics::ModeEvent::Declared && eq_.events[what->index].resets.empty())) {
      result.stats = total.stats;
      result.notes = total.notes;
      result.warnings = total.warnings;
      return result;
    }
    at.t = result.failureTime;
    at.x = atEvent;
    if (!applySwitch(*what, at, options.maxSteps, error))
      return endedAt(total, at.t, error);
  }
}

} // namespace mech::driver
