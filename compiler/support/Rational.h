// Exact rational numbers over 64-bit integers, with overflow reported rather
// than wrapped: callers fall back to floating point when an operation returns
// nullopt. Used for unit scales, dimension exponents and exact literals.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mech {

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

  friend bool operator==(const Rational &a, const Rational &b) = default;
  friend bool operator<(const Rational &a, const Rational &b);

private:
  int64_t num_ = 0;
  int64_t den_ = 1;
};

} // namespace mech
