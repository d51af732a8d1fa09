// Equilibria, their stability and small oscillations (mechanics::
// findEquilibria, `mech equilibria`), checked against closed forms worked
// out by hand in the comments, never against numbers mech printed.
#include "MechanicsTestSupport.h"

#include "mechanics/Equilibria.h"
#include "mechanics/Linearization.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

using namespace mech;
using mechanics::Equilibrium;
using test::kPi;

namespace {

std::vector<Equilibrium> equilibria(const mechanics::Linearizer &linearizer,
                                    mechanics::Box box = {}) {
  mechanics::EquilibriaOptions options;
  options.box = box.lo.empty() ? mechanics::defaultBox(linearizer.equations()) : box;
  Diagnostics diagnostics;
  auto found = mechanics::findEquilibria(linearizer, options, diagnostics);
  std::ostringstream messages;
  diagnostics.print(messages);
  INFO(messages.str());
  REQUIRE(found.has_value());
  return *found;
}

// The equilibrium at q (angles compared modulo 2 pi), which must exist.
const Equilibrium &at(const std::vector<Equilibrium> &found, std::vector<double> q) {
  for (const Equilibrium &e : found) {
    bool same = true;
    for (size_t j = 0; j < q.size(); ++j)
      same = same && std::abs(std::remainder(e.q[j] - q[j], 2 * kPi)) < 1e-7;
    if (same)
      return e;
  }
  FAIL("no equilibrium at the expected point");
  return found.front();
}

// A uniform rod (mass M, length a) pivoting about one end:
// W = -M g a/2 cos(phi), so W''(0) = M g a/2 and W''(pi) = -M g a/2, and
// with I = M a^2/3 the small oscillations have omega^2 = (M g a/2)/I = 3g/(2a).
constexpr const char *kRod = R"(
model Rod {
  param M = 2 [kg], a = 0.6 [m], g = 9.81 [m/s^2]
  coord phi [rad]
  body rod mass M at a/2 * [sin(phi), -cos(phi)] angle phi inertia M*a^2/12
  gravity [0, -g]
}
)";

// The same rod with viscous damping c at the pivot: I phi'' + c phi' +
// (M g a/2) phi = 0, damping ratio zeta = c / (2 sqrt(I M g a/2)).
constexpr const char *kDampedRod = R"(
model DampedRod {
  param M = 2 [kg], a = 0.6 [m], g = 9.81 [m/s^2], c = 0.5 [N*m*s]
  coord phi [rad]
  body rod mass M at a/2 * [sin(phi), -cos(phi)] angle phi inertia M*a^2/12
  gravity [0, -g]
  dissipation D = c/2 * phi'^2
}
)";

// A spring along x and a free wheel th (cyclic): x = 0 with th arbitrary.
constexpr const char *kCyclic = R"(
model Cyclic {
  param m = 1 [kg], k = 4 [N/m], J = 0.5 [kg*m^2]
  coord x [m], th [rad]
  kinetic T = m/2 * x'^2 + J/2 * th'^2
  potential V = k/2 * x^2
}
)";

} // namespace

TEST_CASE("rod pivoting about one end: bottom stable, top unstable", "[equilibria]") {
  auto dm = test::derive(kRod);
  mechanics::Linearizer linearizer(dm->equations(), dm->params());
  auto found = equilibria(linearizer);
  REQUIRE(found.size() == 2);
  double M = 2, a = 0.6, g = 9.81;
  const Equilibrium &bottom = at(found, {0});
  CHECK(bottom.stable == true);
  CHECK(bottom.criterion.find("Lagrange-Dirichlet") != std::string::npos);
  REQUIRE(bottom.hessianEigenvalues.size() == 1);
  CHECK(bottom.hessianEigenvalues[0] == Approx(M * g * a / 2).epsilon(1e-10));
  REQUIRE(bottom.frequencies.size() == 1);
  CHECK(bottom.frequencies[0] == Approx(std::sqrt(3 * g / (2 * a))).epsilon(1e-10));
  CHECK(bottom.modes[0][0] == 1.0);
  const Equilibrium &top = at(found, {kPi});
  CHECK(top.q[0] == Approx(kPi)); // pi rather than -pi in [-pi, pi]
  CHECK(top.stable == false);
  CHECK(top.hessianEigenvalues[0] == Approx(-M * g * a / 2).epsilon(1e-10));
  CHECK(top.frequencies.empty());
}

TEST_CASE("damped rod: damping ratio and eigenvalues of A", "[equilibria]") {
  auto dm = test::derive(kDampedRod);
  mechanics::Linearizer linearizer(dm->equations(), dm->params());
  auto found = equilibria(linearizer);
  REQUIRE(found.size() == 2);
  double M = 2, a = 0.6, g = 9.81, c = 0.5, I = M * a * a / 3, k = M * g * a / 2;
  const Equilibrium &bottom = at(found, {0});
  CHECK(bottom.stable == true);
  REQUIRE(bottom.dampingRatios.size() == 1);
  CHECK(bottom.dampingRatios[0] == Approx(c / (2 * std::sqrt(I * k))).epsilon(1e-9));
  REQUIRE(bottom.eigenvalues.size() == 2);
  for (auto lambda : bottom.eigenvalues) {
    CHECK(lambda.real() == Approx(-c / (2 * I)).epsilon(1e-9));
    CHECK(std::abs(lambda.imag()) == Approx(std::sqrt(k / I - c * c / (4 * I * I))).epsilon(1e-9));
  }
  // The top: a negative W'' with damping; the eigenvalues of A decide.
  const Equilibrium &top = at(found, {kPi});
  CHECK(top.stable == false);
  CHECK(top.criterion.find("linearized") != std::string::npos);
}

TEST_CASE("double pendulum: four equilibria and the normal modes at the bottom", "[equilibria]") {
  auto loaded = test::loadExample("double_pendulum.mech");
  mechanics::Linearizer linearizer(loaded->equations(), loaded->paramValues());
  auto found = equilibria(linearizer);
  REQUIRE(found.size() == 4);
  const Equilibrium &bottom = at(found, {0, 0});
  CHECK(bottom.stable == true);
  CHECK(at(found, {0, kPi}).stable == false);
  CHECK(at(found, {kPi, 0}).stable == false);
  CHECK(at(found, {kPi, kPi}).stable == false);
  // M = [[(m1+m2) l1^2, m2 l1 l2], [m2 l1 l2, m2 l2^2]], K = diag((m1+m2) g l1,
  // m2 g l2): det(K - w^2 M) = 0 is (ac - b^2) w^4 - (a k2 + c k1) w^2 + k1 k2 = 0.
  double m1 = 1, m2 = 1, l1 = 1, l2 = 0.8, g = 9.81;
  double A = (m1 + m2) * l1 * l1, B = m2 * l1 * l2, C = m2 * l2 * l2;
  double k1 = (m1 + m2) * g * l1, k2 = m2 * g * l2;
  double p = A * C - B * B, q = A * k2 + C * k1, r = k1 * k2;
  double disc = std::sqrt(q * q - 4 * p * r);
  REQUIRE(bottom.frequencies.size() == 2);
  CHECK(bottom.frequencies[0] == Approx(std::sqrt((q - disc) / (2 * p))).epsilon(1e-10));
  CHECK(bottom.frequencies[1] == Approx(std::sqrt((q + disc) / (2 * p))).epsilon(1e-10));
  // The slow mode swings both rods the same way, the fast one against.
  CHECK(bottom.modes[0][0] * bottom.modes[0][1] > 0);
  CHECK(bottom.modes[1][0] * bottom.modes[1][1] < 0);
  // Mode shapes solve (K - w^2 M) v = 0: the first row gives v2/v1.
  for (size_t k = 0; k < 2; ++k) {
    double w2 = bottom.frequencies[k] * bottom.frequencies[k];
    const auto &v = bottom.modes[k];
    CHECK((k1 - w2 * A) * v[0] - w2 * B * v[1] == Approx(0).margin(1e-8));
    CHECK(std::max(std::abs(v[0]), std::abs(v[1])) == Approx(1.0));
  }
}

TEST_CASE("Cartesian pendulum: reduced Hessian with the multiplier term", "[equilibria]") {
  auto loaded = test::loadExample("cartesian_pendulum.mech");
  mechanics::Linearizer linearizer(loaded->equations(), loaded->paramValues());
  auto found = equilibria(linearizer);
  REQUIRE(found.size() == 2);
  double m = 1, l = 1, g = 9.81;
  // Bottom: f = (0, -m g), C = (0, -2l), so lambda = -m g/(2l); W = m g y has
  // no curvature, -lambda Hess(Phi) = (m g/l) I, on the tangent x: m g/l.
  const Equilibrium &bottom = at(found, {0, -l});
  CHECK(bottom.stable == true);
  REQUIRE(bottom.lambda.size() == 1);
  CHECK(bottom.lambda[0] == Approx(-m * g / (2 * l)).epsilon(1e-10));
  REQUIRE(bottom.hessianEigenvalues.size() == 1);
  CHECK(bottom.hessianEigenvalues[0] == Approx(m * g / l).epsilon(1e-10));
  REQUIRE(bottom.frequencies.size() == 1);
  CHECK(bottom.frequencies[0] == Approx(std::sqrt(g / l)).epsilon(1e-10));
  CHECK(std::abs(bottom.modes[0][0]) == Approx(1.0)); // along x
  CHECK(bottom.modes[0][1] == Approx(0).margin(1e-10));
  const Equilibrium &top = at(found, {0, l});
  CHECK(top.stable == false);
  CHECK(top.hessianEigenvalues[0] == Approx(-m * g / l).epsilon(1e-10));
}

TEST_CASE("bead on a spinning hoop: bifurcation at w^2 R = g", "[equilibria]") {
  double m = 0.3, R = 0.5, g = 9.81;
  SECTION("fast: w^2 R > g, side equilibria stable") {
    auto dm = test::derive(test::models::kRotatingHoop);
    // t cancels in L through sin^2 + cos^2: no --time needed.
    CHECK_FALSE(mechanics::dependsOnTime(dm->equations()));
    mechanics::Linearizer linearizer(dm->equations(), dm->params());
    auto found = equilibria(linearizer);
    double W = 6, c = g / (W * W * R), side = std::acos(c);
    REQUIRE(found.size() == 4);
    CHECK(at(found, {0}).stable == false);
    CHECK(at(found, {kPi}).stable == false);
    // W_eff = -m g R cos th - m/2 R^2 W^2 sin^2 th; at cos th = c:
    // W'' = m R^2 W^2 (1 - c^2), omega^2 = W^2 (1 - c^2).
    for (double th : {side, -side}) {
      const Equilibrium &e = at(found, {th});
      CHECK(e.stable == true);
      CHECK(e.hessianEigenvalues[0] == Approx(m * R * R * W * W * (1 - c * c)).epsilon(1e-9));
      CHECK(e.frequencies[0] == Approx(W * std::sqrt(1 - c * c)).epsilon(1e-9));
    }
    CHECK(at(found, {0}).hessianEigenvalues[0] ==
          Approx(m * g * R - m * R * R * W * W).epsilon(1e-9));
  }
  SECTION("slow: w^2 R < g, bottom stable") {
    auto dm = test::derive(test::models::kRotatingHoop, test::overrides({{"W", 2}}));
    mechanics::Linearizer linearizer(dm->equations(), dm->params());
    auto found = equilibria(linearizer);
    double W = 2;
    REQUIRE(found.size() == 2);
    const Equilibrium &bottom = at(found, {0});
    CHECK(bottom.stable == true);
    CHECK(bottom.frequencies[0] == Approx(std::sqrt(g / R - W * W)).epsilon(1e-9));
    CHECK(at(found, {kPi}).stable == false);
  }
}

TEST_CASE("cyclic coordinate: one family, not a cloud of points", "[equilibria]") {
  auto dm = test::derive(kCyclic);
  mechanics::Linearizer linearizer(dm->equations(), dm->params());
  auto found = equilibria(linearizer);
  REQUIRE(found.size() == 1);
  CHECK(found[0].q[0] == Approx(0).margin(1e-10));
  CHECK_FALSE(found[0].arbitrary[0]);
  CHECK(found[0].arbitrary[1]);
  // Across the family x is a spring: stable, omega = sqrt(k/m).
  CHECK(found[0].stable == true);
  REQUIRE(found[0].frequencies.size() == 1);
  CHECK(found[0].frequencies[0] == Approx(2.0).epsilon(1e-10));
}

TEST_CASE("search box and explicit time", "[equilibria]") {
  auto dm = test::derive(kRod);
  mechanics::Linearizer linearizer(dm->equations(), dm->params());
  mechanics::Box box{{-1}, {1}};
  auto found = equilibria(linearizer, box);
  REQUIRE(found.size() == 1);
  CHECK(found[0].q[0] == Approx(0).margin(1e-12));
  auto driven = test::loadExample("driven_rod.mech");
  CHECK(mechanics::dependsOnTime(driven->equations()));
}

TEST_CASE("linearization matrices of the double pendulum at the bottom", "[equilibria]") {
  auto loaded = test::loadExample("double_pendulum.mech");
  mechanics::Linearizer linearizer(loaded->equations(), loaded->paramValues());
  mechanics::LinearSample s = linearizer.at(test::state({0, 0}, {0, 0}));
  double l1 = 1, l2 = 0.8, g = 9.81;
  CHECK(s.M[0][0] == Approx(2 * l1 * l1));
  CHECK(s.M[0][1] == Approx(l1 * l2));
  CHECK(s.K[0][0] == Approx(2 * g * l1));
  CHECK(s.K[1][1] == Approx(g * l2));
  CHECK(s.K[0][1] == Approx(0).margin(1e-12));
  CHECK(s.D[0][0] == Approx(0).margin(1e-12));
  mechanics::Matrix A = mechanics::stateMatrix(s.M, s.K, s.D);
  REQUIRE(A.size() == 4);
  CHECK(A[0][2] == 1.0);
  // -M^-1 K, first row: M^-1 = [[c, -b], [-b, a]]/det.
  double a = 2 * l1 * l1, b = l1 * l2, c = l2 * l2, det = a * c - b * b;
  CHECK(A[2][0] == Approx(-c * 2 * g * l1 / det));
  CHECK(A[2][1] == Approx(b * g * l2 / det));
}

TEST_CASE("flat minimum: W = k x^4 decided by the higher derivatives", "[equilibria]") {
  // W'' = 12 k x^2 vanishes at 0 but is positive on both sides: a minimum.
  auto dm = test::derive(R"(
model Quartic {
  param m = 1 [kg], k = 2 [N/m^3]
  coord x [m]
  kinetic T = m/2 * x'^2
  potential V = k * x^4
}
)");
  mechanics::Linearizer linearizer(dm->equations(), dm->params());
  auto found = equilibria(linearizer);
  REQUIRE(found.size() == 1);
  CHECK(found[0].q[0] == Approx(0).margin(1e-8));
  CHECK(found[0].stable == true);
  CHECK(found[0].criterion.find("higher derivatives") != std::string::npos);
}

// A particle held by springs k1 (along x) and k2 (along y) of a frame turning
// at the rate w, in the frame's coordinates: T1 = m w (x y' - y x'),
// T0 = m w^2 (x^2 + y^2)/2, so W = (k1 - m w^2) x^2/2 + (k2 - m w^2) y^2/2.
// With m = 1, a = k1 - w^2, b = k2 - w^2 the characteristic equation of the
// linearized system is s^4 + (a + b + 4 w^2) s^2 + a b = 0.
constexpr const char *kRotatingSprings = R"(
model RotatingSprings {
  param m = 1 [kg], k1 = 1 [N/m], k2 = 2 [N/m], w = 3 [1/s]
  coord x [m], y [m]
  particle p mass m at [x*cos(w*t) - y*sin(w*t), x*sin(w*t) + y*cos(w*t)]
  potential V = k1/2*x^2 + k2/2*y^2
}
)";

TEST_CASE("gyroscopic terms: the linearized system decides", "[equilibria]") {
  SECTION("both W eigenvalues negative, gyroscopically stabilized") {
    auto dm = test::derive(kRotatingSprings);
    CHECK_FALSE(mechanics::dependsOnTime(dm->equations()));
    mechanics::Linearizer linearizer(dm->equations(), dm->params());
    auto found = equilibria(linearizer);
    REQUIRE(found.size() == 1);
    const Equilibrium &e = found[0];
    double a = 1 - 9, b = 2 - 9, p = a + b + 36, disc = std::sqrt(p * p - 4 * a * b);
    REQUIRE(e.hessianEigenvalues.size() == 2);
    CHECK(e.hessianEigenvalues[0] == Approx(a));
    CHECK(e.hessianEigenvalues[1] == Approx(b));
    // s^2 = (-p -+ disc)/2 < 0: all four on the imaginary axis.
    CHECK_FALSE(e.stable.has_value());
    CHECK(e.criterion.find("imaginary axis") != std::string::npos);
    REQUIRE(e.eigenvalues.size() == 4);
    CHECK(std::abs(e.eigenvalues[0].imag()) == Approx(std::sqrt((p - disc) / 2)).epsilon(1e-9));
    CHECK(std::abs(e.eigenvalues[3].imag()) == Approx(std::sqrt((p + disc) / 2)).epsilon(1e-9));
    for (auto s : e.eigenvalues)
      CHECK(s.real() == Approx(0).margin(1e-9));
  }
  SECTION("one negative W eigenvalue: a b < 0 gives a real root, unstable") {
    auto dm = test::derive(kRotatingSprings, test::overrides({{"k1", 0.5}, {"w", 1}}));
    mechanics::Linearizer linearizer(dm->equations(), dm->params());
    auto found = equilibria(linearizer);
    REQUIRE(found.size() == 1);
    CHECK(found[0].stable == false);
    CHECK(found[0].criterion.find("Re > 0") != std::string::npos);
  }
}

// A pendulum (bob m, rod l) hanging from a cart (mass M) that runs freely:
// x is cyclic, so the equilibria form families in x. Across the family the
// swing is not sqrt(g/l): the cart recoils. With total momentum zero,
// (M + m) x' + m l th' = 0 at small angles, so x'' = -m l/(M + m) th'' and
// m l^2 th'' + m l x'' = -m g l th gives th'' = -(M + m) g/(M l) th:
// omega^2 = (M + m) g/(M l), and the mode moves x by -m l/(M + m) per th.
TEST_CASE("cyclic cart under a pendulum: the swing with the cart's recoil", "[equilibria]") {
  auto dm = test::derive(R"(
model CartPendulum {
  param M = 2 [kg], m = 0.5 [kg], l = 0.6 [m], g = 9.81 [m/s^2]
  coord x [m], th [rad]
  particle cart mass M at [x, 0]
  particle bob mass m at [x + l * sin(th), -l * cos(th)]
  gravity [0, -g]
}
)");
  mechanics::Linearizer linearizer(dm->equations(), dm->params());
  auto found = equilibria(linearizer);
  const Equilibrium &bottom = at(found, {0, 0});
  CHECK(bottom.arbitrary[0]);
  REQUIRE(bottom.stable == true);
  REQUIRE(bottom.frequencies.size() == 1);
  double M = 2, m = 0.5, l = 0.6, g = 9.81;
  CHECK(bottom.frequencies[0] == Approx(std::sqrt((M + m) * g / (M * l))).epsilon(1e-10));
  REQUIRE(bottom.modes[0].size() == 2);
  CHECK(bottom.modes[0][0] / bottom.modes[0][1] == Approx(-m * l / (M + m)).epsilon(1e-10));
}

// The same cart with the swing damped, D = c/2 th'^2. With the cart free
// the momentum (M + m) x' + m l th' is conserved (0 here), so
// Meff th'' + c th' + m g l th = 0 with Meff = m l^2 M/(M + m):
// lambda = -c/(2 Meff) +- i sqrt(m g l/Meff - c^2/(4 Meff^2)), and x adds a
// double zero (it drifts at constant momentum). The cart held instead
// would give Meff = m l^2: -0.556 +- 4.005i, not the motion's.
TEST_CASE("damped swing of a free cart: A's eigenvalues with the cart free", "[equilibria]") {
  auto dm = test::derive(R"(
model DampedCart {
  param M = 2 [kg], m = 0.5 [kg], l = 0.6 [m], g = 9.81 [m/s^2], c = 0.2 [N*m*s]
  coord x [m], th [rad]
  particle cart mass M at [x, 0]
  particle bob mass m at [x + l * sin(th), -l * cos(th)]
  gravity [0, -g]
  dissipation D = c/2 * th'^2
}
)");
  mechanics::Linearizer linearizer(dm->equations(), dm->params());
  auto found = equilibria(linearizer);
  const Equilibrium &bottom = at(found, {0, 0});
  REQUIRE(bottom.stable == true);
  double M = 2, m = 0.5, l = 0.6, g = 9.81, c = 0.2, Meff = m * l * l * M / (M + m);
  double decay = c / (2 * Meff), natural = std::sqrt(m * g * l / Meff);
  double damped = std::sqrt(natural * natural - decay * decay);
  REQUIRE(bottom.eigenvalues.size() == 4);
  CHECK(bottom.familyZeros == 2);
  CHECK(std::abs(bottom.eigenvalues[0]) < 1e-9);
  CHECK(std::abs(bottom.eigenvalues[1]) < 1e-9);
  for (size_t k = 2; k < 4; ++k) {
    CHECK(bottom.eigenvalues[k].real() == Approx(-decay).epsilon(1e-10));
    CHECK(std::abs(bottom.eigenvalues[k].imag()) == Approx(damped).epsilon(1e-10));
  }
  REQUIRE(bottom.frequencies.size() == 1);
  CHECK(bottom.frequencies[0] == Approx(damped).epsilon(1e-10));
  REQUIRE(bottom.naturalFrequencies.size() == 1);
  CHECK(bottom.naturalFrequencies[0] == Approx(natural).epsilon(1e-10));
  REQUIRE(bottom.dampingRatios.size() == 1);
  CHECK(bottom.dampingRatios[0] == Approx(decay / natural).epsilon(1e-10));
  CHECK(bottom.modes.empty());
}

// A bead (a small sphere, J = 2/5 m r^2 about every axis) on a hoop turned
// about the vertical at the prescribed rate Om: t is in its rotation, none
// in L = (m R^2 + J)/2 b'^2 + (m R^2 sin^2 b + J) Om^2/2 + m g R cos b.
// The relative equilibria off the axis are cos b = g/(Om^2 R), with
// omega^2 = m R^2 Om^2 sin^2 b/(m R^2 + J).
TEST_CASE("a body turned at a prescribed rate: no explicit t, its relative equilibria",
          "[equilibria]") {
  auto dm = test::derive(R"(
model TurnedBead {
  param m = 0.1 [kg], R = 0.5 [m], r = 0.05 [m], Om = 6 [1/s], g = 9.81 [m/s^2]
  coord b [rad]
  let turn = [[cos(Om*t), -sin(Om*t), 0], [sin(Om*t), cos(Om*t), 0], [0, 0, 1]]
  let tilt = [[1, 0, 0], [0, cos(b), -sin(b)], [0, sin(b), cos(b)]]
  body bead mass m at turn * tilt * [0, 0, -R] rotation turn * tilt inertia diag(2/5*m*r^2, 2/5*m*r^2, 2/5*m*r^2)
  gravity [0, 0, -g]
}
)");
  CHECK_FALSE(dm->equations().hasExplicitTime);
  CHECK_FALSE(mechanics::dependsOnTime(dm->equations()));
  mechanics::Linearizer linearizer(dm->equations(), dm->params());
  auto found = equilibria(linearizer);
  double m = 0.1, R = 0.5, r = 0.05, Om = 6, g = 9.81, J = 0.4 * m * r * r;
  double b = std::acos(g / (Om * Om * R));
  double omega = std::sqrt(m * R * R * Om * Om * std::sin(b) * std::sin(b) / (m * R * R + J));
  for (double side : {-b, b}) {
    const Equilibrium &e = at(found, {side});
    REQUIRE(e.stable == true);
    REQUIRE(e.frequencies.size() == 1);
    CHECK(e.frequencies[0] == Approx(omega).epsilon(1e-9));
  }
}

// A spherical pendulum hanging straight down: the azimuth phi is cyclic but
// has no inertia at the pole (T = m l^2 (th'^2 + sin^2 th phi'^2)/2), so
// nothing recoils, and the swing is the plane pendulum's, omega^2 = g/l.
TEST_CASE("spherical pendulum at the pole: a swing of sqrt(g/l)", "[equilibria]") {
  auto dm = test::derive(R"(
model Spherical {
  param m = 1 [kg], l = 0.5 [m], g = 9.81 [m/s^2]
  coord th [rad], phi [rad]
  kinetic T = m/2 * l^2 * (th'^2 + sin(th)^2 * phi'^2)
  potential V = -m * g * l * cos(th)
}
)");
  mechanics::Linearizer linearizer(dm->equations(), dm->params());
  auto found = equilibria(linearizer);
  const Equilibrium &bottom = at(found, {0, 0});
  REQUIRE(bottom.stable == true);
  REQUIRE(bottom.frequencies.size() == 1);
  CHECK(bottom.frequencies[0] == Approx(std::sqrt(9.81 / 0.5)).epsilon(1e-10));
}

// An attracting centre, V = -k/r: no state of rest (the force -k/r^2 never
// vanishes), and r = 0, where V is singular, is not one either.
TEST_CASE("central field: no equilibrium, not even at the singular point", "[equilibria]") {
  auto dm = test::derive(R"(
model CentralField {
  param m = 1 [kg], k = 1 [N*m^2]
  coord r [m], phi [rad]
  particle planet mass m at r * [cos(phi), sin(phi)]
  potential V = -k / r
}
)");
  mechanics::Linearizer linearizer(dm->equations(), dm->params());
  CHECK(equilibria(linearizer).empty());
}

// Ctrl-C in the REPL: a cancelled search stops between start points, keeps
// what it found and says so.
TEST_CASE("a cancelled search stops and warns", "[equilibria]") {
  auto dm = test::derive(kRod);
  mechanics::Linearizer linearizer(dm->equations(), dm->params());
  mechanics::EquilibriaOptions options;
  options.box = mechanics::defaultBox(linearizer.equations());
  int asked = 0;
  options.cancelled = [&asked] { return ++asked > 3; };
  Diagnostics diagnostics;
  auto found = mechanics::findEquilibria(linearizer, options, diagnostics);
  REQUIRE(found.has_value());
  CHECK(asked == 4);
  std::ostringstream messages;
  diagnostics.print(messages);
  CHECK(messages.str().find("interrupted: the search stopped after 3 of") != std::string::npos);
}
