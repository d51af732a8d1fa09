// The segments of a run with contacts and resets, and the switches between
// them. Tolerances, in the SI units of the quantities (docs/language.md
// "contact"): a contact touches at a gap of at most kTouchingGap; at the
// start it rests when its rate is within kRestingRate and the motion
// presses it; after an impact it rests when its next flight would last less
// than kShortestFlight max(1, |t|), which ends a Zeno sequence of bounces
// within that time of its accumulation point.
#include "driver/ContactRun.h"

#include "mechanics/ConstraintProjection.h"
#include "mechanics/EventFunctions.h"
#include "runtime/ImpactLaw.h"
#include "support/NumberText.h"

#include <algorithm>
#include <cmath>

namespace mech::driver {

namespace {

constexpr double kTouchingGap = 1e-9;
constexpr double kRestingRate = 1e-9;
constexpr double kShortestFlight = 1e-10;
// Switches at one instant beyond this are an accumulation the run cannot
// resolve (a contact resting and lifting off at once, say).
constexpr long kMaxSwitchesAtOneTime = 1000;

} // namespace

struct ContactRun::Mode {
  std::vector<bool> resting;
  mechanics::Equations eq;
  std::shared_ptr<mechanics::Kernels> kernels;
  std::unique_ptr<mechanics::ConstraintProjector> projector;
  std::unique_ptr<mechanics::EventFunctions> events;
  std::vector<int> slots; // per contact: its multiplier after the model's, or -1
};

std::shared_ptr<mechanics::Kernels> ModeKernels::operator()(const std::vector<bool> &resting,
                                                            const mechanics::Equations &mode) {
  Entry &entry = entries_[resting];
  if (!entry.kernels) {
    entry.programs = std::make_unique<mechanics::KernelPrograms>(
        mechanics::KernelPrograms::build(mode, params_));
    entry.kernels = compile_(*entry.programs);
  }
  return entry.kernels;
}

ContactRun::ContactRun(const mechanics::Equations &equations,
                       std::shared_ptr<mechanics::Kernels> kernels,
                       const std::vector<double> &params, mechanics::InputFill fill,
                       bool projection, Hooks hooks)
    : eq_(equations), kernels_(std::move(kernels)), params_(params), fill_(std::move(fill)),
      projection_(projection), hooks_(std::move(hooks)), contacts_(equations, params.size()),
      restitution_(contacts_.restitutions(params)), resting_(equations.contacts.size(), false) {
  report_.impactsPerContact.assign(equations.contacts.size(), 0);
}

ContactRun::~ContactRun() = default;

ContactRun::Mode &ContactRun::modeFor(const std::vector<bool> &resting) {
  std::unique_ptr<Mode> &slot = modes_[resting];
  if (slot)
    return *slot;
  slot = std::make_unique<Mode>();
  Mode &mode = *slot;
  mode.resting = resting;
  mode.eq = mechanics::modeEquations(eq_, resting);
  if (std::find(resting.begin(), resting.end(), true) == resting.end()) {
    mode.kernels = kernels_;
  } else {
    mode.kernels = hooks_.compile(resting, mode.eq);
  }
  mode.projector = std::make_unique<mechanics::ConstraintProjector>(
      *mode.kernels, params_, mechanics::holonomicFlags(mode.eq));
  mode.events = std::make_unique<mechanics::EventFunctions>(mode.eq, *mode.kernels, params_, fill_);
  int next = 0;
  for (bool r : resting)
    mode.slots.push_back(r ? next++ : -1);
  return mode;
}

std::vector<double> ContactRun::filledParams(double t) const {
  std::vector<double> p = params_;
  if (fill_)
    fill_(t, p.data());
  return p;
}

double ContactRun::kineticEnergy(double t, const double *x) {
  double TV[2] = {0, 0};
  kernels_->energy(t, x, params_.data(), TV);
  return TV[0];
}

double ContactRun::totalEnergy(double t, const double *x) {
  double TV[2] = {0, 0};
  kernels_->energy(t, x, params_.data(), TV);
  return TV[0] + TV[1];
}

// phi'' of a contact at x in the current mode: C q'' - gamma, with q''
// from the mode's equations (the resting contacts' forces included).
double ContactRun::gapAcceleration(size_t contact, double t, const std::vector<double> &x) {
  Mode &mode = modeFor(resting_);
  const size_t n = eq_.coordinates.size();
  std::vector<double> xdot(2 * n);
  if (mode.kernels->rhs(t, x.data(), filledParams(t).data(), xdot.data()) != 0)
    return 0;
  contacts_.evaluate(t, x.data(), filledParams(t));
  double a = -contacts_.gammas()[contact];
  for (size_t j = 0; j < n; ++j)
    a += contacts_.rows()[contact * n + j] * xdot[n + j];
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
  contacts_.evaluate(t, x, filledParams(t));
  std::vector<double> state(x, x + 2 * eq_.coordinates.size());
  std::vector<size_t> candidates;
  for (size_t i = 0; i < eq_.contacts.size(); ++i) {
    double gap = contacts_.gaps()[i];
    if (gap < -kTouchingGap) {
      error = "contact '" + eq_.contacts[i].gap.name + "' is violated at the start (gap " +
              shortestNumber(gap) + " < 0)";
      return false;
    }
    if (gap <= kTouchingGap && std::abs(contacts_.rates()[i]) <= kRestingRate)
      candidates.push_back(i);
  }
  for (size_t i : candidates)
    if (gapAcceleration(i, t, state) < 0)
      resting_[i] = true;
  return true;
}

// Whether a free contact's gap is negative at a sample beyond what locating
// its impact leaves (the event search missed a crossing): `message` says so.
bool ContactRun::crossedUnseen(double t, const double *x, std::string &message) {
  if (eq_.contacts.empty())
    return false;
  contacts_.evaluate(t, x, filledParams(t));
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
  contacts_.evaluate(t, x.data(), filledParams(t));
  for (size_t i = 0; i < eq_.contacts.size(); ++i)
    if (!resting_[i] && contacts_.gaps()[i] <= kTouchingGap && contacts_.rates()[i] < -kRestingRate)
      return i;
  return std::nullopt;
}

// A free contact's gap closed at t: the impact of every touching contact
// by Newton's law; those whose next flight would be shorter than
// kShortestFlight (or that do not leave at all) come to rest.
bool ContactRun::impact(size_t contact, double t, std::vector<double> &x, std::string &error) {
  const size_t n = eq_.coordinates.size(), m = eq_.constraints.size();
  const std::vector<double> p = filledParams(t);
  contacts_.evaluate(t, x.data(), p);
  std::vector<size_t> touching;
  for (size_t i = 0; i < eq_.contacts.size(); ++i)
    if (i == contact || resting_[i] || contacts_.gaps()[i] <= kTouchingGap)
      touching.push_back(i);
  runtime::ImpactProblem problem;
  problem.n = n;
  problem.M.resize(n * n);
  problem.velocity.assign(x.begin() + static_cast<long>(n), x.end());
  if (kernels_->massMatrix(t, x.data(), p.data(), problem.M.data()) != 0) {
    error = "the mass matrix is singular at the impact";
    return false;
  }
  if (m > 0) {
    std::vector<double> residuals(2 * m + m * n);
    kernels_->constraints(t, x.data(), p.data(), residuals.data());
    problem.A.assign(residuals.begin() + static_cast<long>(2 * m), residuals.end());
    for (size_t k = 0; k < m; ++k) {
      double offset = residuals[m + k];
      for (size_t j = 0; j < n; ++j)
        offset -= problem.A[k * n + j] * problem.velocity[j];
      problem.a.push_back(offset);
    }
  }
  auto addRows = [&](const std::vector<bool> &inelastic) {
    problem.G.clear();
    problem.b.clear();
    problem.r.clear();
    for (size_t c = 0; c < touching.size(); ++c) {
      size_t i = touching[c];
      const double *row = contacts_.rows().data() + i * n;
      problem.G.insert(problem.G.end(), row, row + n);
      double offset = contacts_.rates()[i];
      for (size_t j = 0; j < n; ++j)
        offset -= row[j] * problem.velocity[j];
      problem.b.push_back(offset);
      double e = inelastic[c] ? 0.0 : restitution_[i];
      problem.r.push_back(-e * std::min(contacts_.rates()[i], 0.0));
    }
  };
  std::vector<bool> inelastic(touching.size(), false);
  for (size_t c = 0; c < touching.size(); ++c)
    inelastic[c] = resting_[touching[c]];
  addRows(inelastic);
  runtime::ImpactSolution solution = runtime::solveImpact(problem);
  auto failed = [&]() {
    switch (solution.status) {
    case runtime::ImpactStatus::TooManyContacts:
      error = std::to_string(touching.size()) + " contacts touch at once, more than the " +
              std::to_string(runtime::kMaxImpactContacts) + " an impact is solved for";
      return true;
    case runtime::ImpactStatus::Singular:
      error = "the impact's equations are singular (contacts or constraints that fix the same "
              "motion, or a direction without inertia)";
      return true;
    case runtime::ImpactStatus::NoSolution:
      error = "the impact has no solution with nonnegative impulses";
      return true;
    default:
      return false;
    }
  };
  if (failed())
    return false;
  std::vector<double> before = x;
  std::copy(solution.velocity.begin(), solution.velocity.end(), x.begin() + static_cast<long>(n));

  // Which touching contacts rest now: pressed, and back within the
  // shortest flight (a resting contact stays unless the impact pushed it off).
  std::vector<bool> rests(touching.size(), false);
  std::vector<double> restsAt(touching.size(), t);
  bool anyNew = false;
  std::vector<bool> previous = resting_;
  for (size_t c = 0; c < touching.size(); ++c)
    resting_[touching[c]] = false;
  contacts_.evaluate(t, x.data(), p);
  for (size_t c = 0; c < touching.size(); ++c) {
    size_t i = touching[c];
    double rate = contacts_.rates()[i];
    double a = gapAcceleration(i, t, x);
    double flight = a < 0 ? 2 * rate / -a : INFINITY;
    // A bounce that would rise less than a touching gap is one the gap's
    // rounding cannot resolve (1e-16 of its terms): it rests too.
    double rise = a < 0 ? rate * rate / (2 * -a) : INFINITY;
    rests[c] = a < 0 && (rate <= kRestingRate || rise < kTouchingGap ||
                         flight < kShortestFlight * std::max(1.0, t));
    // Bounces whose flights shrink by e each accumulate at t + flight /
    // (1 - e) (exact for a constant contact acceleration): the rest's time.
    double e = restitution_[i];
    if (rests[c] && rate > 0 && e < 1)
      restsAt[c] = t + flight / (1 - e);
    anyNew = anyNew || (rests[c] && !previous[i]);
    if (!rests[c] && a < 0 && rate > 0)
      shortFlight_ = shortFlight_ > 0 ? std::min(shortFlight_, flight / 8) : flight / 8;
  }
  if (anyNew) {
    // The resting contacts end the impact without rebound (e = 0).
    x = before;
    contacts_.evaluate(t, x.data(), p);
    addRows(rests);
    solution = runtime::solveImpact(problem);
    if (failed())
      return false;
    std::copy(solution.velocity.begin(), solution.velocity.end(), x.begin() + static_cast<long>(n));
  }
  for (size_t c = 0; c < touching.size(); ++c)
    resting_[touching[c]] = rests[c];

  ImpactRecord record;
  record.t = t;
  for (size_t c = 0; c < touching.size(); ++c)
    if (solution.impulse[c] > 0) {
      record.contacts.push_back(touching[c]);
      record.impulses.push_back(solution.impulse[c]);
      ++report_.impactsPerContact[touching[c]];
    }
  record.before.assign(before.begin() + static_cast<long>(n), before.end());
  record.after.assign(x.begin() + static_cast<long>(n), x.end());
  record.energyLost = kineticEnergy(t, before.data()) - kineticEnergy(t, x.data());
  report_.energyLostAtImpacts += record.energyLost;
  ++report_.impactCount;
  if (hooks_.energyJump)
    hooks_.energyJump(-record.energyLost);
  if (hooks_.contact)
    for (size_t pushed : record.contacts)
      hooks_.contact(pushed, "impact", t, before.data(), &record);
  for (size_t c = 0; c < touching.size(); ++c)
    if (rests[c] && !previous[touching[c]]) {
      report_.switches.push_back({restsAt[c], touching[c], true});
      if (hooks_.contact)
        hooks_.contact(touching[c], "rests", restsAt[c], x.data(), nullptr);
    }
  if (report_.impacts.size() < kKeptImpacts)
    report_.impacts.push_back(std::move(record));
  return true;
}

// An event's resets, from the state before it; the new state must keep the
// model's constraints.
bool ContactRun::reset(size_t event, double t, std::vector<double> &x, std::string &error) {
  std::vector<double> before = x;
  contacts_.reset(event, t, before.data(), filledParams(t), x.data());
  if (!eq_.constraints.empty()) {
    double residual = modeFor(resting_).projector->residual(t, x.data());
    double scale = 0;
    for (double v : x)
      scale = std::max(scale, std::abs(v));
    if (!(residual <= 1e-8 * std::max(1.0, scale))) {
      error = "the resets of event '" + eq_.events[event].name +
              "' break the constraints (residual " + shortestNumber(residual) + ")";
      return false;
    }
  }
  double change = totalEnergy(t, x.data()) - totalEnergy(t, before.data());
  report_.energyChangedAtResets += change;
  ++report_.resets;
  if (hooks_.energyJump)
    hooks_.energyJump(change);
  return true;
}

runtime::IntegrationResult ContactRun::run(const std::vector<double> &x0,
                                           const runtime::IntegratorOptions &options,
                                           std::string &error) {
  runtime::IntegrationResult total;
  std::vector<double> x = x0;
  double t = options.t0;
  if (!startModes(t, x.data(), error)) {
    total.outcome = runtime::Outcome::RhsFailed;
    total.failureTime = t;
    return total;
  }
  bool first = true;
  // Contacts that touch at the start while closing collide there.
  if (std::optional<size_t> closing = closingAtStart(t, x)) {
    hooks_.modeChanged(*modeFor(resting_).kernels, *modeFor(resting_).projector,
                       modeFor(resting_).slots);
    bool ok = hooks_.sample(t, x.data()) && impact(*closing, t, x, error);
    if (ok) {
      Mode &next = modeFor(resting_);
      hooks_.modeChanged(*next.kernels, *next.projector, next.slots);
      ok = hooks_.sample(t, x.data());
    }
    if (!ok) {
      total.outcome = error.empty() ? runtime::Outcome::Interrupted : runtime::Outcome::RhsFailed;
      total.failureTime = t;
      return total;
    }
    first = false;
  }
  long switchesHere = 0, switches = 0;
  double lastSwitch = NAN;
  for (;;) {
    Mode &mode = modeFor(resting_);
    hooks_.modeChanged(*mode.kernels, *mode.projector, mode.slots);
    runtime::IntegratorOptions segment = options;
    segment.t0 = t;
    if (!first)
      segment.sampleOrigin = options.t0;
    if (shortFlight_ > 0 && options.method != runtime::Method::Rk4)
      segment.step = std::min(segment.step > 0 ? segment.step : shortFlight_, shortFlight_);
    shortFlight_ = 0;
    segment.maxSteps = options.maxSteps - total.stats.accepted - total.stats.rejected;
    if (projection_ && !mode.eq.constraints.empty())
      segment.project = [&mode](double tt, double *xx) { return mode.projector->project(tt, xx); };
    for (const mechanics::Equations::Event &e : mode.eq.events)
      segment.events.events.push_back({e.direction, e.stop});
    segment.events.functions = [&mode](double tt, const double *xx, double *g) {
      return (*mode.events)(tt, xx, g);
    };
    double eventTime = NAN;
    std::vector<double> atEvent(x.size());
    const size_t declared = eq_.events.size();
    segment.events.record = [&](int event, double tt, const double *xx) {
      eventTime = tt;
      std::copy(xx, xx + atEvent.size(), atEvent.begin());
      if (static_cast<size_t>(event) < declared && hooks_.declared)
        hooks_.declared(event, tt, xx);
    };
    segment.events.chattered = [&](int event, int times, double a, double b) {
      if (static_cast<size_t>(event) < declared && hooks_.chattered)
        hooks_.chattered(event, times, a, b);
    };
    Mode *modePtr = &mode;
    std::vector<double> p = params_;
    runtime::RightHandSide rhs = [modePtr, this](double tt, const double *xx, double *dx) {
      return modePtr->kernels->rhs(tt, xx, params_.data(), dx);
    };
    std::string missed;
    runtime::SampleCallback sample = [&](double tt, const double *xx) {
      return hooks_.sample(tt, xx) && !crossedUnseen(tt, xx, missed);
    };
    runtime::IntegrationResult result = runtime::integrate(rhs, x, segment, sample);
    if (!missed.empty()) {
      error = missed;
      total.outcome = runtime::Outcome::RhsFailed;
      total.failureTime = result.failureTime;
      return total;
    }
    total.stats.accepted += result.stats.accepted;
    total.stats.rejected += result.stats.rejected;
    total.stats.rhsEvaluations += result.stats.rhsEvaluations;
    total.notes.insert(total.notes.end(), result.notes.begin(), result.notes.end());
    total.warnings.insert(total.warnings.end(), result.warnings.begin(), result.warnings.end());
    first = false;
    if (result.outcome != runtime::Outcome::Stopped) {
      runtime::IntegrationStats stats = total.stats;
      total = result;
      total.stats = stats;
      return total;
    }
    mechanics::ModeEvent what =
        mechanics::modeEvent(eq_, resting_, static_cast<size_t>(result.event));
    if (what.kind == mechanics::ModeEvent::Declared && eq_.events[what.index].resets.empty()) {
      runtime::IntegrationStats stats = total.stats;
      total = result;
      total.stats = stats;
      return total;
    }
    t = result.failureTime;
    x = atEvent;
    switchesHere = t == lastSwitch ? switchesHere + 1 : 0;
    lastSwitch = t;
    ++switches;
    bool ok = true;
    if (switches > options.maxSteps) {
      error = "more than " + std::to_string(options.maxSteps) +
              " impacts, rests, lift-offs and resets (--max-steps bounds them too)";
      ok = false;
    } else if (switchesHere > kMaxSwitchesAtOneTime) {
      error = "more than " + std::to_string(kMaxSwitchesAtOneTime) +
              " switches of contacts or resets at one instant: they accumulate there";
      ok = false;
    } else if (what.kind == mechanics::ModeEvent::Declared) {
      ok = reset(what.index, t, x, error);
    } else if (what.kind == mechanics::ModeEvent::Impact) {
      ok = impact(what.index, t, x, error);
    } else {
      resting_[what.index] = false;
      report_.switches.push_back({t, what.index, false});
      if (hooks_.contact)
        hooks_.contact(what.index, "lifts off", t, x.data(), nullptr);
    }
    if (!ok) {
      total.outcome = runtime::Outcome::RhsFailed;
      total.failureTime = t;
      return total;
    }
    if (what.kind != mechanics::ModeEvent::LiftOff) {
      Mode &next = modeFor(resting_);
      hooks_.modeChanged(*next.kernels, *next.projector, next.slots);
      if (!hooks_.sample(t, x.data())) {
        total.outcome = runtime::Outcome::Interrupted;
        total.failureTime = t;
        return total;
      }
    }
  }
}

} // namespace mech::driver
