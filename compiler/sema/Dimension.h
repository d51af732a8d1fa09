// Physical dimensions as exponents of the seven SI base quantities, and the
// inference state of an expression's dimension: known, unchecked (a name
// declared without a unit), or a plain number that adapts to its context.
#pragma once

#include "support/Rational.h"

#include <array>
#include <optional>
#include <string>

namespace mech::sema {

class Dimension {
public:
  enum Base { Mass, Length, Time, Current, Temperature, Amount, Luminosity, kBaseCount };

  Dimension() = default;
  static Dimension base(Base b);
  static Dimension energy();
  static Dimension power();
  static Dimension force();
  static Dimension length() { return base(Length); }
  static Dimension time() { return base(Time); }
  static Dimension mass() { return base(Mass); }

  bool isDimensionless() const;
  const Rational &exponent(Base b) const { return exponents_[b]; }

  // Nullopt when an exponent would leave the limit (kMaxExponent).
  std::optional<Dimension> times(const Dimension &other) const;
  std::optional<Dimension> over(const Dimension &other) const;
  std::optional<Dimension> raisedTo(const Rational &power) const;

  // kg*m^2/s^2, or 1 when dimensionless.
  std::string toString() const;

  friend bool operator==(const Dimension &, const Dimension &) = default;

private:
  std::array<Rational, kBaseCount> exponents_{};
};

// What is known about the dimension of an expression.
struct DimInfo {
  enum State {
    Unchecked, // depends on a name declared without a unit
    Pure,      // a plain number: dimensionless in products, adapts in sums
    Known,
  };
  State state = Unchecked;
  Dimension dimension;

  static DimInfo unchecked() { return {Unchecked, {}}; }
  static DimInfo pure() { return {Pure, {}}; }
  static DimInfo known(Dimension d) { return {Known, d}; }
  bool isKnown() const { return state == Known; }
  // The dimension for checks: Pure counts as dimensionless.
  std::optional<Dimension> effective() const;
  std::string toString() const;
};

} // namespace mech::sema
