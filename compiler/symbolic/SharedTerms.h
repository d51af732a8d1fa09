// The size guard of the display: an expression that stays large after
// simplification is printed with named common subexpressions (`where`
// lines, x1 = ...), never as megabytes of one line.
//
// Expanded display forms of big models (a bicycle's forcing) are large flat
// sums, while the derivation's DAG shares its subexpressions; so where a
// display form is large and the derived expression's DAG is smaller, the
// derived expression is shown instead, through names. A subexpression is
// named when it occurs more than once in the large expressions and is not
// tiny, or when it is a large sum inside another expression. A packed
// matrix of det or inv (symbolic/MatrixFunctions.h) read more than once is
// named A1, A2, ..., and any expression with one is treated as large.
#pragma once

#include "symbolic/Expr.h"

#include <vector>

namespace mech::sym {

// Expressions whose printed tree is larger than this are guarded.
inline constexpr double kMaxDisplayedTree = 1500;

struct NamedSubexpression {
  Expr name; // a free symbol x1, x2, ...
  Expr definition;
};

// Rewrites the large expressions of `shown` in place (derived[i], equal to
// *shown[i], may replace it, see above) and returns the definitions in
// dependency order: each uses only names defined before it.
std::vector<NamedSubexpression> nameSharedSubexpressions(const std::vector<Expr *> &shown,
                                                         const std::vector<Expr> &derived);

} // namespace mech::sym
