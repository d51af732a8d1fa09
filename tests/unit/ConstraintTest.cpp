// Lagrange's equations of the first kind: models with holonomic,
// nonholonomic and time-dependent constraints, evaluated at single states
// (mechanics::Evaluator) and integrated end to end (driver::simulate, with
// the projection onto the constraints after each step). Every expected
// number is a closed form worked out by hand in the comments below, never
// a number mech printed.
//
// Sign convention (LANGUAGE.md §5): Phi := lhs - rhs, C = dPhi/dq (or the
// velocity coefficients of a nonholonomic psi), and
//   M q'' = f + C^T lambda,   C q'' = gamma,
// so C^T lambda is the generalized reaction of the constraints.
#include "MechanicsTestSupport.h"
#include "TrajectorySupport.h"

#include "driver/Pipeline.h"
#include "driver/Simulation.h"
#include "mechanics/Evaluation.h"
#include "runtime/Integrator.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

using namespace mech;
using test::near;

namespace {

// ---------------------------------------------------------------------------
// Plumbing: a model file, loading it, running it, reading its CSV.

using ConstraintModelFile = test::TemporaryModelFile;

std::string messagesOf(driver::LoadedModel &loaded) {
  std::ostringstream out;
  loaded.diagnostics().print(out);
  return out.str();
}

// Loads, checks and derives model text; all of it must succeed.
std::unique_ptr<driver::LoadedModel> loadText(const std::string &text,
                                              const std::vector<std::string> &settings = {}) {
  ConstraintModelFile file(text);
  auto loaded = driver::loadModel(file.path(), settings, test::Session::defaultSearchPath(), true);
  REQUIRE(loaded);
  INFO(text << "\n" << messagesOf(*loaded));
  REQUIRE(loaded->analysis.model != nullptr);
  REQUIRE(loaded->derivation.has_value());
  REQUIRE_FALSE(loaded->diagnostics().hasErrors());
  return loaded;
}

using Trajectory = test::Csv;

struct RunResult {
  driver::SimulationSummary summary;
  Trajectory csv;
};

driver::SimulationOptions runOptions(double tEnd, double dt, double rtol = 1e-10,
                                     double atol = 1e-12,
                                     runtime::Method method = runtime::Method::Dop853) {
  driver::SimulationOptions o;
  o.integrator.method = method;
  o.integrator.t0 = 0;
  o.integrator.tEnd = tEnd;
  o.integrator.dt = dt;
  o.integrator.rtol = rtol;
  o.integrator.atol = atol;
  o.integrator.step = 0; // automatic first step
  o.useCache = false;
  o.projection = true;
  return o;
}

// Runs a loaded model; the run must start and finish.
RunResult run(driver::LoadedModel &loaded, const driver::SimulationOptions &options) {
  std::ostringstream csv;
  std::optional<driver::SimulationSummary> summary = driver::simulate(loaded, options, 0.0, csv);
  INFO(messagesOf(loaded));
  REQUIRE(summary.has_value());
  INFO("failure: " << summary->failure);
  REQUIRE(summary->failure.empty());
  // The JIT compiled the kernels when it was asked for.
  CHECK(summary->backendNote.empty());
  RunResult result;
  result.summary = *summary;
  result.csv = test::parseCsv(csv.str());
  CHECK(result.csv.rows.size() == summary->samples);
  return result;
}

std::string exact(double value) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  return buffer;
}

const char *backendName(driver::Backend backend) {
  return backend == driver::Backend::Jit ? "jit" : "interpreter";
}

// Evaluates at a state where the first-kind equations are regular.
mechanics::Evaluation evaluateAt(driver::LoadedModel &loaded, const mechanics::State &s) {
  mechanics::Evaluator evaluator(loaded.equations(), loaded.paramValues());
  return test::evaluate(evaluator, s);
}

// The largest |a - b| over a sequence, and where.
struct Worst {
  double error = 0;
  double at = 0;
  void add(double actual, double expected, double t) {
    double e = std::abs(actual - expected);
    if (!(e <= error)) { // NaN counts as the worst
      error = e;
      at = t;
    }
  }
};

// ---------------------------------------------------------------------------
// Models.

// LANGUAGE.md §6's pendulum with other numbers; Phi = x^2 + y^2 - l^2.
constexpr const char *kCartesianPendulum = R"(
model CartesianPendulum {
  param m = 0.7 [kg], l = 1.3 [m], g = 9.81 [m/s^2]
  coord x [m], y [m]
  particle bob mass m at [x, y]
  gravity [0, -g]
  constraint rod: x^2 + y^2 == l^2
  output tension = -2 * l * rod
}
)";

// The same with the sides of the constraint swapped: Phi = l^2 - x^2 - y^2.
constexpr const char *kCartesianPendulumFlipped = R"(
model CartesianPendulumFlipped {
  param m = 0.7 [kg], l = 1.3 [m], g = 9.81 [m/s^2]
  coord x [m], y [m]
  particle bob mass m at [x, y]
  gravity [0, -g]
  constraint rod: l^2 == x^2 + y^2
  output tension = 2 * l * rod
}
)";

constexpr const char *kAnglePendulum = R"(
model AnglePendulum {
  param m = 0.7 [kg], l = 1.3 [m], g = 9.81 [m/s^2]
  coord th [rad]
  particle bob mass m at l * [sin(th), -cos(th)]
  gravity [0, -g]
}
)";

// A uniform disk (inertia m r^2/2) rolling without slipping down an incline
// of angle alpha; s is the distance travelled down the slope, phi the
// rolling angle (the disk turns clockwise, hence angle -phi).
constexpr const char *kRollingDisk = R"(
model RollingDisk {
  param m = 2 [kg], r = 0.3 [m], g = 9.81 [m/s^2], alpha = 0.4 [rad]
  coord s [m], phi [rad]
  body disk mass m at s * [cos(alpha), -sin(alpha)] angle -phi inertia m*r^2/2
  gravity [0, -g]
  constraint roll: s - r*phi == 0
  init s = 0.1, phi = 0.1 [m] / r, s' = 0.5, phi' = 0.5 [m/s] / r
}
)";

// A bead on a hoop of radius R turning about the vertical z axis at the
// prescribed rate w: the bead's Cartesian position, on the sphere of radius
// R and in the vertical plane through the z axis and (cos wt, sin wt, 0).
constexpr const char *kHoop = R"(
model RotatingHoopCartesian {
  param m = 0.3 [kg], R = 0.5 [m], w = 6 [1/s], g = 9.81 [m/s^2]
  coord x [m], y [m], z [m]
  particle bead mass m at [x, y, z]
  gravity [0, 0, -g]
  constraint sphere: x^2 + y^2 + z^2 == R^2
  constraint plane: -x*sin(w*t) + y*cos(w*t) == 0
}
)";

// A massive slider x tied by a constraint to a massless one u that carries
// the spring.
constexpr const char *kMasslessSlider = R"(
model MasslessSlider {
  param m = 0.8 [kg], k = 5 [N/m]
  coord x [m], u [m]
  kinetic T = m/2 * x'^2
  potential V = k/2 * u^2
  constraint link: u - x == 0
  init x = 0.3, u = 0.3, x' = 0.2, u' = 0.2
}
)";

} // namespace

// ---------------------------------------------------------------------------
// 1. The Cartesian pendulum at single states.
//
// With the angle phi from the downward vertical: x = l sin phi,
// y = -l cos phi, x' = l cos phi phi', y' = l sin phi phi'. The angle obeys
// phi'' = -(g/l) sin phi, so
//   x'' = l cos phi phi'' - l sin phi phi'^2 = -g sin phi cos phi - l sin phi phi'^2
//   y'' = l sin phi phi'' + l cos phi phi'^2 = -g sin^2 phi    + l cos phi phi'^2.
// The rod pulls the bob towards the pivot with the tension S:
//   m a = (0, -m g) - S (x, y)/l;   radially (along -(x, y)/l):
//   m l phi'^2 = S - m g cos phi,  i.e.  S = m g cos phi + m l phi'^2.
// Phi = x^2 + y^2 - l^2 gives C = (2x, 2y) and the reaction C^T lambda =
// 2 lambda (x, y) = -S (x, y)/l, so S = -2 l lambda. Swapping the sides of the
// constraint negates Phi and C, hence lambda, while C^T lambda and q'' stay.
TEST_CASE("Cartesian pendulum: tension, reaction and multiplier sign at states on the rod",
          "[constraints]") {
  auto loaded = loadText(kCartesianPendulum);
  auto flipped = loadText(kCartesianPendulumFlipped);
  const double m = 0.7, l = 1.3, g = 9.81;
  REQUIRE(loaded->equations().constraints.size() == 1);
  CHECK(loaded->equations().constraints[0].name == "rod");

  struct Sample {
    double phi, rate;
  };
  const Sample samples[] = {{0, 0},
                            {0.4, 1.7},
                            {-1.1, -2.3},
                            {2.0, 3.5},
                            {3.0, 4.2},
                            {-0.2, 0},
                            {1.5707963267948966, -1}};
  double worst = 0;
  for (const Sample &sample : samples) {
    double phi = sample.phi, w = sample.rate;
    double x = l * std::sin(phi), y = -l * std::cos(phi);
    double xd = l * std::cos(phi) * w, yd = l * std::sin(phi) * w;
    double tension = m * g * std::cos(phi) + m * l * w * w;
    double lambda = -tension / (2 * l);
    double xdd = -g * std::sin(phi) * std::cos(phi) - l * std::sin(phi) * w * w;
    double ydd = -g * std::sin(phi) * std::sin(phi) + l * std::cos(phi) * w * w;
    // Typical sizes, for the comparisons near zero.
    double forceScale = m * g + m * l * w * w, accScale = g + l * w * w;
    INFO("phi = " << phi << ", phi' = " << w);

    mechanics::State s = test::state({x, y}, {xd, yd});
    mechanics::Evaluation e = evaluateAt(*loaded, s);
    REQUIRE(e.lambda.size() == 1);
    REQUIRE(e.reaction.size() == 2);
    REQUIRE(e.outputs.size() == 1);
    MECH_CHECK_NEAR(e.outputs[0], tension, 1e-12, forceScale);
    MECH_CHECK_NEAR(-2 * l * e.lambda[0], tension, 1e-12, forceScale);
    MECH_CHECK_NEAR(e.lambda[0], lambda, 1e-12, forceScale / l);
    MECH_CHECK_NEAR(e.reaction[0], 2 * lambda * x, 1e-12, forceScale);
    MECH_CHECK_NEAR(e.reaction[1], 2 * lambda * y, 1e-12, forceScale);
    MECH_CHECK_NEAR((*e.qdd)[0], xdd, 1e-12, accScale);
    MECH_CHECK_NEAR((*e.qdd)[1], ydd, 1e-12, accScale);
    REQUIRE(e.constraintResiduals.size() == 1);
    CHECK(std::abs(e.constraintResiduals[0]) < 1e-14 * l * l);
    worst =
        std::max({worst, std::abs(e.outputs[0] - tension) / forceScale,
                  std::abs((*e.qdd)[0] - xdd) / accScale, std::abs((*e.qdd)[1] - ydd) / accScale});

    // The flipped constraint: lambda changes sign, nothing physical does.
    mechanics::Evaluation f = evaluateAt(*flipped, s);
    REQUIRE(f.lambda.size() == 1);
    MECH_CHECK_NEAR(f.lambda[0], -lambda, 1e-12, forceScale / l);
    MECH_CHECK_NEAR(f.outputs[0], tension, 1e-12, forceScale);
    MECH_CHECK_NEAR(f.reaction[0], 2 * lambda * x, 1e-12, forceScale);
    MECH_CHECK_NEAR(f.reaction[1], 2 * lambda * y, 1e-12, forceScale);
    MECH_CHECK_NEAR((*f.qdd)[0], xdd, 1e-12, accScale);
    MECH_CHECK_NEAR((*f.qdd)[1], ydd, 1e-12, accScale);
  }
  INFO("largest relative error of tension/q'' over the states: " << worst);
  CHECK(worst < 1e-12);
}

// ---------------------------------------------------------------------------
// 2. The Cartesian pendulum integrated against the same pendulum in its
// angle: from x0 = l sin th0, y0 = -l cos th0, x0' = l cos th0 th0',
// y0' = l sin th0 th0', the trajectories must agree, x(t) = l sin th(t),
// y(t) = -l cos th(t), and the rod tension (see test 1) must be
// m g cos th + m l th'^2 along the angle trajectory.
TEST_CASE("Cartesian pendulum follows the angle pendulum, with the rod kept by projection",
          "[constraints]") {
  const double m = 0.7, l = 1.3, g = 9.81;
  const double th0 = 1.2, rate0 = 0.8; // a large swing
  auto cartesian = loadText(kCartesianPendulum);
  auto angle = loadText(kAnglePendulum);

  driver::SimulationOptions options = runOptions(10, 0.01);
  options.start.init = "x = " + exact(l * std::sin(th0)) + ", y = " + exact(-l * std::cos(th0)) +
                       ", x' = " + exact(l * std::cos(th0) * rate0) +
                       ", y' = " + exact(l * std::sin(th0) * rate0);
  options.start.strictInit = true; // the state is on the constraints already
  RunResult c = run(*cartesian, options);
  options.start.init = "th = " + exact(th0) + ", th' = " + exact(rate0);
  RunResult a = run(*angle, options);

  REQUIRE(c.csv.rows.size() == 1001);
  REQUIRE(a.csv.rows.size() == c.csv.rows.size());
  auto t = c.csv["t"], x = c.csv["x"], y = c.csv["y"], xd = c.csv["x'"], yd = c.csv["y'"];
  auto tension = c.csv["tension"], rod = c.csv["rod"];
  auto ta = a.csv["t"], th = a.csv["th"], thd = a.csv["th'"];
  Worst position, velocity, force, multiplier;
  for (size_t i = 0; i < t.size(); ++i) {
    REQUIRE(t[i] == ta[i]);
    position.add(x[i], l * std::sin(th[i]), t[i]);
    position.add(y[i], -l * std::cos(th[i]), t[i]);
    velocity.add(xd[i], l * std::cos(th[i]) * thd[i], t[i]);
    velocity.add(yd[i], l * std::sin(th[i]) * thd[i], t[i]);
    double S = m * g * std::cos(th[i]) + m * l * thd[i] * thd[i];
    force.add(tension[i], S, t[i]);
    multiplier.add(rod[i], -S / (2 * l), t[i]);
  }
  INFO("max position error " << position.error << " at t = " << position.at);
  INFO("max velocity error " << velocity.error << " at t = " << velocity.at);
  INFO("max tension error " << force.error << " N at t = " << force.at);
  INFO("max multiplier error " << multiplier.error << " at t = " << multiplier.at);
  INFO("constraint residual " << c.summary.constraintResidual << ", energy drift "
                              << c.summary.energyDrift << " (angle model: " << a.summary.energyDrift
                              << ")");
  CHECK(position.error < 1e-8);
  CHECK(velocity.error < 1e-7);
  CHECK(force.error < 1e-6);
  CHECK(multiplier.error < 1e-6);
  CHECK(c.summary.constrained);
  CHECK(c.summary.notes.empty());
  // The issue's requirement; with the projection after every step the
  // residual at the samples is the drift within one step.
  CHECK(c.summary.constraintResidual < 1e-10);
  CHECK(c.summary.energyTracked);
  CHECK(c.summary.energyDrift < 1e-9);
}

// ---------------------------------------------------------------------------
// 3. A disk rolling down an incline.
//
// T = m/2 s'^2 + (m r^2/2)/2 phi'^2, V = -m g sin(alpha) s, Phi = s - r phi,
// C = (1, -r). The first-kind equations:
//   m s''           = m g sin(alpha) + lambda
//   (m r^2/2) phi'' = -r lambda
//   s'' - r phi''   = 0.
// The second gives phi'' = -2 lambda/(m r), the third s'' = -2 lambda/m, the
// first then -2 lambda = m g sin(alpha) + lambda, so
//   lambda = -m g sin(alpha)/3   (friction, acting up the slope),
//   s''    = (2/3) g sin(alpha), phi'' = s''/r,
// and from s0, v0: s(t) = s0 + v0 t + g sin(alpha) t^2/3, phi = s/r.
TEST_CASE("Disk rolling down an incline: friction multiplier and acceleration", "[constraints]") {
  const double m = 2, r = 0.3, g = 9.81, alpha = 0.4;
  const double lambda = -m * g * std::sin(alpha) / 3, acc = 2 * g * std::sin(alpha) / 3;
  auto loaded = loadText(kRollingDisk);

  SECTION("at a state") {
    mechanics::Evaluation e = evaluateAt(*loaded, test::state({0.7, 0.7 / r}, {1.1, 1.1 / r}));
    REQUIRE(e.lambda.size() == 1);
    MECH_CHECK_NEAR(e.lambda[0], lambda, 1e-12, 0);
    MECH_CHECK_NEAR((*e.qdd)[0], acc, 1e-12, 0);
    MECH_CHECK_NEAR((*e.qdd)[1], acc / r, 1e-12, 0);
    MECH_CHECK_NEAR(e.reaction[0], lambda, 1e-12, 0);
    MECH_CHECK_NEAR(e.reaction[1], -r * lambda, 1e-12, 0);
  }

  for (driver::Backend backend : {driver::Backend::Interpreter, driver::Backend::Jit}) {
    DYNAMIC_SECTION("simulated, " << backendName(backend)) {
      driver::SimulationOptions options = runOptions(2, 0.01);
      options.backend = backend;
      RunResult result = run(*loaded, options);
      const double s0 = 0.1, v0 = 0.5;
      auto t = result.csv["t"], s = result.csv["s"], phi = result.csv["phi"], sd = result.csv["s'"],
           roll = result.csv["roll"];
      Worst position, angle, speed, multiplier;
      for (size_t i = 0; i < t.size(); ++i) {
        double sExpected = s0 + v0 * t[i] + g * std::sin(alpha) * t[i] * t[i] / 3;
        position.add(s[i], sExpected, t[i]);
        angle.add(phi[i], sExpected / r, t[i]);
        speed.add(sd[i], v0 + acc * t[i], t[i]);
        multiplier.add(roll[i], lambda, t[i]);
      }
      INFO("max errors: s " << position.error << ", phi " << angle.error << ", s' " << speed.error
                            << ", roll " << multiplier.error << "; constraint residual "
                            << result.summary.constraintResidual << ", energy drift "
                            << result.summary.energyDrift);
      CHECK(t.back() == 2.0);
      CHECK(position.error < 1e-10);
      CHECK(angle.error < 1e-9);
      CHECK(speed.error < 1e-10);
      CHECK(multiplier.error < 1e-10);
      CHECK(result.summary.constraintResidual < 1e-10);
      CHECK(result.summary.energyDrift < 1e-9);
    }
  }
}

// ---------------------------------------------------------------------------
// 4. The knife edge (examples/knife_edge.mech), here with m = 2, F = 3.
//
// T = m/2 (x'^2 + y'^2) + J/2 phi'^2; the force F (cos phi, sin phi) at
// (x, y) gives Q = (F cos phi, F sin phi, 0); psi = x' sin phi - y' cos phi,
// C = (sin phi, -cos phi, 0). The first-kind equations:
//   m x'' = F cos phi + lambda sin phi
//   m y'' = F sin phi - lambda cos phi
//   J phi'' = 0.
// So phi' stays 1 and phi = t. With the heading e = (cos phi, sin phi) and
// its left normal e_perp = (-sin phi, cos phi) = -n, n = (sin phi, -cos phi):
// psi = 0 means the velocity is v e, and the acceleration is
// v' e + v phi' e_perp. Along e: m v' = F (n is normal to e), v = F t/m from
// rest. Along n: m (a . n) = lambda, and a . n = -v phi', so
//   lambda = -m v phi'   (= -F t here),
// the reaction lambda n = m v phi' e_perp: the sideways force of magnitude
// m v phi' points to the left of the heading, towards the centre of the turn.
// Integrating x' = v cos t, y' = v sin t from the origin:
//   x = (F/m)(cos t + t sin t - 1),  y = (F/m)(sin t - t cos t).
TEST_CASE("Knife edge: closed-form trajectory and sideways force", "[constraints]") {
  const double m = 2, F = 3;
  auto loaded = test::loadExample("knife_edge.mech", {"m = 2, F = 3"});
  REQUIRE(loaded->equations().constraints.size() == 1);
  CHECK_FALSE(loaded->equations().constraints[0].holonomic);

  SECTION("at a state") {
    const double phi = 0.7, v = 2, rate = 1.3;
    mechanics::Evaluation e = evaluateAt(
        *loaded, test::state({0.4, -0.2, phi}, {v * std::cos(phi), v * std::sin(phi), rate}));
    double lambda = -m * v * rate;
    REQUIRE(e.lambda.size() == 1);
    MECH_CHECK_NEAR(e.lambda[0], lambda, 1e-12, 0);
    MECH_CHECK_NEAR(e.reaction[0], lambda * std::sin(phi), 1e-12, 0);
    MECH_CHECK_NEAR(e.reaction[1], -lambda * std::cos(phi), 1e-12, 0);
    MECH_CHECK_NEAR(e.reaction[2], 0, 1e-12, std::abs(lambda));
    double acc = F / m + v * rate; // scale of q''
    MECH_CHECK_NEAR((*e.qdd)[0], F / m * std::cos(phi) - v * rate * std::sin(phi), 1e-12, acc);
    MECH_CHECK_NEAR((*e.qdd)[1], F / m * std::sin(phi) + v * rate * std::cos(phi), 1e-12, acc);
    MECH_CHECK_NEAR((*e.qdd)[2], 0, 1e-12, acc);
  }

  for (driver::Backend backend : {driver::Backend::Jit, driver::Backend::Interpreter}) {
    DYNAMIC_SECTION("simulated, " << backendName(backend)) {
      driver::SimulationOptions options = runOptions(10, 0.05);
      options.backend = backend;
      options.start.strictInit = true; // phi' = 1 from rest satisfies psi = 0
      RunResult result = run(*loaded, options);
      auto t = result.csv["t"], x = result.csv["x"], y = result.csv["y"], phi = result.csv["phi"],
           xd = result.csv["x'"], yd = result.csv["y'"], phid = result.csv["phi'"],
           lambda = result.csv["sideways"];
      REQUIRE(t.size() == 201);
      Worst position, velocity, heading, multiplier;
      for (size_t i = 0; i < t.size(); ++i) {
        double s = t[i], v = F * s / m;
        position.add(x[i], F / m * (std::cos(s) + s * std::sin(s) - 1), s);
        position.add(y[i], F / m * (std::sin(s) - s * std::cos(s)), s);
        velocity.add(xd[i], v * std::cos(s), s);
        velocity.add(yd[i], v * std::sin(s), s);
        heading.add(phi[i], s, s);
        heading.add(phid[i], 1, s);
        multiplier.add(lambda[i], -m * v * 1.0, s);
      }
      INFO("max errors: position "
           << position.error << " (t = " << position.at << "), velocity " << velocity.error
           << ", heading " << heading.error << ", multiplier " << multiplier.error
           << "; constraint residual " << result.summary.constraintResidual);
      CHECK(position.error < 1e-8);
      CHECK(velocity.error < 1e-8);
      CHECK(heading.error < 1e-10);
      CHECK(multiplier.error < 1e-8);
      CHECK(result.summary.constrained);
      CHECK(result.summary.constraintResidual < 1e-10);
      CHECK_FALSE(result.summary.energyTracked); // F does work
    }
  }
}

// ---------------------------------------------------------------------------
// 5. A bead on a rotating hoop, with a constraint that moves with time.
//
// In the hoop's plane the bead is at R (sin th cos wt, sin th sin wt, -cos th)
// with th from the downward vertical; the equation of relative motion is
// th'' = sin th (w^2 cos th - g/R), so cos th* = g/(w^2 R) (w^2 R = 18 > g)
// is a relative equilibrium: the bead circles at height -R cos th* with
// radius rho = R sin th* and angular rate w. Forces there:
// m (-w^2 rho e_r) = (0, 0, -m g) + 2 lambda_s (x, y, z) + lambda_p n(t),
// n = (-sin wt, cos wt, 0). Along n: lambda_p = 0; along z:
// 0 = -m g - 2 lambda_s R cos th*, i.e. lambda_s = -m g/(2 R cos th*) =
// -m w^2/2; horizontally: -m w^2 rho = 2 lambda_s rho, the same.
//
// From any other start, the Jacobi integral of the relative motion,
// h = m/2 R^2 th'^2 - m/2 w^2 rho^2 - m g R cos th, is conserved. In the
// Cartesian state, the velocity is the relative one (in the hoop's plane)
// plus w rho along the azimuth, so |v|^2 = R^2 th'^2 + w^2 rho^2 and
//   h = m/2 |v|^2 - m w^2 (x^2 + y^2) + m g z.
TEST_CASE("Bead on a rotating hoop: relative equilibrium with a time-dependent constraint",
          "[constraints]") {
  const double m = 0.3, R = 0.5, w = 6, g = 9.81;
  const double thStar = std::acos(g / (w * w * R)), rho = R * std::sin(thStar);
  auto loaded = loadText(kHoop);
  CHECK_FALSE(loaded->equations().conservative); // the moving constraint does work

  SECTION("multipliers at the equilibrium, at a time other than 0") {
    const double t = 0.37;
    mechanics::State s =
        test::state({rho * std::cos(w * t), rho * std::sin(w * t), -R * std::cos(thStar)},
                    {-w * rho * std::sin(w * t), w * rho * std::cos(w * t), 0}, t);
    mechanics::Evaluation e = evaluateAt(*loaded, s);
    REQUIRE(e.lambda.size() == 2);
    MECH_CHECK_NEAR(e.lambda[0], -m * w * w / 2, 1e-12, 0);
    MECH_CHECK_NEAR(e.lambda[1], 0, 1e-12, m * w * w * R);
    // q'' = the centripetal acceleration -w^2 (x, y, 0).
    MECH_CHECK_NEAR((*e.qdd)[0], -w * w * s.q[0], 1e-12, w * w * rho);
    MECH_CHECK_NEAR((*e.qdd)[1], -w * w * s.q[1], 1e-12, w * w * rho);
    MECH_CHECK_NEAR((*e.qdd)[2], 0, 1e-12, w * w * rho);
  }

  for (driver::Backend backend : {driver::Backend::Jit, driver::Backend::Interpreter}) {
    DYNAMIC_SECTION("the equilibrium held for 3 s, " << backendName(backend)) {
      driver::SimulationOptions options = runOptions(3, 0.01);
      options.backend = backend;
      // At t = 0 the hoop is the x-z plane; the velocity is w e_z x r.
      options.start.init = "x = " + exact(rho) + ", y = 0, z = " + exact(-R * std::cos(thStar)) +
                           ", x' = 0, y' = " + exact(w * rho) + ", z' = 0";
      options.start.strictInit = true;
      RunResult result = run(*loaded, options);
      auto t = result.csv["t"], x = result.csv["x"], y = result.csv["y"], z = result.csv["z"],
           sphere = result.csv["sphere"], plane = result.csv["plane"];
      Worst angle, azimuth, multiplier;
      for (size_t i = 0; i < t.size(); ++i) {
        double radius = std::hypot(x[i], y[i]);
        angle.add(std::atan2(radius, -z[i]), thStar, t[i]);
        azimuth.add(x[i], rho * std::cos(w * t[i]), t[i]);
        azimuth.add(y[i], rho * std::sin(w * t[i]), t[i]);
        multiplier.add(sphere[i], -m * w * w / 2, t[i]);
        multiplier.add(plane[i], 0, t[i]);
      }
      INFO("max errors: angle " << angle.error << " rad (t = " << angle.at << "), x/y "
                                << azimuth.error << ", multipliers " << multiplier.error
                                << "; constraint residual " << result.summary.constraintResidual);
      CHECK(angle.error < 1e-8);
      CHECK(azimuth.error < 1e-8);
      CHECK(multiplier.error < 1e-7);
      CHECK(result.summary.constraintResidual < 1e-10);
      CHECK_FALSE(result.summary.energyTracked);
    }
  }

  SECTION("away from the equilibrium the Jacobi integral of the relative motion is conserved") {
    const double th0 = 0.5, rate0 = 1.5;
    driver::SimulationOptions options = runOptions(3, 0.01);
    options.start.init =
        "x = " + exact(R * std::sin(th0)) + ", y = 0, z = " + exact(-R * std::cos(th0)) +
        ", x' = " + exact(R * std::cos(th0) * rate0) + ", y' = " + exact(w * R * std::sin(th0)) +
        ", z' = " + exact(R * std::sin(th0) * rate0);
    options.start.strictInit = true;
    RunResult result = run(*loaded, options);
    auto t = result.csv["t"], x = result.csv["x"], y = result.csv["y"], z = result.csv["z"],
         xd = result.csv["x'"], yd = result.csv["y'"], zd = result.csv["z'"];
    auto jacobi = [&](size_t i) {
      return m / 2 * (xd[i] * xd[i] + yd[i] * yd[i] + zd[i] * zd[i]) -
             m * w * w * (x[i] * x[i] + y[i] * y[i]) + m * g * z[i];
    };
    const double h0 = m / 2 * R * R * rate0 * rate0 -
                      m / 2 * w * w * R * R * std::sin(th0) * std::sin(th0) -
                      m * g * R * std::cos(th0);
    Worst drift, plane;
    double largestAngle = 0;
    for (size_t i = 0; i < t.size(); ++i) {
      drift.add(jacobi(i), h0, t[i]);
      // The bead stays in the hoop's plane.
      plane.add(-x[i] * std::sin(w * t[i]) + y[i] * std::cos(w * t[i]), 0, t[i]);
      largestAngle = std::max(largestAngle, std::atan2(std::hypot(x[i], y[i]), -z[i]));
    }
    INFO("h0 = " << h0 << " J; max |h - h0| " << drift.error << " J (t = " << drift.at
                 << "), max plane residual " << plane.error << ", largest angle " << largestAngle
                 << "; constraint residual " << result.summary.constraintResidual);
    CHECK(drift.error < 1e-9 * std::abs(h0));
    CHECK(plane.error < 1e-10);
    CHECK(largestAngle > th0 + 0.1); // it did move
    CHECK(result.summary.constraintResidual < 1e-10);
  }
}

// ---------------------------------------------------------------------------
// 6. Constraints that cannot hold, and initial states off the constraints.
TEST_CASE("Redundant constraints are solved and named, and an inconsistent init is projected or "
          "refused",
          "[constraints]") {
  SECTION("the same rod twice") {
    // Phi_2 = 2 Phi_1: the rows (2x, 2y) and (4x, 4y) of C are dependent.
    // The motion is the simple pendulum's and the reaction the rod's; one of
    // the two rows carries it, and the run says they are redundant.
    auto loaded = loadText(R"(
model TwoRods {
  param m = 1 [kg], l = 1 [m], g = 9.81 [m/s^2]
  coord x [m], y [m]
  particle bob mass m at [x, y]
  gravity [0, -g]
  constraint rod: x^2 + y^2 == l^2
  constraint again: 2*x^2 + 2*y^2 == 2*l^2
  init x = 0.6, y = -0.8
}
)");
    RunResult result = run(*loaded, runOptions(1, 0.01));
    REQUIRE(result.summary.failure.empty());
    std::string notes;
    for (const std::string &note : result.summary.notes)
      notes += note + "\n";
    INFO(notes);
    CHECK(notes.find("'rod' and 'again' are redundant") != std::string::npos);
    CHECK(result.summary.constraintResidual < 1e-10);

    // At rest at (0.6, -0.8): q'' = (-0.48 g, -0.36 g), tangent to the
    // circle, and M q'' - f = (-0.48 g, 0.64 g) = (lambda_rod + 2
    // lambda_again) (1.2, -1.6): lambda_rod + 2 lambda_again = -0.4 g. The
    // pivoted factorization takes the larger row, 'again', first and finds
    // 'rod' dependent: lambda = (0, -0.2 g).
    const double g = 9.81;
    mechanics::Evaluator evaluator(loaded->equations(), loaded->paramValues());
    Diagnostics diagnostics;
    auto e = evaluator.at(test::state({0.6, -0.8}, {0, 0}), diagnostics);
    REQUIRE(e);
    REQUIRE(e->qdd);
    MECH_CHECK_NEAR((*e->qdd)[0], -0.48 * g, 1e-12, 1);
    MECH_CHECK_NEAR((*e->qdd)[1], -0.36 * g, 1e-12, 1);
    CHECK(e->lambda[0] == 0);
    MECH_CHECK_NEAR(e->lambda[1], -0.2 * g, 1e-12, 1);
  }

  // With init x = 0.6 only, y defaults to 0 and Phi = 0.36 - 1 != 0. The
  // position given (x) is kept; y = -0.8 is the root the projection finds
  // going downhill from y = 0 (y = +0.8 would be the inverted pendulum).
  const char *partialInit = R"(
model PartialInit {
  param m = 1 [kg], l = 1 [m], g = 9.81 [m/s^2]
  coord x [m], y [m]
  particle bob mass m at [x, y]
  gravity [0, -g]
  constraint rod: x^2 + y^2 == l^2
  init x = 0.6
  output tension = -2 * l * rod
}
)";

  SECTION("init x = 0.6 alone is projected to y = -0.8") {
    auto loaded = loadText(partialInit);
    RunResult result = run(*loaded, runOptions(0.5, 0.05));
    REQUIRE_FALSE(result.csv.rows.empty());
    const auto &first = result.csv.rows.front();
    CHECK(first[result.csv.column("x")] == 0.6);
    MECH_CHECK_NEAR(first[result.csv.column("y")], -0.8, 1e-12, 1);
    CHECK(std::abs(first[result.csv.column("x'")]) < 1e-14);
    CHECK(std::abs(first[result.csv.column("y'")]) < 1e-14);
    // At rest at phi with cos phi = 0.8: tension m g cos phi (test 1).
    MECH_CHECK_NEAR(first[result.csv.column("tension")], 9.81 * 0.8, 1e-12, 0);
    std::string notes;
    for (const std::string &note : result.summary.notes)
      notes += note + "\n";
    INFO("notes: " << notes);
    REQUIRE(result.summary.notes.size() == 1);
    const std::string &note = result.summary.notes[0];
    CHECK(note.find("projected") != std::string::npos);
    CHECK(note.find("y = -0.8 (was 0)") != std::string::npos);
    CHECK(note.find("x =") == std::string::npos); // x was kept
    CHECK(result.summary.constraintResidual < 1e-10);
  }

  SECTION("the velocities are projected too, keeping the one --init gives") {
    // After the positions, (x, y) = (0.6, -0.8); psi = 2 (x x' + y y') must
    // vanish. x' = 0.5 is given by --init and stays (docs/cli.md: the
    // coordinates --init sets stay fixed), so y' = -x x' / y = 0.375.
    auto loaded = loadText(partialInit);
    driver::SimulationOptions options = runOptions(0.5, 0.05);
    options.start.init = "x' = 0.5";
    RunResult result = run(*loaded, options);
    const auto &first = result.csv.rows.front();
    CHECK(first[result.csv.column("x")] == 0.6);
    MECH_CHECK_NEAR(first[result.csv.column("y")], -0.8, 1e-12, 1);
    CHECK(first[result.csv.column("x'")] == 0.5);
    MECH_CHECK_NEAR(first[result.csv.column("y'")], 0.375, 1e-12, 1);
    REQUIRE(result.summary.notes.size() == 1);
    INFO("note: " << result.summary.notes[0]);
    CHECK(result.summary.notes[0].find("y = -0.8 (was 0)") != std::string::npos);
    CHECK(result.summary.notes[0].find("x' =") == std::string::npos);
    CHECK(result.summary.notes[0].find("y' = 0.375 (was 0)") != std::string::npos);
  }

  SECTION("velocities nobody gave move by the smallest change") {
    // Both velocities given and in conflict with psi = 0: neither can be
    // kept alone without moving the other, so the fallback is the smallest
    // change of (x', y') = (0.5, 0.5) in the metric of M = I: remove the
    // component along nhat = (0.6, -0.8), (0.5, 0.5) - (-0.1) (0.6, -0.8)
    // = (0.56, 0.42); psi = 0.6 * 0.56 - 0.8 * 0.42 = 0.
    auto loaded = loadText(partialInit);
    driver::SimulationOptions options = runOptions(0.5, 0.05);
    options.start.init = "x = 0.6, y = -0.8, x' = 0.5, y' = 0.5";
    RunResult result = run(*loaded, options);
    const auto &first = result.csv.rows.front();
    INFO("notes: " << (result.summary.notes.empty() ? "" : result.summary.notes[0]));
    MECH_CHECK_NEAR(first[result.csv.column("x'")], 0.56, 1e-12, 1);
    MECH_CHECK_NEAR(first[result.csv.column("y'")], 0.42, 1e-12, 1);
  }

  SECTION("with strictInit the same init is an error") {
    auto loaded = loadText(partialInit);
    driver::SimulationOptions options = runOptions(0.5, 0.05);
    options.start.strictInit = true;
    std::ostringstream csv;
    std::optional<driver::SimulationSummary> summary = driver::simulate(*loaded, options, 0.0, csv);
    std::string text = messagesOf(*loaded);
    INFO(text);
    CHECK_FALSE(summary.has_value());
    CHECK(loaded->diagnostics().hasErrors());
    CHECK(text.find("violates the constraints") != std::string::npos);
    CHECK(text.find("0.64") != std::string::npos); // |Phi| = |0.36 - 1|
  }
}

// ---------------------------------------------------------------------------
// 7. A massless slider: M = diag(m, 0) is singular, the KKT matrix
// [[M, C^T], [C, 0]] with C = (-1, 1) is not.
//
// Phi = u - x. The equations: m x'' = -lambda, 0 u'' = -k u + lambda,
// u'' = x''. So lambda = k u = k x (the spring force carried through the
// link) and m x'' = -k x: x = x0 cos(w t) + v0/w sin(w t), w = sqrt(k/m).
TEST_CASE("Massless slider: singular mass matrix, regular first-kind equations", "[constraints]") {
  const double m = 0.8, k = 5, x0 = 0.3, v0 = 0.2, w = std::sqrt(k / m);
  auto loaded = loadText(kMasslessSlider);

  SECTION("at a state") {
    mechanics::Evaluation e = evaluateAt(*loaded, test::state({-0.45, -0.45}, {1.2, 1.2}));
    REQUIRE(e.lambda.size() == 1);
    MECH_CHECK_NEAR(e.lambda[0], k * -0.45, 1e-12, 0);
    MECH_CHECK_NEAR((*e.qdd)[0], -k / m * -0.45, 1e-12, 0);
    MECH_CHECK_NEAR((*e.qdd)[1], -k / m * -0.45, 1e-12, 0);
    MECH_CHECK_NEAR(e.reaction[0], k * 0.45, 1e-12, 0);
    MECH_CHECK_NEAR(e.reaction[1], -k * 0.45, 1e-12, 0);
  }

  for (driver::Backend backend : {driver::Backend::Interpreter, driver::Backend::Jit}) {
    DYNAMIC_SECTION("simulated, " << backendName(backend)) {
      driver::SimulationOptions options = runOptions(5, 0.01);
      options.backend = backend;
      options.start.strictInit = true;
      RunResult result = run(*loaded, options);
      auto t = result.csv["t"], x = result.csv["x"], u = result.csv["u"], xd = result.csv["x'"],
           ud = result.csv["u'"], link = result.csv["link"];
      Worst position, velocity, multiplier;
      for (size_t i = 0; i < t.size(); ++i) {
        double c = std::cos(w * t[i]), s = std::sin(w * t[i]);
        double xe = x0 * c + v0 / w * s, ve = -x0 * w * s + v0 * c;
        position.add(x[i], xe, t[i]);
        position.add(u[i], xe, t[i]);
        velocity.add(xd[i], ve, t[i]);
        velocity.add(ud[i], ve, t[i]);
        multiplier.add(link[i], k * xe, t[i]);
      }
      INFO("max errors: position " << position.error << ", velocity " << velocity.error
                                   << ", multiplier " << multiplier.error
                                   << "; constraint residual " << result.summary.constraintResidual
                                   << ", energy drift " << result.summary.energyDrift);
      CHECK(t.back() == 5.0);
      CHECK(position.error < 1e-9);
      CHECK(velocity.error < 1e-9);
      CHECK(multiplier.error < 1e-8);
      CHECK(result.summary.constraintResidual < 1e-10);
      CHECK(result.summary.energyDrift < 1e-9);
    }
  }
}
