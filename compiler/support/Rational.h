// Exact rational numbers over 64-bit integers, with overflow reported rather
// than wrapped: callers fall back to floating point when an operation returns
// nullopt. Used for unit scales, dimension exponents and exact literals.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mech {

// Unit and dimension exponents stay small: the exponents written in a unit
// and every exponent of a dimension have |numerator| and denominator of at
// most this (docs/language.md, Limits).
inline constexpr int64_t kMaxExponent = 1000;

class Rational {
public:
  Rational() = default;
  Rational(int64_t integer) : num_(integer) {} // NOLINT: implicit by design
  // Normalised (den > 0, lowest terms); den must not be 0.
  static std::optional<Rational> make(int64_t num, int64_t den);
  // The exact value of a decimal literal such as 0.5, 1e-3 or 6.02e23, or
  // nullopt when it does not fit in 64 bits.
  static std::optional<Rational> fromDecimal(std::string_view text);

  int64_t num() const { return num_; }
  int64_t den() const { return den_; }
  bool isInteger() const { return den_ == 1; }
  bool isZero() const { return num_ == 0; }
  double toDouble() const { return static_cast<double>(num_) / static_cast<double>(den_); }
  std::string toString() const;

  friend std::optional<Rational> add(const Rational &a, const Rational &b);
  friend std::optional<Rational> sub(const Rational &a, const Rational &b);
  friend std::optional<Rational> mul(const Rational &a, const Rational &b);
  friend std::optional<Rational> div(const Rational &a, const Rational &b);
  friend std::optional<Rational> pow(const Rational &a, int exponent);

  // Whether this is a valid exponent of a unit or dimension (kMaxExponent).
  bool withinExponentLimit() const {
    return num_ >= -kMaxExponent && num_ <= kMaxExponent && den_ <= kMaxExponent;
  }

  friend bool operator==(const Rational &a, const Rational &b) = default;
  friend bool operator<(const Rational &a, const Rational &b);

private:
  int64_t num_ = 0;
  int64_t den_ = 1;
};

// The product of two written exponents, kept one past kMaxExponent in
// magnitude once beyond it, so that nested groups such as (m^999)^999 never
// overflow and the unit check reports them as beyond the limit.
int clampedExponentProduct(int64_t a, int64_t b);
// A written exponent's digits as a number, likewise clamped.
int clampedExponent(std::string_view digits);

} // namespace mech
