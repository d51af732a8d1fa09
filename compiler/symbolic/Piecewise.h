// Piecewise expressions written with the engine's one choice,
// select(g, a, b) = a where g > 0, else b: the conditions of `if` (a
// comparison is the sign of a difference; `and`, `or` and `not` nest the
// choices), and min, max and clamp. The checker's lowering and the REPL's
// calculator both build them here, so that they mean the same.
#pragma once

#include "symbolic/Expr.h"

#include <vector>

namespace mech::sym {

struct Condition {
  enum class Kind {
    Positive,    // g > 0
    NonNegative, // g >= 0
    And,
    Or,
    Not
  };
  Kind kind = Kind::Positive;
  Expr g;
  std::vector<Condition> operands;
};

// lhs < rhs, lhs <= rhs, lhs > rhs, lhs >= rhs.
enum class Comparison { Less, LessEqual, Greater, GreaterEqual };
Condition compare(Comparison op, const Expr &lhs, const Expr &rhs);

// a where `condition` holds, else b.
Expr choose(const Condition &condition, const Expr &a, const Expr &b);

// The smaller and the larger of a and b; x held in [lo, hi] (lo <= hi is
// the caller's to check).
Expr minimum(const Expr &a, const Expr &b);
Expr maximum(const Expr &a, const Expr &b);
Expr clamp(const Expr &x, const Expr &lo, const Expr &hi);

// A switch's argument as it reads best: -g where g is written negated (y
// rather than -y), else g; the comparisons flip with it.
inline Expr upright(const Expr &g) {
  return isNegativeForm(g) ? -g : g;
}

} // namespace mech::sym
