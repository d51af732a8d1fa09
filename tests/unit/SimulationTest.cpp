// End-to-end trajectories of `mech simulate`'s library path: a model written
// in the .mech language is loaded from a file, checked, derived, compiled by
// the JIT and integrated by driver::simulate. The CSV it writes is parsed and
// compared with closed forms worked out by hand in this file (never with
// mech's own numbers): the exact (elliptic) period of the pendulum, free and
// projectile motion, the damped forced oscillator, the energy of the double
// pendulum, and the failures (a mass matrix that becomes singular, a
// solution that blows up in finite time).
#include "TestSupport.h"
#include "TrajectorySupport.h"

#include "driver/Pipeline.h"
#include "driver/Simulation.h"
#include "runtime/Integrator.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

using namespace mech;

namespace {

constexpr double kPi = 3.141592653589793238462643383279502884;

// ---------------------------------------------------------------------------
// Running a model and reading its CSV.

using test::Csv;
using test::parseCsv;
using TempModel = test::TemporaryModelFile;

struct Run {
  driver::SimulationSummary summary;
  Csv csv;
  std::string csvText;
};

std::string diagnosticsText(driver::LoadedModel &loaded) {
  std::ostringstream messages;
  loaded.diagnostics().print(messages);
  return messages.str();
}

// Loads, derives, compiles and integrates the model in `path`; the run must
// start (it may still end in a failure, reported in the summary).
Run simulateFile(const std::string &path, const driver::SimulationOptions &options,
                 const std::vector<std::string> &settings = {}) {
  auto loaded = driver::loadModel(path, settings, test::Session::defaultSearchPath(), true);
  REQUIRE(loaded);
  INFO(path << "\n" << diagnosticsText(*loaded));
  REQUIRE(loaded->analysis.model != nullptr);
  REQUIRE(loaded->derivation.has_value());
  REQUIRE_FALSE(loaded->diagnostics().hasErrors());
  std::ostringstream out;
  std::optional<driver::SimulationSummary> summary = driver::simulate(*loaded, options, 0.0, out);
  INFO(diagnosticsText(*loaded));
  REQUIRE(summary.has_value());
  Run run;
  run.summary = *summary;
  run.csvText = out.str();
  run.csv = parseCsv(run.csvText);
  // Every sample the summary counts is a row of the CSV.
  CHECK(run.csv.rows.size() == run.summary.samples);
  // The compiled kernels ran, not the interpreter's fallback.
  CHECK(run.summary.backendNote.empty());
  return run;
}

Run simulateText(const std::string &text, const driver::SimulationOptions &options) {
  TempModel file(text);
  INFO(text);
  return simulateFile(file.path(), options);
}

driver::SimulationOptions options(runtime::Method method, double tEnd, double dt, double rtol,
                                  double atol) {
  driver::SimulationOptions o;
  o.integrator.method = method;
  o.integrator.t0 = 0;
  o.integrator.tEnd = tEnd;
  o.integrator.dt = dt;
  o.integrator.rtol = rtol;
  o.integrator.atol = atol;
  o.integrator.step = 0; // automatic initial step
  o.useCache = false;    // compile afresh; leave the on-disk cache alone
  return o;
}

// The time written after "t = " in a failure message.
std::optional<double> timeInMessage(const std::string &message) {
  size_t at = message.find("t = ");
  if (at == std::string::npos)
    return std::nullopt;
  const char *start = message.c_str() + at + 4;
  char *end = nullptr;
  double t = std::strtod(start, &end);
  if (end == start)
    return std::nullopt;
  return t;
}

// ---------------------------------------------------------------------------
// Closed forms.

// The complete elliptic integral of the first kind K(k) (modulus k), by the
// arithmetic-geometric mean: K = pi / (2 AGM(1, sqrt(1 - k^2))).
double ellipticK(double k) {
  double a = 1, b = std::sqrt(1 - k * k);
  for (int i = 0; i < 64 && std::abs(a - b) > 1e-17 * a; ++i) {
    double mean = (a + b) / 2;
    b = std::sqrt(a * b);
    a = mean;
  }
  return kPi / (2 * a);
}

// The zero of the cubic through the four samples (t[i-1..i+2], v[i-1..i+2])
// between t[i] and t[i+1], where v changes sign; by bisection on the
// Lagrange interpolant (the interpolation error is O(dt^4)).
double refineZero(const std::vector<double> &t, const std::vector<double> &v, size_t i) {
  size_t first = i == 0 ? 0 : i - 1;
  if (first + 3 >= t.size())
    first = t.size() - 4;
  auto cubic = [&](double x) {
    double sum = 0;
    for (size_t a = first; a < first + 4; ++a) {
      double term = v[a];
      for (size_t b = first; b < first + 4; ++b)
        if (b != a)
          term *= (x - t[b]) / (t[a] - t[b]);
      sum += term;
    }
    return sum;
  };
  double lo = t[i], hi = t[i + 1];
  double flo = cubic(lo);
  for (int k = 0; k < 200 && hi - lo > 1e-15 * hi; ++k) {
    double mid = (lo + hi) / 2;
    double fmid = cubic(mid);
    if ((fmid < 0) == (flo < 0)) {
      lo = mid;
      flo = fmid;
    } else {
      hi = mid;
    }
  }
  return (lo + hi) / 2;
}

// The times where v changes sign (after the first sample), refined.
std::vector<double> zeroCrossings(const std::vector<double> &t, const std::vector<double> &v) {
  std::vector<double> zeros;
  for (size_t i = 1; i + 1 < t.size(); ++i) {
    if (v[i] == 0) {
      zeros.push_back(t[i]);
      continue;
    }
    if ((v[i] < 0) != (v[i + 1] < 0) && v[i + 1] != 0)
      zeros.push_back(refineZero(t, v, i));
  }
  return zeros;
}

// The damped, harmonically forced oscillator m x'' + c x' + k x = F0 cos(w t)
// (underdamped), from x(0) = x0, x'(0) = v0: the steady state
// A cos(w t) + B sin(w t) plus the transient
// exp(-gamma t) (C1 cos(wd t) + C2 sin(wd t)).
struct ForcedOscillator {
  double A, B, gamma, wd, C1, C2, w;

  ForcedOscillator(double m, double c, double k, double F0, double w_, double x0, double v0)
      : w(w_) {
    // (k - m w^2) A + c w B = F0, (k - m w^2) B - c w A = 0.
    double stiff = k - m * w * w, damp = c * w;
    double det = stiff * stiff + damp * damp;
    A = F0 * stiff / det;
    B = F0 * damp / det;
    gamma = c / (2 * m);
    wd = std::sqrt(k / m - gamma * gamma);
    C1 = x0 - A;                         // x(0) = C1 + A
    C2 = (v0 - w * B + gamma * C1) / wd; // x'(0) = -gamma C1 + wd C2 + w B
  }
  double x(double t) const {
    return A * std::cos(w * t) + B * std::sin(w * t) +
           std::exp(-gamma * t) * (C1 * std::cos(wd * t) + C2 * std::sin(wd * t));
  }
  double v(double t) const {
    double e = std::exp(-gamma * t), c = std::cos(wd * t), s = std::sin(wd * t);
    return -A * w * std::sin(w * t) + B * w * std::cos(w * t) +
           e * ((-gamma * C1 + wd * C2) * c + (-gamma * C2 - wd * C1) * s);
  }
};

// Checks that samples are at 0, dt, 2 dt, ...; the last one may instead be
// at tEnd (a run that finishes samples tEnd itself, on the grid or not).
void checkSampleTimes(const std::vector<double> &t, double dt,
                      std::optional<double> tEnd = std::nullopt) {
  REQUIRE_FALSE(t.empty());
  CHECK(t.front() == 0.0);
  double worst = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    double deviation = std::abs(t[i] - static_cast<double>(i) * dt);
    if (i + 1 == t.size() && tEnd)
      deviation = std::min(deviation, std::abs(t[i] - *tEnd));
    worst = std::max(worst, deviation);
  }
  INFO("largest deviation of a sample time from i*dt: " << worst);
  CHECK(worst <= 1e-12 * (1 + t.back()));
  if (tEnd) {
    CHECK(t.back() == *tEnd);
    CHECK(t.back() - t[t.size() - 2] <= dt * (1 + 1e-12));
  }
}

// ---------------------------------------------------------------------------
// Models.

constexpr const char *kPendulum = R"(
# A simple pendulum: a point mass on a massless rod.
model Pendulum {
  param m = 0.7 [kg], l = 1.3 [m], g = 9.81 [m/s^2]
  coord th [rad]
  particle bob mass m at l * [sin(th), -cos(th)]
  gravity [0, -g]
  init th = 0.1   # each run sets its own amplitude with --init
}
)";

constexpr const char *kFreeParticle = R"(
model FreeParticle {
  param m = 1.5 [kg]
  coord x [m], y [m]
  kinetic T = m/2 * (x'^2 + y'^2)
  init x = 0.3, y = -1.2, x' = 0.7, y' = -2.5
}
)";

constexpr const char *kProjectilePotential = R"(
model Projectile {
  param m = 0.4 [kg], g = 9.81 [m/s^2]
  coord x [m], y [m]
  kinetic T = m/2 * (x'^2 + y'^2)
  potential V = m * g * y
  init x = -0.5, y = 2, x' = 3.25, y' = 12.5
}
)";

constexpr const char *kProjectileGravity = R"(
model Projectile {
  param m = 0.4 [kg], g = 9.81 [m/s^2]
  coord x [m], y [m]
  particle stone mass m at [x, y]
  gravity [0, -g]
  init x = -0.5, y = 2, x' = 3.25, y' = 12.5
}
)";

// m x'' + c x' + k x = F0 cos(w t): the damping from a Rayleigh function, the
// drive as a generalized force on x.
constexpr const char *kOscillatorGeneralized = R"(
model ForcedOscillator {
  param m = 2 [kg], k = 5 [N/m], c = 0.3 [N*s/m], F0 = 1.5 [N], w = 1.7 [1/s]
  coord x [m]
  kinetic T = m/2 * x'^2
  potential V = k/2 * x^2
  dissipation D = c/2 * x'^2
  generalized F0*cos(w*t) on x
  init x = 0.4, x' = -0.3
}
)";

// The same system written with a particle, a spring and a force at a point.
constexpr const char *kOscillatorForce = R"(
model ForcedOscillator {
  param m = 2 [kg], k = 5 [N/m], c = 0.3 [N*s/m], F0 = 1.5 [N], w = 1.7 [1/s]
  coord x [m]
  particle block mass m at [x, 0]
  spring k between [0, 0] and [x, 0] rest 0
  dissipation D = c/2 * x'^2
  force [F0*cos(w*t), 0] at [x, 0]
  init x = 0.4, x' = -0.3
}
)";

// A slider x pushed by a constant force F, carrying a rotor phi whose moment
// of inertia J (1 - x/a) shrinks with x and vanishes at x = a. The rotor
// starts at rest and stays at rest (its momentum J (1 - x/a) phi' is
// conserved), so x = x0 + F t^2 / (2 m) reaches a at t* = sqrt(2 m (a - x0)
// / F), where the mass matrix diag(m, J (1 - x/a)) becomes singular (and
// indefinite beyond).
constexpr const char *kVanishingInertia = R"(
model VanishingInertia {
  param m = 1 [kg], J = 0.5 [kg*m^2], F = 2 [N], a = 1 [m]
  coord x [m], phi [rad]
  kinetic T = m/2 * x'^2 + J/2 * (1 - x/a) * phi'^2
  potential V = -F * x
  init x = 0.2
}
)";

// x'' = x^2 (from V = -x^3/3), started on the zero-energy curve
// x'^2 / 2 = x^3 / 3: x(t) = 6 / (t* - t)^2 with t* = sqrt(6 / x0), which
// escapes to infinity at t*. From x0 = 4, x'(0) = 12 / t*^3 = sqrt(2/3) 8.
constexpr const char *kBlowUp = R"(
model BlowUp {
  coord x
  kinetic T = x'^2 / 2
  potential V = -x^3 / 3
  init x = 4, x' = 6.531972647421808
}
)";

} // namespace

// ---------------------------------------------------------------------------

TEST_CASE("simulate: the pendulum period is the exact elliptic one", "[simulate]") {
  const double l = 1.3, g = 9.81;
  for (runtime::Method method : {runtime::Method::Dop853, runtime::Method::Dopri5}) {
    for (double theta0 : {0.2, 2.0}) {
      DYNAMIC_SECTION(methodName(method) << ", amplitude " << theta0) {
        double k = std::sin(theta0 / 2);
        double period = 4 * std::sqrt(l / g) * ellipticK(k);
        // Three periods, sampled finely enough for a cubic to locate the
        // turning points to far better than the requirement.
        const double tEnd = 3 * period + 0.05;
        auto o = options(method, tEnd, 0.005, 1e-10, 1e-12);
        std::ostringstream init;
        init << std::setprecision(17) << "th = " << theta0 << ", th' = 0";
        o.start.init = init.str();
        Run run = simulateText(kPendulum, o);
        INFO(run.summary.failure);
        REQUIRE(run.summary.failure.empty());
        CHECK(run.csv.join() == "t,th,th'");
        std::vector<double> t = run.csv.values("t"), th = run.csv.values("th"),
                            thd = run.csv.values("th'");
        checkSampleTimes(t, 0.005, tEnd);
        CHECK(th.front() == theta0);
        CHECK(thd.front() == 0.0);

        // th' vanishes at the turning points t = j T/2, j = 1, 2, ..., 6.
        std::vector<double> zeros = zeroCrossings(t, thd);
        REQUIRE(zeros.size() == 6);
        double worst = 0;
        for (size_t j = 0; j < zeros.size(); ++j)
          worst = std::max(worst,
                           std::abs(zeros[j] - static_cast<double>(j + 1) * period / 2) / period);
        double measured = 2 * zeros.back() / static_cast<double>(zeros.size());
        double error = std::abs(measured - period) / period;
        INFO(std::setprecision(17)
             << "exact period " << period << ", measured " << measured << ", relative error "
             << error << ", worst turning point error (in periods) " << worst);
        INFO("energy drift " << run.summary.energyDrift);
        CHECK(error <= 1e-9);
        CHECK(worst <= 1e-9);
        CHECK(run.summary.energyTracked);
        CHECK(run.summary.energyDrift <= 1e-8);

        // The amplitude is theta0 at every turning point (energy conservation):
        // the extremes of the samples come within the curvature term of it.
        double highest = *std::max_element(th.begin(), th.end());
        double lowest = *std::min_element(th.begin(), th.end());
        double curvature = g / l * std::sin(theta0) * 0.005 * 0.005; // |th''| dt^2
        CHECK(highest <= theta0 + 1e-9);
        CHECK(highest >= theta0 - curvature);
        CHECK(lowest >= -theta0 - 1e-9);
        CHECK(lowest <= -theta0 + curvature);
      }
    }
  }
}

TEST_CASE("simulate: a free particle moves uniformly", "[simulate]") {
  const double x0 = 0.3, y0 = -1.2, vx = 0.7, vy = -2.5;
  for (runtime::Method method : {runtime::Method::Dopri5, runtime::Method::Dop853}) {
    DYNAMIC_SECTION(methodName(method)) {
      Run run = simulateText(kFreeParticle, options(method, 4, 0.01, 1e-10, 1e-12));
      REQUIRE(run.summary.failure.empty());
      CHECK(run.csv.join() == "t,x,y,x',y'");
      std::vector<double> t = run.csv.values("t"), x = run.csv.values("x"), y = run.csv.values("y"),
                          xd = run.csv.values("x'"), yd = run.csv.values("y'");
      REQUIRE(t.size() == 401);
      checkSampleTimes(t, 0.01, 4.0);
      double worst = 0;
      for (size_t i = 0; i < t.size(); ++i) {
        worst = std::max(worst, std::abs(x[i] - (x0 + vx * t[i])));
        worst = std::max(worst, std::abs(y[i] - (y0 + vy * t[i])));
        worst = std::max(worst, std::abs(xd[i] - vx));
        worst = std::max(worst, std::abs(yd[i] - vy));
      }
      INFO(methodName(method) << ": free particle, largest error " << worst);
      CHECK(worst <= 1e-9);
    }
  }
}

TEST_CASE("simulate: a projectile follows the parabola", "[simulate]") {
  const double g = 9.81, x0 = -0.5, y0 = 2, vx = 3.25, vy = 12.5;
  for (runtime::Method method : {runtime::Method::Dopri5, runtime::Method::Dop853}) {
    for (const char *form : {"potential", "gravity"}) {
      DYNAMIC_SECTION(methodName(method) << ", " << form) {
        const char *text =
            std::string(form) == "potential" ? kProjectilePotential : kProjectileGravity;
        Run run = simulateText(text, options(method, 3, 0.01, 1e-10, 1e-12));
        REQUIRE(run.summary.failure.empty());
        std::vector<double> t = run.csv.values("t"), x = run.csv.values("x"),
                            y = run.csv.values("y"), xd = run.csv.values("x'"),
                            yd = run.csv.values("y'");
        REQUIRE(t.size() == 301);
        checkSampleTimes(t, 0.01, 3.0);
        double worst = 0;
        for (size_t i = 0; i < t.size(); ++i) {
          double s = t[i];
          // Scaled by the size of the value (y reaches about -5 m, y' -17 m/s).
          auto err = [](double a, double e) {
            return std::abs(a - e) / std::max(1.0, std::abs(e));
          };
          worst = std::max(worst, err(x[i], x0 + vx * s));
          worst = std::max(worst, err(y[i], y0 + vy * s - g * s * s / 2));
          worst = std::max(worst, err(xd[i], vx));
          worst = std::max(worst, err(yd[i], vy - g * s));
        }
        INFO(methodName(method) << ", " << form << ": projectile, largest error " << worst);
        CHECK(worst <= 1e-9);
        // The energy (T + V) is tracked and conserved.
        CHECK(run.summary.energyTracked);
        CHECK(run.summary.energyDrift <= 1e-10);
      }
    }
  }
}

TEST_CASE("simulate: the damped forced oscillator matches the exact solution", "[simulate]") {
  const double m = 2, k = 5, c = 0.3, F0 = 1.5, w = 1.7, x0 = 0.4, v0 = -0.3;
  ForcedOscillator exact(m, c, k, F0, w, x0, v0);
  for (runtime::Method method : {runtime::Method::Dopri5, runtime::Method::Dop853}) {
    for (const char *form : {"generalized", "force"}) {
      DYNAMIC_SECTION(methodName(method) << ", " << form) {
        const char *text =
            std::string(form) == "generalized" ? kOscillatorGeneralized : kOscillatorForce;
        Run run = simulateText(text, options(method, 20, 0.01, 1e-10, 1e-12));
        REQUIRE(run.summary.failure.empty());
        // Not conservative: the drift is not tracked.
        CHECK_FALSE(run.summary.energyTracked);
        CHECK(run.csv.join() == "t,x,x'");
        std::vector<double> t = run.csv.values("t"), x = run.csv.values("x"),
                            xd = run.csv.values("x'");
        REQUIRE(t.size() == 2001);
        checkSampleTimes(t, 0.01, 20.0);
        double worstX = 0, worstV = 0;
        for (size_t i = 0; i < t.size(); ++i) {
          worstX = std::max(worstX, std::abs(x[i] - exact.x(t[i])));
          worstV = std::max(worstV, std::abs(xd[i] - exact.v(t[i])));
        }
        INFO(methodName(method) << ", " << form << ": forced oscillator, largest error x " << worstX
                                << ", x' " << worstV);
        CHECK(worstX <= 1e-7);
        CHECK(worstV <= 1e-7);
        // The closed form itself starts from the model's initial state.
        CHECK(std::abs(exact.x(0) - x0) < 1e-15);
        CHECK(std::abs(exact.v(0) - v0) < 1e-15);
      }
    }
  }
}

TEST_CASE("simulate: the double pendulum conserves energy to 1e-8", "[simulate]") {
  std::string path = std::string(MECH_SOURCE_ROOT) + "/examples/double_pendulum.mech";
  // The parameters of examples/double_pendulum.mech.
  const double m1 = 1.0, m2 = 1.0, l1 = 1.0, l2 = 0.8, g = 9.81;
  auto energy = [&](double th1, double th2, double w1, double w2) {
    double T = m1 / 2 * l1 * l1 * w1 * w1 + m2 / 2 *
                                                (l1 * l1 * w1 * w1 + l2 * l2 * w2 * w2 +
                                                 2 * l1 * l2 * w1 * w2 * std::cos(th1 - th2));
    double V = -(m1 + m2) * g * l1 * std::cos(th1) - m2 * g * l2 * std::cos(th2);
    return T + V;
  };
  for (runtime::Method method : {runtime::Method::Dopri5, runtime::Method::Dop853}) {
    DYNAMIC_SECTION(methodName(method)) {
      {
        auto loaded = driver::loadModel(path, {}, test::Session::defaultSearchPath(), true);
        REQUIRE(loaded->analysis.model != nullptr);
        CHECK(loaded->paramValues() == std::vector<double>{m1, m2, l1, l2, g});
      }
      Run run = simulateFile(path, options(method, 10, 0.01, 1e-10, 1e-10));
      REQUIRE(run.summary.failure.empty());
      CHECK(run.csv.join() == "t,th1,th2,th1',th2'");
      std::vector<double> t = run.csv.values("t"), th1 = run.csv.values("th1"),
                          th2 = run.csv.values("th2"), w1 = run.csv.values("th1'"),
                          w2 = run.csv.values("th2'");
      REQUIRE(t.size() == 1001);
      checkSampleTimes(t, 0.01, 10.0);
      // The initial state of the example.
      CHECK(th1.front() == 0.5);
      CHECK(th2.front() == -0.3);
      CHECK(w1.front() == 0.0);
      CHECK(w2.front() == 0.0);
      double e0 = energy(th1[0], th2[0], w1[0], w2[0]);
      double drift = 0;
      for (size_t i = 0; i < t.size(); ++i)
        drift = std::max(drift, std::abs(energy(th1[i], th2[i], w1[i], w2[i]) - e0) / std::abs(e0));
      // It does move: th2 swings well past its start.
      double th2Range =
          *std::max_element(th2.begin(), th2.end()) - *std::min_element(th2.begin(), th2.end());
      CHECK(th2Range > 0.5);
      INFO(methodName(method) << ": double pendulum, summary drift " << run.summary.energyDrift
                              << ", drift from the CSV " << drift << ", "
                              << run.summary.stats.accepted << " steps");
      REQUIRE(run.summary.energyTracked);
      CHECK(run.summary.energyDrift < 1e-8);
      CHECK(drift < 1e-8);
      // Both measure the same thing on the same samples.
      CHECK(std::abs(run.summary.energyDrift - drift) <= 1e-12);
    }
  }
}

TEST_CASE("simulate: a mass matrix that becomes singular stops the run", "[simulate]") {
  const double m = 1, F = 2, a = 1, x0 = 0.2;
  const double tStar = std::sqrt(2 * m * (a - x0) / F); // x reaches a
  for (runtime::Method method : {runtime::Method::Dopri5, runtime::Method::Dop853}) {
    DYNAMIC_SECTION(methodName(method)) {
      const double dt = 0.01;
      Run run = simulateText(kVanishingInertia, options(method, 2, dt, 1e-10, 1e-12));
      INFO(run.summary.failure);
      CHECK(run.summary.failure.find("singular") != std::string::npos);
      // When it names the coordinate without inertia, that is the rotor.
      if (run.summary.failure.find("coordinate") != std::string::npos)
        CHECK(run.summary.failure.find("'phi'") != std::string::npos);
      std::optional<double> when = timeInMessage(run.summary.failure);
      REQUIRE(when.has_value());
      INFO(methodName(method) << ": \"" << run.summary.failure
                              << "\", t* = " << std::setprecision(10) << tStar << ", error "
                              << std::abs(*when - tStar));
      // The message has six significant digits: 0.894427.
      CHECK(std::abs(*when - tStar) <= 1e-6);

      // The samples up to the failure are kept, and they are right.
      std::vector<double> t = run.csv.values("t"), x = run.csv.values("x"),
                          phi = run.csv.values("phi"), phid = run.csv.values("phi'"),
                          xd = run.csv.values("x'");
      REQUIRE_FALSE(t.empty());
      checkSampleTimes(t, dt);
      CHECK(t.back() <= tStar);
      CHECK(t.back() > tStar - dt);
      CHECK(t.size() == static_cast<size_t>(std::floor(tStar / dt)) + 1);
      double worst = 0;
      for (size_t i = 0; i < t.size(); ++i) {
        worst = std::max(worst, std::abs(x[i] - (x0 + F * t[i] * t[i] / (2 * m))));
        worst = std::max(worst, std::abs(xd[i] - F * t[i] / m));
        worst = std::max(worst, std::abs(phi[i]) + std::abs(phid[i]));
      }
      CHECK(worst <= 1e-9);
    }
  }
}

TEST_CASE("simulate: a solution that blows up stops near the blow-up time", "[simulate]") {
  const double x0 = 4;
  const double tStar = std::sqrt(6 / x0); // x(t) = 6 / (t* - t)^2
  // The initial velocity written in the model is 12 / t*^3.
  REQUIRE(std::abs(12 / (tStar * tStar * tStar) - 6.531972647421808) < 1e-14);
  for (runtime::Method method : {runtime::Method::Dopri5, runtime::Method::Dop853}) {
    DYNAMIC_SECTION(methodName(method)) {
      const double dt = 0.01;
      Run run = simulateText(kBlowUp, options(method, 3, dt, 1e-10, 1e-12));
      INFO(run.summary.failure);
      REQUIRE_FALSE(run.summary.failure.empty());
      std::optional<double> when = timeInMessage(run.summary.failure);
      REQUIRE(when.has_value());
      INFO(methodName(method) << ": \"" << run.summary.failure << "\", t* = "
                              << std::setprecision(17) << tStar << ", error " << *when - tStar);
      CHECK(std::abs(*when - tStar) <= 1e-6);

      std::vector<double> t = run.csv.values("t"), x = run.csv.values("x"),
                          xd = run.csv.values("x'");
      REQUIRE_FALSE(t.empty());
      checkSampleTimes(t, dt);
      CHECK(t.back() <= tStar);
      CHECK(t.back() > tStar - dt);
      double worst = 0;
      for (size_t i = 0; i < t.size(); ++i) {
        double left = tStar - t[i];
        worst = std::max(worst, std::abs(x[i] - 6 / (left * left)) / (6 / (left * left)));
        worst = std::max(worst,
                         std::abs(xd[i] - 12 / (left * left * left)) / (12 / (left * left * left)));
      }
      INFO(methodName(method) << ": blow-up, largest relative error of the samples " << worst
                              << " (last sample at t = " << t.back() << ", x = " << x.back()
                              << ")");
      CHECK(worst <= 1e-6);
    }
  }
}
