// Statics by virtual work (mechanics::solveStatics, `mech solve`): the
// params that balance a configuration, checked against closed forms worked
// out by hand in the comments (never numbers mech printed). Sign convention:
// M q'' = f + C^T lambda, so at rest f + C^T lambda = 0 and C^T lambda is
// the generalized reaction of the supports.
#include "MechanicsTestSupport.h"

#include "mechanics/Statics.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

using namespace mech;
using mechanics::StaticsSolution;

namespace {

struct Solved {
  std::optional<StaticsSolution> solution;
  std::string messages;
};

// Solves `model` at q for the named params (start values: the defaults).
Solved solve(test::DerivedModel &dm, std::vector<double> q, const std::vector<std::string> &names,
             double t = 0) {
  mechanics::StaticsProblem problem;
  problem.params = dm.params();
  std::vector<std::string> paramNames;
  for (const sema::Param &p : dm.model().params)
    paramNames.push_back(p.name);
  for (const std::string &name : names) {
    auto found = std::find(paramNames.begin(), paramNames.end(), name);
    REQUIRE(found != paramNames.end());
    problem.unknowns.push_back(static_cast<size_t>(found - paramNames.begin()));
  }
  problem.state = test::state(q, std::vector<double>(q.size(), 0.0), t);
  Diagnostics diagnostics;
  Solved result;
  result.solution = mechanics::solveStatics(dm.equations(), dm.derivation->lowering->params(),
                                            paramNames, problem, diagnostics);
  std::ostringstream out;
  diagnostics.print(out);
  result.messages = out.str();
  return result;
}

StaticsSolution solved(test::DerivedModel &dm, std::vector<double> q,
                       const std::vector<std::string> &names) {
  Solved s = solve(dm, std::move(q), names);
  INFO(s.messages);
  REQUIRE(s.solution.has_value());
  return *s.solution;
}

// The slider-crank with the slider position as a let: one coordinate.
constexpr const char *kSliderCrank = R"(
model SliderCrank {
  param r = 0.1 [m], l = 0.4 [m], P = 1000 [N], M = 0 [N*m], mc = 2 [kg], ms = 1.5 [kg]
  coord phi [rad]
  let x = r * cos(phi) + sqrt(l^2 - r^2 * sin(phi)^2)
  body crank mass mc at r/2 * [cos(phi), sin(phi)] angle phi inertia mc*r^2/12
  particle slider mass ms at [x, 0]
  force [-P, 0] at [x, 0]
  torque M on phi
}
)";

// The same with the slider position x as a coordinate, tied to phi by the
// connecting rod: Phi = (x - r cos phi)^2 + (r sin phi)^2 - l^2.
constexpr const char *kSliderCrankConstrained = R"(
model SliderCrankConstrained {
  param r = 0.1 [m], l = 0.4 [m], P = 1000 [N], M = 0 [N*m], mc = 2 [kg], ms = 1.5 [kg]
  coord phi [rad], x [m]
  body crank mass mc at r/2 * [cos(phi), sin(phi)] angle phi inertia mc*r^2/12
  particle slider mass ms at [x, 0]
  constraint rod: (x - r*cos(phi))^2 + (r*sin(phi))^2 == l^2
  force [-P, 0] at [x, 0]
  torque M on phi
}
)";

// Virtual work: M dphi - P dx = 0 with dx/dphi = -r sin(phi + beta)/cos(beta),
// sin(beta) = r sin(phi)/l.
double balancingCouple(double P, double r, double l, double phi) {
  double beta = std::asin(r * std::sin(phi) / l);
  return -P * r * std::sin(phi + beta) / std::cos(beta);
}

constexpr const char *kHeldPendulum = R"(
model HeldPendulum {
  param m = 0.8 [kg], l = 1.2 [m], g = 9.81 [m/s^2], F = 0 [N], G = 0 [N]
  coord phi [rad]
  let bob = l * [sin(phi), -cos(phi)]
  particle b mass m at bob
  gravity [0, -g]
  force [F, 0] at bob
  force [G, 0] at bob
}
)";

constexpr const char *kHeldDoublePendulum = R"(
model HeldDoublePendulum {
  param m1 = 1.1 [kg], m2 = 0.7 [kg], l1 = 1.0 [m], l2 = 0.8 [m], g = 9.81 [m/s^2]
  param F1 = 0 [N], F2 = 0 [N]
  coord th1 [rad], th2 [rad]
  let p1 = l1 * [sin(th1), -cos(th1)]
  let p2 = p1 + l2 * [sin(th2), -cos(th2)]
  particle b1 mass m1 at p1
  particle b2 mass m2 at p2
  gravity [0, -g]
  force [F1, 0] at p1
  force [F2, 0] at p2
}
)";

// Two equal links of length l from a fixed pivot to the knee and from the
// knee to the ram, both at alpha to the horizontal; P presses the knee down,
// the workpiece pushes back on the ram with F.
constexpr const char *kTogglePress = R"(
model TogglePress {
  param l = 0.3 [m], P = 200 [N], F = 0 [N], m = 0.5 [kg]
  coord alpha [rad]
  let knee = l * [cos(alpha), sin(alpha)]
  let ram = [2*l*cos(alpha), 0]
  particle k mass m at knee
  particle ramMass mass m at ram
  force [0, -P] at knee
  force [-F, 0] at ram
}
)";

} // namespace

TEST_CASE("solve balances a slider-crank with a couple on the crank", "[solve]") {
  auto dm = test::derive(kSliderCrank);
  for (double phi : {0.3, 1.0, 2.0, -0.7, 2.9}) {
    StaticsSolution s = solved(*dm, {phi}, {"M"});
    INFO("phi = " << phi);
    MECH_CHECK_NEAR(s.values[0], balancingCouple(1000, 0.1, 0.4, phi), 1e-12, 1.0);
    CHECK(s.determined == StaticsSolution::Determined::Exactly);
    CHECK(s.balanced);
    CHECK(s.residual <= 1e-9);
    CHECK(s.converged);
    CHECK(s.lambda.empty());
  }
}

TEST_CASE("solve finds the slider force a given couple holds", "[solve]") {
  // P enters f linearly: P = M / (dx/dphi)... = -M cos(beta) / (r sin(phi + beta)).
  auto dm = test::derive(kSliderCrank, test::overrides({{"M", -50.0}}));
  double phi = 1.0, beta = std::asin(0.1 * std::sin(phi) / 0.4);
  StaticsSolution s = solved(*dm, {phi}, {"P"});
  MECH_CHECK_NEAR(s.values[0], 50 * std::cos(beta) / (0.1 * std::sin(phi + beta)), 1e-12, 1.0);
}

TEST_CASE("solve gives the connecting-rod reaction of a constrained slider-crank", "[solve]") {
  auto dm = test::derive(kSliderCrankConstrained);
  double r = 0.1, l = 0.4, P = 1000;
  for (double phi : {0.3, 1.0, 2.0}) {
    double beta = std::asin(r * std::sin(phi) / l);
    double x = r * std::cos(phi) + l * std::cos(beta);
    StaticsSolution s = solved(*dm, {phi, x}, {"M"});
    INFO("phi = " << phi);
    MECH_CHECK_NEAR(s.values[0], balancingCouple(P, r, l, phi), 1e-10, 1.0);
    CHECK(s.determined == StaticsSolution::Determined::Exactly);
    CHECK(s.equations == 1);
    REQUIRE(s.lambda.size() == 1);
    // On x: -P + 2 (x - r cos phi) lambda = 0, so lambda = P / (2 l cos beta);
    // the rod is in compression with the force 2 l lambda = P / cos(beta).
    MECH_CHECK_NEAR(s.lambda[0], P / (2 * l * std::cos(beta)), 1e-10, 1.0);
    MECH_CHECK_NEAR(s.reaction[1], P, 1e-10, 1.0);
  }
}

TEST_CASE("solve refuses a configuration off the constraints", "[solve]") {
  auto dm = test::derive(kSliderCrankConstrained);
  Solved s = solve(*dm, {0.3, 0.1}, {"M"});
  CHECK_FALSE(s.solution.has_value());
  CHECK(s.messages.find("not on constraint 'rod'") != std::string::npos);
}

TEST_CASE("solve refuses an unknown that moves a constraint", "[solve]") {
  auto dm = test::derive(kSliderCrankConstrained);
  double x = 0.1 * std::cos(0.3) + std::sqrt(0.16 - 0.01 * std::sin(0.3) * std::sin(0.3));
  Solved s = solve(*dm, {0.3, x}, {"l"});
  CHECK_FALSE(s.solution.has_value());
  CHECK(s.messages.find("param 'l' appears in constraint 'rod'") != std::string::npos);
}

TEST_CASE("solve holds a pendulum out with a horizontal force", "[solve]") {
  // -m g l sin(phi) + F l cos(phi) = 0: F = m g tan(phi).
  auto dm = test::derive(kHeldPendulum);
  for (double phi : {0.2, 0.9, -1.3}) {
    StaticsSolution s = solved(*dm, {phi}, {"F"});
    MECH_CHECK_NEAR(s.values[0], 0.8 * 9.81 * std::tan(phi), 1e-12, 1.0);
    CHECK(s.determined == StaticsSolution::Determined::Exactly);
  }
}

TEST_CASE("solve finds two forces that hold a double pendulum", "[solve]") {
  // Lower link: F2 = m2 g tan(th2); both links: F1 + F2 = (m1 + m2) g tan(th1).
  auto dm = test::derive(kHeldDoublePendulum);
  double th1 = 0.4, th2 = 0.9, g = 9.81;
  StaticsSolution s = solved(*dm, {th1, th2}, {"F1", "F2"});
  CHECK(s.determined == StaticsSolution::Determined::Exactly);
  CHECK(s.rank == 2);
  MECH_CHECK_NEAR(s.values[1], 0.7 * g * std::tan(th2), 1e-12, 1.0);
  MECH_CHECK_NEAR(s.values[0], 1.8 * g * std::tan(th1) - 0.7 * g * std::tan(th2), 1e-12, 1.0);
}

TEST_CASE("solve reports an under-determined question with its free direction", "[solve]") {
  // F and G act alike: only F + G = m g tan(phi) is fixed. The minimum-norm
  // solution splits it evenly; (1, -1)/sqrt(2) is free.
  auto dm = test::derive(kHeldPendulum);
  double phi = 0.5, total = 0.8 * 9.81 * std::tan(phi);
  StaticsSolution s = solved(*dm, {phi}, {"F", "G"});
  CHECK(s.determined == StaticsSolution::Determined::Under);
  CHECK(s.balanced);
  CHECK(s.rank == 1);
  MECH_CHECK_NEAR(s.values[0], total / 2, 1e-12, 1.0);
  MECH_CHECK_NEAR(s.values[1], total / 2, 1e-12, 1.0);
  REQUIRE(s.freeDirections.size() == 1);
  MECH_CHECK_NEAR(std::abs(s.freeDirections[0][0]), std::sqrt(0.5), 1e-12, 1.0);
  MECH_CHECK_NEAR(s.freeDirections[0][0] + s.freeDirections[0][1], 0, 1e-12, 1.0);
}

TEST_CASE("solve reports an over-determined question with its least-squares residual", "[solve]") {
  // One force F2 on the lower bob, two conditions:
  //   Q1 = l1 cos(th1) F2 - (m1 + m2) g l1 sin(th1)
  //   Q2 = l2 cos(th2) F2 - m2 g l2 sin(th2)
  // Least squares: F2 = sum(a_i b_i) / sum(a_i^2), residual |a F2 - b|.
  auto dm = test::derive(kHeldDoublePendulum);
  double th1 = 0.4, th2 = 0.9, g = 9.81, l1 = 1.0, l2 = 0.8;
  double a1 = l1 * std::cos(th1), b1 = 1.8 * g * l1 * std::sin(th1);
  double a2 = l2 * std::cos(th2), b2 = 0.7 * g * l2 * std::sin(th2);
  double F = (a1 * b1 + a2 * b2) / (a1 * a1 + a2 * a2);
  StaticsSolution s = solved(*dm, {th1, th2}, {"F2"});
  CHECK(s.determined == StaticsSolution::Determined::Over);
  CHECK_FALSE(s.balanced);
  MECH_CHECK_NEAR(s.values[0], F, 1e-12, 1.0);
  MECH_CHECK_NEAR(s.residual, std::hypot(a1 * F - b1, a2 * F - b2), 1e-10, 1.0);
}

TEST_CASE("solve gives the press force of a toggle press", "[solve]") {
  // Virtual work with knee y = l sin(alpha), ram x = 2 l cos(alpha):
  // -P l cos(alpha) + 2 F l sin(alpha) = 0, so F = P / (2 tan(alpha)).
  auto dm = test::derive(kTogglePress);
  for (double alpha : {0.05, 0.3, 1.0}) {
    StaticsSolution s = solved(*dm, {alpha}, {"F"});
    MECH_CHECK_NEAR(s.values[0], 200 / (2 * std::tan(alpha)), 1e-12, 1.0);
  }
}

TEST_CASE("solve works on the slider-crank and toggle press examples", "[solve]") {
  for (const char *name : {"slider_crank.mech", "toggle_press.mech"}) {
    auto loaded = test::loadExample(name);
    std::vector<std::string> paramNames;
    for (const sema::Param &p : loaded->model().params)
      paramNames.push_back(p.name);
    std::string unknown = std::string(name) == "slider_crank.mech" ? "M" : "F";
    mechanics::StaticsProblem problem;
    problem.params = loaded->paramValues();
    problem.unknowns.push_back(static_cast<size_t>(
        std::find(paramNames.begin(), paramNames.end(), unknown) - paramNames.begin()));
    std::optional<mechanics::State> state = driver::parseState(*loaded, "");
    REQUIRE(state);
    problem.state = *state;
    Diagnostics diagnostics;
    auto s = mechanics::solveStatics(loaded->equations(), loaded->derivation->lowering->params(),
                                     paramNames, problem, diagnostics);
    REQUIRE(s);
    CHECK(s->balanced);
    CHECK(s->determined == StaticsSolution::Determined::Exactly);
  }
}

TEST_CASE("solve handles an unknown that enters the forces nonlinearly", "[solve]") {
  // A force of fixed size F at the direction a holds the pendulum:
  // F l cos(a - phi) = m g l sin(phi), so cos(a - phi) = m g sin(phi) / F
  // (two roots; Newton finds one of them from the default a).
  auto dm = test::derive(R"(
model AimedForce {
  param m = 0.8 [kg], l = 1.2 [m], g = 9.81 [m/s^2], F = 20 [N], a = 0.3 [rad]
  coord phi [rad]
  let bob = l * [sin(phi), -cos(phi)]
  particle b mass m at bob
  gravity [0, -g]
  force F * [cos(a), sin(a)] at bob
}
)");
  double phi = 0.5;
  StaticsSolution s = solved(*dm, {phi}, {"a"});
  CHECK(s.converged);
  CHECK(s.balanced);
  CHECK(s.determined == StaticsSolution::Determined::Exactly);
  MECH_CHECK_NEAR(std::cos(s.values[0] - phi), 0.8 * 9.81 * std::sin(phi) / 20, 1e-10, 1.0);
}

TEST_CASE("solve leaves an unknown that does not act on the balance at its value", "[solve]") {
  // The slider's mass does not enter f at rest (no gravity): only the
  // couple balances P, and ms is free and keeps its value 1.5.
  auto dm = test::derive(kSliderCrank);
  StaticsSolution s = solved(*dm, {1.0}, {"M", "ms"});
  CHECK(s.determined == StaticsSolution::Determined::Under);
  CHECK(s.balanced);
  MECH_CHECK_NEAR(s.values[0], balancingCouple(1000, 0.1, 0.4, 1.0), 1e-12, 1.0);
  CHECK(s.values[1] == 1.5);
  REQUIRE(s.inert.size() == 1);
  CHECK(s.inert[0] == 1);
}
