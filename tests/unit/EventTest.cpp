// Events against exact crossing times: the harmonic oscillator x = cos t
// crosses 0 at pi/2 + k pi, rising at 3pi/2 + 2k pi, with every method;
// stop events end the run and its samples at the crossing; a function that
// starts at 0 does not fire at t0; several crossings within one step come
// out in the order of time; backward runs keep "rising" in t.
#include "runtime/Integrator.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <vector>

using namespace mech::runtime;

namespace {

constexpr double kPi = std::numbers::pi;

// x'' = -x as (x, v).
int oscillator(double, const double *x, double *dx) {
  dx[0] = x[1];
  dx[1] = -x[0];
  return 0;
}

int oscillatorJacobian(double, const double *, double *J) {
  J[0] = 0, J[1] = 1, J[2] = -1, J[3] = 0;
  return 0;
}

struct Fired {
  int event;
  double t;
  std::vector<double> x;
};

struct EventRun {
  IntegrationResult result;
  std::vector<Fired> fired;
  std::vector<double> sampleTimes;
  std::vector<std::vector<double>> samples;
};

// Runs the oscillator from x0 with events g_i = x - levels[i].
EventRun runEvents(IntegratorOptions o, std::vector<double> x0, std::vector<double> levels,
                   std::vector<EventOptions::Event> events) {
  EventRun r;
  o.events.events = std::move(events);
  o.events.functions = [levels](double, const double *x, double *g) {
    for (size_t i = 0; i < levels.size(); ++i)
      g[i] = x[0] - levels[i];
    return 0;
  };
  o.events.record = [&](int event, double t, const double *x) {
    r.fired.push_back({event, t, {x[0], x[1]}});
  };
  o.jacobian = oscillatorJacobian;
  r.result = integrate(oscillator, std::move(x0), o, [&](double t, const double *x) {
    r.sampleTimes.push_back(t);
    r.samples.push_back({x[0], x[1]});
    return true;
  });
  return r;
}

IntegratorOptions options(Method method, double tEnd, double tolerance) {
  IntegratorOptions o;
  o.method = method;
  o.tEnd = tEnd;
  o.dt = 0.1;
  o.rtol = o.atol = tolerance;
  o.step = method == Method::Rk4 ? 1e-3 : 0;
  return o;
}

} // namespace

TEST_CASE("events find the zeros of cos t at pi/2 + k pi to 1e-10 with dop853") {
  EventRun r = runEvents(options(Method::Dop853, 10, 1e-12), {1, 0}, {0}, {{}});
  REQUIRE(r.result.outcome == Outcome::Finished);
  REQUIRE(r.fired.size() == 3); // pi/2, 3pi/2, 5pi/2 < 10 < 7pi/2
  for (size_t k = 0; k < r.fired.size(); ++k) {
    double exact = kPi / 2 + static_cast<double>(k) * kPi;
    CHECK(std::abs(r.fired[k].t - exact) < 1e-10);
    CHECK(std::abs(r.fired[k].x[0]) < 1e-10);
    // Recorded just past the crossing: x has the sign it crosses to.
    CHECK(r.fired[k].x[0] * (k % 2 == 0 ? -1 : 1) >= 0);
  }
}

TEST_CASE("every method locates the crossings to its own accuracy") {
  struct Case {
    Method method;
    double tolerance, accuracy;
  };
  for (Case c : {Case{Method::Dopri5, 1e-10, 1e-8}, Case{Method::Radau, 1e-10, 1e-7},
                 Case{Method::Bdf, 1e-10, 1e-6}, Case{Method::Rk4, 0, 1e-10}}) {
    INFO("method " << static_cast<int>(c.method));
    EventRun r = runEvents(options(c.method, 5, c.method == Method::Rk4 ? 1e-8 : c.tolerance),
                           {1, 0}, {0}, {{}});
    REQUIRE(r.result.outcome == Outcome::Finished);
    REQUIRE(r.fired.size() == 2);
    CHECK(std::abs(r.fired[0].t - kPi / 2) < c.accuracy);
    CHECK(std::abs(r.fired[1].t - 3 * kPi / 2) < c.accuracy);
  }
}

TEST_CASE("the midpoint method fires events from its Hermite interpolant") {
  IntegratorOptions o = options(Method::Midpoint, 5, 0);
  o.step = 1e-3;
  LagrangianForm lagrangian;
  lagrangian.coordinates = 1;
  // L = v^2/2 - x^2/2: p = v, force = -x, M = 1.
  lagrangian.momentumAndForce = [](double, const double *x, double *p, double *force) {
    p[0] = x[1];
    force[0] = -x[0];
    return 0;
  };
  lagrangian.massMatrix = [](double, const double *, double *M) {
    M[0] = 1;
    return 0;
  };
  std::vector<double> times;
  o.events.events = {{}};
  o.events.functions = [](double, const double *x, double *g) {
    g[0] = x[0];
    return 0;
  };
  o.events.record = [&](int, double t, const double *) { times.push_back(t); };
  IntegrationResult result = integrate(oscillator, {1, 0}, o, {}, &lagrangian);
  REQUIRE(result.outcome == Outcome::Finished);
  REQUIRE(times.size() == 2);
  // The midpoint rule's phase error is h^2 t / 24 per unit time.
  CHECK(std::abs(times[0] - kPi / 2) < 1e-6);
  CHECK(std::abs(times[1] - 3 * kPi / 2) < 1e-6);
}

TEST_CASE("a direction keeps only the crossings that rise (or fall) in t") {
  EventRun up = runEvents(options(Method::Dop853, 10, 1e-12), {1, 0}, {0}, {{+1, false}});
  REQUIRE(up.fired.size() == 1);
  CHECK(std::abs(up.fired[0].t - 3 * kPi / 2) < 1e-10);
  EventRun down = runEvents(options(Method::Dop853, 10, 1e-12), {1, 0}, {0}, {{-1, false}});
  REQUIRE(down.fired.size() == 2);
  CHECK(std::abs(down.fired[1].t - 5 * kPi / 2) < 1e-10);
}

TEST_CASE("backward runs judge the direction in t, not in the run's order") {
  IntegratorOptions o = options(Method::Dop853, -5, 1e-12);
  // cos t rises through 0 at t = -pi/2 and falls at t = -3pi/2.
  EventRun up = runEvents(o, {1, 0}, {0}, {{+1, false}});
  REQUIRE(up.fired.size() == 1);
  CHECK(std::abs(up.fired[0].t + kPi / 2) < 1e-10);
  EventRun down = runEvents(o, {1, 0}, {0}, {{-1, false}});
  REQUIRE(down.fired.size() == 1);
  CHECK(std::abs(down.fired[0].t + 3 * kPi / 2) < 1e-10);
}

TEST_CASE("a stop event ends the run and its samples at the crossing") {
  EventRun r = runEvents(options(Method::Dopri5, 10, 1e-10), {1, 0}, {0}, {{0, true}});
  REQUIRE(r.result.outcome == Outcome::Stopped);
  CHECK(r.result.event == 0);
  CHECK(std::abs(r.result.failureTime - kPi / 2) < 1e-8);
  REQUIRE(r.fired.size() == 1);
  CHECK(r.fired[0].t == r.result.failureTime);
  // Samples every 0.1 up to 1.5, then the event as the last one.
  REQUIRE(r.sampleTimes.size() == 17);
  CHECK(r.sampleTimes[15] == Approx(1.5));
  CHECK(r.sampleTimes.back() == r.result.failureTime);
  CHECK(std::abs(r.samples.back()[0]) < 1e-8);
  CHECK(r.result.message().rfind("stopped by event 0 at t = 1.57079", 0) == 0);
}

TEST_CASE("a function that is 0 at t0 does not fire there") {
  // x = sin t starts at 0: the crossings are pi and 2pi only.
  EventRun r = runEvents(options(Method::Dop853, 7, 1e-12), {0, 1}, {0}, {{0, true}});
  REQUIRE(r.fired.size() == 1);
  CHECK(std::abs(r.fired[0].t - kPi) < 1e-10);
  CHECK(r.result.outcome == Outcome::Stopped);
}

TEST_CASE("crossings within one step come out in the order of time") {
  // One RK4 step of 1.5: cos t falls through 0.6 at acos(0.6) = 0.927,
  // through 0.5 at acos(0.5) = 1.047 and through 0.2 at 1.369, all within
  // it; the event declared second fires first. The step is long, so the
  // times are only as good as its interpolant.
  IntegratorOptions o = options(Method::Rk4, 3, 0);
  o.step = 1.5;
  EventRun r = runEvents(o, {1, 0}, {0.5, 0.6, 0.2}, {{}, {}, {0, true}});
  REQUIRE(r.fired.size() == 3);
  CHECK(r.fired[0].event == 1);
  CHECK(r.fired[1].event == 0);
  CHECK(r.fired[2].event == 2);
  CHECK(std::abs(r.fired[0].t - std::acos(0.6)) < 0.05);
  CHECK(std::abs(r.fired[1].t - std::acos(0.5)) < 0.05);
  CHECK(r.result.outcome == Outcome::Stopped);
  CHECK(std::abs(r.result.failureTime - std::acos(0.2)) < 0.05);
}

TEST_CASE("an event function that fails ends the run with its status") {
  IntegratorOptions o = options(Method::Dopri5, 5, 1e-8);
  o.events.events = {{}};
  o.events.functions = [](double t, const double *, double *g) {
    g[0] = 1;
    return t > 1 ? 7 : 0;
  };
  IntegrationResult result = integrate(oscillator, {1, 0}, o, {});
  CHECK(result.outcome == Outcome::RhsFailed);
  CHECK(result.rhsStatus == 7);
  CHECK(result.failureTime > 1);
}
