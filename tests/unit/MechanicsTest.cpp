// The mechanics layer against textbook closed forms: each model is written
// as .mech text (here or in MechanicsTestSupport.h) or read from examples/,
// derived by deriveEquations, evaluated by mechanics::Evaluator at several
// states and parameter values, and every number is compared with an answer
// worked out by hand here.
#include "MechanicsTestSupport.h"

#include "symbolic/Print.h"

#include <catch2/catch.hpp>

#include <array>

#include <cmath>
#include <string>
#include <vector>

using namespace mech;
using mechanics::Evaluation;
using mechanics::Evaluator;
using test::evaluate;
using test::state;
using namespace test::models;

namespace {

constexpr double kRel = 1e-12;

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

// The parameter values of a checked model, by name.
struct Params {
  const sema::CheckedModel &model;
  double operator()(const std::string &name) const {
    for (const sema::Param &p : model.params)
      if (p.name == name)
        return p.value;
    FAIL("no param " << name);
    return 0;
  }
};
Params paramsOf(const sema::CheckedModel &model) {
  return {model};
}

std::string allMessages(const Diagnostics &diagnostics) {
  std::string out;
  for (const Diagnostic &d : diagnostics.all()) {
    out += d.message + "\n";
    for (const Diagnostic &note : d.notes)
      out += "note: " + note.message + "\n";
  }
  return out;
}

// --- simple pendulum -------------------------------------------------------

// kPendulum, kNamedPendulum and kSplitPendulum (MechanicsTestSupport.h): a
// particle at l*[sin(th), -cos(th)] with gravity, and the same energies
// written as named kinetic and potential terms.
void checkPendulum(const test::DerivedModel &d) {
  const mechanics::Equations &eq = d.equations();
  REQUIRE(eq.coordinates == std::vector<std::string>{"th"});
  CHECK(eq.conservative);
  CHECK_FALSE(eq.hasExplicitTime);
  double m = d.param("m"), l = d.param("l"), g = d.param("g");
  Evaluator evaluator(eq, d.params());
  for (double th : {-2.5, -0.4, 0.0, 0.3, 1.2, 3.0})
    for (double w : {0.0, 1.7, -4.2}) {
      Evaluation e = evaluate(evaluator, state({th}, {w}));
      INFO("th = " << th << ", th' = " << w);
      MECH_CHECK_NEAR((*e.qdd)[0], -g / l * std::sin(th), kRel, g / l);
      MECH_CHECK_NEAR(e.T, m * l * l * w * w / 2, kRel, m * l * l);
      MECH_CHECK_NEAR(e.V, -m * g * l * std::cos(th), kRel, m * g * l);
      MECH_CHECK_NEAR(e.Q[0], -m * g * l * std::sin(th), kRel, m * g * l);
      MECH_CHECK_NEAR(e.Qnc[0], 0.0, kRel, m * g * l);
      MECH_CHECK_NEAR(e.M[0][0], m * l * l, kRel, 0);
    }
}

} // namespace

TEST_CASE("simple pendulum: th'' = -g/l*sin(th)", "[mechanics]") {
  SECTION("particle with gravity") {
    checkPendulum(*test::derive(kPendulum));
  }
  SECTION("particle with other parameter values") {
    auto d = test::derive(kPendulum, test::overrides({{"m", 2.0}, {"l", 0.5}, {"g", 1.62}}));
    CHECK(d->param("l") == 0.5);
    checkPendulum(*d);
  }
  SECTION("named kinetic and potential energies") {
    checkPendulum(*test::derive(kNamedPendulum));
  }
  SECTION("several named terms add up") {
    checkPendulum(*test::derive(kSplitPendulum, test::overrides({{"g", 3.7}})));
  }
  SECTION("the generalized force of an angle is a moment") {
    auto d = test::derive(kPendulum);
    REQUIRE(d->equations().Qdim[0].isKnown());
    CHECK(d->equations().Qdim[0].dimension == sema::Dimension::energy());
  }
}

// --- double pendulum ----------------------------------------------------------

namespace {

struct DoublePendulumParams {
  double m1, m2, l1, l2, g;
};

// The explicit accelerations of the textbook double pendulum (angles from
// the downward vertical), solved from the two Lagrange equations by hand.
std::pair<double, double> doublePendulumAccelerations(const DoublePendulumParams &p, double th1,
                                                      double th2, double w1, double w2) {
  double den = 2 * p.m1 + p.m2 - p.m2 * std::cos(2 * th1 - 2 * th2);
  double d = th1 - th2;
  double a1 = (-p.g * (2 * p.m1 + p.m2) * std::sin(th1) - p.m2 * p.g * std::sin(th1 - 2 * th2) -
               2 * std::sin(d) * p.m2 * (w2 * w2 * p.l2 + w1 * w1 * p.l1 * std::cos(d))) /
              (p.l1 * den);
  double a2 = 2 * std::sin(d) *
              (w1 * w1 * p.l1 * (p.m1 + p.m2) + p.g * (p.m1 + p.m2) * std::cos(th1) +
               w2 * w2 * p.l2 * p.m2 * std::cos(d)) /
              (p.l2 * den);
  return {a1, a2};
}

void checkDoublePendulum(const mechanics::Equations &eq, const std::vector<double> &params,
                         const DoublePendulumParams &p) {
  REQUIRE(eq.coordinates.size() == 2);
  Evaluator evaluator(eq, params);
  const double states[][4] = {{0.5, -0.3, 0.0, 0.0},  {0.0, 0.0, 1.0, -2.0}, {1.2, 2.9, -0.7, 3.1},
                              {-2.0, 0.4, 2.5, 0.1},  {3.0, -3.0, 0.3, 0.3}, {0.9, 0.9, -1.5, 4.0},
                              {-0.6, 1.7, 5.0, -5.0}, {2.2, -1.1, 0.0, 2.2}};
  for (const auto &s : states) {
    double th1 = s[0], th2 = s[1], w1 = s[2], w2 = s[3];
    INFO("th1 = " << th1 << ", th2 = " << th2 << ", th1' = " << w1 << ", th2' = " << w2);
    Evaluation e = evaluate(evaluator, state({th1, th2}, {w1, w2}));
    auto [a1, a2] = doublePendulumAccelerations(p, th1, th2, w1, w2);
    double scale = p.g / std::min(p.l1, p.l2) + (w1 * w1 + w2 * w2);
    MECH_CHECK_NEAR((*e.qdd)[0], a1, kRel, scale);
    MECH_CHECK_NEAR((*e.qdd)[1], a2, kRel, scale);
    // Energies, forces and the mass matrix.
    double c = std::cos(th1 - th2);
    double T = (p.m1 + p.m2) * p.l1 * p.l1 * w1 * w1 / 2 + p.m2 * p.l2 * p.l2 * w2 * w2 / 2 +
               p.m2 * p.l1 * p.l2 * c * w1 * w2;
    double V = -(p.m1 + p.m2) * p.g * p.l1 * std::cos(th1) - p.m2 * p.g * p.l2 * std::cos(th2);
    double energyScale =
        (p.m1 + p.m2) * (p.g * (p.l1 + p.l2) + (p.l1 + p.l2) * (p.l1 + p.l2) * (w1 * w1 + w2 * w2));
    MECH_CHECK_NEAR(e.T, T, kRel, energyScale);
    MECH_CHECK_NEAR(e.V, V, kRel, energyScale);
    MECH_CHECK_NEAR(e.Q[0], -(p.m1 + p.m2) * p.g * p.l1 * std::sin(th1), kRel, energyScale);
    MECH_CHECK_NEAR(e.Q[1], -p.m2 * p.g * p.l2 * std::sin(th2), kRel, energyScale);
    MECH_CHECK_NEAR(e.M[0][0], (p.m1 + p.m2) * p.l1 * p.l1, kRel, 0);
    MECH_CHECK_NEAR(e.M[0][1], p.m2 * p.l1 * p.l2 * c, kRel, p.m2 * p.l1 * p.l2);
    MECH_CHECK_NEAR(e.M[1][0], p.m2 * p.l1 * p.l2 * c, kRel, p.m2 * p.l1 * p.l2);
    MECH_CHECK_NEAR(e.M[1][1], p.m2 * p.l2 * p.l2, kRel, 0);
  }
}

} // namespace

TEST_CASE("double pendulum: the textbook accelerations", "[mechanics]") {
  SECTION("examples/double_pendulum.mech as written") {
    auto loaded = test::loadExample("double_pendulum.mech");
    REQUIRE(loaded->equations().coordinates == std::vector<std::string>{"th1", "th2"});
    checkDoublePendulum(loaded->equations(), loaded->paramValues(), {1.0, 1.0, 1.0, 0.8, 9.81});
  }
  SECTION("m1 and l2 changed with --set") {
    auto loaded = test::loadExample("double_pendulum.mech", {"m1 = 2.5, l2 = 0.6"});
    checkDoublePendulum(loaded->equations(), loaded->paramValues(), {2.5, 1.0, 1.0, 0.6, 9.81});
  }
  SECTION("m1, m2, l1, l2 and g changed with overrides") {
    auto d = test::derive(
        kDoublePendulumText,
        test::overrides({{"m1", 0.3}, {"m2", 1.7}, {"l1", 0.45}, {"l2", 1.25}, {"g", 3.71}}));
    checkDoublePendulum(d->equations(), d->params(), {0.3, 1.7, 0.45, 1.25, 3.71});
  }
}

TEST_CASE("double pendulum: the printed mass matrix", "[mechanics]") {
  auto loaded = test::loadExample("double_pendulum.mech");
  mechanics::Equations s = mechanics::simplified(loaded->equations());
  CHECK(sym::toMech(s.M[0][0]) == "(m1 + m2)*l1^2");
  CHECK(sym::toMech(s.M[0][1]) == "m2*l1*l2*cos(th1 - th2)");
  CHECK(sym::toMech(s.M[1][0]) == "m2*l1*l2*cos(th1 - th2)");
  CHECK(sym::toMech(s.M[1][1]) == "m2*l2^2");
}

TEST_CASE("double pendulum: T = T2, conservative", "[mechanics]") {
  auto loaded = test::loadExample("double_pendulum.mech");
  const mechanics::Equations &eq = loaded->equations();
  CHECK(eq.conservative);
  CHECK_FALSE(eq.hasExplicitTime);
  CHECK(eq.T1.isZero());
  CHECK(eq.T0.isZero());
  mechanics::Equations s = mechanics::simplified(eq);
  CHECK(s.T1.isZero());
  CHECK(s.T0.isZero());
  test::Lcg random(7);
  double m1 = 1, m2 = 1, l1 = 1, l2 = 0.8;
  for (int i = 0; i < 20; ++i) {
    double th1 = random.uniform(-3, 3), th2 = random.uniform(-3, 3);
    double w1 = random.uniform(-4, 4), w2 = random.uniform(-4, 4);
    auto values = test::evaluateExpressions(eq, {eq.T, eq.T2, eq.T1, eq.T0}, loaded->paramValues(),
                                            state({th1, th2}, {w1, w2}));
    double T = (m1 + m2) * l1 * l1 * w1 * w1 / 2 + m2 * l2 * l2 * w2 * w2 / 2 +
               m2 * l1 * l2 * std::cos(th1 - th2) * w1 * w2;
    double scale = (m1 + m2) * (l1 + l2) * (l1 + l2) * (w1 * w1 + w2 * w2);
    MECH_CHECK_NEAR(values[0], T, kRel, scale);
    MECH_CHECK_NEAR(values[1], T, kRel, scale);
    CHECK(values[2] == 0.0);
    CHECK(values[3] == 0.0);
  }
}

TEST_CASE("the state of --at takes the init values for what it does not list", "[mechanics]") {
  auto loaded = test::loadExample("double_pendulum.mech");
  std::optional<mechanics::State> s = driver::parseState(*loaded, "th1 = 0.2, th2' = -1.5, t = 3");
  REQUIRE(s.has_value());
  CHECK(s->q == std::vector<double>{0.2, -0.3});
  CHECK(s->qd == std::vector<double>{0.0, -1.5});
  CHECK(s->t == 3.0);
  Evaluator evaluator(loaded->equations(), loaded->paramValues());
  Evaluation e = evaluate(evaluator, *s);
  auto [a1, a2] = doublePendulumAccelerations({1, 1, 1, 0.8, 9.81}, 0.2, -0.3, 0, -1.5);
  MECH_CHECK_NEAR((*e.qdd)[0], a1, kRel, 10);
  MECH_CHECK_NEAR((*e.qdd)[1], a2, kRel, 10);
}

// --- bead on a swinging rod -------------------------------------------------------

TEST_CASE("bead on a swinging rod: forces and accelerations", "[mechanics]") {
  for (const std::vector<std::string> &settings :
       {std::vector<std::string>{}, std::vector<std::string>{"m = 0.05, g = 1.62"}}) {
    auto loaded = test::loadExample("bead_on_rod.mech", settings);
    const mechanics::Equations &eq = loaded->equations();
    REQUIRE(eq.coordinates == std::vector<std::string>{"s", "phi"});
    CHECK(eq.conservative);
    double m = settings.empty() ? 0.2 : 0.05, g = settings.empty() ? 9.81 : 1.62;
    REQUIRE(loaded->paramValues() == std::vector<double>{m, g});
    // Q_s is a force, Q_phi a moment.
    CHECK(eq.Qdim[0].dimension == sema::Dimension::force());
    CHECK(eq.Qdim[1].dimension == sema::Dimension::energy());
    Evaluator evaluator(eq, loaded->paramValues());
    const double states[][4] = {{0.5, 0.4, 0.0, 0.0},   {0.5, 0.3, 0.1, 0.2},
                                {1.2, -1.0, -0.8, 2.5}, {0.05, 2.5, 3.0, -1.0},
                                {2.0, 3.1, 0.0, 0.7},   {0.7, -2.2, 1.1, -3.3},
                                {3.0, 0.0, -2.0, 0.0},  {0.25, 1.57, 0.4, 6.0}};
    for (const auto &st : states) {
      double s = st[0], phi = st[1], sd = st[2], phid = st[3];
      INFO("s = " << s << ", phi = " << phi << ", s' = " << sd << ", phi' = " << phid);
      Evaluation e = evaluate(evaluator, state({s, phi}, {sd, phid}));
      MECH_CHECK_NEAR(e.Q[0], m * g * std::cos(phi), kRel, m * g);
      MECH_CHECK_NEAR(e.Q[1], -m * g * s * std::sin(phi), kRel, m * g * s);
      MECH_CHECK_NEAR(e.T, m / 2 * (sd * sd + s * s * phid * phid), kRel, 0);
      MECH_CHECK_NEAR(e.V, -m * g * s * std::cos(phi), kRel, m * g * s);
      MECH_CHECK_NEAR(e.M[0][0], m, kRel, 0);
      MECH_CHECK_NEAR(e.M[1][1], m * s * s, kRel, 0);
      CHECK(std::abs(e.M[0][1]) <= 1e-15 * m);
      double sdd = s * phid * phid + g * std::cos(phi);
      double phidd = -(g * std::sin(phi) + 2 * sd * phid) / s;
      MECH_CHECK_NEAR((*e.qdd)[0], sdd, kRel, g + s * phid * phid);
      MECH_CHECK_NEAR((*e.qdd)[1], phidd, kRel, (g + 2 * std::abs(sd * phid)) / s);
    }
  }
}

// --- disk rolling down an incline ------------------------------------------------

TEST_CASE("disk rolling down an incline without slipping", "[mechanics]") {
  SECTION("coordinate s along the incline") {
    for (double alpha : {0.4, 0.05, 1.2}) {
      auto d = test::derive(kRollingDisk, test::overrides({{"alpha", alpha}, {"m", 2 + alpha}}));
      double m = 2 + alpha, g = 9.81;
      Evaluator evaluator(d->equations(), d->params());
      CHECK(d->equations().conservative);
      CHECK(d->equations().Qdim[0].dimension == sema::Dimension::force());
      for (double s : {-1.0, 0.0, 2.5})
        for (double sd : {0.0, 3.0}) {
          INFO("alpha = " << alpha << ", s = " << s << ", s' = " << sd);
          Evaluation e = evaluate(evaluator, state({s}, {sd}));
          MECH_CHECK_NEAR(e.Q[0], m * g * std::sin(alpha), kRel, 0);
          MECH_CHECK_NEAR(e.M[0][0], 1.5 * m, kRel, 0);
          MECH_CHECK_NEAR(e.T, 0.75 * m * sd * sd, kRel, 0);
          MECH_CHECK_NEAR(e.V, -m * g * s * std::sin(alpha), kRel, m * g);
          MECH_CHECK_NEAR((*e.qdd)[0], 2.0 / 3.0 * g * std::sin(alpha), kRel, 0);
        }
    }
  }
  SECTION("coordinate phi, the rolling angle (s = r*phi)") {
    for (double r : {0.3, 0.07, 1.5}) {
      auto d = test::derive(kRollingDiskAngle, test::overrides({{"r", r}}));
      double m = 2, g = 9.81, alpha = 0.4;
      Evaluator evaluator(d->equations(), d->params());
      CHECK(d->equations().Qdim[0].dimension == sema::Dimension::energy());
      for (double phi : {-3.0, 0.0, 7.0})
        for (double phid : {0.0, -12.0}) {
          INFO("r = " << r << ", phi = " << phi << ", phi' = " << phid);
          Evaluation e = evaluate(evaluator, state({phi}, {phid}));
          MECH_CHECK_NEAR(e.Q[0], m * g * r * std::sin(alpha), kRel, 0);
          MECH_CHECK_NEAR(e.M[0][0], 1.5 * m * r * r, kRel, 0);
          MECH_CHECK_NEAR((*e.qdd)[0], 2.0 / 3.0 * g * std::sin(alpha) / r, kRel, 0);
        }
    }
  }
}

// --- compound pendulum and the driven rod ---------------------------------------------

TEST_CASE("compound pendulum: phi'' = -3*g/(2*a)*sin(phi)", "[mechanics]") {
  for (const char *text : {kCompoundPendulum, kCompoundPendulumLibrary})
    for (double a : {0.6, 0.1, 2.4}) {
      auto d = test::derive(text, test::overrides({{"a", a}}));
      double M = 2, g = 9.81;
      CHECK(d->equations().conservative);
      Evaluator evaluator(d->equations(), d->params());
      for (double phi : {-2.8, -0.5, 0.0, 1.0, 3.1})
        for (double w : {0.0, 2.5}) {
          INFO("a = " << a << ", phi = " << phi << ", phi' = " << w);
          Evaluation e = evaluate(evaluator, state({phi}, {w}));
          MECH_CHECK_NEAR((*e.qdd)[0], -3 * g / (2 * a) * std::sin(phi), kRel, 3 * g / (2 * a));
          MECH_CHECK_NEAR(e.M[0][0], M * a * a / 3, kRel, 0);
          MECH_CHECK_NEAR(e.T, M * a * a / 6 * w * w, kRel, 0);
          MECH_CHECK_NEAR(e.V, -M * g * a / 2 * std::cos(phi), kRel, M * g * a);
        }
    }
}

TEST_CASE("driven rod: damping and a driving torque", "[mechanics]") {
  auto loaded = test::loadExample("driven_rod.mech");
  const mechanics::Equations &eq = loaded->equations();
  CHECK_FALSE(eq.conservative);
  double M = 2, a = 0.6, g = 9.81, c = 0.05, A = 0.3, w = 2;
  Evaluator evaluator(eq, loaded->paramValues());
  for (double t : {0.0, 0.4, 2.9})
    for (double phi : {-1.0, 0.2, 2.0})
      for (double phid : {0.0, -3.0}) {
        INFO("t = " << t << ", phi = " << phi << ", phi' = " << phid);
        Evaluation e = evaluate(evaluator, state({phi}, {phid}, t));
        double Qnc = -c * phid + A * std::cos(w * t);
        MECH_CHECK_NEAR(e.Qnc[0], Qnc, kRel, A);
        MECH_CHECK_NEAR(e.Q[0], -M * g * a / 2 * std::sin(phi) + Qnc, kRel, M * g * a);
        MECH_CHECK_NEAR((*e.qdd)[0], (-M * g * a / 2 * std::sin(phi) + Qnc) / (M * a * a / 3), kRel,
                        3 * g / (2 * a));
      }
}

// --- heavy symmetric top --------------------------------------------------------

namespace {

struct TopParams {
  double m, h, g, I1, I3;
  double I1p() const { return I1 + m * h * h; }
};

TopParams topParams(const test::DerivedModel &d) {
  return {d.param("m"), d.param("h"), d.param("g"), d.param("I1"), d.param("I3")};
}

} // namespace

TEST_CASE("heavy symmetric top: kinetic energy and accelerations", "[mechanics]") {
  for (auto options : {sema::AnalysisOptions{},
                       test::overrides({{"m", 0.4}, {"h", 0.55}, {"I1", 0.2}, {"I3", 0.013}})}) {
    auto d = test::derive(kTop, options);
    const mechanics::Equations &eq = d->equations();
    REQUIRE(eq.coordinates == std::vector<std::string>{"phi", "theta", "psi"});
    CHECK(eq.conservative);
    TopParams p = topParams(*d);
    Evaluator evaluator(eq, d->params());
    test::Lcg random(42);
    for (int i = 0; i < 25; ++i) {
      double phi = random.uniform(-3, 3), theta = random.uniform(0.2, 2.9),
             psi = random.uniform(-3, 3);
      double phid = random.uniform(-5, 5), thetad = random.uniform(-5, 5),
             psid = random.uniform(-20, 20);
      INFO("phi = " << phi << ", theta = " << theta << ", psi = " << psi << ", phi' = " << phid
                    << ", theta' = " << thetad << ", psi' = " << psid);
      Evaluation e = evaluate(evaluator, state({phi, theta, psi}, {phid, thetad, psid}));
      double st = std::sin(theta), ct = std::cos(theta);
      double omega3 = psid + phid * ct;
      double T =
          p.I1p() / 2 * (thetad * thetad + phid * phid * st * st) + p.I3 / 2 * omega3 * omega3;
      double energyScale = (p.I1p() + p.I3) * (phid * phid + thetad * thetad + psid * psid);
      MECH_CHECK_NEAR(e.T, T, kRel, energyScale);
      MECH_CHECK_NEAR(e.V, p.m * p.g * p.h * ct, kRel, p.m * p.g * p.h);
      MECH_CHECK_NEAR(e.Q[1], p.m * p.g * p.h * st, kRel, p.m * p.g * p.h);
      CHECK(e.Q[0] == 0.0);
      CHECK(e.Q[2] == 0.0);
      // The theta equation, and the conservation of p_psi = I3*omega3 and
      // p_phi = I1'*phi'*sin^2 + I3*omega3*cos, solved for the accelerations.
      double thetadd =
          st * (p.I1p() * phid * phid * ct - p.I3 * omega3 * phid + p.m * p.g * p.h) / p.I1p();
      double phidd = thetad * (p.I3 * omega3 - 2 * p.I1p() * phid * ct) / (p.I1p() * st);
      double psidd = phid * st * thetad - phidd * ct;
      double rate = std::abs(phid) + std::abs(thetad) + std::abs(psid);
      double accelerationScale =
          (p.I1p() + p.I3) * rate * rate / (p.I1p() * st) + p.m * p.g * p.h / p.I1p();
      MECH_CHECK_NEAR((*e.qdd)[1], thetadd, kRel, accelerationScale);
      MECH_CHECK_NEAR((*e.qdd)[0], phidd, kRel, accelerationScale);
      MECH_CHECK_NEAR((*e.qdd)[2], psidd, kRel, accelerationScale);
    }
  }
}

TEST_CASE("heavy symmetric top: steady precession", "[mechanics]") {
  auto d = test::derive(kTop);
  TopParams p = topParams(*d);
  Evaluator evaluator(d->equations(), d->params());
  // Constant theta, phi', psi' with theta'' = 0: m*g*h = phi'*(I3*omega3 -
  // I1'*phi'*cos(theta)), omega3 = psi' + phi'*cos(theta). Pick phi' (slow
  // and fast precession, both senses) and solve for omega3.
  for (double theta : {0.3, 0.7, 1.2, 1.9, 2.6})
    for (double phid : {0.4, 1.5, 6.0, -2.0}) {
      double ct = std::cos(theta);
      double omega3 = (p.m * p.g * p.h / phid + p.I1p() * phid * ct) / p.I3;
      double psid = omega3 - phid * ct;
      INFO("theta = " << theta << ", phi' = " << phid << ", psi' = " << psid);
      for (double angles : {0.0, 1.1, -2.3}) {
        Evaluation e = evaluate(evaluator, state({angles, theta, -angles / 2}, {phid, 0.0, psid}));
        CHECK(std::abs((*e.qdd)[1]) <= 1e-9);
        CHECK(std::abs((*e.qdd)[0]) <= 1e-9);
        CHECK(std::abs((*e.qdd)[2]) <= 1e-9);
      }
    }
}

TEST_CASE("spatial body: the body-frame angular velocity of z-x-z Euler angles", "[mechanics]") {
  // An asymmetric body with a full inertia tensor, its centre of mass fixed:
  // T = 1/2*w^T*I*w with the body components of the angular velocity
  //   w1 = phi'*sin(theta)*sin(psi) + theta'*cos(psi),
  //   w2 = phi'*sin(theta)*cos(psi) - theta'*sin(psi),
  //   w3 = phi'*cos(theta) + psi'.
  const char *text = R"(
import "spatial.mech"
model Asymmetric {
  param m = 1 [kg], A = 0.7 [kg*m^2], B = 1.1 [kg*m^2], C = 1.6 [kg*m^2], E = 0.2 [kg*m^2]
  coord phi [rad], theta [rad], psi [rad]
  body b mass m at [0, 0, 0] rotation euler_zxz(phi, theta, psi) inertia [[A, E, 0], [E, B, 0], [0, 0, C]]
}
)";
  auto d = test::derive(text);
  double A = 0.7, B = 1.1, C = 1.6, E = 0.2;
  Evaluator evaluator(d->equations(), d->params());
  test::Lcg random(3);
  for (int i = 0; i < 20; ++i) {
    double phi = random.uniform(-3, 3), theta = random.uniform(0.2, 2.9),
           psi = random.uniform(-3, 3);
    double phid = random.uniform(-4, 4), thetad = random.uniform(-4, 4),
           psid = random.uniform(-4, 4);
    INFO("phi = " << phi << ", theta = " << theta << ", psi = " << psi);
    Evaluation e = evaluate(evaluator, state({phi, theta, psi}, {phid, thetad, psid}));
    double w1 = phid * std::sin(theta) * std::sin(psi) + thetad * std::cos(psi);
    double w2 = phid * std::sin(theta) * std::cos(psi) - thetad * std::sin(psi);
    double w3 = phid * std::cos(theta) + psid;
    double T = (A * w1 * w1 + 2 * E * w1 * w2 + B * w2 * w2 + C * w3 * w3) / 2;
    double scale = C * (phid * phid + thetad * thetad + psid * psid);
    MECH_CHECK_NEAR(e.T, T, kRel, scale);
    // M_jk = sum over the body axes of I * dw/dq_j' * dw/dq_k'.
    double dw[3][3] = {{std::sin(theta) * std::sin(psi), std::cos(psi), 0},
                       {std::sin(theta) * std::cos(psi), -std::sin(psi), 0},
                       {std::cos(theta), 0, 1}};
    double I[3][3] = {{A, E, 0}, {E, B, 0}, {0, 0, C}};
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) {
        double Mjk = 0;
        for (int a = 0; a < 3; ++a)
          for (int b = 0; b < 3; ++b)
            Mjk += dw[a][j] * I[a][b] * dw[b][k];
        MECH_CHECK_NEAR(e.M[static_cast<size_t>(j)][static_cast<size_t>(k)], Mjk, kRel, C);
      }
  }
}

// --- pendulum with a vertically driven support ---------------------------------------

TEST_CASE("pendulum with a vertically driven support", "[mechanics]") {
  auto d = test::derive(kDrivenSupport);
  const mechanics::Equations &eq = d->equations();
  CHECK(eq.hasExplicitTime);
  CHECK_FALSE(eq.conservative);
  CHECK(eq.f[0].has(sym::kHasTime));
  CHECK_FALSE(eq.T1.isZero());
  CHECK_FALSE(eq.T0.isZero());
  CHECK(eq.Qnc[0].isZero());
  double m = 0.7, l = 0.9, g = 9.81, A = 0.05, w = 30;
  Evaluator evaluator(eq, d->params());
  for (double t : {0.0, 0.013, 0.05, 0.1, 0.31})
    for (double th : {-2.0, 0.3, 1.4})
      for (double thd : {0.0, 2.2}) {
        INFO("t = " << t << ", th = " << th << ", th' = " << thd);
        mechanics::State s = state({th}, {thd}, t);
        Evaluation e = evaluate(evaluator, s);
        // The support accelerates by -A*w^2*cos(w*t): the bob feels the
        // gravity g - A*w^2*cos(w*t) in the support's frame.
        double geff = g - A * w * w * std::cos(w * t);
        double scale = (g + A * w * w) / l;
        MECH_CHECK_NEAR((*e.qdd)[0], -geff / l * std::sin(th), kRel, scale);
        double T2 = m * l * l * thd * thd / 2;
        double T1 = -m * A * w * l * std::sin(w * t) * std::sin(th) * thd;
        double T0 = m * A * A * w * w * std::sin(w * t) * std::sin(w * t) / 2;
        double energyScale = m * (l * thd + A * w) * (l * thd + A * w);
        auto parts = test::evaluateExpressions(eq, {eq.T2, eq.T1, eq.T0}, d->params(), s);
        MECH_CHECK_NEAR(parts[0], T2, kRel, energyScale);
        MECH_CHECK_NEAR(parts[1], T1, kRel, energyScale);
        MECH_CHECK_NEAR(parts[2], T0, kRel, energyScale);
        MECH_CHECK_NEAR(e.T, T2 + T1 + T0, kRel, energyScale);
        MECH_CHECK_NEAR(e.V, m * g * (A * std::cos(w * t) - l * std::cos(th)), kRel, m * g * l);
      }
}

// --- bead on a rotating hoop ------------------------------------------------------

TEST_CASE("bead on a rotating hoop", "[mechanics]") {
  for (double W : {6.0, 1.5}) {
    auto d = test::derive(kRotatingHoop, test::overrides({{"W", W}}));
    const mechanics::Equations &eq = d->equations();
    double m = 0.3, R = 0.5, g = 9.81;
    CHECK(eq.Qnc[0].isZero());
    CHECK_FALSE(mechanics::simplified(eq).L.has(sym::kHasTime));
    Evaluator evaluator(eq, d->params());
    for (double t : {0.0, 0.37, 2.0})
      for (double th : {-2.0, 0.3, 1.0, 2.9})
        for (double thd : {0.0, -1.4}) {
          INFO("W = " << W << ", t = " << t << ", th = " << th << ", th' = " << thd);
          mechanics::State s = state({th}, {thd}, t);
          Evaluation e = evaluate(evaluator, s);
          double scale = W * W + g / R;
          MECH_CHECK_NEAR((*e.qdd)[0], std::sin(th) * (W * W * std::cos(th) - g / R), kRel, scale);
          auto parts = test::evaluateExpressions(eq, {eq.T2, eq.T1, eq.T0}, d->params(), s);
          double energyScale = m * R * R * (thd * thd + W * W);
          MECH_CHECK_NEAR(parts[0], m * R * R * thd * thd / 2, kRel, energyScale);
          MECH_CHECK_NEAR(parts[1], 0.0, kRel, energyScale);
          MECH_CHECK_NEAR(parts[2], m * R * R * W * W * std::sin(th) * std::sin(th) / 2, kRel,
                          energyScale);
          MECH_CHECK_NEAR(e.V, -m * g * R * std::cos(th), kRel, m * g * R);
        }
  }
}

// The hoop turns at a constant rate, so L = T - V has no explicit t (the t
// in the positions cancels in |r'|^2, as the simplified L shows), and the
// Jacobi integral T2 - T0 + V is conserved.
TEST_CASE("bead on a rotating hoop: L has no explicit t", "[mechanics]") {
  auto d = test::derive(kRotatingHoop);
  const mechanics::Equations &eq = d->equations();
  CHECK_FALSE(mechanics::simplified(eq).L.has(sym::kHasTime));
  CHECK_FALSE(eq.hasExplicitTime);
  CHECK(eq.conservative);
}

// --- elastic pendulum -------------------------------------------------------------

TEST_CASE("elastic pendulum: a spring with a rest length", "[mechanics]") {
  auto d = test::derive(kElasticPendulum);
  double m = 0.4, k = 30, L0 = 0.5, g = 9.81;
  Evaluator evaluator(d->equations(), d->params());
  const double states[][4] = {
      {0.3, -0.6, 0.0, 0.0}, {-0.2, -0.1, 1.0, 2.0}, {0.9, 0.4, -0.5, 0.0}, {0.0, -0.5, 0.3, 0.3}};
  for (const auto &st : states) {
    double x = st[0], y = st[1];
    INFO("x = " << x << ", y = " << y);
    Evaluation e = evaluate(evaluator, state({x, y}, {st[2], st[3]}));
    double r = std::hypot(x, y);
    double pull = k / m * (1 - L0 / r);
    double scale = k / m * (r + L0) + g;
    MECH_CHECK_NEAR((*e.qdd)[0], -pull * x, kRel, scale);
    MECH_CHECK_NEAR((*e.qdd)[1], -pull * y - g, kRel, scale);
    MECH_CHECK_NEAR(e.V, k / 2 * (r - L0) * (r - L0) + m * g * y, kRel, k * L0 * L0 + m * g);
  }
}

// --- indexed families and units -----------------------------------------------------

TEST_CASE("a chain of two links is the double pendulum", "[mechanics]") {
  for (const char *settings : {"n = 2", "n = 2, m = 0.6, l = 0.35"}) {
    auto loaded = test::loadExample("chain.mech", {settings});
    REQUIRE(loaded->equations().coordinates == std::vector<std::string>{"th[1]", "th[2]"});
    Params values = paramsOf(loaded->model());
    double m = values("m"), l = values("l");
    checkDoublePendulum(loaded->equations(), loaded->paramValues(), {m, m, l, l, values("g")});
  }
}

TEST_CASE("parameters given in other units are converted to SI", "[mechanics]") {
  const char *text = R"(
model CentimetrePendulum {
  param m = 250 [g], l = 30 [cm], g = 981 [cm/s^2]
  coord th [rad]
  particle bob mass m at l * [sin(th), -cos(th)]
  gravity [0, -g]
  init th = 30 [deg]
}
)";
  auto d = test::derive(text);
  CHECK(d->param("m") == Approx(0.25).epsilon(1e-15));
  CHECK(d->param("l") == Approx(0.3).epsilon(1e-15));
  CHECK(d->param("g") == Approx(9.81).epsilon(1e-15));
  std::vector<double> initial = d->model().initialState();
  MECH_CHECK_NEAR(initial[0], test::kPi / 6, kRel, 0);
  Evaluator evaluator(d->equations(), d->params());
  for (double th : {initial[0], -1.0, 2.0}) {
    Evaluation e = evaluate(evaluator, state({th}, {0.5}));
    MECH_CHECK_NEAR((*e.qdd)[0], -9.81 / 0.3 * std::sin(th), kRel, 9.81 / 0.3);
    MECH_CHECK_NEAR(e.T, 0.25 * 0.09 * 0.25 / 2, kRel, 0);
  }
}

// --- outputs ---------------------------------------------------------------------

TEST_CASE("outputs are evaluated with the solved accelerations", "[mechanics]") {
  const char *text = R"(
model PendulumOutputs {
  param m = 0.7 [kg], l = 1.3 [m], g = 9.81 [m/s^2]
  coord th [rad]
  let bob = l * [sin(th), -cos(th)]
  particle b mass m at bob
  gravity [0, -g]
  output tension = m*l*th'^2 + m*g*cos(th)
  output alpha = th''
  output height = bob.y
}
)";
  auto d = test::derive(text);
  REQUIRE(d->equations().outputNames == std::vector<std::string>{"tension", "alpha", "height"});
  double m = 0.7, l = 1.3, g = 9.81;
  Evaluator evaluator(d->equations(), d->params());
  for (double th : {-1.0, 0.2, 2.5})
    for (double w : {0.0, 3.0}) {
      Evaluation e = evaluate(evaluator, state({th}, {w}));
      REQUIRE(e.outputs.size() == 3);
      MECH_CHECK_NEAR(e.outputs[0], m * l * w * w + m * g * std::cos(th), kRel, m * g);
      MECH_CHECK_NEAR(e.outputs[1], -g / l * std::sin(th), kRel, g / l);
      MECH_CHECK_NEAR(e.outputs[2], -l * std::cos(th), kRel, l);
    }
}

// --- damped forced oscillator -----------------------------------------------------

TEST_CASE("damped forced oscillator", "[mechanics]") {
  for (const char *text : {kOscillatorForce, kOscillatorGeneralized})
    for (auto options : {sema::AnalysisOptions{}, test::overrides({{"c", 1.1}, {"w", 0.25}})}) {
      auto d = test::derive(text, options);
      const mechanics::Equations &eq = d->equations();
      CHECK_FALSE(eq.conservative);
      CHECK(eq.Qdim[0].dimension == sema::Dimension::force());
      double m = d->param("m"), k = d->param("k"), c = d->param("c"), F0 = d->param("F0"),
             w = d->param("w");
      Evaluator evaluator(eq, d->params());
      for (double t : {0.0, 0.9, 4.4})
        for (double x : {-0.7, 0.0, 1.3})
          for (double xd : {0.0, 2.0, -0.6}) {
            INFO("t = " << t << ", x = " << x << ", x' = " << xd);
            Evaluation e = evaluate(evaluator, state({x}, {xd}, t));
            double Qnc = -c * xd + F0 * std::cos(w * t);
            double scale = k * std::abs(x) + c * std::abs(xd) + F0;
            MECH_CHECK_NEAR(e.Qnc[0], Qnc, kRel, scale);
            MECH_CHECK_NEAR(e.Q[0], -k * x + Qnc, kRel, scale);
            MECH_CHECK_NEAR((*e.qdd)[0], (-k * x - c * xd + F0 * std::cos(w * t)) / m, kRel,
                            scale / m);
            MECH_CHECK_NEAR(e.T, m * xd * xd / 2, kRel, 0);
            MECH_CHECK_NEAR(e.V, k * x * x / 2, kRel, 0);
          }
    }
}

// --- what the derivation refuses --------------------------------------------------

// --- constraints: Phi, C and gamma against hand derivations -------------------

namespace {

// Phi, the rows of C and gamma of constraint i at a state.
struct ConstraintValues {
  double phi, gamma;
  std::vector<double> C;
};
ConstraintValues constraintAt(const test::DerivedModel &d, size_t i, const mechanics::State &s) {
  const auto &k = d.equations().constraints.at(i);
  std::vector<sym::Expr> exprs = {k.phi, k.gamma};
  exprs.insert(exprs.end(), k.C.begin(), k.C.end());
  std::vector<double> v = test::evaluateExpressions(d.equations(), exprs, d.params(), s);
  return {v[0], v[1], std::vector<double>(v.begin() + 2, v.end())};
}

} // namespace

TEST_CASE("a holonomic constraint: Phi, C = dPhi/dq and gamma by hand", "[mechanics]") {
  auto d = test::derive(R"(
model CartesianPendulum {
  param m = 1 [kg], l = 1.5 [m], g = 9.81 [m/s^2]
  coord x [m], y [m]
  particle bob mass m at [x, y]
  gravity [0, -g]
  constraint rod: x^2 + y^2 == l^2
})");
  const auto &k = d->equations().constraints.at(0);
  CHECK(k.name == "rod");
  CHECK(k.holonomic);
  for (auto [x, y, vx, vy] : {std::array{0.3, -1.2, 0.7, -0.2}, std::array{-1.0, 0.4, 2.0, 1.5}}) {
    ConstraintValues v = constraintAt(*d, 0, test::state({x, y}, {vx, vy}));
    MECH_CHECK_NEAR(v.phi, x * x + y * y - 1.5 * 1.5, 1e-14, 1e-14);
    MECH_CHECK_NEAR(v.C[0], 2 * x, 1e-14, 0);
    MECH_CHECK_NEAR(v.C[1], 2 * y, 1e-14, 0);
    // d/dt(2x x' + 2y y') = 2x'^2 + 2y'^2 + (C q''): gamma = -2(x'^2 + y'^2).
    MECH_CHECK_NEAR(v.gamma, -2 * (vx * vx + vy * vy), 1e-14, 0);
  }
  // Baumgarte: gamma - 2a psi - b^2 Phi, off the constraint (x, y) = (1, 1).
  auto stabilized = mechanics::baumgarteStabilized(d->equations(), 3, 2);
  const auto &s = stabilized.constraints.at(0);
  {
    double x = 1, y = 1, vx = 0.5, vy = -0.25;
    auto v = test::evaluateExpressions(stabilized, {s.gamma}, d->params(),
                                       test::state({x, y}, {vx, vy}));
    double psi = 2 * x * vx + 2 * y * vy, phi = x * x + y * y - 1.5 * 1.5;
    MECH_CHECK_NEAR(v[0], -2 * (vx * vx + vy * vy) - 2 * 3 * psi - 4 * phi, 1e-14, 0);
  }
  // Writing the sides the other way round flips Phi (and so lambda) only.
  auto flipped = test::derive(R"(
model CartesianPendulum {
  param m = 1 [kg], l = 1.5 [m], g = 9.81 [m/s^2]
  coord x [m], y [m]
  particle bob mass m at [x, y]
  gravity [0, -g]
  constraint rod: l^2 == x^2 + y^2
})");
  ConstraintValues a = constraintAt(*d, 0, test::state({0.3, -1.2}, {0.7, -0.2}));
  ConstraintValues b = constraintAt(*flipped, 0, test::state({0.3, -1.2}, {0.7, -0.2}));
  MECH_CHECK_NEAR(b.phi, -a.phi, 1e-14, 1e-14);
  MECH_CHECK_NEAR(b.C[0], -a.C[0], 1e-14, 0);
  MECH_CHECK_NEAR(b.gamma, -a.gamma, 1e-14, 0);
}

TEST_CASE("a rheonomic constraint: a pendulum whose length is a given function of t",
          "[mechanics]") {
  auto d = test::derive(R"(
model Winch {
  param m = 1 [kg], l0 = 1 [m], a = 0.2 [m], w = 3 [1/s], g = 9.81 [m/s^2]
  coord x [m], y [m]
  particle bob mass m at [x, y]
  gravity [0, -g]
  constraint rope: x^2 + y^2 == (l0 + a*sin(w*t))^2
})");
  CHECK_FALSE(d->equations().conservative);
  double x = 0.5, y = -0.9, vx = 0.3, vy = 0.8, t = 0.7;
  ConstraintValues v = constraintAt(*d, 0, test::state({x, y}, {vx, vy}, t));
  double l = 1 + 0.2 * std::sin(3 * t), ld = 0.6 * std::cos(3 * t), ldd = -1.8 * std::sin(3 * t);
  MECH_CHECK_NEAR(v.phi, x * x + y * y - l * l, 1e-14, 1e-14);
  // psi = 2x x' + 2y y' - 2 l l'; gamma = -(2x'^2 + 2y'^2 - 2 l'^2 - 2 l l'').
  MECH_CHECK_NEAR(v.gamma, -(2 * vx * vx + 2 * vy * vy - 2 * ld * ld - 2 * l * ldd), 1e-13, 0);
}

TEST_CASE("a nonholonomic constraint: the knife edge", "[mechanics]") {
  auto d = test::derive(R"(
model KnifeEdge {
  param m = 1 [kg], J = 0.1 [kg*m^2]
  coord x [m], y [m], phi [rad]
  body skate mass m at [x, y] angle phi inertia J
  constraint sideways: x' * sin(phi) - y' * cos(phi) == 0
})");
  const auto &k = d->equations().constraints.at(0);
  CHECK_FALSE(k.holonomic);
  double phi = 0.8, vx = 1.1, vy = -0.4, w = 2.5;
  ConstraintValues v = constraintAt(*d, 0, test::state({0.1, 0.2, phi}, {vx, vy, w}));
  MECH_CHECK_NEAR(v.C[0], std::sin(phi), 1e-14, 0);
  MECH_CHECK_NEAR(v.C[1], -std::cos(phi), 1e-14, 0);
  CHECK(v.C[2] == 0);
  // d/dt(x' sin(phi) - y' cos(phi)) without q'': (x' cos(phi) + y' sin(phi)) phi'.
  MECH_CHECK_NEAR(v.gamma, -(vx * std::cos(phi) + vy * std::sin(phi)) * w, 1e-14, 0);
}

TEST_CASE("constraints that are not linear in the velocities are refused", "[mechanics]") {
  auto d = test::tryDerive(R"(
model A {
  coord x [m], y [m]
  particle p mass 1 [kg] at [x, y]
  constraint speed: x'^2 + y'^2 == 1 [m^2/s^2]
})");
  CHECK_FALSE(d->derivation.has_value());
  std::string messages = allMessages(d->session.diagnostics());
  INFO(messages);
  CHECK(contains(messages, "constraint 'speed' is not linear in the velocities"));
}

TEST_CASE("a kinetic energy that is not quadratic in the velocities is refused", "[mechanics]") {
  for (const char *T : {"m*x'^4", "m*x'^3 + m*x'^2", "m*x'^2*y'^2 + m*y'^2"}) {
    std::string text =
        "model NotQuadratic {\n  param m = 1\n  coord x, y\n  kinetic T = " + std::string(T) +
        "\n}\n";
    INFO(text);
    auto d = test::tryDerive(text);
    CHECK_FALSE(d->derivation.has_value());
    std::string messages = allMessages(d->session.diagnostics());
    INFO(messages);
    CHECK(contains(messages, "not a polynomial of degree 2 in the velocities"));
  }
}

TEST_CASE("a coordinate without inertia makes the mass matrix singular", "[mechanics]") {
  const char *text = R"(
model NoInertia {
  param m = 1 [kg], k = 2 [N/m], K = 0.5 [N*m]
  coord x [m], phi [rad]
  kinetic T = m/2 * x'^2
  potential V = k/2 * x^2 + K * (1 - cos(phi))
}
)";
  auto d = test::derive(text);
  Evaluator evaluator(d->equations(), d->params());
  for (double phi : {0.0, 0.8}) {
    Diagnostics diagnostics;
    std::optional<Evaluation> e = evaluator.at(state({0.3, phi}, {0.1, 2.0}), diagnostics);
    CHECK_FALSE(e.has_value());
    std::string messages = allMessages(diagnostics);
    INFO(messages);
    CHECK(diagnostics.hasErrors());
    CHECK(contains(messages, "mass matrix is singular"));
    CHECK(contains(messages, "coordinate 'phi' has no inertia"));
    CHECK_FALSE(contains(messages, "'x'"));
  }
}

TEST_CASE("a mass matrix that is singular at one state names the coordinate there", "[mechanics]") {
  // The bead at the pivot (s = 0): M = diag(m, m*s^2) loses the rod angle.
  auto loaded = test::loadExample("bead_on_rod.mech");
  Evaluator evaluator(loaded->equations(), loaded->paramValues());
  Diagnostics diagnostics;
  CHECK_FALSE(evaluator.at(state({0.0, 0.4}, {1.0, 0.5}), diagnostics).has_value());
  std::string messages = allMessages(diagnostics);
  INFO(messages);
  CHECK(contains(messages, "coordinate 'phi' has no inertia"));
  // Away from the pivot it is regular again.
  Evaluation e = evaluate(evaluator, state({0.1, 0.4}, {1.0, 0.5}));
  MECH_CHECK_NEAR((*e.qdd)[1], -(9.81 * std::sin(0.4) + 2 * 1.0 * 0.5) / 0.1, kRel, 0);
}

TEST_CASE("a model without inertia evaluates with undefined accelerations", "[mechanics]") {
  const char *text = R"(
model Static {
  param k = 2 [N/m], F = 0.5 [N]
  coord x [m]
  potential V = k/2 * x^2
  generalized F on x
}
)";
  auto d = test::derive(text);
  Evaluator evaluator(d->equations(), d->params());
  Diagnostics diagnostics;
  std::optional<Evaluation> e = evaluator.at(state({0.3}, {0.0}), diagnostics);
  REQUIRE(e.has_value());
  CHECK_FALSE(diagnostics.hasErrors());
  CHECK_FALSE(e->qdd.has_value());
  REQUIRE(e->notes.size() == 1);
  CHECK(contains(e->notes[0], "no inertia"));
  CHECK(e->T == 0.0);
  MECH_CHECK_NEAR(e->V, 2.0 / 2 * 0.3 * 0.3, kRel, 0);
  MECH_CHECK_NEAR(e->Q[0], -2.0 * 0.3 + 0.5, kRel, 1);
  MECH_CHECK_NEAR(e->Qnc[0], 0.5, kRel, 0);
}
