// Exact rationals over 64-bit integers: decimal literals, normal form,
// arithmetic with overflow reported as nullopt, and ordering.
#include "support/Rational.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

using mech::Rational;

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

Rational r(int64_t num, int64_t den = 1) {
  std::optional<Rational> value = Rational::make(num, den);
  REQUIRE(value.has_value());
  return *value;
}

} // namespace

TEST_CASE("decimal literals convert exactly", "[rational]") {
  struct Case {
    const char *text;
    int64_t num, den;
  };
  const std::vector<Case> cases = {
      {"0", 0, 1},           {"2", 2, 1},
      {"0.5", 1, 2},         {"2.50", 5, 2},
      {"0.25", 1, 4},        {"0.1", 1, 10},
      {"9.81", 981, 100},    {"1e-3", 1, 1000},
      {"1E-3", 1, 1000},     {"1e3", 1000, 1},
      {"1e+3", 1000, 1},     {"2.5e2", 250, 1},
      {"2.5e-1", 1, 4},      {"6.02e18", 6020000000000000000, 1},
      {"0.000", 0, 1},       {"9223372036854775807", kMax, 1},
      {"101.325", 4053, 40},
  };
  for (const Case &c : cases) {
    DYNAMIC_SECTION(c.text) {
      std::optional<Rational> value = Rational::fromDecimal(c.text);
      REQUIRE(value.has_value());
      CHECK(value->num() == c.num);
      CHECK(value->den() == c.den);
    }
  }
}

TEST_CASE("decimal literals that do not fit in 64 bits give nullopt", "[rational]") {
  // 6.02e23 = 602000000000000000000000 is an integer beyond 2^63.
  for (const char *text : {"6.02e23", "1e19", "9223372036854775808", "1e-19",
                           "0.0000000000000000001", "123456789012345678901", "1e400"}) {
    DYNAMIC_SECTION(text) {
      CHECK_FALSE(Rational::fromDecimal(text).has_value());
    }
  }
}

TEST_CASE("rationals are kept in lowest terms with a positive denominator", "[rational]") {
  CHECK(r(2, 4) == r(1, 2));
  CHECK(r(2, 4).num() == 1);
  CHECK(r(2, 4).den() == 2);
  CHECK(r(3, -6).num() == -1);
  CHECK(r(3, -6).den() == 2);
  CHECK(r(-3, -6) == r(1, 2));
  CHECK(r(0, -5) == Rational(0));
  CHECK(r(0, -5).den() == 1);
  CHECK(r(6, 3).isInteger());
  CHECK_FALSE(r(1, 3).isInteger());
  CHECK(Rational(0).isZero());
  CHECK(r(7, 1).toDouble() == 7.0);
  CHECK(r(1, 4).toDouble() == 0.25);
  CHECK_FALSE(Rational::make(1, 0).has_value());
  CHECK_FALSE(Rational::make(kMin, 1).has_value());
  CHECK_FALSE(Rational::make(1, kMin).has_value());
}

TEST_CASE("rational arithmetic is exact", "[rational]") {
  CHECK(*add(r(1, 2), r(1, 3)) == r(5, 6));
  CHECK(*sub(r(1, 2), r(1, 3)) == r(1, 6));
  CHECK(*sub(r(1, 3), r(1, 2)) == r(-1, 6));
  CHECK(*mul(r(2, 3), r(3, 4)) == r(1, 2));
  CHECK(*div(r(2, 3), r(4, 9)) == r(3, 2));
  CHECK(*div(r(1, 2), r(-1, 4)) == Rational(-2));
  CHECK(*pow(r(2, 3), 3) == r(8, 27));
  CHECK(*pow(r(2, 3), -2) == r(9, 4));
  CHECK(*pow(r(5, 7), 0) == Rational(1));
  CHECK(*pow(Rational(10), 18) == Rational(1000000000000000000));
  CHECK(*add(r(kMax - 1), Rational(1)) == Rational(kMax));
}

TEST_CASE("division by zero gives nullopt", "[rational]") {
  CHECK_FALSE(div(Rational(1), Rational(0)).has_value());
  CHECK_FALSE(pow(Rational(0), -1).has_value());
}

TEST_CASE("overflow of add and sub and mul and pow gives nullopt", "[rational]") {
  CHECK_FALSE(add(Rational(kMax), Rational(1)).has_value());
  CHECK_FALSE(sub(Rational(-kMax), Rational(2)).has_value());
  CHECK_FALSE(mul(Rational(kMax / 2 + 1), Rational(2)).has_value());
  CHECK_FALSE(mul(Rational(int64_t{1} << 32), Rational(int64_t{1} << 32)).has_value());
  // 1/(2^32) squared needs a denominator of 2^64.
  CHECK_FALSE(mul(r(1, int64_t{1} << 32), r(1, int64_t{1} << 32)).has_value());
  // Denominators whose product overflows.
  CHECK_FALSE(add(r(1, 4294967311), r(1, 4294967357)).has_value());
  CHECK_FALSE(pow(Rational(10), 19).has_value());
  CHECK_FALSE(pow(Rational(2), 64).has_value());
  CHECK_FALSE(pow(r(1, 3), 40).has_value());
}

TEST_CASE("rationals are ordered by value", "[rational]") {
  CHECK(r(1, 3) < r(1, 2));
  CHECK_FALSE(r(1, 2) < r(1, 3));
  CHECK(r(-1, 2) < r(-1, 3));
  CHECK(r(-1, 2) < Rational(0));
  CHECK(Rational(0) < r(1, 1000000));
  CHECK_FALSE(r(2, 4) < r(1, 2));
  CHECK_FALSE(r(1, 2) < r(2, 4));
  CHECK(r(999999999, 1000000000) < Rational(1));
  CHECK(Rational(-kMax) < Rational(kMax));
  // Cross-multiplying these overflows 64 bits; the order must still be right.
  CHECK_FALSE(r(kMax - 1, kMax) < r(kMax - 2, kMax - 1));
  CHECK(r(kMax - 2, kMax - 1) < r(kMax - 1, kMax));
}
