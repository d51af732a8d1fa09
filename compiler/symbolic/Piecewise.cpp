// Conditions and min/max/clamp as choices (symbolic/Piecewise.h).
#include "symbolic/Piecewise.h"

#include "support/Diagnostics.h"

namespace mech::sym {

Condition compare(Comparison op, const Expr &lhs, const Expr &rhs) {
  switch (op) {
  case Comparison::Less:
    return {Condition::Kind::Positive, rhs - lhs, {}};
  case Comparison::LessEqual:
    return {Condition::Kind::NonNegative, rhs - lhs, {}};
  case Comparison::Greater:
    return {Condition::Kind::Positive, lhs - rhs, {}};
  case Comparison::GreaterEqual:
    return {Condition::Kind::NonNegative, lhs - rhs, {}};
  }
  internalError("unhandled comparison");
}

Expr choose(const Condition &c, const Expr &a, const Expr &b) {
  switch (c.kind) {
  case Condition::Kind::Positive:
    return select(c.g, a, b);
  case Condition::Kind::NonNegative: // g >= 0 is not (-g > 0)
    return select(-c.g, b, a);
  case Condition::Kind::Not:
    return choose(c.operands[0], b, a);
  case Condition::Kind::And: { // the last holds, and before it each other
    Expr result = a;
    for (size_t i = c.operands.size(); i-- > 0;)
      result = choose(c.operands[i], result, b);
    return result;
  }
  case Condition::Kind::Or: {
    Expr result = b;
    for (size_t i = c.operands.size(); i-- > 0;)
      result = choose(c.operands[i], a, result);
    return result;
  }
  }
  internalError("unhandled condition");
}

Expr minimum(const Expr &a, const Expr &b) {
  return select(b - a, a, b);
}

Expr maximum(const Expr &a, const Expr &b) {
  return select(a - b, a, b);
}

Expr clamp(const Expr &x, const Expr &lo, const Expr &hi) {
  return minimum(maximum(x, lo), hi);
}

} // namespace mech::sym
