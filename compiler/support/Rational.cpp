// Checked rational arithmetic (GCC/Clang overflow builtins).
#include "support/Rational.h"

#include <numeric>

namespace mech {

namespace {

bool mulOverflow(int64_t a, int64_t b, int64_t &out) {
  return __builtin_mul_overflow(a, b, &out);
}
bool addOverflow(int64_t a, int64_t b, int64_t &out) {
  return __builtin_add_overflow(a, b, &out);
}

} // namespace

std::optional<Rational> Rational::make(int64_t num, int64_t den) {
  if (den == 0)
    return std::nullopt;
  if (num == INT64_MIN || den == INT64_MIN)
    return std::nullopt;
  if (den < 0)
    num = -num, den = -den;
  int64_t g = std::gcd(num, den);
  if (g > 1)
    num /= g, den /= g;
  Rational r;
  r.num_ = num;
  r.den_ = den;
  return r;
}

std::optional<Rational> Rational::fromDecimal(std::string_view text) {
  int64_t mantissa = 0;
  int fractionDigits = 0;
  size_t i = 0;
  bool inFraction = false;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '.') {
      inFraction = true;
      continue;
    }
    if (c == 'e' || c == 'E')
      break;
    if (c < '0' || c > '9')
      return std::nullopt;
    if (mulOverflow(mantissa, 10, mantissa) || addOverflow(mantissa, c - '0', mantissa))
      return std::nullopt;
    if (inFraction)
      ++fractionDigits;
  }
  int exponent = 0;
  if (i < text.size()) {
    ++i;
    bool negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-'))
      negative = text[i++] == '-';
    for (; i < text.size(); ++i) {
      if (text[i] < '0' || text[i] > '9' || exponent > 10000)
        return std::nullopt;
      exponent = exponent * 10 + (text[i] - '0');
    }
    if (negative)
      exponent = -exponent;
  }
  exponent -= fractionDigits;
  if (mantissa == 0)
    return Rational(0);
  int64_t scale = 1;
  for (int k = 0; k < (exponent < 0 ? -exponent : exponent); ++k) {
    if (mulOverflow(scale, 10, scale))
      return std::nullopt;
  }
  if (exponent >= 0) {
    int64_t value;
    if (mulOverflow(mantissa, scale, value))
      return std::nullopt;
    return Rational(value);
  }
  return make(mantissa, scale);
}

std::string Rational::toString() const {
  return den_ == 1 ? std::to_string(num_) : std::to_string(num_) + "/" + std::to_string(den_);
}

std::optional<Rational> add(const Rational &a, const Rational &b) {
  int64_t x, y, num, den;
  if (a.den_ == 1 && b.den_ == 1) { // integers: no gcd (the common case of expansions)
    if (addOverflow(a.num_, b.num_, num) || num == INT64_MIN)
      return std::nullopt;
    return Rational(num);
  }
  if (mulOverflow(a.num_, b.den_, x) || mulOverflow(b.num_, a.den_, y) || addOverflow(x, y, num) ||
      mulOverflow(a.den_, b.den_, den))
    return std::nullopt;
  return Rational::make(num, den);
}

std::optional<Rational> sub(const Rational &a, const Rational &b) {
  if (b.num_ == INT64_MIN)
    return std::nullopt;
  Rational negated = b;
  negated.num_ = -b.num_;
  return add(a, negated);
}

std::optional<Rational> mul(const Rational &a, const Rational &b) {
  if (a.den_ == 1 && b.den_ == 1) { // integers: no gcd
    int64_t num;
    if (mulOverflow(a.num_, b.num_, num) || num == INT64_MIN)
      return std::nullopt;
    return Rational(num);
  }
  // Cross-reduce first so that exact products overflow as late as possible.
  int64_t g1 = std::gcd(a.num_, b.den_), g2 = std::gcd(b.num_, a.den_);
  if (g1 == 0)
    g1 = 1;
  if (g2 == 0)
    g2 = 1;
  int64_t num, den;
  if (mulOverflow(a.num_ / g1, b.num_ / g2, num) || mulOverflow(a.den_ / g2, b.den_ / g1, den))
    return std::nullopt;
  return Rational::make(num, den);
}

std::optional<Rational> div(const Rational &a, const Rational &b) {
  if (b.num_ == 0)
    return std::nullopt;
  auto inverse = Rational::make(b.den_, b.num_);
  if (!inverse)
    return std::nullopt;
  return mul(a, *inverse);
}

std::optional<Rational> pow(const Rational &a, int exponent) {
  Rational base = a;
  // Square and multiply: log2(exponent) products, each checked.
  int64_t remaining = exponent;
  if (remaining < 0) {
    auto inverse = Rational::make(a.den_, a.num_);
    if (!inverse)
      return std::nullopt;
    base = *inverse;
    remaining = -remaining;
  }
  Rational result(1);
  while (remaining > 0) {
    if (remaining & 1) {
      auto next = mul(result, base);
      if (!next)
        return std::nullopt;
      result = *next;
    }
    remaining >>= 1;
    if (remaining > 0) {
      auto squared = mul(base, base);
      if (!squared)
        return std::nullopt;
      base = *squared;
    }
  }
  return result;
}

int clampedExponentProduct(int64_t a, int64_t b) {
  int64_t product = a * b; // both within kMaxExponent + 1: no overflow
  if (product > kMaxExponent)
    return static_cast<int>(kMaxExponent + 1);
  if (product < -kMaxExponent)
    return static_cast<int>(-kMaxExponent - 1);
  return static_cast<int>(product);
}

int clampedExponent(std::string_view digits) {
  int64_t value = 0;
  for (char c : digits) {
    value = value * 10 + (c - '0');
    if (value > kMaxExponent)
      return static_cast<int>(kMaxExponent + 1);
  }
  return static_cast<int>(value);
}

bool operator<(const Rational &a, const Rational &b) {
  // Compare a.num/a.den < b.num/b.den without overflow via long double.
  __int128 left = static_cast<__int128>(a.num_) * b.den_;
  __int128 right = static_cast<__int128>(b.num_) * a.den_;
  return left < right;
}

} // namespace mech
