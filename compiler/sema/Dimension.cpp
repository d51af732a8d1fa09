// Dimension arithmetic and printing.
#include "sema/Dimension.h"

namespace mech::sema {

Dimension Dimension::base(Base b) {
  Dimension d;
  d.exponents_[b] = Rational(1);
  return d;
}

Dimension Dimension::energy() {
  Dimension d;
  d.exponents_[Mass] = 1;
  d.exponents_[Length] = 2;
  d.exponents_[Time] = -2;
  return d;
}

Dimension Dimension::power() {
  Dimension d = energy();
  d.exponents_[Time] = -3;
  return d;
}

Dimension Dimension::force() {
  Dimension d = energy();
  d.exponents_[Length] = 1;
  return d;
}

bool Dimension::isDimensionless() const {
  for (const Rational &e : exponents_)
    if (!e.isZero())
      return false;
  return true;
}

std::optional<Dimension> Dimension::times(const Dimension &other) const {
  Dimension d;
  for (int i = 0; i < kBaseCount; ++i) {
    auto sum = add(exponents_[i], other.exponents_[i]);
    if (!sum || !sum->withinExponentLimit())
      return std::nullopt;
    d.exponents_[i] = *sum;
  }
  return d;
}

std::optional<Dimension> Dimension::over(const Dimension &other) const {
  Dimension d;
  for (int i = 0; i < kBaseCount; ++i) {
    auto difference = sub(exponents_[i], other.exponents_[i]);
    if (!difference || !difference->withinExponentLimit())
      return std::nullopt;
    d.exponents_[i] = *difference;
  }
  return d;
}

std::optional<Dimension> Dimension::raisedTo(const Rational &power) const {
  Dimension d;
  for (int i = 0; i < kBaseCount; ++i) {
    auto product = mul(exponents_[i], power);
    if (!product || !product->withinExponentLimit())
      return std::nullopt;
    d.exponents_[i] = *product;
  }
  return d;
}

std::string Dimension::toString() const {
  static const char *symbols[kBaseCount] = {"kg", "m", "s", "A", "K", "mol", "cd"};
  std::string numerator, denominator;
  int denominatorCount = 0;
  for (int i = 0; i < kBaseCount; ++i) {
    Rational e = exponents_[i];
    if (e.isZero())
      continue;
    bool negative = e < Rational(0);
    Rational magnitude = negative ? *mul(e, Rational(-1)) : e;
    std::string text = symbols[i];
    if (!(magnitude == Rational(1)))
      text +=
          "^" + (magnitude.isInteger() ? magnitude.toString() : "(" + magnitude.toString() + ")");
    std::string &target = negative ? denominator : numerator;
    if (!target.empty())
      target += "*";
    target += text;
    if (negative)
      ++denominatorCount;
  }
  if (numerator.empty() && denominator.empty())
    return "1";
  if (numerator.empty())
    numerator = "1";
  if (denominator.empty())
    return numerator;
  return numerator + "/" + (denominatorCount > 1 ? "(" + denominator + ")" : denominator);
}

std::optional<Dimension> DimInfo::effective() const {
  if (state == Unchecked)
    return std::nullopt;
  return dimension;
}

std::string DimInfo::toString() const {
  switch (state) {
  case Unchecked:
    return "unchecked";
  case Pure:
    return "1";
  case Known:
    return dimension.toString();
  }
  return "?";
}

} // namespace mech::sema
