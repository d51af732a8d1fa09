// Samples and events after each accepted step. An event's time is the root
// of g along the interpolant, bracketed by the step's ends and narrowed by
// the Illinois variant of regula falsi (superlinear, and never slower than
// bisection thanks to the forced halvings), to 1e-12 max(1, |t|): the
// interpolant is as accurate as the method, so the event time is too.
#include "runtime/StepOutput.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace mech::runtime {

namespace {

// The width of bracket an event's time is narrowed to, relative to
// max(1, |t|); for an event that ends the run or a segment (a stop, an
// impact, a reset), a few units in the last place: the state there starts
// what follows, and the time's lateness would add up over many impacts.
constexpr double kEventTolerance = 1e-12;
constexpr double kStopTolerance = 8 * std::numeric_limits<double>::epsilon();
// Enough for a bracket of any double width: each round of three
// iterations at least halves it.
constexpr int kMaxRootIterations = 400;

int signOf(double g) {
  return g > 0 ? 1 : g < 0 ? -1 : 0;
}

} // namespace

StepOutput::StepOutput(const IntegratorOptions &options, const SampleCallback &sample,
                       long dimension)
    : sample_(sample), samples_(options.t0, options.tEnd, options.dt), events_(options.events),
      specs_(options.events.events), gOld_(specs_.size()), gNew_(specs_.size()),
      gProbe_(specs_.size()), sign_(specs_.size(), 0), scratch_(dimension), probe_(dimension),
      atEvent_(dimension) {
  if (!std::isnan(options.sampleOrigin)) {
    samples_ = TimeGrid(options.sampleOrigin, options.tEnd, options.dt);
    samples_.skipThrough(options.t0);
  }
}

bool StepOutput::evaluate(double t, const double *x, std::vector<double> &g, Failure &failure) {
  if (int status = events_.functions(t, x, g.data()); status != 0) {
    failure = {Outcome::RhsFailed, t, -1, status};
    return false;
  }
  for (size_t i = 0; i < g.size(); ++i)
    if (!std::isfinite(g[i])) {
      failure = {Outcome::NonFinite, t};
      failure.event = static_cast<int>(i);
      return false;
    }
  return true;
}

bool StepOutput::begin(double t0, const Eigen::VectorXd &x0, Failure &failure) {
  if (!specs_.empty()) {
    if (!evaluate(t0, x0.data(), gOld_, failure))
      return false;
    for (size_t i = 0; i < specs_.size(); ++i)
      sign_[i] = signOf(gOld_[i]);
  }
  auto noInterpolation = [](double, Eigen::VectorXd &) {};
  return deliver(t0, x0, InterpolantRef(noInterpolation), failure);
}

bool StepOutput::deliver(double tUntil, const Eigen::VectorXd &xUntil,
                         const InterpolantRef &interpolate, Failure &failure) {
  while (samples_.dueBy(tUntil)) {
    const double t = samples_.next();
    if (sample_) {
      const double *x = xUntil.data();
      if (t != tUntil) {
        interpolate(t, scratch_);
        x = scratch_.data();
      }
      if (!sample_(t, x)) {
        failure = {Outcome::Interrupted, t};
        return false;
      }
      lastSampleTime_ = t;
      sampled_ = true;
    }
    samples_.advance();
  }
  return true;
}

bool StepOutput::afterStep(double t, double tNew, const Eigen::VectorXd &xNew,
                           const InterpolantRef &interpolate, Failure &failure) {
  crossings_.clear();
  if (!specs_.empty() && (!evaluate(tNew, xNew.data(), gNew_, failure) ||
                          !findCrossings(t, tNew, interpolate, failure)))
    return false;
  auto stop = std::find_if(crossings_.begin(), crossings_.end(),
                           [&](const Crossing &c) { return specs_[c.event].stop; });
  const double tUntil = stop == crossings_.end() ? tNew : stop->time;
  const Eigen::VectorXd *xUntil = &xNew;
  if (tUntil != tNew) {
    interpolate(tUntil, atEvent_);
    xUntil = &atEvent_;
  }
  if (events_.record)
    for (auto c = crossings_.begin(); c != crossings_.end() && c <= stop; ++c) {
      const Eigen::VectorXd *x = &xNew;
      if (c->time != tNew) {
        interpolate(c->time, probe_);
        x = &probe_;
      }
      events_.record(c->event, c->time, x->data());
    }
  if (!deliver(tUntil, *xUntil, interpolate, failure))
    return false;
  if (stop != crossings_.end()) {
    // The run's last row is the state at the event.
    if (sample_ && specs_[static_cast<size_t>(stop->event)].sampledAtStop &&
        !(sampled_ && lastSampleTime_ == tUntil) && !sample_(tUntil, xUntil->data())) {
      failure = {Outcome::Interrupted, tUntil};
      return false;
    }
    failure = {Outcome::Stopped, tUntil};
    failure.event = stop->event;
    return false;
  }
  gOld_.swap(gNew_);
  return true;
}

// g of every event at parts + 1 evenly spaced times of the step, the ends
// included (known already), into grid_.
bool StepOutput::sampleGrid(double t, double tNew, int parts, const InterpolantRef &interpolate,
                            Failure &failure) {
  const size_t m = specs_.size();
  grid_.assign(static_cast<size_t>(parts + 1) * m, 0.0);
  std::copy(gOld_.begin(), gOld_.end(), grid_.begin());
  std::copy(gNew_.begin(), gNew_.end(), grid_.end() - static_cast<long>(m));
  for (int j = 1; j < parts; ++j) {
    const double c = t + (tNew - t) * j / parts;
    interpolate(c, probe_);
    if (!evaluate(c, probe_.data(), gProbe_, failure))
      return false;
    std::copy(gProbe_.begin(), gProbe_.end(), grid_.begin() + static_cast<long>(j * m));
  }
  return true;
}

// How often g_event changes its sign along the grid, from the last
// nonzero sign seen before the step.
int StepOutput::signChanges(size_t event, int parts) const {
  int sign = sign_[event], changes = 0;
  for (int j = 1; j <= parts; ++j) {
    const int next = signOf(grid_[static_cast<size_t>(j) * specs_.size() + event]);
    if (next != 0 && sign != 0 && next != sign)
      ++changes;
    if (next != 0)
      sign = next;
  }
  return changes;
}

// A crossing is a change of sign from the last nonzero value seen: a g that
// touches 0 and turns back does not fire, and one that is 0 at t0 fires
// only if it later changes the sign it takes. The step is looked at on a
// grid of kGridParts parts, so that a g crossing twice within it is seen;
// where one event changes sign more than once, the grid is refined (to at
// most kMaxGridParts parts) and the listener told that the event chatters.
bool StepOutput::findCrossings(double t, double tNew, const InterpolantRef &interpolate,
                               Failure &failure) {
  constexpr int kGridParts = 4, kMaxGridParts = 256;
  int parts = kGridParts;
  if (!sampleGrid(t, tNew, parts, interpolate, failure))
    return false;
  for (;;) {
    int most = 0;
    for (size_t i = 0; i < specs_.size(); ++i)
      most = std::max(most, signChanges(i, parts));
    if (most < 2 || parts >= kMaxGridParts)
      break;
    parts *= 8;
    if (!sampleGrid(t, tNew, parts, interpolate, failure))
      return false;
  }
  const size_t m = specs_.size();
  for (size_t i = 0; i < m; ++i) {
    int fired = 0;
    size_t last = 0; // the grid point of the last nonzero value (or the start)
    for (int j = 1; j <= parts; ++j) {
      const size_t at = static_cast<size_t>(j);
      const int before = sign_[i], after = signOf(grid_[at * m + i]);
      if (after == 0)
        continue;
      sign_[i] = after;
      const size_t from = last;
      last = at;
      if (before == 0 || after == before)
        continue;
      const int rising = (after > before ? 1 : -1) * (direction() > 0 ? 1 : -1);
      if (specs_[i].direction != 0 && specs_[i].direction != rising)
        continue;
      auto time = [&](size_t k) {
        return k == static_cast<size_t>(parts) ? tNew
                                               : t + (tNew - t) * static_cast<double>(k) / parts;
      };
      double root = time(at);
      if (!locate(static_cast<int>(i), time(from), grid_[from * m + i], time(at), grid_[at * m + i],
                  interpolate, root, failure))
        return false;
      crossings_.push_back({root, static_cast<int>(i)});
      ++fired;
    }
    if (fired > 1 && events_.chattered)
      events_.chattered(static_cast<int>(i), fired, t, tNew);
  }
  const double d = direction();
  std::stable_sort(crossings_.begin(), crossings_.end(),
                   [d](const Crossing &x, const Crossing &y) { return d * x.time < d * y.time; });
  return true;
}

// The root of g_event between a (value ga, which may be 0: then a is the
// root) and b (value gb of the other sign), returned on b's side.
bool StepOutput::locate(int event, double a, double ga, double b, double gb,
                        const InterpolantRef &interpolate, double &root, Failure &failure) {
  const auto e = static_cast<size_t>(event);
  if (ga == 0) {
    root = a;
    return true;
  }
  const double tolerance = (specs_[e].stop ? kStopTolerance : kEventTolerance) *
                           std::max({1.0, std::abs(a), std::abs(b)});
  int keptSide = 0; // +1: a was kept last time, -1: b was
  double width = std::abs(b - a);
  for (int iteration = 0; iteration < kMaxRootIterations && std::abs(b - a) > tolerance;
       ++iteration) {
    double c = (ga * b - gb * a) / (ga - gb);
    // Every third iteration must have halved the bracket, else bisect.
    const bool stalled = iteration % 3 == 2 && std::abs(b - a) > width / 2;
    if (stalled || !(std::min(a, b) < c && c < std::max(a, b)))
      c = a + (b - a) / 2;
    if (iteration % 3 == 2)
      width = std::abs(b - a);
    interpolate(c, probe_);
    if (!evaluate(c, probe_.data(), gProbe_, failure))
      return false;
    const double gc = gProbe_[e];
    if (gc == 0) {
      root = c;
      return true;
    }
    if (signOf(gc) == signOf(gb)) {
      b = c;
      gb = gc;
      if (keptSide == 1)
        ga /= 2;
      keptSide = 1;
    } else {
      a = c;
      ga = gc;
      if (keptSide == -1)
        gb /= 2;
      keptSide = -1;
    }
  }
  root = b;
  return true;
}

} // namespace mech::runtime
