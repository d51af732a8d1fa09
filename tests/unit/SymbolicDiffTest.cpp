// Differentiation: every node kind and every function against closed-form
// derivatives and central finite differences, random expressions against
// finite differences, exact zeros, total time derivatives along a known
// trajectory, and memoisation on heavily shared DAGs.
#include "SymbolicTestSupport.h"

#include "symbolic/Diff.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

using namespace mech;
using namespace mech::symtest;
using sym::apply;
using sym::atan2;
using sym::diff;
using sym::pow;
using sym::sqrt;
using sym::timeDerivative;

namespace {

#define MECH_TEST_COUNT_FN(id, spelling, arity) +1
constexpr size_t kFunctionCount = 0 MECH_SYM_FUNCS(MECH_TEST_COUNT_FN);
#undef MECH_TEST_COUNT_FN

double sgn(double v) {
  return v > 0 ? 1.0 : v < 0 ? -1.0 : 0.0;
}

struct Setup {
  Context c;
  Expr x = c.symbol("x", SymbolKind::Free);
  Expr y = c.symbol("y", SymbolKind::Free);
  Expr z = c.symbol("z", SymbolKind::Free);
  Expr n(int64_t v) { return c.integer(v); }
  Expr q(int64_t p, int64_t r) { return c.rational(p, r); }
};

} // namespace

TEST_CASE("derivative rules give the hand-written canonical forms", "[symbolic]") {
  Setup s;
  Context &c = s.c;
  Expr x = s.x, y = s.y, z = s.z;
  struct Case {
    const char *what;
    Expr got, expected;
  };
  const std::vector<Case> cases = {
      {"d 7/dx", diff(s.n(7), x), c.zero()},
      {"d x/dx", diff(x, x), c.one()},
      {"d y/dx", diff(y, x), c.zero()},
      {"d(3x + 2y + 5)/dx", diff(s.n(3) * x + s.n(2) * y + s.n(5), x), s.n(3)},
      {"d(x*y*z)/dx", diff(x * y * z, x), y * z},
      {"d(5*x^2*y)/dx", diff(s.n(5) * pow(x, 2) * y, x), s.n(10) * x * y},
      {"d x^3/dx", diff(pow(x, 3), x), s.n(3) * pow(x, 2)},
      {"d x^-1/dx", diff(pow(x, -1), x), -pow(x, -2)},
      {"d sqrt(x)/dx", diff(sqrt(x), x), pow(x, s.q(-1, 2)) / s.n(2)},
      {"d x^y/dy", diff(pow(x, y), y), pow(x, y) * apply(Fn::Log, x)},
      {"d x^y/dx", diff(pow(x, y), x), y * pow(x, y - s.n(1))},
      {"d sin(x)/dx", diff(apply(Fn::Sin, x), x), apply(Fn::Cos, x)},
      {"d cos(x)/dx", diff(apply(Fn::Cos, x), x), -apply(Fn::Sin, x)},
      {"d exp(2x)/dx", diff(apply(Fn::Exp, s.n(2) * x), x), s.n(2) * apply(Fn::Exp, s.n(2) * x)},
      {"d log(x)/dx", diff(apply(Fn::Log, x), x), pow(x, -1)},
      {"d sin(x*y)/dy", diff(apply(Fn::Sin, x * y), y), x * apply(Fn::Cos, x * y)},
      {"d (x + y)^2/dx", diff(pow(x + y, 2), x), s.n(2) * (x + y)},
      {"d abs(x)/dx", diff(apply(Fn::Abs, x), x), apply(Fn::Sign, x)},
      {"d sign(x)/dx", diff(apply(Fn::Sign, x), x), c.zero()},
  };
  for (const Case &k : cases) {
    INFO(k.what);
    CHECK(k.got == k.expected);
  }
}

TEST_CASE("every function differentiates like its closed form", "[symbolic]") {
  Setup s;
  Context &c = s.c;
  Expr x = s.x, y = s.y;
  // Inner argument u = x*y + x/3: du/dx = y + 1/3, du/dy = x.
  Expr u = x * y + x / s.n(3);
  struct Rule {
    const char *name;
    std::function<Expr(const Expr &)> build;
    double (*f)(double);
    double (*df)(double);
    double lo, hi; // the domain used for u
    double hole;   // |u| must exceed this (kinks, poles)
  };
  const std::vector<Rule> rules = {
      {"sin", [](const Expr &a) { return apply(Fn::Sin, a); }, [](double v) { return std::sin(v); },
       [](double v) { return std::cos(v); }, -3, 3, 0},
      {"cos", [](const Expr &a) { return apply(Fn::Cos, a); }, [](double v) { return std::cos(v); },
       [](double v) { return -std::sin(v); }, -3, 3, 0},
      {"tan", [](const Expr &a) { return apply(Fn::Tan, a); }, [](double v) { return std::tan(v); },
       [](double v) { return 1 / (std::cos(v) * std::cos(v)); }, -1.2, 1.2, 0},
      {"asin", [](const Expr &a) { return apply(Fn::Asin, a); },
       [](double v) { return std::asin(v); }, [](double v) { return 1 / std::sqrt(1 - v * v); },
       -0.9, 0.9, 0},
      {"acos", [](const Expr &a) { return apply(Fn::Acos, a); },
       [](double v) { return std::acos(v); }, [](double v) { return -1 / std::sqrt(1 - v * v); },
       -0.9, 0.9, 0},
      {"atan", [](const Expr &a) { return apply(Fn::Atan, a); },
       [](double v) { return std::atan(v); }, [](double v) { return 1 / (1 + v * v); }, -4, 4, 0},
      {"sinh", [](const Expr &a) { return apply(Fn::Sinh, a); },
       [](double v) { return std::sinh(v); }, [](double v) { return std::cosh(v); }, -3, 3, 0},
      {"cosh", [](const Expr &a) { return apply(Fn::Cosh, a); },
       [](double v) { return std::cosh(v); }, [](double v) { return std::sinh(v); }, -3, 3, 0},
      {"tanh", [](const Expr &a) { return apply(Fn::Tanh, a); },
       [](double v) { return std::tanh(v); },
       [](double v) { return 1 / (std::cosh(v) * std::cosh(v)); }, -3, 3, 0},
      {"exp", [](const Expr &a) { return apply(Fn::Exp, a); }, [](double v) { return std::exp(v); },
       [](double v) { return std::exp(v); }, -3, 3, 0},
      {"log", [](const Expr &a) { return apply(Fn::Log, a); }, [](double v) { return std::log(v); },
       [](double v) { return 1 / v; }, 0.1, 5, 0},
      {"abs", [](const Expr &a) { return apply(Fn::Abs, a); }, [](double v) { return std::abs(v); },
       [](double v) { return sgn(v); }, -3, 3, 0.05},
      {"sign", [](const Expr &a) { return apply(Fn::Sign, a); }, [](double v) { return sgn(v); },
       [](double) { return 0.0; }, -3, 3, 0.05},
      {"sqrt", [](const Expr &a) { return sqrt(a); }, [](double v) { return std::sqrt(v); },
       [](double v) { return 0.5 / std::sqrt(v); }, 0.1, 5, 0},
      {"u^3", [](const Expr &a) { return pow(a, 3); }, [](double v) { return v * v * v; },
       [](double v) { return 3 * v * v; }, -3, 3, 0},
      {"u^-2", [](const Expr &a) { return pow(a, -2); }, [](double v) { return 1 / (v * v); },
       [](double v) { return -2 / (v * v * v); }, -3, 3, 0.2},
      {"u^(2/3)", [](const Expr &a) { return pow(a, a.context().rational(2, 3)); },
       [](double v) { return std::cbrt(v * v); }, [](double v) { return 2.0 / 3.0 / std::cbrt(v); },
       0.1, 5, 0},
      {"u^(-3/2)", [](const Expr &a) { return pow(a, a.context().rational(-3, 2)); },
       [](double v) { return std::pow(v, -1.5); },
       [](double v) { return -1.5 * std::pow(v, -2.5); }, 0.1, 5, 0},
      {"2^u", [](const Expr &a) { return pow(a.context().integer(2), a); },
       [](double v) { return std::exp2(v); }, [](double v) { return std::exp2(v) * std::log(2.0); },
       -3, 3, 0},
      {"pi*u^2", [](const Expr &a) { return a.context().pi() * pow(a, 2); },
       [](double v) { return M_PI * v * v; }, [](double v) { return 2 * M_PI * v; }, -3, 3, 0},
  };
  Inputs in{x, y};
  Random random(12345);
  for (const Rule &rule : rules) {
    Expr e = rule.build(u);
    Expr dx = diff(e, x), dy = diff(e, y);
    sym::Program program({e, dx, dy}, in.map());
    int checked = 0;
    for (int attempt = 0; attempt < 1000 && checked < 25; ++attempt) {
      double xv = random.uniform(-2, 2), yv = random.uniform(-2, 2);
      double uv = xv * yv + xv / 3;
      if (uv < rule.lo || uv > rule.hi || std::abs(uv) <= rule.hole)
        continue;
      std::vector<double> point = {xv, yv};
      std::vector<double> v = program.evaluate(point);
      INFO(rule.name << " at x = " << xv << ", y = " << yv << ": d/dx = " << sym::toMech(dx));
      CHECK(close(v[0], rule.f(uv), 1e-12));
      CHECK(close(v[1], rule.df(uv) * (yv + 1.0 / 3.0), 1e-10));
      CHECK(close(v[2], rule.df(uv) * xv, 1e-10));
      auto fx = centralDifference(program, point, 0);
      auto fy = centralDifference(program, point, 1);
      REQUIRE(fx);
      REQUIRE(fy);
      CHECK(std::abs(v[1] - fx->value) <= fx->tolerance);
      CHECK(std::abs(v[2] - fy->value) <= fy->tolerance);
      ++checked;
    }
    CHECK(checked == 25);
  }
  (void)c;
}

TEST_CASE("two-argument functions and symbolic exponents", "[symbolic]") {
  Setup s;
  Expr x = s.x, y = s.y;
  struct Rule {
    const char *name;
    Expr e;
    std::function<double(double, double)> dx, dy;
    bool positiveX;
  };
  const std::vector<Rule> rules = {
      {"atan2(x, y)", atan2(x, y), [](double a, double b) { return b / (a * a + b * b); },
       [](double a, double b) { return -a / (a * a + b * b); }, false},
      {"atan2(x*y, x - y)", atan2(x * y, x - y),
       [](double a, double b) {
         double p = a * b, r = a - b;
         return (r * b - p) / (p * p + r * r);
       },
       [](double a, double b) {
         double p = a * b, r = a - b;
         return (r * a + p) / (p * p + r * r);
       },
       false},
      {"x^y", pow(x, y), [](double a, double b) { return b * std::pow(a, b - 1); },
       [](double a, double b) { return std::pow(a, b) * std::log(a); }, true},
      {"x^x", pow(x, x), [](double a, double) { return std::pow(a, a) * (std::log(a) + 1); },
       [](double, double) { return 0.0; }, true},
      {"x^(y^2 + 1)", pow(x, pow(y, 2) + s.n(1)),
       [](double a, double b) { return (b * b + 1) * std::pow(a, b * b); },
       [](double a, double b) { return std::pow(a, b * b + 1) * std::log(a) * 2 * b; }, true},
      {"sqrt(x^2 + y^2)", sqrt(pow(x, 2) + pow(y, 2)),
       [](double a, double b) { return a / std::hypot(a, b); },
       [](double a, double b) { return b / std::hypot(a, b); }, false},
      {"y/x", y / x, [](double a, double b) { return -b / (a * a); },
       [](double a, double) { return 1 / a; }, true},
  };
  Inputs in{x, y};
  Random random(777);
  for (const Rule &rule : rules) {
    Expr dx = diff(rule.e, x), dy = diff(rule.e, y);
    sym::Program program({rule.e, dx, dy}, in.map());
    for (int i = 0; i < 25; ++i) {
      double a = rule.positiveX ? random.uniform(0.2, 3) : random.uniform(-2, 2);
      double b = random.uniform(-2, 2);
      if (std::hypot(a, b) < 0.2 || std::abs(a - b) < 0.1) {
        --i;
        continue;
      }
      std::vector<double> point = {a, b};
      std::vector<double> v = program.evaluate(point);
      INFO(rule.name << " at " << a << ", " << b);
      CHECK(close(v[1], rule.dx(a, b), 1e-10));
      CHECK(close(v[2], rule.dy(a, b), 1e-10));
      auto fx = centralDifference(program, point, 0);
      auto fy = centralDifference(program, point, 1);
      REQUIRE(fx);
      REQUIRE(fy);
      CHECK(std::abs(v[1] - fx->value) <= fx->tolerance);
      CHECK(std::abs(v[2] - fy->value) <= fy->tolerance);
    }
  }
}

TEST_CASE("random expressions differentiate like finite differences", "[symbolic]") {
  Context c;
  Context::Coordinate q = c.coordinate("q", 0);
  Expr x = c.symbol("x", SymbolKind::Free);
  Expr y = c.symbol("y", SymbolKind::Free);
  Expr m = c.symbol("m", SymbolKind::Param, 0);
  const std::vector<Expr> pool = {x, y, m, q.q, q.qd, c.time()};
  Inputs in;
  for (const Expr &symbol : pool)
    in.add(symbol);
  std::vector<Expr> leaves = pool;
  leaves.push_back(c.pi());
  Random random(20240611);
  ExpressionGenerator generator(c, random, leaves, true, true);

  int accepted = 0, attempts = 0, zeros = 0;
  std::vector<int> usedKinds(6, 0), usedSymbols(pool.size(), 0), usedFunctions(kFunctionCount, 0);
  while (accepted < 500 && attempts < 20000) {
    ++attempts;
    Expr e = generator.generate(2 + random.pick(3));
    std::vector<size_t> present;
    for (size_t i = 0; i < pool.size(); ++i) {
      if (contains(e, pool[i])) {
        present.push_back(i);
        continue;
      }
      // Exactly zero, not merely a zero value.
      INFO("d/d" << sym::toMech(pool[i]) << " of " << sym::toMech(e));
      CHECK(diff(e, pool[i]) == c.zero());
      ++zeros;
    }
    if (present.size() < 2)
      continue;
    size_t first = present[static_cast<size_t>(random.pick(static_cast<int>(present.size())))];
    size_t second = first;
    while (second == first)
      second = present[static_cast<size_t>(random.pick(static_cast<int>(present.size())))];
    Expr d1 = diff(e, pool[first]), d2 = diff(e, pool[second]);
    sym::Program program({e, d1, d2}, in.map());
    bool done = false;
    for (int tries = 0; tries < 20 && !done; ++tries) {
      std::vector<double> point;
      for (size_t i = 0; i < pool.size(); ++i)
        point.push_back(random.uniform(-2, 2));
      if (!wellConditioned(program, point))
        continue;
      auto f1 = centralDifference(program, point, first);
      auto f2 = centralDifference(program, point, second);
      if (!f1 || !f2)
        continue;
      std::vector<double> v = program.evaluate(point);
      INFO("e = " << sym::toMech(e));
      INFO("d/d" << sym::toMech(pool[first]) << " = " << sym::toMech(d1) << " -> " << v[1]
                 << ", finite differences " << f1->value);
      INFO("d/d" << sym::toMech(pool[second]) << " = " << sym::toMech(d2) << " -> " << v[2]
                 << ", finite differences " << f2->value);
      CHECK(std::abs(v[1] - f1->value) <= f1->tolerance);
      CHECK(std::abs(v[2] - f2->value) <= f2->tolerance);
      done = true;
    }
    if (!done)
      continue;
    ++accepted;
    ++usedSymbols[first];
    ++usedSymbols[second];
    forEachNode(e, [&](const Node *n) {
      ++usedKinds[static_cast<size_t>(n->kind)];
      if (n->kind == Kind::Func)
        ++usedFunctions[static_cast<size_t>(n->fn)];
    });
  }
  REQUIRE(accepted == 500);
  CHECK(zeros > 0);
  // Every node kind and every function occurred, and every symbol was
  // differentiated against.
  for (int count : usedKinds)
    CHECK(count > 0);
  for (int count : usedSymbols)
    CHECK(count > 0);
  for (size_t fn = 0; fn < usedFunctions.size(); ++fn) {
    INFO(sym::fnName(static_cast<Fn>(fn)));
    CHECK(usedFunctions[fn] > 0);
  }
}

TEST_CASE("a derivative of an expression without the symbol is exactly zero", "[symbolic]") {
  Setup s;
  Context &c = s.c;
  Expr x = s.x, y = s.y, z = s.z;
  const std::vector<Expr> free = {
      s.n(3),
      y,
      c.pi(),
      c.time(),
      y * z + s.n(2),
      pow(y, z),
      apply(Fn::Sin, y) * apply(Fn::Exp, z),
      atan2(y, z),
      sqrt(pow(y, 2) + s.n(1)),
      apply(Fn::Abs, y - z),
  };
  for (const Expr &e : free) {
    INFO(sym::toMech(e));
    CHECK(diff(e, x) == c.zero());
  }
}

TEST_CASE("time derivatives of symbols follow the coordinates", "[symbolic]") {
  Context c;
  Context::Coordinate q = c.coordinate("q", 0);
  Context::Coordinate r = c.coordinate("r", 1);
  Expr m = c.symbol("m", SymbolKind::Param, 0);
  Expr free = c.symbol("u", SymbolKind::Free);
  CHECK(timeDerivative(q.q) == q.qd);
  CHECK(timeDerivative(q.qd) == q.qdd);
  CHECK(timeDerivative(c.time()) == c.one());
  CHECK(timeDerivative(m) == c.zero());
  CHECK(timeDerivative(c.pi()) == c.zero());
  CHECK(timeDerivative(free) == c.zero());
  CHECK(timeDerivative(c.integer(4)) == c.zero());
  // Third derivatives do not exist.
  CHECK_THROWS_AS(timeDerivative(q.qdd), mech::InternalError);

  Expr two = c.integer(2);
  CHECK(timeDerivative(pow(q.q, 2) + pow(r.q, 2)) == (two * q.q * q.qd + two * r.q * r.qd));
  CHECK(timeDerivative(m * pow(q.qd, 2) / two) == (m * q.qd * q.qdd));
  CHECK(timeDerivative(apply(Fn::Sin, q.q)) == (q.qd * apply(Fn::Cos, q.q)));
  CHECK(timeDerivative(c.time() * q.q) == (q.q + c.time() * q.qd));

  // Without accelerations: only the part of d/dt free of q''.
  sym::Differentiator noAcc = sym::totalTime(c, true);
  CHECK(noAcc(pow(q.qd, 2)) == c.zero());
  CHECK(noAcc(q.q * q.qd) == pow(q.qd, 2));
  CHECK(noAcc(c.time() * q.q) == (q.q + c.time() * q.qd));
}

TEST_CASE("time derivatives agree with finite differences along a trajectory", "[symbolic]") {
  Context c;
  Context::Coordinate q = c.coordinate("q", 0);
  Context::Coordinate r = c.coordinate("r", 1);
  Expr m = c.symbol("m", SymbolKind::Param, 0);
  Expr t = c.time();
  Inputs in{q.q, q.qd, q.qdd, r.q, r.qd, r.qdd, t, m};
  const double mass = 1.3;
  // q(t) = sin(2t), r(t) = cos(t) + t.
  auto state = [&](double time) {
    return std::vector<double>{std::sin(2 * time),
                               2 * std::cos(2 * time),
                               -4 * std::sin(2 * time),
                               std::cos(time) + time,
                               1 - std::sin(time),
                               -std::cos(time),
                               time,
                               mass};
  };
  auto alongTrajectory = [&](const Expr &f, const Expr &df, double time) {
    sym::Program program({f, df}, in.map());
    auto fd = centralDifference([&](double tt) { return program.evaluate(state(tt))[0]; }, time);
    REQUIRE(fd);
    double got = program.evaluate(state(time))[1];
    INFO("d/dt " << sym::toMech(f) << " = " << sym::toMech(df) << " at t = " << time << ": " << got
                 << ", finite differences " << fd->value);
    CHECK(std::abs(got - fd->value) <= fd->tolerance);
  };

  Expr lagrangian = m * pow(q.qd, 2) * apply(Fn::Cos, q.q - r.q) / c.integer(2) +
                    apply(Fn::Exp, -t) * r.q * q.q + t * pow(r.qd, 2) -
                    m * apply(Fn::Log, c.integer(2) + apply(Fn::Sin, r.q * q.qd));
  for (double time : {-1.2, -0.3, 0.0, 0.4, 1.1})
    alongTrajectory(lagrangian, timeDerivative(lagrangian), time);

  // Random expressions of q, q', r, r', t and m.
  Random random(4242);
  ExpressionGenerator generator(c, random, {q.q, q.qd, r.q, r.qd, t, m, c.pi()}, true);
  int checked = 0;
  for (int attempt = 0; attempt < 2000 && checked < 100; ++attempt) {
    Expr f = generator.generate(3);
    Expr df = timeDerivative(f);
    sym::Program program({f, df}, in.map());
    double time = random.uniform(-1.5, 1.5);
    if (!wellConditioned(program, state(time)))
      continue;
    auto fd = centralDifference([&](double tt) { return program.evaluate(state(tt))[0]; }, time);
    if (!fd)
      continue;
    double got = program.evaluate(state(time))[1];
    INFO("d/dt " << sym::toMech(f) << " = " << sym::toMech(df) << " at t = " << time << ": " << got
                 << ", finite differences " << fd->value);
    CHECK(std::abs(got - fd->value) <= fd->tolerance);
    ++checked;
  }
  CHECK(checked == 100);
}

TEST_CASE("differentiation memoises shared subexpressions", "[symbolic]") {
  Context c;
  Expr x = c.symbol("x", SymbolKind::Free);
  Inputs in{x};

  // e_{k+1} = sin(e_k)*e_k/2 + e_k/2 + x/8: every e_k is used twice, so the
  // expression written as a tree has about 2^200 nodes. The map is a
  // contraction, so rounding does not grow along the chain.
  Expr e = x;
  std::vector<Expr> chain = {e};
  for (int k = 0; k < 200; ++k) {
    e = apply(Fn::Sin, e) * e / c.integer(2) + e / c.integer(2) + x / c.integer(8);
    chain.push_back(e);
  }
  sym::Differentiator dx = sym::partial(x);
  Expr d = dx(e);
  Expr dMiddle = dx(chain[100]); // from the same memo
  sym::Program program({e, d, dMiddle}, in.map());
  for (double x0 : {0.3, 1.0, -0.7}) {
    double ev = x0, dv = 1, middle = 0;
    for (int k = 0; k < 200; ++k) {
      double next = std::sin(ev) * ev / 2 + ev / 2 + x0 / 8;
      dv = (std::cos(ev) * ev + std::sin(ev)) * dv / 2 + dv / 2 + 1.0 / 8;
      ev = next;
      if (k == 99)
        middle = dv;
    }
    std::vector<double> v = program.evaluate({x0});
    INFO("x = " << x0);
    CHECK(close(v[0], ev, 1e-9));
    CHECK(close(v[1], dv, 1e-9));
    CHECK(close(v[2], middle, 1e-9));
  }

  // f_{k+1} = sin(f_k) + cos(f_k): a tree of 2^60 leaves.
  Expr f = x;
  for (int k = 0; k < 60; ++k)
    f = apply(Fn::Sin, f) + apply(Fn::Cos, f);
  CHECK(f->treeSize > 1e18);
  Expr df = sym::diff(f, x);
  Expr dt = timeDerivative(f); // x is not a coordinate: 0
  CHECK(dt == c.zero());
  sym::Program fp({f, df}, in.map());
  for (double x0 : {0.2, -1.3}) {
    double fv = x0, dv = 1;
    for (int k = 0; k < 60; ++k) {
      dv = (std::cos(fv) - std::sin(fv)) * dv;
      fv = std::sin(fv) + std::cos(fv);
    }
    std::vector<double> v = fp.evaluate({x0});
    CHECK(close(v[0], fv, 1e-10));
    CHECK(close(v[1], dv, 1e-8));
  }
}
