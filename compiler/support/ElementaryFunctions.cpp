// Numeric values of the elementary functions (libm).
#include "support/ElementaryFunctions.h"

#include <cmath>

namespace mech {

double evaluateElementary(ElementaryFunction fn, double x, double y) {
  using F = ElementaryFunction;
  switch (fn) {
  case F::Sin:
    return std::sin(x);
  case F::Cos:
    return std::cos(x);
  case F::Tan:
    return std::tan(x);
  case F::Asin:
    return std::asin(x);
  case F::Acos:
    return std::acos(x);
  case F::Atan:
    return std::atan(x);
  case F::Atan2:
    return std::atan2(x, y);
  case F::Sinh:
    return std::sinh(x);
  case F::Cosh:
    return std::cosh(x);
  case F::Tanh:
    return std::tanh(x);
  case F::Exp:
    return std::exp(x);
  case F::Log:
    return std::log(x);
  case F::Abs:
    return std::abs(x);
  case F::Sign:
    return x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0;
  }
  return NAN;
}

} // namespace mech
