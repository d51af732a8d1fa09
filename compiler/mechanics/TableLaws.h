// A table's interpolant as an expression of its argument (sema/Model.h
// Table): a balanced tree of choices select(x - x_k, right, left) over the
// pieces, each piece the segment's line (linear) or cubic Hermite
// polynomial (monotone cubic), and beyond the ends the end value or line.
// The kernels so evaluate it in O(log rows) comparisons with the data as
// constants (also in built libraries and FMUs), its derivative is the
// interpolant's, and a linear table's knots are switches of a run
// (mechanics/Switches.h); a cubic table's pieces meet with equal slopes, so
// it is smooth(...) and its knots are not.
#pragma once

#include "sema/Model.h"
#include "symbolic/Expr.h"

namespace mech::mechanics {

sym::Expr tableLaw(const sema::Table &table, const sym::Expr &x);

} // namespace mech::mechanics
