// Exact-first arithmetic on coefficients.
#include "symbolic/Number.h"

#include <bit>
#include <charconv>
#include <cmath>

namespace mech::sym {

namespace {

std::optional<Rational> powRational(const Rational &q, int k) {
  return pow(q, k);
}

} // namespace

Num Num::inexact(double d) {
  Num n;
  n.exact_ = false;
  n.d_ = d;
  return n;
}

Num operator+(const Num &a, const Num &b) {
  if (a.exact_ && b.exact_)
    if (auto r = add(a.q_, b.q_))
      return Num(*r);
  return Num::inexact(a.d_ + b.d_);
}

Num operator-(const Num &a, const Num &b) {
  if (a.exact_ && b.exact_)
    if (auto r = sub(a.q_, b.q_))
      return Num(*r);
  return Num::inexact(a.d_ - b.d_);
}

Num operator*(const Num &a, const Num &b) {
  if (a.exact_ && b.exact_)
    if (auto r = mul(a.q_, b.q_))
      return Num(*r);
  return Num::inexact(a.d_ * b.d_);
}

Num operator/(const Num &a, const Num &b) {
  if (a.exact_ && b.exact_)
    if (auto r = div(a.q_, b.q_))
      return Num(*r);
  return Num::inexact(a.d_ / b.d_);
}

Num Num::operator-() const {
  return Num(0) - *this;
}

Num Num::pow(int64_t k) const {
  if (exact_ && k > -64 && k < 64 && !(q_.isZero() && k < 0))
    if (auto r = powRational(q_, static_cast<int>(k)))
      return Num(*r);
  return inexact(std::pow(d_, static_cast<double>(k)));
}

bool Num::identical(const Num &other) const {
  if (exact_ != other.exact_)
    return false;
  return exact_ ? q_ == other.q_ : std::bit_cast<uint64_t>(d_) == std::bit_cast<uint64_t>(other.d_);
}

uint64_t Num::hash() const {
  if (exact_)
    return static_cast<uint64_t>(q_.num()) * 0x9E3779B97F4A7C15ull ^
           static_cast<uint64_t>(q_.den()) * 0xC2B2AE3D27D4EB4Full;
  return std::bit_cast<uint64_t>(d_) * 0x165667B19E3779F9ull + 1;
}

std::string Num::toString() const {
  if (exact_)
    return q_.toString();
  char buffer[32];
  auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, d_);
  if (error != std::errc())
    return "nan";
  std::string text(buffer, end);
  // Keep an inexact value visibly a decimal.
  if (text.find_first_of(".eEn") == std::string::npos)
    text += ".0";
  return text;
}

} // namespace mech::sym
