// The checked model: what semantic analysis builds from small models. Values
// are worked out by hand; expressions are evaluated by a small evaluator of
// the test's own at given coordinate values.
#include "TestSupport.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <string>
#include <vector>

using namespace mech;
using sema::CheckedModel;
using sema::ExprKind;
using sema::ExprRef;

namespace {

constexpr double kPi = 3.141592653589793;

// Analyses text that must check cleanly.
struct Checked {
  test::Session session;
  sema::Analysis analysis;
  const CheckedModel &model() const { return *analysis.model; }
};

std::unique_ptr<Checked> check(const std::string &text, const sema::AnalysisOptions &options = {}) {
  auto result = std::make_unique<Checked>();
  result->analysis = result->session.analyze(text, options);
  INFO(text << "\n" << result->session.messages());
  REQUIRE(result->analysis.ok);
  REQUIRE(result->analysis.model != nullptr);
  return result;
}

const sema::Param &param(const CheckedModel &model, const std::string &name) {
  for (const sema::Param &p : model.params)
    if (p.name == name)
      return p;
  FAIL("no param " << name);
  throw; // unreachable
}

const sema::Let &let(const CheckedModel &model, const std::string &name) {
  for (const sema::Let &l : model.lets)
    if (l.name == name)
      return l;
  FAIL("no let " << name);
  throw; // unreachable
}

int coordIndex(const CheckedModel &model, const std::string &name) {
  for (size_t i = 0; i < model.coords.size(); ++i)
    if (model.coords[i].name == name)
      return static_cast<int>(i);
  FAIL("no coordinate " << name);
  return -1;
}

// Evaluates a scalar expression of params, coordinates (at q) and lets.
double evaluate(const ExprRef &e, const CheckedModel &model, const std::vector<double> &q) {
  auto child = [&](size_t i) { return evaluate(e->children[i], model, q); };
  switch (e->kind) {
  case ExprKind::Number:
    return e->value;
  case ExprKind::Pi:
    return kPi;
  case ExprKind::Param:
    return model.params[static_cast<size_t>(e->index)].value;
  case ExprKind::Coord:
    return q.at(static_cast<size_t>(e->index));
  case ExprKind::Let:
    return evaluate(model.lets[static_cast<size_t>(e->index)].value, model, q);
  case ExprKind::Neg:
    return -child(0);
  case ExprKind::Add: {
    double sum = 0;
    for (size_t i = 0; i < e->children.size(); ++i)
      sum += child(i);
    return sum;
  }
  case ExprKind::Mul: {
    double product = 1;
    for (size_t i = 0; i < e->children.size(); ++i)
      product *= child(i);
    return product;
  }
  case ExprKind::Pow:
    return std::pow(child(0), child(1));
  case ExprKind::Call:
    switch (e->builtin) {
    case sema::Builtin::Sin:
      return std::sin(child(0));
    case sema::Builtin::Cos:
      return std::cos(child(0));
    case sema::Builtin::Sqrt:
      return std::sqrt(child(0));
    default:
      break;
    }
    break;
  case ExprKind::Component: {
    const ExprRef &vector = e->children[0];
    if (vector->kind == ExprKind::Vector)
      return evaluate(vector->children[static_cast<size_t>(e->index)], model, q);
    break;
  }
  default:
    break;
  }
  FAIL("the test evaluator does not handle " << sema::exprKindName(e->kind));
  return 0;
}

// The components of a vector expression: a Vector node, a scalar times a
// vector, or a let holding one.
std::vector<double> evaluateVector(const ExprRef &e, const CheckedModel &model,
                                   const std::vector<double> &q) {
  if (e->kind == ExprKind::Vector) {
    std::vector<double> out;
    for (const ExprRef &c : e->children)
      out.push_back(evaluate(c, model, q));
    return out;
  }
  if (e->kind == ExprKind::Let)
    return evaluateVector(model.lets[static_cast<size_t>(e->index)].value, model, q);
  if (e->kind == ExprKind::Mul) {
    double scale = 1;
    std::vector<double> vector;
    for (const ExprRef &c : e->children) {
      if (c->shape.isScalar())
        scale *= evaluate(c, model, q);
      else
        vector = evaluateVector(c, model, q);
    }
    for (double &x : vector)
      x *= scale;
    return vector;
  }
  FAIL("the test evaluator does not handle the vector " << sema::exprKindName(e->kind));
  return {};
}

std::string dimensionOf(const sema::DimInfo &dim) {
  return dim.isKnown() ? dim.dimension.toString() : dim.toString();
}

const char *kCartesianPendulum = R"(
model CartesianPendulum {
  param m = 1 [kg], l = 1 [m], g = 9.81 [m/s^2]
  coord x [m], y [m]
  particle bob mass m at [x, y]
  gravity [0, -g]
  constraint rod: x^2 + y^2 == l^2
  init x = 0.6, y = -0.8
  output tension = -2 * l * rod
}
)";

const char *kKnifeEdge = R"(
model KnifeEdge {
  param m = 1 [kg], J = 0.1 [kg*m^2], F = 1 [N]
  coord x [m], y [m], phi [rad]
  body skate mass m at [x, y] angle phi inertia J
  constraint sideways: x' * sin(phi) - y' * cos(phi) == 0
  force F * [cos(phi), sin(phi)] at [x, y]
  init phi' = 1
}
)";

const char *kChain = R"(
model Chain {
  param n = 4, m = 1 [kg], l = 1 [m], g = 9.81 [m/s^2]
  coord th[1..n] [rad]
  let x[k in 1..n] = sum(i in 1..k, l * sin(th[i]))
  let y[k in 1..n] = -sum(i in 1..k, l * cos(th[i]))
  for k in 1..n { particle bob[k] mass m at [x[k], y[k]] }
  gravity [0, -g]
  init th[1] = 0.5
}
)";

} // namespace

TEST_CASE("the multiplier of a constraint has the dimension of work (or power) over its function",
          "[sema][constraints]") {
  struct Case {
    const char *name;
    std::string text;
    std::vector<std::pair<std::string, std::string>> multipliers; // name, dimension
  };
  const std::vector<Case> cases = {
      // Phi = x^2 + y^2 - l^2 in m^2: lambda in J/m^2 = kg/s^2.
      {"Cartesian pendulum", kCartesianPendulum, {{"rod", "kg/s^2"}}},
      // Nonholonomic Phi in m/s: lambda in W/(m/s) = kg*m/s^2, a force.
      {"knife edge", kKnifeEdge, {{"sideways", "kg*m/s^2"}}},
      {"holonomic, angles",
       "model A { coord a [rad], b [rad]\n constraint same: a == b }",
       {{"same", "kg*m^2/s^2"}}},
      {"holonomic, length",
       "model A { coord x [m]\n constraint x == 1 [m] }",
       {{"c1", "kg*m/s^2"}}},
      // Nonholonomic Phi in 1/s: lambda in W/(1/s) = J.
      {"nonholonomic, angular rate",
       "model A { coord a [rad], b [rad]\n constraint roll: a' == b' }",
       {{"roll", "kg*m^2/s^2"}}},
      {"unnamed constraints are numbered",
       "model A { coord x [m], y [m]\n constraint x == 0\n constraint y == 0 }",
       {{"c1", "kg*m/s^2"}, {"c2", "kg*m/s^2"}}},
      {"no dimension known",
       "model A { coord u, v\n constraint link: u == v }",
       {{"link", "unchecked"}}},
  };
  for (const Case &c : cases) {
    DYNAMIC_SECTION(c.name) {
      auto checked = check(c.text);
      const CheckedModel &model = checked->model();
      REQUIRE(model.constraints.size() == c.multipliers.size());
      for (size_t i = 0; i < c.multipliers.size(); ++i) {
        CHECK(model.constraints[i].name == c.multipliers[i].first);
        CHECK(dimensionOf(model.constraints[i].multiplierDim) == c.multipliers[i].second);
      }
    }
  }
}

TEST_CASE("an indexed family of coordinates expands to its members", "[sema][families]") {
  auto checked = check(kChain);
  const CheckedModel &model = checked->model();
  REQUIRE(model.coords.size() == 4);
  for (long k = 1; k <= 4; ++k) {
    const sema::Coord &coord = model.coords[static_cast<size_t>(k - 1)];
    CHECK(coord.name == "th[" + std::to_string(k) + "]");
    CHECK(coord.family == "th");
    CHECK(coord.indices == std::vector<long>{k});
    CHECK(dimensionOf(coord.dim) == "1");
  }
  REQUIRE(model.particles.size() == 4);
  CHECK(model.particles[0].name == "bob[1]");
  CHECK(model.particles[3].name == "bob[4]");
  CHECK(model.gravity.size() == 1);
}

TEST_CASE("let families: sums over the members and references to earlier members",
          "[sema][families]") {
  auto checked = check(kChain);
  const CheckedModel &model = checked->model();
  const std::vector<double> th = {0.1, 0.2, 0.3, 0.4};
  double x = 0, y = 0;
  for (int k = 1; k <= 4; ++k) {
    x += std::sin(th[static_cast<size_t>(k - 1)]);
    y -= std::cos(th[static_cast<size_t>(k - 1)]);
    std::string index = "[" + std::to_string(k) + "]";
    CHECK(evaluate(let(model, "x" + index).value, model, th) == Approx(x).epsilon(1e-14));
    CHECK(evaluate(let(model, "y" + index).value, model, th) == Approx(y).epsilon(1e-14));
    CHECK(dimensionOf(let(model, "x" + index).value->dim) == "m");
  }
  // The bob of the last link sits at the tip of the chain.
  std::vector<double> tip = evaluateVector(model.particles[3].position, model, th);
  REQUIRE(tip.size() == 2);
  CHECK(tip[0] == Approx(x).epsilon(1e-14));
  CHECK(tip[1] == Approx(y).epsilon(1e-14));

  SECTION("x[k-1] in a family and member by member in a for block") {
    auto recurrences = check(R"(
model R {
  param n = 4
  coord q [m]
  let c[k in 1..n] = k^2
  let d[k in 2..n] = c[k] - c[k-1]
  let f[1] = 1
  for k in 2..5 { let f[k] = k * f[k-1] }
  let s[k in 1..n] = 1 + sum(i in 1..k-1, s[i])
  let r[k in 1..n] = k * q
}
)");
    const CheckedModel &m = recurrences->model();
    CHECK(evaluate(let(m, "d[2]").value, m, {0}) == 3);
    CHECK(evaluate(let(m, "d[3]").value, m, {0}) == 5);
    CHECK(evaluate(let(m, "d[4]").value, m, {0}) == 7);
    CHECK(evaluate(let(m, "f[5]").value, m, {0}) == 120);
    CHECK(evaluate(let(m, "s[1]").value, m, {0}) == 1);
    CHECK(evaluate(let(m, "s[4]").value, m, {0}) == 8);
    CHECK(evaluate(let(m, "r[3]").value, m, {0.5}) == 1.5);
    CHECK(dimensionOf(let(m, "r[3]").value->dim) == "m");
  }
}

TEST_CASE("a sum over an empty range is zero", "[sema][families]") {
  auto checked = check(R"(
model E {
  param n = 0
  coord x [m]
  let a = sum(i in 3..1, x)
  let b = sum(i in 1..n, 2 * x)
  let c = x + sum(i in 1..0, x)
}
)");
  const CheckedModel &model = checked->model();
  for (const char *name : {"a", "b"}) {
    const ExprRef &value = let(model, name).value;
    INFO(name);
    CHECK(value->kind == ExprKind::Number);
    CHECK(value->value == 0);
    CHECK(value->shape == sema::Shape::scalar());
  }
  CHECK(evaluate(let(model, "c").value, model, {2.5}) == 2.5);
}

TEST_CASE("params used as range bounds or indices are structural", "[sema][params]") {
  auto checked = check(R"(
model S {
  param n = 3, k = 2, m = 1 [kg], l = 2
  coord th[1..n] [rad]
  let a = th[k] * l
  let s = sum(i in 1..n, th[i])
}
)");
  const CheckedModel &model = checked->model();
  CHECK(param(model, "n").structural);
  CHECK(param(model, "k").structural);
  CHECK_FALSE(param(model, "m").structural);
  CHECK_FALSE(param(model, "l").structural);
}

TEST_CASE("a param reaching a range bound through a let is structural", "[sema][params]") {
  // n decides the number of coordinates through the let m.
  auto checked = check(R"(
model S {
  param n = 3
  let m = n + 1
  coord x[1..m] [m]
}
)");
  const CheckedModel &model = checked->model();
  CHECK(model.coords.size() == 4);
  CHECK(param(model, "n").structural);
}

TEST_CASE("overrides set param values before the model is expanded", "[sema][params]") {
  sema::AnalysisOptions options;
  options.overrides = {{"m", 2.5, {}, {}, 0}, {"n", 6, {}, {}, 0}};
  auto checked = check(kChain, options);
  const CheckedModel &model = checked->model();
  CHECK(param(model, "m").value == 2.5);
  CHECK(param(model, "m").overridden);
  CHECK(param(model, "n").value == 6);
  CHECK(param(model, "n").structural);
  CHECK_FALSE(param(model, "l").overridden);
  CHECK(param(model, "l").value == 1);
  REQUIRE(model.coords.size() == 6);
  CHECK(model.coords[5].name == "th[6]");
  CHECK(model.particles.size() == 6);
}

TEST_CASE("an override of a name that is not a param is an error", "[sema][params]") {
  for (const char *name : {"th", "bob", "nosuch"}) {
    DYNAMIC_SECTION(name) {
      test::Session session;
      sema::AnalysisOptions options;
      options.overrides = {{name, 1, {}, {}, 0}};
      sema::Analysis analysis = session.analyze(
          "model A { param m = 1 [kg]\n coord th [m]\n particle bob mass m at [th, 0] }", options);
      CHECK_FALSE(analysis.ok);
      CHECK(analysis.model == nullptr);
      CHECK(session.messages() ==
            "0:0: error: --set " + std::string(name) + ": '" + name + "' is not a param of A\n");
    }
  }
}

TEST_CASE("a param computed from an overridden param uses the new value", "[sema][params]") {
  // Defaults are computed from the values set with --set.
  sema::AnalysisOptions options;
  options.overrides = {{"a", 5, {}, {}, 0}};
  auto checked = check("model A { param a = 2 [m], b = 3*a }", options);
  CHECK(param(checked->model(), "a").value == 5);
  CHECK(param(checked->model(), "b").value == 15);
}

TEST_CASE("params computed from earlier params", "[sema][params]") {
  auto checked = check(R"(
model P {
  param a = 2 [m], b = 3*a, c = a^2/4, d = pi/4, e = 2*pi
  param w [1/s] = 2*pi, f = w/(2*pi), h = sqrt(b*a/3)
}
)");
  const CheckedModel &model = checked->model();
  CHECK(param(model, "b").value == Approx(6).epsilon(1e-15));
  CHECK(dimensionOf(param(model, "b").dim) == "m");
  CHECK(param(model, "c").value == Approx(1).epsilon(1e-15));
  CHECK(dimensionOf(param(model, "c").dim) == "m^2");
  CHECK(param(model, "d").value == Approx(0.7853981633974483).epsilon(1e-15));
  CHECK(param(model, "e").value == Approx(6.283185307179586).epsilon(1e-15));
  CHECK(param(model, "w").value == Approx(6.283185307179586).epsilon(1e-15));
  CHECK(param(model, "f").value == Approx(1).epsilon(1e-15));
  CHECK(dimensionOf(param(model, "f").dim) == "1/s");
  CHECK(param(model, "h").value == Approx(2).epsilon(1e-15));
  CHECK(dimensionOf(param(model, "h").dim) == "m");
}

TEST_CASE("init values are converted to SI and make the initial state", "[sema][init]") {
  auto checked = check(R"(
model I {
  param l = 2 [m]
  coord x [m], th [rad], s [m]
  init x = 30 [cm], th = 90 [deg], th' = 1 [rpm]
  init s' = l / 4 [s]
}
)");
  const CheckedModel &model = checked->model();
  REQUIRE(model.initial.size() == 4);
  CHECK(model.initial[0].coord == coordIndex(model, "x"));
  CHECK(model.initial[0].order == 0);
  CHECK(model.initial[2].coord == coordIndex(model, "th"));
  CHECK(model.initial[2].order == 1);
  std::vector<double> state = model.initialState();
  REQUIRE(state.size() == 6);
  // q = (x, th, s), then q' = (x', th', s').
  CHECK(state[0] == Approx(0.3).epsilon(1e-15));
  CHECK(state[1] == Approx(kPi / 2).epsilon(1e-15));
  CHECK(state[2] == 0);
  CHECK(state[3] == 0);
  CHECK(state[4] == Approx(2 * kPi / 60).epsilon(1e-15));
  CHECK(state[5] == Approx(0.5).epsilon(1e-15));
}

TEST_CASE("the initial state of the examples of the brief", "[sema][init]") {
  SECTION("Cartesian pendulum") {
    auto checked = check(kCartesianPendulum);
    CHECK(checked->model().initialState() == std::vector<double>{0.6, -0.8, 0, 0});
  }
  SECTION("knife edge") {
    auto checked = check(kKnifeEdge);
    CHECK(checked->model().initialState() == std::vector<double>{0, 0, 0, 0, 0, 1});
  }
  SECTION("chain: a member of a family") {
    auto checked = check(kChain);
    CHECK(checked->model().initialState() == std::vector<double>{0.5, 0, 0, 0, 0, 0, 0, 0});
  }
}

TEST_CASE("outputs may use multipliers and velocities and accelerations", "[sema][outputs]") {
  auto checked = check(kCartesianPendulum);
  const CheckedModel &model = checked->model();
  REQUIRE(model.outputs.size() == 1);
  CHECK(model.outputs[0].name == "tension");
  CHECK(model.outputs[0].value->usesMultiplier);
  // -2 * l * rod: m times kg/s^2, the dimension of a force.
  CHECK(dimensionOf(model.outputs[0].value->dim) == "kg*m/s^2");

  auto more = check(R"(
model O {
  param m = 1 [kg]
  coord x [m]
  kinetic T = m/2 * x'^2
  constraint stop: x == 0
  output push = m * x'' + stop
  output speed = x'
  output clock = t
}
)");
  const CheckedModel &o = more->model();
  REQUIRE(o.outputs.size() == 3);
  CHECK(o.outputs[0].value->usesMultiplier);
  CHECK(o.outputs[0].value->coordOrder == 2);
  CHECK(dimensionOf(o.outputs[0].value->dim) == "kg*m/s^2");
  CHECK(dimensionOf(o.outputs[1].value->dim) == "m/s");
  CHECK(o.outputs[2].value->usesTime);
  CHECK(dimensionOf(o.outputs[2].value->dim) == "s");
}

TEST_CASE("named energy terms can be referred to by name", "[sema][terms]") {
  auto checked = check(R"(
model N {
  param m = 2 [kg], k = 8 [N/m]
  coord x [m]
  kinetic Tx = m/2 * x'^2
  potential Vx = k/2 * x^2
  kinetic 0
  output energy = Tx + Vx
  let stiffness = Vx / x^2
}
)");
  const CheckedModel &model = checked->model();
  REQUIRE(model.kinetic.size() == 2);
  CHECK(model.kinetic[0].name == "Tx");
  CHECK(model.kinetic[1].name.empty());
  REQUIRE(model.potential.size() == 1);
  CHECK(model.potential[0].name == "Vx");
  REQUIRE(model.outputs.size() == 1);
  CHECK(dimensionOf(model.outputs[0].value->dim) == "kg*m^2/s^2");
  CHECK(dimensionOf(let(model, "stiffness").value->dim) == "kg/s^2");
  // Vx / x^2 = k/2 at any x.
  CHECK(evaluate(let(model, "stiffness").value, model, {0.7}) == Approx(4).epsilon(1e-14));
}

TEST_CASE("lets may be declared after their use", "[sema][lets]") {
  auto checked = check(R"(
model L {
  param l = 2 [m]
  coord th [rad]
  let tip = base + l * [sin(th), -cos(th)]
  let base = [offset, 0]
  let offset = half * l
  let half = 1/2
}
)");
  const CheckedModel &model = checked->model();
  std::vector<double> tip = evaluateVector(let(model, "tip").value->children[0], model, {0.3});
  REQUIRE(tip.size() == 2);
  CHECK(tip[0] == Approx(1).epsilon(1e-15));
  CHECK(tip[1] == 0);
  CHECK(dimensionOf(let(model, "tip").value->dim) == "m");
  CHECK(dimensionOf(let(model, "offset").value->dim) == "m");
}

TEST_CASE("defs of the standard library expand inside declarations", "[sema][defs]") {
  auto checked = check(R"(
import "planar.mech"
import "inertia.mech"
model P {
  param l = 2 [m], m = 3 [kg], g = 9.81 [m/s^2]
  coord th [rad]
  particle bob mass m at l * down(th)
  body rod mass m at l/2 * down(th) angle th inertia rod_center(m, l)
  gravity [0, -g]
}
)");
  const CheckedModel &model = checked->model();
  REQUIRE(model.particles.size() == 1);
  const ExprRef &position = model.particles[0].position;
  CHECK(position->shape == sema::Shape::vector(2));
  CHECK(dimensionOf(position->dim) == "m");
  // down(a) = [sin(a), -cos(a)]: the bob of a pendulum of length l.
  std::vector<double> bob = evaluateVector(position, model, {0.4});
  REQUIRE(bob.size() == 2);
  CHECK(bob[0] == Approx(2 * std::sin(0.4)).epsilon(1e-14));
  CHECK(bob[1] == Approx(-2 * std::cos(0.4)).epsilon(1e-14));
  REQUIRE(model.bodies.size() == 1);
  CHECK(model.bodies[0].planar);
  CHECK(dimensionOf(model.bodies[0].inertia->dim) == "kg*m^2");
  // A rod about its centre: m l^2 / 12 = 3 * 4 / 12.
  CHECK(evaluate(model.bodies[0].inertia, model, {0}) == Approx(1).epsilon(1e-14));
}

TEST_CASE("a def of the file and a def of the model expand", "[sema][defs]") {
  auto checked = check(R"(
def kin(m, v) = m/2 * dot(v, v)
def twice(x) = 2 * x
model D {
  param m = 1 [kg], l = 3 [m]
  def arm(a) = l * a
  coord q [m]
  let r = arm(twice(q / l))
  kinetic T = kin(m, [q', 0])
}
)");
  const CheckedModel &model = checked->model();
  CHECK(evaluate(let(model, "r").value, model, {0.25}) == Approx(0.5).epsilon(1e-15));
  CHECK(dimensionOf(let(model, "r").value->dim) == "m");
  REQUIRE(model.kinetic.size() == 1);
  CHECK(dimensionOf(model.kinetic[0].value->dim) == "kg*m^2/s^2");
}

TEST_CASE("coordinates carry the dimension of their unit", "[sema][coords]") {
  auto checked = check("model C { coord x [m], th [rad], s, u [kg] }");
  const CheckedModel &model = checked->model();
  REQUIRE(model.coords.size() == 4);
  CHECK(dimensionOf(model.coords[0].dim) == "m");
  CHECK(dimensionOf(model.coords[1].dim) == "1");
  CHECK(dimensionOf(model.coords[2].dim) == "unchecked");
  CHECK(dimensionOf(model.coords[3].dim) == "kg");
}
