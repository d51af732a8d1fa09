// Simplification beyond canonical forms, as mechanics needs it:
//   expand:    products of sums distributed (bounded in size);
//   trig:      sin^2 x + cos^2 x = 1 (with common factors),
//              cos a cos b + sin a sin b = cos(a - b), cos a cos b - sin a sin b = cos(a + b),
//              sin a cos b - cos a sin b = sin(a - b), sin a cos b + cos a sin b = sin(a + b);
//   collect:   terms that differ only in parameter factors grouped, and
//              common parameter factors taken out: m1*l1^2 + m2*l1^2 = (m1 + m2)*l1^2.
// `simplify` applies all three; each pass memoises on node identity.
#pragma once

#include "symbolic/Expr.h"

namespace mech::sym {

// Products of sums are distributed unless the result would exceed this many terms.
inline constexpr size_t kMaxExpandedTerms = 4096;

Expr expand(const Expr &e);
Expr simplifyTrig(const Expr &e);
Expr collectParameters(const Expr &e);
// The collection on e's top-level sum only, for terms collected already.
Expr collectParametersOfSum(const Expr &e);
Expr simplify(const Expr &e);

} // namespace mech::sym
