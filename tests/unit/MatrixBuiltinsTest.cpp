// det, trace and inv (mechanics/MatrixBuiltins.h, the language's built-ins and
// the REPL's) against values worked out by hand: numeric matrices with their
// determinants and inverses written out, the rule of Sarrus for a symbolic
// 3x3 determinant, inv(A) A = I at random rational points, the shape errors
// of the checker and of the REPL, and the dimensions the checker gives.
#include "TestSupport.h"

#include "CalculatorSupport.h"
#include "mechanics/MatrixBuiltins.h"
#include "symbolic/Simplify.h"
#include "symbolic/Subs.h"

#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

using namespace mech;
using mechanics::Tensor;
using sym::Expr;

namespace {

Expr fraction(sym::Context &c, int64_t num, int64_t den = 1) {
  return c.number(sym::Num(*Rational::make(num, den)));
}

// An n x n matrix of integers, row by row.
Tensor integers(sym::Context &c, int n, const std::vector<int64_t> &entries) {
  Tensor m{n, n, {}};
  for (int64_t x : entries)
    m.v.push_back(c.integer(x));
  return m;
}

// An n x n matrix of the free symbols a11, a12, ...
Tensor symbols(sym::Context &c, int n) {
  Tensor m{n, n, {}};
  for (int i = 1; i <= n; ++i)
    for (int j = 1; j <= n; ++j)
      m.v.push_back(c.symbol("a" + std::to_string(i) + std::to_string(j), sym::SymbolKind::Free));
  return m;
}

Tensor product(sym::Context &c, const Tensor &a, const Tensor &b) {
  int n = a.rows;
  Tensor out{n, n, {}};
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      std::vector<Expr> terms;
      for (int k = 0; k < n; ++k)
        terms.push_back(a.v[static_cast<size_t>(i * n + k)] * b.v[static_cast<size_t>(k * n + j)]);
      out.v.push_back(c.add(terms));
    }
  return out;
}

void requireIdentity(const Tensor &m) {
  for (int i = 0; i < m.rows; ++i)
    for (int j = 0; j < m.cols; ++j) {
      const Expr &x = m.v[static_cast<size_t>(i * m.cols + j)];
      INFO("entry " << i << ", " << j);
      REQUIRE(x.isNumber());
      CHECK(x->num.toDouble() == (i == j ? 1.0 : 0.0));
    }
}

// The first error's column and message.
std::string errorAt(test::Calculator &calc, const std::string &text) {
  Diagnostic d = calc.failure(text);
  return std::to_string(d.location.column) + ": " + d.message;
}

} // namespace

TEST_CASE("matrix built-ins: numeric det, trace and inv equal values worked out by hand",
          "[matrix]") {
  sym::Context c;
  SECTION("2x2: det = 1*4 - 2*3, inverse = [[4, -2], [-3, 1]] / det") {
    Tensor a = integers(c, 2, {1, 2, 3, 4});
    CHECK(mechanics::determinant(c, a) == c.integer(-2));
    CHECK(mechanics::trace(c, a) == c.integer(5));
    Tensor inv = mechanics::inverse(c, a);
    std::vector<Expr> expected = {c.integer(-2), c.integer(1), fraction(c, 3, 2),
                                  fraction(c, -1, 2)};
    CHECK(inv.v == expected);
  }
  SECTION("3x3: det by the first row = 2*(6 - 2) - 0 + 1*(1 - 3) = 6, inverse = adj / 6") {
    Tensor a = integers(c, 3, {2, 0, 1, 1, 3, 2, 1, 1, 2});
    CHECK(mechanics::determinant(c, a) == c.integer(6));
    CHECK(mechanics::trace(c, a) == c.integer(7));
    // The transposed cofactors [[4, 1, -3], [0, 3, -3], [-2, -2, 6]] over 6.
    std::vector<Expr> expected = {fraction(c, 2, 3),  fraction(c, 1, 6),  fraction(c, -1, 2),
                                  c.zero(),           fraction(c, 1, 2),  fraction(c, -1, 2),
                                  fraction(c, -1, 3), fraction(c, -1, 3), c.one()};
    CHECK(mechanics::inverse(c, a).v == expected);
  }
  SECTION("4x4 tridiagonal (2 on the diagonal, 1 beside it): det = 5") {
    // D_n = 2 D_(n-1) - D_(n-2) from D_1 = 2, D_2 = 3; the inverse is
    // (-1)^(i+j) min(i, j) (5 - max(i, j)) / 5.
    Tensor a = integers(c, 4, {2, 1, 0, 0, 1, 2, 1, 0, 0, 1, 2, 1, 0, 0, 1, 2});
    CHECK(mechanics::determinant(c, a) == c.integer(5));
    CHECK(mechanics::trace(c, a) == c.integer(8));
    std::vector<int64_t> fifths = {4, -3, 2, -1, -3, 6, -4, 2, 2, -4, 6, -3, -1, 2, -3, 4};
    std::vector<Expr> expected;
    for (int64_t k : fifths)
      expected.push_back(fraction(c, k, 5));
    CHECK(mechanics::inverse(c, a).v == expected);
  }
  SECTION("4x4 of two 2x2 blocks: det = (1*4 - 2*3)(5*8 - 6*7) = 4") {
    Tensor a = integers(c, 4, {1, 2, 0, 0, 3, 4, 0, 0, 0, 0, 5, 6, 0, 0, 7, 8});
    CHECK(mechanics::determinant(c, a) == c.integer(4));
  }
  SECTION("1x1") {
    Tensor a = integers(c, 1, {7});
    CHECK(mechanics::determinant(c, a) == c.integer(7));
    CHECK(mechanics::inverse(c, a).v == std::vector<Expr>{fraction(c, 1, 7)});
  }
  SECTION("trace has no size limit") {
    std::vector<int64_t> entries(36, 1);
    CHECK(mechanics::trace(c, integers(c, 6, entries)) == c.integer(6));
  }
}

TEST_CASE("matrix built-ins: a symbolic 3x3 det equals the rule of Sarrus", "[matrix]") {
  sym::Context c;
  auto s = [&](const char *name) { return c.symbol(name, sym::SymbolKind::Free); };
  Expr a = s("a"), b = s("b"), cc = s("c"), d = s("d"), e = s("e"), f = s("f"), g = s("g"),
       h = s("h"), i = s("i");
  Tensor m{3, 3, {a, b, cc, d, e, f, g, h, i}};
  // a e i + b f g + c d h - c e g - b d i - a f h
  Expr sarrus = a * e * i + b * f * g + cc * d * h - cc * e * g - b * d * i - a * f * h;
  CHECK(sym::expand(mechanics::determinant(c, m) - sarrus).isZero());
  CHECK(mechanics::trace(c, m) == a + e + i);
  // The adjugate's first entry over the determinant.
  CHECK(sym::expand(mechanics::inverse(c, m).v[0] * sarrus - (e * i - f * h)).isZero());
}

TEST_CASE("matrix built-ins: inv(A) A = A inv(A) = I at random rational points", "[matrix]") {
  std::mt19937 random(20240607);
  std::uniform_int_distribution<int64_t> numerator(-9, 9), denominator(1, 4);
  for (int n : {3, 4}) {
    sym::Context c;
    Tensor a = symbols(c, n);
    // Symbolic once, then the points substituted: the cofactors are checked
    // as formulas, not only as numbers of one matrix.
    Tensor inv = mechanics::inverse(c, a);
    Tensor left = product(c, inv, a), right = product(c, a, inv);
    Expr det = mechanics::determinant(c, a);
    int checked = 0;
    for (int trial = 0; trial < 40 && checked < 15; ++trial) {
      sym::Substitution point;
      for (const Expr &x : a.v)
        point.set(x, fraction(c, numerator(random), denominator(random)));
      if (point(det).isZero())
        continue;
      INFO(n << "x" << n << ", trial " << trial);
      Tensor l{n, n, {}}, r{n, n, {}};
      for (size_t k = 0; k < left.v.size(); ++k) {
        l.v.push_back(point(left.v[k]));
        r.v.push_back(point(right.v[k]));
      }
      requireIdentity(l);
      requireIdentity(r);
      ++checked;
    }
    CHECK(checked == 15);
  }
}

TEST_CASE("matrix built-ins in the repl: values, symbols and errors", "[matrix][repl]") {
  test::Calculator calc;
  CHECK(calc.shown("det([[1, 2], [3, 4]])") == "-2");
  CHECK(calc.shown("trace([[1, 2], [3, 4]])") == "5");
  CHECK(calc.shown("inv([[1, 2], [3, 4]])") == "[[-2, 1], [3/2, -1/2]]");
  CHECK(calc.shown("det([[a, b], [c, d]])") == "a*d - b*c");
  CHECK(calc.shown("inv(diag(2, 4)) * [2, 4]") == "[1, 1]");
  CHECK(calc.shown("trace([[1, 2, 3, 4, 5], [0, 1, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 1, 0], "
                   "[0, 0, 0, 0, 1]])") == "5");

  CHECK(errorAt(calc, "det([1, 2])") == "5: det expects a square matrix, found a 2-vector");
  CHECK(errorAt(calc, "inv([[1, 2, 3], [4, 5, 6]])") ==
        "5: inv expects a square matrix, found a 2x3 matrix");
  CHECK(errorAt(calc, "trace(x)") == "7: trace expects a square matrix, found a scalar");
  CHECK(errorAt(calc, "det([[1, 2], [3, 4]], 1)") == "1: det takes 1 argument, 2 given");
  CHECK(errorAt(calc, "inv([[1, 2], [2, 4]])") ==
        "5: inv of a singular matrix (its determinant is 0)");
  std::string five = "[[1, 0, 0, 0, 0], [0, 1, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 1, 0], "
                     "[0, 0, 0, 0, 1]]";
  // Above 4x4 the numeric path; of numbers, exact: det(2*I + J) = 6 for 5x5.
  CHECK(calc.shown("det(" + five + ")") == "1");
  CHECK(calc.shown("det(" + five +
                   " + [[1, 1, 1, 1, 1], [1, 1, 1, 1, 1], [1, 1, 1, 1, 1], "
                   "[1, 1, 1, 1, 1], [1, 1, 1, 1, 1]])") == "6");
  CHECK(calc.shown("inv(2 * " + five + ")") == "[[1/2, 0, 0, 0, 0], [0, 1/2, 0, 0, 0], "
                                               "[0, 0, 1/2, 0, 0], [0, 0, 0, 1/2, 0], "
                                               "[0, 0, 0, 0, 1/2]]");
  CHECK(calc.shown("solve(2 * " + five + ", [2, 4, 6, 8, 10])") == "[1, 2, 3, 4, 5]");
  CHECK(errorAt(calc, "solve(" + five + ", [1, 2])") ==
        "94: solve expects a vector or matrix of 5 rows, found a 2-vector");
  std::string seventeen = "[";
  for (int i = 0; i < 17; ++i) {
    seventeen += i ? ", [" : "[";
    for (int j = 0; j < 17; ++j)
      seventeen += std::string(j ? ", " : "") + (i == j ? "1" : "0");
    seventeen += "]";
  }
  seventeen += "]";
  CHECK(errorAt(calc, "det(" + seventeen + ")") ==
        "5: det takes matrices of at most 16x16 (above 4x4 it is computed numerically, and its "
        "derivatives grow as n^4), found a 17x17 matrix");
  CHECK(errorAt(calc, "inv(" + seventeen + ")").find("inv takes matrices of at most 16x16") == 3);
}

TEST_CASE("matrix built-ins in a model: shapes, arity, names and dimensions", "[matrix][sema]") {
  SECTION("errors point at the argument") {
    test::Session session;
    auto analysis = session.analyze("model A {\n"
                                    "  coord x [m]\n"
                                    "  let A = [[x, x, x], [x, x, x]]\n"
                                    "  let d = det(A)\n"
                                    "  let s = trace([x, x])\n"
                                    "  let i = inv(x)\n"
                                    "  let j = inv(A, A)\n"
                                    "}\n");
    CHECK_FALSE(analysis.ok);
    CHECK(session.messages() == "4:15: error: det expects a square matrix, found a 2x3 matrix\n"
                                "5:17: error: trace expects a square matrix, found a 2-vector\n"
                                "6:15: error: inv expects a square matrix, found a scalar\n"
                                "7:11: error: inv takes 1 argument, 2 given\n");
  }
  SECTION("the names are built-ins: they cannot be declared") {
    test::Session session;
    auto analysis = session.analyze("model A {\n  coord x [m]\n  let det = x\n}\n");
    CHECK_FALSE(analysis.ok);
    CHECK(session.messages() ==
          "3:7: error: 'det' is a built-in function and cannot be declared\n");
  }
  SECTION("det has the entries' dimension to the n-th power, trace keeps it, inv inverts it") {
    test::Session session;
    auto analysis = session.analyze("model A {\n"
                                    "  param m = 2 [kg], l = 3 [m]\n"
                                    "  coord x [m]\n"
                                    "  let M = [[m, 0], [0, m]]\n"
                                    "  let L = diag(l, l, x)\n"
                                    "  let d2 = det(M)\n"
                                    "  let d3 = det(L)\n"
                                    "  let s = trace(M)\n"
                                    "  let i = inv(M)\n"
                                    "  let pure = det([[1, 2], [3, 4]]) * inv(diag(1, 2))\n"
                                    "}\n");
    INFO(session.messages());
    REQUIRE(analysis.ok);
    std::vector<std::string> dims;
    for (const sema::Let &let : analysis.model->lets)
      dims.push_back(let.value->dim.state == sema::DimInfo::Pure ? "pure"
                                                                 : let.value->dim.toString());
    CHECK(dims == std::vector<std::string>{"kg", "m", "kg^2", "m^3", "kg", "1/kg", "pure"});
    CHECK(analysis.model->lets[5].value->shape == sema::Shape::matrix(2, 2));
  }
}
