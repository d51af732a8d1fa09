// The REPL's calculator (repl/Expressions.h) against answers from outside
// the engine: derivatives against central finite differences of the
// expression's own numeric values, Taylor polynomials against the
// function they approximate, products against numbers worked out by hand.
#include "CalculatorSupport.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>

using namespace mech;

namespace {

using test::Calculator;

std::string at(double x) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", x);
  return buffer;
}

} // namespace

TEST_CASE("diff agrees with central finite differences", "[repl]") {
  Calculator c;
  const char *functions[] = {"sin(x)^2 * exp(-x/3)", "atan2(x, 1 + x^2)", "sqrt(1 + x^4) / x",
                             "log(2 + cos(x)) * x^3", "tanh(x) + x^(5/2)"};
  for (const char *f : functions)
    for (double x : {0.4, 1.3, 2.2}) {
      double h = 1e-5;
      double exact = c.number("eval(diff(" + std::string(f) + ", x), x, " + at(x) + ")");
      double plus = c.number("eval(" + std::string(f) + ", x, " + at(x + h) + ")");
      double minus = c.number("eval(" + std::string(f) + ", x, " + at(x - h) + ")");
      INFO(f << " at " << x);
      CHECK(exact == Approx((plus - minus) / (2 * h)).epsilon(1e-7));
    }
}

TEST_CASE("taylor approximates the function to the next order", "[repl]") {
  Calculator c;
  // The remainder of an order-n polynomial about 0 is O(x^(n+1)): halving x
  // divides the error by about 2^(n+1).
  for (int n : {2, 3, 5}) {
    // exp(x)/(2 - x): no coefficient of its series vanishes.
    std::string series = "taylor(exp(x) / (2 - x), x, 0, " + std::to_string(n) + ")";
    auto error = [&](double x) {
      return std::abs(c.number("eval(" + series + ", x, " + at(x) + ")") - std::exp(x) / (2 - x));
    };
    double ratio = error(0.04) / error(0.02);
    INFO("order " << n);
    CHECK(ratio == Approx(std::pow(2.0, n + 1)).epsilon(0.1));
  }
}

TEST_CASE("taylor in the repl prints ascending powers of x - x0", "[repl]") {
  Calculator c;
  auto shown = [&](const std::string &text, bool latex = false) {
    Diagnostics diagnostics;
    ast::ExprPtr tree = parseExpression(c.sources.add("<test>", text), diagnostics);
    REQUIRE(tree);
    repl::Series series;
    auto value = repl::evaluate(*tree, c.scope, diagnostics, &series);
    INFO(text);
    REQUIRE(value);
    REQUIRE(series.size() == value->v.size());
    return repl::format(*value, latex, &series);
  };
  // 1/(1 - x) = sum of x^k; sin x = x - x^3/6 + x^5/120 (no even terms);
  // exp x about 1 = e sum of (x - 1)^k / k!.
  CHECK(shown("taylor(1/(1 - x), x, 0, 5)") == "1 + x + x^2 + x^3 + x^4 + x^5");
  CHECK(shown("taylor(sin(x), x, 0, 5)") == "x - x^3/6 + x^5/120");
  CHECK(shown("taylor(exp(x), x, 1, 3)") ==
        "exp(1) + (x - 1)*exp(1) + (x - 1)^2*exp(1)/2 + (x - 1)^3*exp(1)/6");
  CHECK(shown("taylor([cos(x), x^2], x, 0, 1)") == "[1, 0]");
  CHECK(shown("taylor(exp(x), x, 0, 2)", true) == "1 + x + \\frac{x^{2}}{2}");
  // Only a taylor call that is the whole input is a series: a product of
  // one is a sum like any other, printed in the engine's order.
  repl::Series none;
  Diagnostics diagnostics;
  ast::ExprPtr tree =
      parseExpression(c.sources.add("<test>", "2 * taylor(exp(x), x, 0, 2)"), diagnostics);
  REQUIRE(tree);
  REQUIRE(repl::evaluate(*tree, c.scope, diagnostics, &none));
  CHECK(none.empty());
}

TEST_CASE("vectors and matrices multiply as written out by hand", "[repl]") {
  Calculator c;
  // [[1, 2], [3, 4]] [[0, 1], [1, 0]] = [[2, 1], [4, 3]]
  repl::Tensor product = c.value("[[1, 2], [3, 4]] * [[0, 1], [1, 0]]");
  REQUIRE(product.rows == 2);
  REQUIRE(product.cols == 2);
  CHECK(repl::format(product) == "[[2, 1], [4, 3]]");
  // (1, 2, 3) x (4, 5, 6) = (-3, 6, -3); its dot with (1, 1, 1) is 0.
  CHECK(repl::format(c.value("cross([1, 2, 3], [4, 5, 6])")) == "[-3, 6, -3]");
  CHECK(c.number("dot(cross([1, 2, 3], [4, 5, 6]), [1, 1, 1])") == 0);
  CHECK(c.number("norm([2, 3, 6])") == 7);
  CHECK(c.number("sum(k in 1..100, k)") == 5050);
}

TEST_CASE("mistakes are reported, not computed", "[repl]") {
  Calculator c;
  CHECK(c.error("[1, 2] + [1, 2, 3]").find("cannot add") != std::string::npos);
  CHECK(c.error("1 / 0") == "division by zero");
  CHECK(c.error("diff(x^2, 2)").find("expected a symbol") != std::string::npos);
  CHECK(c.error("eval(y + 1)").find("no value for 'y'") != std::string::npos);
  CHECK(c.error("x'").find("needs a model") != std::string::npos);
  CHECK(c.error("taylor(1/x, x, 0, 2)").find("not defined") != std::string::npos);
}
