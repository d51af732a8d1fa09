// Numeric coefficients of the symbolic engine: exact rationals over 64-bit
// integers, falling back to double only when an exact operation overflows
// (or an input was inexact to begin with).
#pragma once

#include "support/Rational.h"

#include <string>

namespace mech::sym {

class Num {
public:
  Num() : exact_(true), q_(0), d_(0) {}
  Num(Rational q) : exact_(true), q_(q), d_(q.toDouble()) {} // NOLINT: implicit
  Num(int64_t i) : Num(Rational(i)) {}                       // NOLINT: implicit
  static Num inexact(double d);

  bool exact() const { return exact_; }
  const Rational &rational() const { return q_; }
  double toDouble() const { return d_; }
  bool isZero() const { return exact_ ? q_.isZero() : d_ == 0; }
  bool isOne() const { return exact_ && q_ == Rational(1); }
  bool isMinusOne() const { return exact_ && q_ == Rational(-1); }
  bool isNegative() const { return exact_ ? q_ < Rational(0) : d_ < 0; }
  bool isInteger() const { return exact_ && q_.isInteger(); }

  friend Num operator+(const Num &a, const Num &b);
  friend Num operator-(const Num &a, const Num &b);
  friend Num operator*(const Num &a, const Num &b);
  friend Num operator/(const Num &a, const Num &b); // b non-zero
  Num operator-() const;
  // a^k for an integer k, exact when possible.
  Num pow(int64_t k) const;

  bool identical(const Num &other) const; // same exactness and value
  uint64_t hash() const;
  std::string toString() const;

private:
  bool exact_;
  Rational q_;
  double d_;
};

} // namespace mech::sym
