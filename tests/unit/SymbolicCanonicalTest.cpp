// Canonical forms of the symbolic engine: each input is built through the
// factories and compared with an expected form written by hand (a printed
// string), or with a different construction that must intern to the same
// node. Also: exact numbers and their overflow to double, determinism
// across contexts, the trig and parameter-collecting simplifications,
// substitution, and the values of random expressions (computed directly in
// double alongside their construction) kept through all of these.
#include "SymbolicTestSupport.h"

#include "symbolic/Simplify.h"
#include "symbolic/Subs.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

using namespace mech;
using namespace mech::symtest;
using sym::apply;
using sym::atan2;
using sym::pow;
using sym::sqrt;

namespace {

struct Case {
  const char *what;
  Expr input;
  std::string expected;
};

// Halide-style table: every input must print as the hand-written form.
void checkAll(const std::vector<Case> &cases) {
  for (const Case &c : cases) {
    INFO(c.what);
    CHECK(sym::toMech(c.input) == c.expected);
  }
}

struct Same {
  const char *what;
  Expr a, b;
};

// Two different constructions of one canonical node.
void checkSame(const std::vector<Same> &cases) {
  for (const Same &c : cases) {
    INFO(c.what);
    CHECK(c.a == c.b);
  }
}

struct Free {
  Context c;
  Expr a = c.symbol("a", SymbolKind::Free);
  Expr b = c.symbol("b", SymbolKind::Free);
  Expr d = c.symbol("c", SymbolKind::Free);
  Expr x = c.symbol("x", SymbolKind::Free);
  Expr y = c.symbol("y", SymbolKind::Free);
  Expr z = c.symbol("z", SymbolKind::Free);
  Expr n(int64_t v) { return c.integer(v); }
  Expr q(int64_t p, int64_t r) { return c.rational(p, r); }
};

} // namespace

TEST_CASE("like terms are collected", "[symbolic]") {
  Free f;
  auto [c, a, b, d, x, y, z] = std::tie(f.c, f.a, f.b, f.d, f.x, f.y, f.z);
  checkAll({
      {"x + x", x + x, "2*x"},
      {"2*x - x", f.n(2) * x - x, "x"},
      {"x - x", x - x, "0"},
      {"x + y - x", x + y - x, "y"},
      {"3*x + 2*y - x - 2*y", f.n(3) * x + f.n(2) * y - x - f.n(2) * y, "2*x"},
      {"x*y + y*x", x * y + y * x, "2*x*y"},
      {"x/2 + x/2", x / f.n(2) + x / f.n(2), "x"},
      {"x + 1 + 2", x + f.n(1) + f.n(2), "x + 3"},
      {"x - 1", x - f.n(1), "x - 1"},
      {"1 - x", f.n(1) - x, "-x + 1"},
      {"a - b", a - b, "a - b"},
      {"b - a", b - a, "-a + b"},
      {"(x + y) - (y + x)", (x + y) - (y + x), "0"},
      {"sin(x) + sin(x)", apply(Fn::Sin, x) + apply(Fn::Sin, x), "2*sin(x)"},
  });
  CHECK((x - x) == c.zero());
  (void)z;
  (void)d;
}

TEST_CASE("products merge equal bases and multiply coefficients", "[symbolic]") {
  Free f;
  auto [c, x, y, z] = std::tie(f.c, f.x, f.y, f.z);
  checkAll({
      {"x*x", x * x, "x^2"},
      {"x^2*x^-1", pow(x, 2) * pow(x, -1), "x"},
      {"2*(x*y)*3", f.n(2) * (x * y) * f.n(3), "6*x*y"},
      {"x*y/x", x * y / x, "y"},
      {"x^2*x^3", pow(x, 2) * pow(x, 3), "x^5"},
      {"x/y", x / y, "x/y"},
      {"x/(y*z)", x / (y * z), "x/(y*z)"},
      {"1/(x*y)", pow(x * y, -1), "1/(x*y)"},
      {"x*x^(-1/2)", x * pow(x, f.q(-1, 2)), "sqrt(x)"},
      {"sqrt(x)*sqrt(x)", sqrt(x) * sqrt(x), "x"},
      {"x^(1/3)*x^(1/6)", pow(x, f.q(1, 3)) * pow(x, f.q(1, 6)), "sqrt(x)"},
      {"0*x", f.n(0) * x, "0"},
      {"1*x", f.n(1) * x, "x"},
      {"-x*-y", (-x) * (-y), "x*y"},
      {"x/(2*y)", x / (f.n(2) * y), "x/(2*y)"},
  });
  CHECK((f.n(0) * x) == c.zero());
}

TEST_CASE("numbers are exact rationals", "[symbolic]") {
  Context c;
  Expr m = c.symbol("m", SymbolKind::Param, 0);
  Expr l = c.symbol("l", SymbolKind::Param, 1);
  checkAll({
      {"1/2 + 1/3", c.rational(1, 2) + c.rational(1, 3), "5/6"},
      {"1/2 - 1/2", c.rational(1, 2) - c.rational(1, 2), "0"},
      {"2/4", c.rational(2, 4), "1/2"},
      {"3/-6", c.rational(3, -6), "-1/2"},
      {"1/3 * 3", c.rational(1, 3) * c.integer(3), "1"},
      {"m*l^2/12", m * pow(l, 2) / c.integer(12), "m*l^2/12"},
      {"m*l^2/3 * 1/4", m * pow(l, 2) / c.integer(3) * c.rational(1, 4), "m*l^2/12"},
      {"7/3*m", c.rational(7, 3) * m, "7*m/3"},
      {"-7/3*m", c.rational(-7, 3) * m, "-7*m/3"},
  });
  // 0.5 written as a decimal literal is the exact 1/2.
  std::optional<Rational> half = Rational::fromDecimal("0.5");
  REQUIRE(half);
  Expr literal = c.number(sym::Num(*half));
  CHECK(literal == c.rational(1, 2));
  CHECK(literal->num.exact());
  CHECK((literal * m) == (m / c.integer(2)));
  Expr tenth = c.number(sym::Num(*Rational::fromDecimal("0.1")));
  CHECK(sym::toMech(tenth) == "1/10");
  // An inexact number is a different node from the exact one of equal value.
  CHECK(c.number(sym::Num::inexact(0.5)) != c.rational(1, 2));
  CHECK(!c.number(sym::Num::inexact(0.5))->num.exact());
}

TEST_CASE("power rules", "[symbolic]") {
  Free f;
  auto [c, x, y] = std::tie(f.c, f.x, f.y);
  checkAll({
      {"(x^2)^3", pow(pow(x, 2), 3), "x^6"},
      {"(2*x)^2", pow(f.n(2) * x, 2), "4*x^2"},
      {"(x*y)^3", pow(x * y, 3), "x^3*y^3"},
      {"(x^(1/2))^2", pow(sqrt(x), 2), "x"},
      {"x^0", pow(x, 0), "1"},
      {"x^1", pow(x, 1), "x"},
      {"0^2", pow(f.n(0), 2), "0"},
      {"1^x", pow(f.n(1), x), "1"},
      {"2^3", pow(f.n(2), 3), "8"},
      {"2^-2", pow(f.n(2), -2), "1/4"},
      {"(2/3)^2", pow(f.q(2, 3), 2), "4/9"},
      {"x^y*x^2", pow(x, y) * pow(x, 2), "x^(y + 2)"},
      {"x^-2", pow(x, -2), "1/x^2"},
      {"x^(3/2)", pow(x, f.q(3, 2)), "x^(3/2)"},
      {"x^(-3/2)", pow(x, f.q(-3, 2)), "1/x^(3/2)"},
      {"2^x", pow(f.n(2), x), "2^x"},
  });
  // An exact root of a number is folded (4^(1/2) = 2, (8/27)^(2/3) = 4/9,
  // 16^(-1/4) = 1/2); other roots stay powers, and two of them multiply back
  // to the number.
  CHECK(sqrt(f.n(4)) == f.n(2));
  CHECK(pow(f.q(8, 27), f.q(2, 3)) == f.q(4, 9));
  CHECK(pow(f.n(16), f.q(-1, 4)) == f.q(1, 2));
  Expr root2 = sqrt(f.n(2));
  CHECK(root2.kind() == Kind::Pow);
  CHECK(sym::toMech(root2) == "sqrt(2)");
  CHECK((root2 * root2) == f.n(2));
  CHECK(sym::toMech(sqrt(f.n(8))) == "sqrt(8)");
  // (x^2)^(1/2) is |x|, not x: it must not collapse.
  CHECK(pow(pow(x, 2), f.q(1, 2)) != x);
}

TEST_CASE("functions of numbers and of negated arguments", "[symbolic]") {
  Free f;
  auto [c, a, b, x] = std::tie(f.c, f.a, f.b, f.x);
  checkAll({
      {"sin(0)", apply(Fn::Sin, f.n(0)), "0"},
      {"cos(0)", apply(Fn::Cos, f.n(0)), "1"},
      {"tan(0)", apply(Fn::Tan, f.n(0)), "0"},
      {"exp(0)", apply(Fn::Exp, f.n(0)), "1"},
      {"log(1)", apply(Fn::Log, f.n(1)), "0"},
      {"acos(1)", apply(Fn::Acos, f.n(1)), "0"},
      {"sinh(0)", apply(Fn::Sinh, f.n(0)), "0"},
      {"cosh(0)", apply(Fn::Cosh, f.n(0)), "1"},
      {"abs(-3)", apply(Fn::Abs, f.n(-3)), "3"},
      {"abs(-3/4)", apply(Fn::Abs, f.q(-3, 4)), "3/4"},
      {"sign(-3)", apply(Fn::Sign, f.n(-3)), "-1"},
      {"sin(-x)", apply(Fn::Sin, -x), "-sin(x)"},
      {"cos(-x)", apply(Fn::Cos, -x), "cos(x)"},
      {"tan(-2*x)", apply(Fn::Tan, f.n(-2) * x), "-tan(2*x)"},
      {"abs(-x)", apply(Fn::Abs, -x), "abs(x)"},
      {"abs(abs(x))", apply(Fn::Abs, apply(Fn::Abs, x)), "abs(x)"},
      {"sin(2)", apply(Fn::Sin, f.n(2)), "sin(2)"},
      {"atan2(x, 1)", atan2(x, f.n(1)), "atan2(x, 1)"},
  });
  checkSame({
      {"sin(-x) = -sin(x)", apply(Fn::Sin, -x), -apply(Fn::Sin, x)},
      {"cos(-x) = cos(x)", apply(Fn::Cos, -x), apply(Fn::Cos, x)},
      {"sinh(-x) = -sinh(x)", apply(Fn::Sinh, -x), -apply(Fn::Sinh, x)},
      {"cosh(-x) = cosh(x)", apply(Fn::Cosh, -x), apply(Fn::Cosh, x)},
      {"sin(b - a) = -sin(a - b)", apply(Fn::Sin, b - a), -apply(Fn::Sin, a - b)},
      {"cos(b - a) = cos(a - b)", apply(Fn::Cos, b - a), apply(Fn::Cos, a - b)},
  });
  // An inexact argument is evaluated.
  Expr s = apply(Fn::Sin, c.number(sym::Num::inexact(0.5)));
  REQUIRE(s.isNumber());
  CHECK(s->num.toDouble() == std::sin(0.5));
}

TEST_CASE("a number times a sum distributes", "[symbolic]") {
  Free f;
  auto [a, b, x] = std::tie(f.a, f.b, f.x);
  checkAll({
      {"-(a + b)", -(a + b), "-a - b"},
      {"3*(a - b)", f.n(3) * (a - b), "3*a - 3*b"},
      {"(a + 1)/2", (a + f.n(1)) / f.n(2), "a/2 + 1/2"},
      {"x*(a + b) stays", x * (a + b), "(a + b)*x"},
  });
  checkSame({{"-(a + b) = -a + -b", -(a + b), (-a) + (-b)}});
}

TEST_CASE("equal expressions are one interned node", "[symbolic]") {
  Free f;
  auto [c, a, b, d, x, y, z] = std::tie(f.c, f.a, f.b, f.d, f.x, f.y, f.z);
  checkSame({
      {"a + b + c = c + a + b", a + b + d, d + a + b},
      {"a + b + c = add({c, b, a})", a + b + d, c.add({d, b, a})},
      {"x*y = y*x", x * y, y * x},
      {"(x*y)*z = x*(y*z)", (x * y) * z, x * (y * z)},
      {"x*y*z = mul({z, x, y})", x * y * z, c.mul({z, x, y})},
      {"x + x = 2*x", x + x, f.n(2) * x},
      {"x*x = x^2", x * x, pow(x, 2)},
      {"x^2*y + y*x^2", pow(x, 2) * y + y * pow(x, 2), f.n(2) * y * x * x},
      {"sin(x + y) = sin(y + x)", apply(Fn::Sin, x + y), apply(Fn::Sin, y + x)},
      {"(x + y)^2 = (y + x)*(x + y)", pow(x + y, 2), (y + x) * (x + y)},
      {"2/4 = 1/2", c.rational(2, 4), c.rational(1, 2)},
      {"symbol created twice", c.symbol("x", SymbolKind::Free), x},
      {"a - b = -(b - a)", a - b, -(b - a)},
  });
  // A symbol of the same name and another kind is another symbol.
  CHECK(c.symbol("x", SymbolKind::Param, 0) != x);
  size_t before = c.nodeCount();
  Expr again = x * y + apply(Fn::Cos, z);
  Expr twice = apply(Fn::Cos, z) + y * x;
  CHECK(again == twice);
  size_t after = c.nodeCount();
  Expr third = apply(Fn::Cos, z) + x * y;
  CHECK(c.nodeCount() == after); // nothing new for an existing expression
  CHECK(third == again);
  CHECK(after > before);
}

namespace {

// The same expressions over symbols created in a given order.
std::vector<Expr> fixedSet(Context &c, bool reversed) {
  std::vector<std::string> names = {"x", "y", "z", "w"};
  if (reversed) {
    std::reverse(names.begin(), names.end());
    // Unrelated nodes first, so that arena positions differ too.
    Expr junk = c.symbol("junk", SymbolKind::Free);
    (void)apply(Fn::Exp, junk * junk + c.integer(7));
  }
  for (const std::string &n : names)
    c.symbol(n, SymbolKind::Free);
  Context::Coordinate th2 = reversed ? c.coordinate("th2", 1) : Context::Coordinate{};
  Context::Coordinate th1 = c.coordinate("th1", 0);
  if (!reversed)
    th2 = c.coordinate("th2", 1);
  Expr m2 = reversed ? c.symbol("m2", SymbolKind::Param, 1) : Expr();
  Expr m1 = c.symbol("m1", SymbolKind::Param, 0);
  if (!reversed)
    m2 = c.symbol("m2", SymbolKind::Param, 1);
  Expr x = c.symbol("x", SymbolKind::Free), y = c.symbol("y", SymbolKind::Free),
       z = c.symbol("z", SymbolKind::Free), w = c.symbol("w", SymbolKind::Free);
  return {
      x + y + z + w,
      w * z * y * x,
      pow(x - y, 3) + apply(Fn::Sin, z - w) * apply(Fn::Cos, w - z),
      (m1 + m2) * pow(th1.qd, 2) / c.integer(2) +
          m2 * th1.qd * th2.qd * apply(Fn::Cos, th1.q - th2.q),
      apply(Fn::Sin, th2.q - th1.q) * pow(th2.qd, 2) - apply(Fn::Sin, th1.q) * m1,
      atan2(y - x, x + y) + sqrt(pow(x, 2) + pow(y, 2)) + pow(z, w) / x,
      c.rational(3, 7) * x * y - c.rational(5, 3) * z * w + th1.qdd * m1,
      apply(Fn::Exp, -x) + apply(Fn::Log, c.integer(1) + pow(y, 2)) - apply(Fn::Abs, z - w),
  };
}

} // namespace

TEST_CASE("printed and stored forms do not depend on creation order", "[symbolic]") {
  Context first, second;
  std::vector<Expr> a = fixedSet(first, false);
  std::vector<Expr> b = fixedSet(second, true);
  REQUIRE(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    INFO("expression " << i << ": " << sym::toMech(a[i]));
    CHECK(sym::toMech(a[i]) == sym::toMech(b[i]));
    CHECK(sym::toLatex(a[i]) == sym::toLatex(b[i]));
    CHECK(structure(a[i]) == structure(b[i]));
  }
  // Two runs in one context give the same text.
  std::vector<Expr> again = fixedSet(first, false);
  for (size_t i = 0; i < a.size(); ++i)
    CHECK(a[i] == again[i]);
  // Hand-checked forms of two of them.
  CHECK(sym::toMech(a[0]) == "w + x + y + z");
  CHECK(sym::toMech(a[1]) == "w*x*y*z");
}

TEST_CASE("exact rationals overflow to correct doubles", "[symbolic]") {
  Context c;
  Expr x = c.symbol("x", SymbolKind::Free);
  const int64_t p = 1000000007, q = 1000000009; // coprime
  Expr ratio = c.rational(p, q);
  // Two factors still fit in 64 bits.
  Expr two = ratio * ratio * x;
  REQUIRE(two.kind() == Kind::Mul);
  CHECK(two->num.exact());
  CHECK(two->num.rational() == *Rational::make(p * p, q * q));
  // Six do not: the coefficient becomes inexact but keeps its value.
  Expr product = x;
  for (int i = 0; i < 6; ++i)
    product = product * ratio;
  REQUIRE(product.kind() == Kind::Mul);
  CHECK(!product->num.exact());
  double expected = std::pow(static_cast<double>(p) / static_cast<double>(q), 6);
  CHECK(close(product->num.toDouble(), expected, 1e-14));
  // The same for a number alone and for sums.
  Expr big = c.integer(int64_t(1) << 62);
  Expr square = big * big;
  REQUIRE(square.isNumber());
  CHECK(!square->num.exact());
  CHECK(square->num.toDouble() == std::ldexp(1.0, 124));
  Expr sum = big + big + big;
  REQUIRE(sum.isNumber());
  CHECK(!sum->num.exact());
  CHECK(sum->num.toDouble() == 3 * std::ldexp(1.0, 62));
  Expr fraction = c.rational(1, q) + c.rational(1, p) + c.rational(1, 999999937);
  REQUIRE(fraction.isNumber());
  CHECK(close(fraction->num.toDouble(), 1.0 / q + 1.0 / p + 1.0 / 999999937, 1e-14));
  // Inexact numbers still collect like terms.
  Expr inexact = product + product;
  REQUIRE(inexact.kind() == Kind::Mul);
  CHECK(close(inexact->num.toDouble(), 2 * expected, 1e-14));
}

namespace {

struct Trig {
  Context c;
  Expr a = c.symbol("a", SymbolKind::Free);
  Expr b = c.symbol("b", SymbolKind::Free);
  Expr k = c.symbol("k", SymbolKind::Free);
  Expr sa = apply(Fn::Sin, a), ca = apply(Fn::Cos, a);
  Expr sb = apply(Fn::Sin, b), cb = apply(Fn::Cos, b);

  // result(a, b) == expected(a, b) at several points.
  void numerically(const Expr &result, double (*expected)(double, double)) {
    Inputs in{a, b, k};
    sym::Program program({result}, in.map());
    const double points[][2] = {{0.3, 1.1}, {-2.0, 0.7}, {1.9, -0.4}, {2.5, 2.5}};
    for (const auto &p : points) {
      double got = program.evaluate({p[0], p[1], 1.7})[0];
      CHECK(close(got, expected(p[0], p[1]), 1e-12));
    }
  }
};

} // namespace

TEST_CASE("simplifyTrig applies the Pythagorean identity", "[symbolic]") {
  Trig t;
  Context &c = t.c;
  CHECK(sym::simplifyTrig(pow(t.sa, 2) + pow(t.ca, 2)) == c.one());
  CHECK(sym::simplifyTrig(t.k * pow(t.sa, 2) + t.k * pow(t.ca, 2)) == t.k);
  CHECK(sym::simplifyTrig(c.integer(3) * pow(t.sa, 2) + c.integer(3) * pow(t.ca, 2)) ==
        c.integer(3));
  // With a term left over.
  CHECK(sym::simplifyTrig(pow(t.sa, 2) + pow(t.ca, 2) + t.b) == (t.b + c.one()));
  // Different coefficients: not the identity.
  Expr unequal = c.integer(2) * pow(t.sa, 2) + pow(t.ca, 2);
  CHECK(sym::simplifyTrig(unequal) == unequal);
  // Nested inside a function argument.
  CHECK(sym::simplifyTrig(apply(Fn::Exp, pow(t.sa, 2) + pow(t.ca, 2))) == apply(Fn::Exp, c.one()));
}

TEST_CASE("simplifyTrig applies the angle-sum identities", "[symbolic]") {
  Trig t;
  Context &c = t.c;
  Expr a = t.a, b = t.b;

  Expr diffCos = sym::simplifyTrig(t.ca * t.cb + t.sa * t.sb);
  INFO("cos a cos b + sin a sin b -> " << sym::toMech(diffCos));
  CHECK_FALSE(hasTrigProduct(diffCos));
  CHECK(diffCos == apply(Fn::Cos, a - b));
  CHECK(sym::toMech(diffCos) == "cos(a - b)");
  t.numerically(diffCos, [](double x, double y) { return std::cos(x - y); });

  Expr sumCos = sym::simplifyTrig(t.ca * t.cb - t.sa * t.sb);
  CHECK_FALSE(hasTrigProduct(sumCos));
  CHECK(sumCos == apply(Fn::Cos, a + b));
  t.numerically(sumCos, [](double x, double y) { return std::cos(x + y); });

  Expr diffSin = sym::simplifyTrig(t.sa * t.cb - t.ca * t.sb);
  CHECK_FALSE(hasTrigProduct(diffSin));
  CHECK(diffSin == apply(Fn::Sin, a - b));
  t.numerically(diffSin, [](double x, double y) { return std::sin(x - y); });

  Expr sumSin = sym::simplifyTrig(t.sa * t.cb + t.ca * t.sb);
  CHECK_FALSE(hasTrigProduct(sumSin));
  CHECK(sumSin == apply(Fn::Sin, a + b));
  t.numerically(sumSin, [](double x, double y) { return std::sin(x + y); });

  Expr negated = sym::simplifyTrig(-(t.ca * t.cb) - t.sa * t.sb);
  CHECK_FALSE(hasTrigProduct(negated));
  CHECK(negated == (-apply(Fn::Cos, a - b)));
  CHECK(sym::toMech(negated) == "-cos(a - b)");
  t.numerically(negated, [](double x, double y) { return -std::cos(x - y); });

  // With a common factor and coefficient.
  Expr scaled =
      sym::simplifyTrig(c.integer(5) * t.k * t.ca * t.cb + c.integer(5) * t.k * t.sa * t.sb);
  CHECK_FALSE(hasTrigProduct(scaled));
  CHECK(scaled == (c.integer(5) * t.k * apply(Fn::Cos, a - b)));
  t.numerically(scaled, [](double x, double y) { return 5 * 1.7 * std::cos(x - y); });

  // Unmatched coefficients are left alone.
  Expr mismatch = c.integer(2) * t.ca * t.cb + t.sa * t.sb;
  CHECK(sym::simplifyTrig(mismatch) == mismatch);
}

TEST_CASE("collectParameters groups parameter factors", "[symbolic]") {
  Context c;
  // Params are displayed in declaration (index) order.
  Expr m1 = c.symbol("m1", SymbolKind::Param, 0);
  Expr m2 = c.symbol("m2", SymbolKind::Param, 1);
  Expr l1 = c.symbol("l1", SymbolKind::Param, 2);
  Context::Coordinate th = c.coordinate("th", 0);

  Expr grouped = sym::collectParameters(m1 * pow(l1, 2) + m2 * pow(l1, 2));
  CHECK(sym::toMech(grouped) == "(m1 + m2)*l1^2");
  CHECK(grouped == ((m1 + m2) * pow(l1, 2)));

  Expr kinetic = m1 * pow(l1, 2) * pow(th.qd, 2) / c.integer(2) +
                 m2 * pow(l1, 2) * pow(th.qd, 2) / c.integer(2);
  Expr collected = sym::collectParameters(kinetic);
  CHECK(sym::toMech(collected) == "(m1 + m2)*l1^2*th'^2/2");
  // Same value as before.
  Inputs in{m1, m2, l1, th.qd};
  std::vector<double> values = {1.5, 2.5, 0.7, -1.3};
  CHECK(close(evaluate(collected, in, values), evaluate(kinetic, in, values)));
  CHECK(close(evaluate(collected, in, values), (1.5 + 2.5) * 0.49 * 1.69 / 2));

  // simplify = expand, trig, collect.
  Expr mixed = sym::simplify(m1 * pow(l1, 2) * pow(apply(Fn::Sin, th.q), 2) +
                             m1 * pow(l1, 2) * pow(apply(Fn::Cos, th.q), 2));
  CHECK(sym::toMech(mixed) == "m1*l1^2");
}

TEST_CASE("expand distributes products of sums", "[symbolic]") {
  Free f;
  auto [c, a, b, x] = std::tie(f.c, f.a, f.b, f.x);
  CHECK(sym::expand(pow(a + b, 2)) == (pow(a, 2) + f.n(2) * a * b + pow(b, 2)));
  CHECK(sym::expand(x * (a + b)) == (a * x + b * x));
  CHECK(sym::expand((a + f.n(1)) * (a - f.n(1))) == (pow(a, 2) - f.n(1)));
  CHECK(sym::expand(pow(a - b, 3)) ==
        (pow(a, 3) - f.n(3) * pow(a, 2) * b + f.n(3) * a * pow(b, 2) - pow(b, 3)));
  (void)c;
}

namespace {

// Random expressions built twice in parallel: through the factories, and as
// a double computed directly from the operations at a fixed point. Domains
// are respected by construction; an expression whose intermediate values get
// large, or that evaluates a discontinuous function next to its jump, is
// rejected by setting `ok` to false.
class ValuedGenerator {
public:
  struct Valued {
    Expr e;
    double v;
  };

  ValuedGenerator(Context &c, Random &random, std::vector<Expr> symbols, std::vector<double> values)
      : c_(c), random_(random), symbols_(std::move(symbols)), values_(std::move(values)) {}

  bool ok = true;

  Valued generate(int depth) {
    Valued r = build(depth);
    check(r.v);
    return r;
  }

private:
  void check(double v) {
    if (!std::isfinite(v) || std::abs(v) > 1e6)
      ok = false;
  }

  Valued leaf() {
    if (random_.chance(30)) {
      static const int64_t dens[] = {1, 1, 2, 3, 7};
      int64_t num = random_.pick(9) - 4, den = dens[random_.pick(5)];
      if (num == 0)
        num = 5;
      return {c_.rational(num, den), static_cast<double>(num) / static_cast<double>(den)};
    }
    size_t i = static_cast<size_t>(random_.pick(static_cast<int>(symbols_.size())));
    return {symbols_[i], values_[i]};
  }

  Valued positive(int depth) {
    Valued g = build(depth);
    switch (random_.pick(4)) {
    case 0:
      return {c_.one() + pow(g.e, 2), 1 + g.v * g.v};
    case 1:
      return {apply(Fn::Cosh, g.e), std::cosh(g.v)};
    case 2:
      return {c_.rational(1, 2) + apply(Fn::Abs, g.e), 0.5 + std::abs(g.v)};
    default:
      return {c_.integer(2) + apply(Fn::Sin, g.e), 2 + std::sin(g.v)};
    }
  }

  Valued build(int depth) {
    if (depth <= 0 || random_.chance(15))
      return leaf();
    int d = depth - 1;
    Valued r;
    switch (random_.pick(16)) {
    case 0: {
      Valued a = build(d), b = build(d);
      r = {a.e + b.e, a.v + b.v};
      break;
    }
    case 1: {
      Valued a = build(d), b = build(d);
      r = {a.e - b.e, a.v - b.v};
      break;
    }
    case 2:
    case 3: {
      Valued a = build(d), b = build(d);
      r = {a.e * b.e, a.v * b.v};
      break;
    }
    case 4: {
      Valued a = build(d), b = positive(d);
      r = {a.e / b.e, a.v / b.v};
      break;
    }
    case 5: {
      Valued a = build(d);
      r = {-a.e, -a.v};
      break;
    }
    case 6: {
      static const int k[] = {2, 3, 4, -1, -2};
      int p = k[random_.pick(5)];
      Valued a = p < 0 ? positive(d) : build(d);
      r = {pow(a.e, p), std::pow(a.v, p)};
      break;
    }
    case 7: {
      static const int64_t f[][2] = {{1, 2}, {-1, 2}, {1, 3}, {3, 2}, {-2, 3}};
      const int64_t *q = f[random_.pick(5)];
      Valued a = positive(d);
      r = {pow(a.e, c_.rational(q[0], q[1])),
           std::pow(a.v, static_cast<double>(q[0]) / static_cast<double>(q[1]))};
      break;
    }
    case 8: {
      Valued a = positive(d), b = build(d);
      r = {pow(a.e, b.e), std::pow(a.v, b.v)};
      break;
    }
    case 9: {
      Valued a = positive(d);
      r = random_.chance(50) ? Valued{sqrt(a.e), std::sqrt(a.v)}
                             : Valued{apply(Fn::Log, a.e), std::log(a.v)};
      break;
    }
    case 10: {
      Valued a = build(d), b = build(d);
      if (std::hypot(a.v, b.v) < 1e-6 || (b.v < 0 && std::abs(a.v) < 1e-6))
        ok = false; // next to atan2's cut
      r = {atan2(a.e, b.e), std::atan2(a.v, b.v)};
      break;
    }
    case 11: {
      Valued a = build(d);
      double s = std::sin(a.v) / 2;
      r = random_.chance(50)
              ? Valued{apply(Fn::Asin, apply(Fn::Sin, a.e) / c_.integer(2)), std::asin(s)}
              : Valued{apply(Fn::Acos, apply(Fn::Sin, a.e) / c_.integer(2)), std::acos(s)};
      break;
    }
    case 12: {
      Valued a = build(d);
      if (std::abs(a.v) < 1e-6)
        ok = false; // sign jumps at 0
      r = {apply(Fn::Sign, a.e), a.v > 0 ? 1.0 : a.v < 0 ? -1.0 : 0.0};
      break;
    }
    case 13: {
      Valued a = build(d);
      if (std::abs(std::cos(a.v)) < 1e-3)
        ok = false;
      r = {apply(Fn::Tan, a.e), std::tan(a.v)};
      break;
    }
    default: {
      Valued a = build(d);
      switch (random_.pick(8)) {
      case 0:
        r = {apply(Fn::Sin, a.e), std::sin(a.v)};
        break;
      case 1:
        r = {apply(Fn::Cos, a.e), std::cos(a.v)};
        break;
      case 2:
        r = {apply(Fn::Atan, a.e), std::atan(a.v)};
        break;
      case 3:
        r = {apply(Fn::Sinh, a.e), std::sinh(a.v)};
        break;
      case 4:
        r = {apply(Fn::Cosh, a.e), std::cosh(a.v)};
        break;
      case 5:
        r = {apply(Fn::Tanh, a.e), std::tanh(a.v)};
        break;
      case 6:
        r = {apply(Fn::Exp, a.e), std::exp(a.v)};
        break;
      default:
        r = {apply(Fn::Abs, a.e), std::abs(a.v)};
        break;
      }
    }
    }
    check(r.v);
    return r;
  }

  Context &c_;
  Random &random_;
  std::vector<Expr> symbols_;
  std::vector<double> values_;
};

} // namespace

TEST_CASE("canonical forms and simplifications keep the value of random expressions",
          "[symbolic]") {
  Context c;
  Context::Coordinate q = c.coordinate("q", 0);
  Expr m = c.symbol("m", SymbolKind::Param, 0);
  Expr l = c.symbol("l", SymbolKind::Param, 1);
  Expr x = c.symbol("x", SymbolKind::Free);
  Expr y = c.symbol("y", SymbolKind::Free);
  Inputs in{q.q, q.qd, m, l, x, y};
  Random random(31337);
  int accepted = 0;
  for (int attempt = 0; attempt < 5000 && accepted < 600; ++attempt) {
    std::vector<double> point;
    for (size_t i = 0; i < in.size(); ++i)
      point.push_back(random.uniform(-2, 2));
    ValuedGenerator generator(c, random, in.symbols(), point);
    ValuedGenerator::Valued r = generator.generate(2 + random.pick(3));
    if (!generator.ok)
      continue;
    ++accepted;
    INFO("e = " << sym::toMech(r.e));
    double tolerance = 1e-9;
    CHECK(close(evaluate(r.e, in, point), r.v, tolerance));
    CHECK(close(evaluate(sym::simplifyTrig(r.e), in, point), r.v, tolerance));
    CHECK(close(evaluate(sym::collectParameters(r.e), in, point), r.v, tolerance));
    CHECK(close(evaluate(sym::expand(r.e), in, point), r.v, 1e-8));
    CHECK(close(evaluate(sym::simplify(r.e), in, point), r.v, 1e-8));
  }
  CHECK(accepted == 600);
}

TEST_CASE("trig and parameter simplifications keep the value of random trig sums", "[symbolic]") {
  Context c;
  Expr m1 = c.symbol("m1", SymbolKind::Param, 0);
  Expr m2 = c.symbol("m2", SymbolKind::Param, 1);
  Context::Coordinate a = c.coordinate("a", 0), b = c.coordinate("b", 1);
  Expr angles[] = {a.q, b.q, a.q - b.q};
  Inputs in{m1, m2, a.q, b.q, a.qd};
  Random random(5);
  int simplified = 0;
  for (int i = 0; i < 300; ++i) {
    std::vector<double> point = {random.uniform(0.5, 2), random.uniform(0.5, 2),
                                 random.uniform(-3, 3), random.uniform(-3, 3),
                                 random.uniform(-2, 2)};
    double angle[] = {point[2], point[3], point[2] - point[3]};
    Expr sum = c.zero();
    double value = 0;
    int terms = 1 + random.pick(5);
    for (int t = 0; t < terms; ++t) {
      int64_t coef = random.pick(5) - 2;
      if (coef == 0)
        coef = 3;
      Expr term = c.integer(coef);
      double tv = static_cast<double>(coef);
      // Parameter and velocity factors.
      if (random.chance(50)) {
        term = term * m1;
        tv *= point[0];
      }
      if (random.chance(30)) {
        term = term * m2;
        tv *= point[1];
      }
      if (random.chance(40)) {
        term = term * pow(a.qd, 2);
        tv *= point[4] * point[4];
      }
      int factors = 1 + random.pick(2);
      for (int f = 0; f < factors; ++f) {
        int k = random.pick(3);
        bool isSin = random.chance(50);
        int power = random.chance(70) ? 1 : 2;
        term = term * pow(apply(isSin ? Fn::Sin : Fn::Cos, angles[k]), power);
        tv *= std::pow(isSin ? std::sin(angle[k]) : std::cos(angle[k]), power);
      }
      sum = sum + term;
      value += tv;
    }
    // Often add the partner terms the identities look for.
    if (random.chance(50)) {
      Expr w = random.chance(50) ? m1 : c.one();
      double wv = w == m1 ? point[0] : 1;
      int64_t k = random.chance(50) ? 1 : -1;
      sum = sum + w * (apply(Fn::Cos, a.q) * apply(Fn::Cos, b.q) +
                       c.integer(k) * apply(Fn::Sin, a.q) * apply(Fn::Sin, b.q));
      value += wv * (std::cos(point[2]) * std::cos(point[3]) +
                     static_cast<double>(k) * std::sin(point[2]) * std::sin(point[3]));
      sum = sum + w * (pow(apply(Fn::Sin, b.q), 2) + pow(apply(Fn::Cos, b.q), 2));
      value += wv;
    }
    INFO("sum = " << sym::toMech(sum));
    Expr trig = sym::simplifyTrig(sum);
    Expr all = sym::simplify(sum);
    INFO("simplifyTrig: " << sym::toMech(trig));
    INFO("simplify: " << sym::toMech(all));
    CHECK(close(evaluate(sum, in, point), value, 1e-12));
    CHECK(close(evaluate(trig, in, point), value, 1e-11));
    CHECK(close(evaluate(sym::collectParameters(sum), in, point), value, 1e-11));
    CHECK(close(evaluate(all, in, point), value, 1e-11));
    simplified += trig != sum;
  }
  CHECK(simplified > 50);
}

TEST_CASE("substitution rebuilds canonical forms", "[symbolic]") {
  Context c;
  Expr x = c.symbol("x", SymbolKind::Free);
  Expr y = c.symbol("y", SymbolKind::Free);
  Expr z = c.symbol("z", SymbolKind::Free);
  {
    sym::Substitution s;
    s.set(x, y);
    CHECK(s(x + y) == (c.integer(2) * y));
    CHECK(s(x * y) == pow(y, 2));
    CHECK(s(apply(Fn::Sin, x) - apply(Fn::Sin, y)) == c.zero());
    CHECK(s(z) == z); // unchanged subtrees are returned as they are
  }
  {
    sym::Substitution s;
    s.set(x, c.zero());
    CHECK(s(apply(Fn::Cos, x) + apply(Fn::Sin, x) * y) == c.one());
    CHECK(s(pow(y, x)) == c.one());
  }
  {
    // A subexpression, not only a symbol.
    sym::Substitution s;
    s.set(apply(Fn::Sin, x), y);
    CHECK(s(pow(apply(Fn::Sin, x), 2) + z) == (pow(y, 2) + z));
  }
  {
    // Numerically: e(x -> g) at a point equals e at x = g(point).
    sym::Substitution s;
    Expr g = y * z + c.rational(1, 3);
    s.set(x, g);
    Expr e = apply(Fn::Exp, x / c.integer(4)) * pow(x + y, 3) - atan2(x, z);
    Inputs in{x, y, z};
    double yv = 0.8, zv = -1.1, gv = yv * zv + 1.0 / 3.0;
    CHECK(close(evaluate(s(e), in, {0, yv, zv}), evaluate(e, in, {gv, yv, zv}), 1e-13));
    CHECK(close(evaluate(s(e), in, {0, yv, zv}),
                std::exp(gv / 4) * std::pow(gv + yv, 3) - std::atan2(gv, zv), 1e-13));
  }
}

// x*x*x = x^3 holds for symbols; for x = sqrt(2) the coefficient absorbs
// sqrt(2)*sqrt(2) = 2 first and the result is another node than 2^(3/2).
TEST_CASE("powers of numbers are canonical whatever the grouping", "[symbolic][!mayfail]") {
  Context c;
  Expr s2 = sqrt(c.integer(2));
  Expr x = c.symbol("x", SymbolKind::Free);
  CHECK((sqrt(x) * sqrt(x) * sqrt(x)) == pow(sqrt(x), 3));
  CHECK((s2 * s2 * s2) == pow(s2, 3));
  CHECK((s2 * s2 * s2) == c.mul({s2, s2, s2}));
  CHECK((c.integer(2) * pow(c.integer(2), x)) == pow(c.integer(2), x + c.one()));
}

// A number times a lone sum distributes, but a number times a product that
// contains a sum does not, so the canonical node depends on the grouping.
TEST_CASE("a number times a product with a sum is canonical whatever the grouping", "[symbolic]") {
  Context c;
  Expr x = c.symbol("x", SymbolKind::Free);
  Expr y = c.symbol("y", SymbolKind::Free);
  Expr z = c.symbol("z", SymbolKind::Free);
  Expr two = c.integer(2);
  CHECK((two * (x + y)) * z == two * ((x + y) * z));
  CHECK((-(x + y)) * z == -((x + y) * z));
  CHECK(c.integer(3) * (x + y) * pow(z, -1) == c.integer(3) * ((x + y) / z));
  CHECK(pow(c.integer(3) * (x + y), -1) == pow(x + y, -1) / c.integer(3));
}
