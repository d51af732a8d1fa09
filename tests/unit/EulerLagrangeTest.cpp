// An independent check of the whole derivation: integrate a short arc with
// the accelerations the Evaluator solves from M q'' = f, then verify along
// the arc that it satisfies Lagrange's equations
//   d/dt(dL/dq_j') - dL/dq_j - Q_j^nc = 0,
// with every derivative taken by finite differences of a Lagrangian: one
// written by hand in C++ (from the positions of the masses), or, for every
// example without constraints, the derived L = T - V evaluated numerically.
// The integrator is a fixed-step RK4 written here; partial derivatives of L
// are central differences in q and q', the time derivative a five-point
// central difference along the arc.
#include "MechanicsTestSupport.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace mech;
using mechanics::State;
using test::state;
using namespace test::models;

namespace {

using Vec = std::vector<double>;
using Accelerations = std::function<Vec(const State &)>;
// L(q, q', t) and Q^nc(q, q', t).
using Lagrangian = std::function<double(const Vec &, const Vec &, double)>;
using Forces = std::function<Vec(const Vec &, const Vec &, double)>;

// The parameter values of a checked model, by name.
class Params {
public:
  explicit Params(const sema::CheckedModel &model) {
    for (const sema::Param &p : model.params)
      values_[p.name] = p.value;
  }
  double operator()(const std::string &name) const {
    auto found = values_.find(name);
    if (found == values_.end())
      FAIL("no param " << name);
    return found->second;
  }

private:
  std::map<std::string, double> values_;
};

// A fixed-step classical Runge-Kutta integration of q'' = a(t, q, q'); the
// arc holds the start and every step.
std::vector<State> integrate(const State &start, double h, int steps,
                             const Accelerations &accelerations) {
  size_t n = start.q.size();
  std::vector<State> arc = {start};
  State s = start;
  auto shifted = [&](const State &from, const Vec &dq, const Vec &dqd, double by) {
    State r = from;
    r.t = from.t + by;
    for (size_t j = 0; j < n; ++j) {
      r.q[j] += by * dq[j];
      r.qd[j] += by * dqd[j];
    }
    return r;
  };
  for (int i = 0; i < steps; ++i) {
    Vec v1 = s.qd, a1 = accelerations(s);
    State s2 = shifted(s, v1, a1, h / 2);
    Vec v2 = s2.qd, a2 = accelerations(s2);
    State s3 = shifted(s, v2, a2, h / 2);
    Vec v3 = s3.qd, a3 = accelerations(s3);
    State s4 = shifted(s, v3, a3, h);
    Vec v4 = s4.qd, a4 = accelerations(s4);
    for (size_t j = 0; j < n; ++j) {
      s.q[j] += h / 6 * (v1[j] + 2 * v2[j] + 2 * v3[j] + v4[j]);
      s.qd[j] += h / 6 * (a1[j] + 2 * a2[j] + 2 * a3[j] + a4[j]);
    }
    s.t = start.t + (i + 1) * h;
    arc.push_back(s);
  }
  return arc;
}

// dL/dq_j' by a central difference (exact but for rounding: L is quadratic
// in the velocities).
double momentum(const Lagrangian &L, const State &s, size_t j) {
  double delta = 1e-4 * std::max(1.0, std::abs(s.qd[j]));
  Vec plus = s.qd, minus = s.qd;
  plus[j] += delta;
  minus[j] -= delta;
  return (L(s.q, plus, s.t) - L(s.q, minus, s.t)) / (2 * delta);
}

// dL/dq_j by a central difference.
double generalizedGradient(const Lagrangian &L, const State &s, size_t j) {
  double delta = 1e-5 * std::max(1.0, std::abs(s.q[j]));
  Vec plus = s.q, minus = s.q;
  plus[j] += delta;
  minus[j] -= delta;
  return (L(plus, s.qd, s.t) - L(minus, s.qd, s.t)) / (2 * delta);
}

// The largest Euler-Lagrange residual along the arc, relative to the size
// of the terms of the equations on the arc (their largest magnitude: at an
// instant where every term passes through zero, a pointwise scale would
// measure the finite-difference error against nothing).
double worstResidual(const std::vector<State> &arc, double h, const Lagrangian &L,
                     const Forces &Qnc) {
  size_t n = arc.front().q.size();
  std::vector<Vec> p(arc.size(), Vec(n));
  for (size_t i = 0; i < arc.size(); ++i)
    for (size_t j = 0; j < n; ++j)
      p[i][j] = momentum(L, arc[i], j);
  double worst = 0, scale = 0;
  for (size_t i = 2; i + 2 < arc.size(); ++i) {
    const State &s = arc[i];
    Vec forces = Qnc ? Qnc(s.q, s.qd, s.t) : Vec(n, 0.0);
    for (size_t j = 0; j < n; ++j) {
      double dpdt = (-p[i + 2][j] + 8 * p[i + 1][j] - 8 * p[i - 1][j] + p[i - 2][j]) / (12 * h);
      double dLdq = generalizedGradient(L, s, j);
      worst = std::max(worst, std::abs(dpdt - dLdq - forces[j]));
      scale = std::max({scale, std::abs(dpdt), std::abs(dLdq), std::abs(forces[j])});
    }
  }
  return worst / std::max(scale, 1e-300);
}

// The accelerations the derivation gives, solved by the Evaluator.
Accelerations derivedAccelerations(const mechanics::Evaluator &evaluator) {
  return [&evaluator](const State &s) { return *test::evaluate(evaluator, s).qdd; };
}

constexpr double kStep = 1e-3;
constexpr int kSteps = 200;
constexpr double kTolerance = 1e-6;

// Integrates from `start` with the derived accelerations and checks the
// residual; also checks that the same check rejects accelerations that are
// off by one part in a thousand (so that it has teeth).
void checkArc(const mechanics::Equations &eq, const std::vector<double> &params, const State &start,
              const Lagrangian &L, const Forces &Qnc) {
  mechanics::Evaluator evaluator(eq, params);
  Accelerations exact = derivedAccelerations(evaluator);
  std::vector<State> arc = integrate(start, kStep, kSteps, exact);
  double worst = worstResidual(arc, kStep, L, Qnc);
  INFO(eq.model << ": worst relative Euler-Lagrange residual " << worst);
  CHECK(worst <= kTolerance);
  for (const State &s : arc)
    for (double x : s.q)
      REQUIRE(std::isfinite(x));

  // The momenta and forces the variational integrator uses: dL/dq' and
  // dL/dq + Q^nc, against the same finite differences.
  for (size_t i = 0; i < arc.size(); i += 50) {
    const State &s = arc[i];
    Vec p = test::evaluateExpressions(eq, eq.momentum, params, s);
    Vec force = test::evaluateExpressions(eq, eq.force, params, s);
    Vec forces = Qnc ? Qnc(s.q, s.qd, s.t) : Vec(s.q.size(), 0.0);
    for (size_t j = 0; j < s.q.size(); ++j) {
      double expectedP = momentum(L, s, j), expectedF = generalizedGradient(L, s, j) + forces[j];
      INFO(eq.model << ": coordinate " << j << " at t = " << s.t);
      CHECK(std::abs(p[j] - expectedP) <= 1e-6 * (1 + std::abs(expectedP)));
      CHECK(std::abs(force[j] - expectedF) <= 1e-5 * (1 + std::abs(expectedF)));
    }
  }

  Accelerations perturbed = [&](const State &s) {
    Vec a = exact(s);
    for (size_t j = 0; j < a.size(); ++j)
      a[j] = a[j] * (1 + 1e-3) + 1e-3 * (j + 1);
    return a;
  };
  double wrong = worstResidual(integrate(start, kStep, kSteps, perturbed), kStep, L, Qnc);
  INFO("with perturbed accelerations: " << wrong);
  CHECK(wrong > 10 * kTolerance);
}

// The derived T - V and Q^nc, evaluated numerically (for the models whose
// Lagrangian is not written by hand).
Lagrangian derivedLagrangian(const mechanics::Equations &eq, const std::vector<double> &params) {
  return [&eq, params](const Vec &q, const Vec &qd, double t) {
    return test::evaluateExpressions(eq, {eq.L}, params, state(q, qd, t))[0];
  };
}

Forces derivedForces(const mechanics::Equations &eq, const std::vector<double> &params) {
  return [&eq, params](const Vec &q, const Vec &qd, double t) {
    return test::evaluateExpressions(eq, eq.Qnc, params, state(q, qd, t));
  };
}

double square(double x) {
  return x * x;
}

// The Lagrangian of point masses in the plane from their positions and
// velocities: sum m/2*|v|^2 - m*g*y.
struct PlanarPoint {
  double mass, x, y, vx, vy;
};
double planarLagrangian(const std::vector<PlanarPoint> &points, double g) {
  double L = 0;
  for (const PlanarPoint &p : points)
    L += p.mass / 2 * (p.vx * p.vx + p.vy * p.vy) - p.mass * g * p.y;
  return L;
}

} // namespace

TEST_CASE("Euler-Lagrange residual: every example without constraints, with its derived L",
          "[mechanics]") {
  std::set<std::string> checked;
  for (const auto &entry :
       std::filesystem::directory_iterator(std::string(MECH_SOURCE_ROOT) + "/examples")) {
    if (entry.path().extension() != ".mech")
      continue;
    std::string name = entry.path().filename().string();
    // The stiff examples: the explicit fixed step of the arc is unstable on
    // them (their closed forms are checked with the implicit methods
    // instead, in tests/cli/test_implicit.sh).
    if (name == "overdamped_oscillator.mech" || name == "stiff_spring_pendulum.mech" ||
        name == "stiff_chain.mech")
      continue;
    auto loaded =
        driver::loadModel(entry.path().string(), {}, test::Session::defaultSearchPath(), true);
    REQUIRE(loaded->analysis.model != nullptr);
    if (!loaded->model().constraints.empty())
      continue;
    INFO(name);
    REQUIRE(loaded->derivation.has_value());
    const mechanics::Equations &eq = loaded->equations();
    // The arc's fixed steps and finite differences need smooth motion; a
    // piecewise law's kinks are checked against closed forms instead
    // (tests/cli/test_piecewise.sh, test_tables.sh).
    if (!eq.switches.empty()) {
      WARN("skipped " << name << ": its piecewise laws make the motion non-smooth");
      continue;
    }
    std::vector<double> params = loaded->paramValues();
    State start = *driver::parseState(*loaded, "");
    for (size_t j = 0; j < start.qd.size(); ++j)
      start.qd[j] += 0.8 * std::cos(static_cast<double>(j) + 0.5);
    checkArc(eq, params, start, derivedLagrangian(eq, params), derivedForces(eq, params));
    checked.insert(name);
  }
  for (const char *name :
       {"bead_on_rod.mech", "chain.mech", "double_pendulum.mech", "driven_rod.mech"})
    CHECK(checked.count(name) == 1);
}

TEST_CASE("Euler-Lagrange residual: double pendulum with L written by hand", "[mechanics]") {
  for (const std::vector<std::string> &settings :
       {std::vector<std::string>{}, std::vector<std::string>{"m1 = 2.5, l2 = 0.6, g = 3"}}) {
    auto loaded = test::loadExample("double_pendulum.mech", settings);
    Params P(loaded->model());
    double m1 = P("m1"), m2 = P("m2"), l1 = P("l1"), l2 = P("l2"), g = P("g");
    Lagrangian L = [=](const Vec &q, const Vec &qd, double) {
      double x1 = l1 * std::sin(q[0]), y1 = -l1 * std::cos(q[0]);
      double vx1 = l1 * std::cos(q[0]) * qd[0], vy1 = l1 * std::sin(q[0]) * qd[0];
      double x2 = x1 + l2 * std::sin(q[1]), y2 = y1 - l2 * std::cos(q[1]);
      double vx2 = vx1 + l2 * std::cos(q[1]) * qd[1], vy2 = vy1 + l2 * std::sin(q[1]) * qd[1];
      return planarLagrangian({{m1, x1, y1, vx1, vy1}, {m2, x2, y2, vx2, vy2}}, g);
    };
    for (auto [q, qd] :
         {std::pair<Vec, Vec>{{0.5, -0.3}, {0, 0}}, std::pair<Vec, Vec>{{2.0, -1.0}, {1.5, -3.0}},
          std::pair<Vec, Vec>{{-0.2, 2.8}, {4.0, 0.5}}})
      checkArc(loaded->equations(), loaded->paramValues(), state(q, qd), L, nullptr);
  }
}

TEST_CASE("Euler-Lagrange residual: bead on a swinging rod with L written by hand", "[mechanics]") {
  auto loaded = test::loadExample("bead_on_rod.mech");
  Params P(loaded->model());
  double m = P("m"), g = P("g");
  Lagrangian L = [=](const Vec &q, const Vec &qd, double) {
    double s = q[0], phi = q[1], sd = qd[0], phid = qd[1];
    double x = s * std::sin(phi), y = -s * std::cos(phi);
    double vx = sd * std::sin(phi) + s * std::cos(phi) * phid;
    double vy = -sd * std::cos(phi) + s * std::sin(phi) * phid;
    return planarLagrangian({{m, x, y, vx, vy}}, g);
  };
  for (auto [q, qd] :
       {std::pair<Vec, Vec>{{0.5, 0.4}, {0, 0}}, std::pair<Vec, Vec>{{1.5, -1.2}, {-0.5, 2.0}},
        std::pair<Vec, Vec>{{0.8, 2.5}, {1.0, -1.0}}})
    checkArc(loaded->equations(), loaded->paramValues(), state(q, qd), L, nullptr);
}

TEST_CASE("Euler-Lagrange residual: chain of ten links with L written by hand", "[mechanics]") {
  auto loaded = test::loadExample("chain.mech");
  Params P(loaded->model());
  double m = P("m"), l = P("l"), g = P("g");
  int n = static_cast<int>(P("n"));
  REQUIRE(loaded->equations().coordinates.size() == static_cast<size_t>(n));
  Lagrangian L = [=](const Vec &q, const Vec &qd, double) {
    std::vector<PlanarPoint> points;
    double x = 0, y = 0, vx = 0, vy = 0;
    for (int k = 0; k < n; ++k) {
      x += l * std::sin(q[k]);
      y -= l * std::cos(q[k]);
      vx += l * std::cos(q[k]) * qd[k];
      vy += l * std::sin(q[k]) * qd[k];
      points.push_back({m, x, y, vx, vy});
    }
    return planarLagrangian(points, g);
  };
  Vec q(static_cast<size_t>(n)), qd(static_cast<size_t>(n));
  for (int k = 0; k < n; ++k) {
    q[static_cast<size_t>(k)] = 0.4 * std::sin(1.3 * k + 0.2);
    qd[static_cast<size_t>(k)] = 0.7 * std::cos(0.9 * k);
  }
  checkArc(loaded->equations(), loaded->paramValues(), state(q, qd), L, nullptr);
}

TEST_CASE("Euler-Lagrange residual: driven rod with L and Qnc written by hand", "[mechanics]") {
  auto loaded = test::loadExample("driven_rod.mech");
  Params P(loaded->model());
  double M = P("M"), a = P("a"), g = P("g"), c = P("c"), A = P("A"), w = P("w");
  Lagrangian L = [=](const Vec &q, const Vec &qd, double) {
    double phi = q[0], phid = qd[0];
    double vx = a / 2 * std::cos(phi) * phid, vy = a / 2 * std::sin(phi) * phid;
    double J = M * a * a / 12;
    return M / 2 * (vx * vx + vy * vy) + J / 2 * phid * phid + M * g * a / 2 * std::cos(phi);
  };
  Forces Qnc = [=](const Vec &, const Vec &qd, double t) {
    return Vec{-c * qd[0] + A * std::cos(w * t)};
  };
  for (double t0 : {0.0, 1.3})
    checkArc(loaded->equations(), loaded->paramValues(), state({1.0}, {-2.0}, t0), L, Qnc);
}

TEST_CASE("Euler-Lagrange residual: simple and compound pendulums by hand", "[mechanics]") {
  for (const char *text : {kPendulum, kNamedPendulum, kSplitPendulum}) {
    auto d = test::derive(text);
    double m = d->param("m"), l = d->param("l"), g = d->param("g");
    Lagrangian L = [=](const Vec &q, const Vec &qd, double) {
      return planarLagrangian({{m, l * std::sin(q[0]), -l * std::cos(q[0]),
                                l * std::cos(q[0]) * qd[0], l * std::sin(q[0]) * qd[0]}},
                              g);
    };
    checkArc(d->equations(), d->params(), state({2.0}, {0.5}), L, nullptr);
  }
  for (const char *text : {kCompoundPendulum, kCompoundPendulumLibrary}) {
    auto d = test::derive(text);
    double M = d->param("M"), a = d->param("a"), g = d->param("g");
    Lagrangian L = [=](const Vec &q, const Vec &qd, double) {
      // A uniform rod: integrate over its length in closed form,
      // T = M*a^2/6*phi'^2, V = -M*g*a/2*cos(phi).
      return M * a * a / 6 * qd[0] * qd[0] + M * g * a / 2 * std::cos(q[0]);
    };
    checkArc(d->equations(), d->params(), state({-1.0}, {3.0}), L, nullptr);
  }
}

TEST_CASE("Euler-Lagrange residual: rolling disk by hand", "[mechanics]") {
  {
    auto d = test::derive(kRollingDisk);
    double m = d->param("m"), r = d->param("r"), g = d->param("g"), alpha = d->param("alpha");
    Lagrangian L = [=](const Vec &q, const Vec &qd, double) {
      double spin = qd[0] / r;
      return m / 2 * qd[0] * qd[0] + m * r * r / 4 * spin * spin + m * g * q[0] * std::sin(alpha);
    };
    checkArc(d->equations(), d->params(), state({0.0}, {0.5}), L, nullptr);
  }
  {
    auto d = test::derive(kRollingDiskAngle);
    double m = d->param("m"), r = d->param("r"), g = d->param("g"), alpha = d->param("alpha");
    Lagrangian L = [=](const Vec &q, const Vec &qd, double) {
      double v = r * qd[0];
      return m / 2 * v * v + m * r * r / 4 * qd[0] * qd[0] + m * g * r * q[0] * std::sin(alpha);
    };
    checkArc(d->equations(), d->params(), state({1.0}, {-2.0}), L, nullptr);
  }
}

TEST_CASE("Euler-Lagrange residual: heavy symmetric top by hand", "[mechanics]") {
  auto d = test::derive(kTop);
  double m = d->param("m"), h = d->param("h"), g = d->param("g"), I1 = d->param("I1"),
         I3 = d->param("I3");
  Lagrangian L = [=](const Vec &q, const Vec &qd, double) {
    double theta = q[1], phid = qd[0], thetad = qd[1], psid = qd[2];
    double I1p = I1 + m * h * h;
    double omega3 = psid + phid * std::cos(theta);
    return I1p / 2 * (thetad * thetad + square(phid * std::sin(theta))) + I3 / 2 * omega3 * omega3 -
           m * g * h * std::cos(theta);
  };
  // A nutating top, and a fast one.
  checkArc(d->equations(), d->params(), state({0.0, 0.7, 0.0}, {0.5, 0.0, 20.0}), L, nullptr);
  checkArc(d->equations(), d->params(), state({1.0, 1.2, -0.5}, {-1.0, 0.8, 60.0}), L, nullptr);
}

TEST_CASE("Euler-Lagrange residual: pendulum on a driven support by hand", "[mechanics]") {
  auto d = test::derive(kDrivenSupport, test::overrides({{"w", 12.0}, {"A", 0.1}}));
  double m = d->param("m"), l = d->param("l"), g = d->param("g"), A = d->param("A"),
         w = d->param("w");
  Lagrangian L = [=](const Vec &q, const Vec &qd, double t) {
    double th = q[0], thd = qd[0];
    double x = l * std::sin(th), y = A * std::cos(w * t) - l * std::cos(th);
    double vx = l * std::cos(th) * thd, vy = -A * w * std::sin(w * t) + l * std::sin(th) * thd;
    return planarLagrangian({{m, x, y, vx, vy}}, g);
  };
  for (double t0 : {0.0, 0.1})
    checkArc(d->equations(), d->params(), state({0.4}, {0.0}, t0), L, nullptr);
}

TEST_CASE("Euler-Lagrange residual: damped forced oscillator by hand", "[mechanics]") {
  for (const char *text : {kOscillatorForce, kOscillatorGeneralized}) {
    auto d = test::derive(text);
    double m = d->param("m"), k = d->param("k"), c = d->param("c"), F0 = d->param("F0"),
           w = d->param("w");
    Lagrangian L = [=](const Vec &q, const Vec &qd, double) {
      return m / 2 * qd[0] * qd[0] - k / 2 * q[0] * q[0];
    };
    Forces Qnc = [=](const Vec &, const Vec &qd, double t) {
      return Vec{-c * qd[0] + F0 * std::cos(w * t)};
    };
    checkArc(d->equations(), d->params(), state({0.3}, {-1.0}, 0.5), L, Qnc);
  }
}

TEST_CASE("Euler-Lagrange residual: bead on a rotating hoop by hand", "[mechanics]") {
  auto d = test::derive(kRotatingHoop);
  double m = d->param("m"), R = d->param("R"), W = d->param("W"), g = d->param("g");
  Lagrangian L = [=](const Vec &q, const Vec &qd, double t) {
    double th = q[0], thd = qd[0], c = std::cos(W * t), s = std::sin(W * t);
    double vx = R * (std::cos(th) * thd * c - std::sin(th) * W * s);
    double vy = R * (std::cos(th) * thd * s + std::sin(th) * W * c);
    double vz = R * std::sin(th) * thd;
    double z = -R * std::cos(th);
    return m / 2 * (vx * vx + vy * vy + vz * vz) - m * g * z;
  };
  checkArc(d->equations(), d->params(), state({0.6}, {1.0}, 0.2), L, nullptr);
}

TEST_CASE("Euler-Lagrange residual: elastic pendulum by hand", "[mechanics]") {
  auto d = test::derive(kElasticPendulum);
  double m = d->param("m"), k = d->param("k"), L0 = d->param("L0"), g = d->param("g");
  Lagrangian L = [=](const Vec &q, const Vec &qd, double) {
    double stretch = std::hypot(q[0], q[1]) - L0;
    return m / 2 * (qd[0] * qd[0] + qd[1] * qd[1]) - k / 2 * stretch * stretch - m * g * q[1];
  };
  checkArc(d->equations(), d->params(), state({0.3, -0.6}, {0.5, 0.0}), L, nullptr);
}
