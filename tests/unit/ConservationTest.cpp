// First integrals (mechanics/Conservation.h) against closed forms worked out
// by hand in this file: the cyclic coordinates and momenta of the spherical
// pendulum and the central field, the energy integral of a pendulum on a
// support moving at constant velocity (h = T2 - T0 + V, not T + V), its
// absence with a harmonically driven support or damping, and the drift
// `mech simulate` reports for the spherical pendulum's p_phi.
#include "MechanicsTestSupport.h"
#include "TrajectorySupport.h"

#include "driver/Simulation.h"
#include "mechanics/Conservation.h"
#include "symbolic/Print.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

using namespace mech;

namespace {

constexpr const char *kSphericalPendulum = R"(
model SphericalPendulum {
  param m = 0.7 [kg], l = 1.3 [m], g = 9.81 [m/s^2]
  coord th [rad], phi [rad]
  particle bob mass m at l * [sin(th)*cos(phi), sin(th)*sin(phi), -cos(th)]
  gravity [0, 0, -g]
  init th = 0.8, phi' = 2
}
)";

constexpr const char *kCentralField = R"(
model CentralField {
  param m = 1.7 [kg], k = 2.3 [N*m^2]
  coord r [m], phi [rad]
  particle planet mass m at r * [cos(phi), sin(phi)]
  potential V = -k / r
}
)";

constexpr const char *kMovingSupport = R"(
model MovingSupport {
  param m = 0.7 [kg], l = 1.3 [m], g = 9.81 [m/s^2], v = 0.4 [m/s]
  coord th [rad]
  particle bob mass m at [v*t + l*sin(th), -l*cos(th)]
  gravity [0, -g]
}
)";

constexpr const char *kShakenSupport = R"(
model ShakenSupport {
  param m = 0.7 [kg], l = 1.3 [m], g = 9.81 [m/s^2], a = 0.1 [m], w = 3 [1/s]
  coord th [rad]
  particle bob mass m at [a*cos(w*t) + l*sin(th), -l*cos(th)]
  gravity [0, -g]
}
)";

// x is absent from L, but the damping acts on it.
constexpr const char *kDampedSlider = R"(
model DampedSlider {
  param m = 2 [kg], c = 0.3 [N*s/m], g = 9.81 [m/s^2], l = 1 [m]
  coord x [m], th [rad]
  particle cart mass m at [x, 0]
  particle bob mass m at [x + l*sin(th), -l*cos(th)]
  gravity [0, -g]
  dissipation D = c/2 * x'^2
}
)";

const mechanics::CyclicCoordinate *findCyclic(const mechanics::Conservation &c,
                                              const std::string &name) {
  for (const auto &k : c.cyclic)
    if (k.coordinate == name)
      return &k;
  return nullptr;
}

std::string reasons(const mechanics::Conservation &c) {
  std::string text;
  for (const std::string &why : c.noEnergyIntegral)
    text += why + "; ";
  for (const auto &[name, why] : c.notCyclic)
    text += name + ": " + why + "; ";
  return text;
}

// Evaluates one expression at a state.
double at(const test::DerivedModel &d, const sym::Expr &e, const mechanics::State &s) {
  return test::evaluateExpressions(d.equations(), {e}, d.params(), s)[0];
}

} // namespace

TEST_CASE("spherical pendulum has phi cyclic and h = T + V", "[conserved]") {
  auto d = test::derive(kSphericalPendulum);
  mechanics::Conservation c = mechanics::findConserved(d->equations());
  INFO(reasons(c));
  REQUIRE(c.cyclic.size() == 1);
  const auto *phi = findCyclic(c, "phi");
  REQUIRE(phi != nullptr);
  REQUIRE(c.energyIntegral);
  CHECK(c.energyIsTPlusV);
  CHECK(c.T1.isZero());
  CHECK(c.T0.isZero());
  double m = d->param("m"), l = d->param("l"), g = d->param("g");
  test::Lcg random(11);
  for (int i = 0; i < 20; ++i) {
    double th = random.uniform(-3, 3), ph = random.uniform(-3, 3);
    double thd = random.uniform(-2, 2), phd = random.uniform(-2, 2);
    auto s = test::state({th, ph}, {thd, phd}, random.uniform(0, 5));
    double p = m * l * l * std::sin(th) * std::sin(th) * phd;
    MECH_CHECK_NEAR(at(*d, phi->momentum, s), p, 1e-12, m * l * l);
    double h = m / 2 * l * l * (thd * thd + std::sin(th) * std::sin(th) * phd * phd) -
               m * g * l * std::cos(th);
    MECH_CHECK_NEAR(at(*d, c.energyIntegral, s), h, 1e-12, m * g * l);
  }
}

TEST_CASE("central field has phi cyclic with p = m r^2 phi' and h = T + V", "[conserved]") {
  auto d = test::derive(kCentralField);
  mechanics::Conservation c = mechanics::findConserved(d->equations());
  INFO(reasons(c));
  REQUIRE(c.cyclic.size() == 1);
  const auto *phi = findCyclic(c, "phi");
  REQUIRE(phi != nullptr);
  REQUIRE(c.energyIntegral);
  CHECK(c.energyIsTPlusV);
  double m = d->param("m"), k = d->param("k");
  test::Lcg random(5);
  for (int i = 0; i < 20; ++i) {
    double r = random.uniform(0.2, 3), ph = random.uniform(-3, 3);
    double rd = random.uniform(-2, 2), phd = random.uniform(-2, 2);
    auto s = test::state({r, ph}, {rd, phd});
    MECH_CHECK_NEAR(at(*d, phi->momentum, s), m * r * r * phd, 1e-12, m);
    double h = m / 2 * (rd * rd + r * r * phd * phd) - k / r;
    MECH_CHECK_NEAR(at(*d, c.energyIntegral, s), h, 1e-12, k);
  }
}

TEST_CASE("support at constant velocity has h = T2 - T0 + V, not T + V", "[conserved]") {
  auto d = test::derive(kMovingSupport);
  const mechanics::Equations &eq = d->equations();
  mechanics::Conservation c = mechanics::findConserved(eq);
  INFO(reasons(c));
  CHECK(c.cyclic.empty());
  REQUIRE(c.energyIntegral);
  CHECK_FALSE(c.energyIsTPlusV);
  CHECK_FALSE(c.T1.isZero());
  CHECK_FALSE(c.T0.isZero());
  double m = d->param("m"), l = d->param("l"), g = d->param("g"), v = d->param("v");
  sym::Expr thDot = eq.L.context().coordinate("th", 0).qd;
  test::Lcg random(7);
  for (int i = 0; i < 20; ++i) {
    double th = random.uniform(-3, 3), thd = random.uniform(-3, 3);
    auto s = test::state({th}, {thd}, random.uniform(0, 10));
    // T2 = m/2 l^2 th'^2, T1 = m v l cos(th) th', T0 = m/2 v^2.
    double h = m / 2 * l * l * thd * thd - m / 2 * v * v - m * g * l * std::cos(th);
    MECH_CHECK_NEAR(at(*d, c.energyIntegral, s), h, 1e-12, m * g * l);
    MECH_CHECK_NEAR(at(*d, c.T1, s), m * v * l * std::cos(th) * thd, 1e-12, m * v * l);
    MECH_CHECK_NEAR(at(*d, c.T0, s), m / 2 * v * v, 1e-12, m * v * v);
    // The definition: h = q' dL/dq' - L.
    double jacobi = at(*d, eq.momentum[0] * thDot - eq.L, s);
    MECH_CHECK_NEAR(jacobi, h, 1e-12, m * g * l);
  }
}

TEST_CASE("a harmonically driven support has no energy integral", "[conserved]") {
  auto d = test::derive(kShakenSupport);
  mechanics::Conservation c = mechanics::findConserved(d->equations());
  CHECK_FALSE(c.energyIntegral);
  CHECK_FALSE(c.energyIsTPlusV);
  REQUIRE(c.noEnergyIntegral.size() == 1);
  CHECK(c.noEnergyIntegral[0] == "L depends explicitly on t");
  CHECK(c.cyclic.empty());
}

TEST_CASE("damping removes the energy integral and the cyclic coordinate it acts on",
          "[conserved]") {
  auto d = test::derive(kDampedSlider);
  mechanics::Conservation c = mechanics::findConserved(d->equations());
  INFO(reasons(c));
  CHECK_FALSE(c.energyIntegral);
  REQUIRE(c.noEnergyIntegral.size() == 1);
  CHECK(c.noEnergyIntegral[0] == "the non-conservative forces do work");
  CHECK(c.cyclic.empty());
  REQUIRE(c.notCyclic.size() == 2);
  CHECK(c.notCyclic[0].first == "x");
  CHECK(c.notCyclic[0].second.find("non-conservative") != std::string::npos);
}

TEST_CASE("double pendulum has no cyclic coordinate and h = T + V", "[conserved]") {
  auto d = test::derive(test::models::kDoublePendulumText);
  mechanics::Conservation c = mechanics::findConserved(d->equations());
  INFO(reasons(c));
  CHECK(c.cyclic.empty());
  REQUIRE(c.energyIntegral);
  CHECK(c.energyIsTPlusV);
  double m1 = d->param("m1"), m2 = d->param("m2"), l1 = d->param("l1"), l2 = d->param("l2"),
         g = d->param("g");
  test::Lcg random(3);
  for (int i = 0; i < 20; ++i) {
    double a = random.uniform(-3, 3), b = random.uniform(-3, 3);
    double ad = random.uniform(-2, 2), bd = random.uniform(-2, 2);
    auto s = test::state({a, b}, {ad, bd});
    double T = (m1 + m2) / 2 * l1 * l1 * ad * ad + m2 / 2 * l2 * l2 * bd * bd +
               m2 * l1 * l2 * ad * bd * std::cos(a - b);
    double V = -(m1 + m2) * g * l1 * std::cos(a) - m2 * g * l2 * std::cos(b);
    MECH_CHECK_NEAR(at(*d, c.energyIntegral, s), T + V, 1e-12, (m1 + m2) * g * l1);
  }
}

TEST_CASE("Cartesian pendulum has no cyclic coordinate: the rod acts on x", "[conserved]") {
  auto loaded = test::loadExample("cartesian_pendulum.mech");
  mechanics::Conservation c = mechanics::findConserved(loaded->equations());
  CHECK(c.cyclic.empty());
  REQUIRE(c.notCyclic.size() == 2);
  // x is absent from L (gravity is along y): only the constraint spoils it.
  CHECK(c.notCyclic[0].first == "x");
  CHECK(c.notCyclic[0].second == "constraint 'rod' acts on it");
  REQUIRE(c.energyIntegral);
  CHECK(c.energyIsTPlusV);
}

TEST_CASE("knife edge conserves the heading's momentum: no column of C for phi", "[conserved]") {
  auto loaded = test::loadExample("knife_edge.mech");
  mechanics::Conservation c = mechanics::findConserved(loaded->equations());
  REQUIRE(c.cyclic.size() == 1);
  CHECK(c.cyclic[0].coordinate == "phi");
  CHECK(sym::toMech(c.cyclic[0].momentum) == "J*phi'");
  // The pushing force does work.
  CHECK_FALSE(c.energyIntegral);
}

TEST_CASE("the evaluator gives the conserved values and their scales", "[conserved]") {
  auto d = test::derive(kSphericalPendulum);
  mechanics::Conservation c = mechanics::findConserved(d->equations());
  mechanics::ConservedEvaluator evaluator(d->equations(), c, d->params());
  REQUIRE(evaluator.names() == std::vector<std::string>{"p_phi", "h"});
  double m = d->param("m"), l = d->param("l"), g = d->param("g");
  double th = 0.8, thd = 0.3, phd = 2;
  std::vector<double> x = {th, 0.1, thd, phd}, values(2), scales(2);
  evaluator.evaluate(0.5, x.data(), values.data(), scales.data());
  double sin2 = std::sin(th) * std::sin(th);
  MECH_CHECK_NEAR(values[0], m * l * l * sin2 * phd, 1e-12, 0);
  MECH_CHECK_NEAR(scales[0], m * l * l * sin2 * phd, 1e-12, 0);
  double T = m / 2 * l * l * (thd * thd + sin2 * phd * phd), V = -m * g * l * std::cos(th);
  MECH_CHECK_NEAR(values[1], T + V, 1e-12, 0);
  // At least the magnitudes of T and V (T may be split into its terms).
  CHECK(scales[1] >= std::abs(T) + std::abs(V) - 1e-12);
}

TEST_CASE("simulating the spherical pendulum reports a small p_phi drift", "[conserved]") {
  test::TemporaryModelFile file(kSphericalPendulum);
  auto loaded = driver::loadModel(file.path(), {}, test::Session::defaultSearchPath(), true);
  REQUIRE(loaded->derivation.has_value());
  driver::SimulationOptions options;
  options.integrator.method = runtime::Method::Dop853;
  options.integrator.tEnd = 5;
  options.integrator.rtol = 1e-10;
  options.integrator.atol = 1e-12;
  options.integrator.step = 0;
  options.useCache = false;
  std::ostringstream csv;
  auto summary = driver::simulate(*loaded, options, 0.0, csv);
  REQUIRE(summary.has_value());
  CHECK(summary->failure.empty());
  REQUIRE(summary->conservedDrift.size() == 2);
  CHECK(summary->conservedDrift[0].first == "p_phi");
  CHECK(summary->conservedDrift[1].first == "h");
  INFO(driver::summaryText(*summary));
  CHECK(summary->conservedDrift[0].second < 1e-8);
  CHECK(summary->conservedDrift[1].second < 1e-8);
  CHECK(driver::summaryText(*summary).find("conserved p_phi: drift ") != std::string::npos);
}

TEST_CASE("heavy symmetric top has phi and psi cyclic with the textbook momenta", "[conserved]") {
  // The simplifier cannot show that psi is absent from L; the test at
  // random points does.
  auto d = test::derive(test::models::kTop);
  mechanics::Conservation c = mechanics::findConserved(d->equations());
  INFO(reasons(c));
  REQUIRE(c.cyclic.size() == 2);
  const auto *phi = findCyclic(c, "phi");
  const auto *psi = findCyclic(c, "psi");
  REQUIRE(phi != nullptr);
  REQUIRE(psi != nullptr);
  REQUIRE(c.energyIntegral);
  CHECK(c.energyIsTPlusV);
  double m = d->param("m"), h = d->param("h"), g = d->param("g"), I1 = d->param("I1"),
         I3 = d->param("I3");
  double A = I1 + m * h * h; // about the pivot
  test::Lcg random(13);
  for (int i = 0; i < 20; ++i) {
    double a = random.uniform(-3, 3), th = random.uniform(0.2, 2.9), b = random.uniform(-3, 3);
    double ad = random.uniform(-2, 2), thd = random.uniform(-2, 2), bd = random.uniform(-9, 9);
    auto s = test::state({a, th, b}, {ad, thd, bd});
    double spin = bd + std::cos(th) * ad;
    double sin2 = std::sin(th) * std::sin(th);
    MECH_CHECK_NEAR(at(*d, psi->momentum, s), I3 * spin, 1e-10, I3 * 9);
    MECH_CHECK_NEAR(at(*d, phi->momentum, s), A * sin2 * ad + I3 * std::cos(th) * spin, 1e-10,
                    (A + I3) * 9);
    double E =
        A / 2 * (thd * thd + sin2 * ad * ad) + I3 / 2 * spin * spin + m * g * h * std::cos(th);
    MECH_CHECK_NEAR(at(*d, c.energyIntegral, s), E, 1e-10, (A + I3) * 81);
  }
}
