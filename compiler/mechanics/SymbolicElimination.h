// A square linear system A x = b with symbolic entries, solved by Gaussian
// elimination on the expression DAG: what the minimal equations need to
// write the dependent speeds through the independent ones. The cofactor
// formulas of MatrixBuiltins (adj(A)/det(A)) grow as n! and repeat every
// minor; elimination costs n^3 operations on shared nodes. Each pivot is
// chosen by the structure: an entry proven not identically zero (exact
// zero test) and not zero at a reference state (so that the solution is
// regular there), with the fewest other non-zero entries in its row and
// column (Markowitz's rule, which limits fill-in), a constant before an
// expression, the smaller expression first. A bicycle's rolling
// constraints are sparse, and so solve one speed at a time.
#pragma once

#include "symbolic/Expr.h"

#include <optional>
#include <vector>

namespace mech::mechanics {

// x with A x = b. `values` is A at the reference state. Nullopt when no
// pivot is left that is non-zero there (A singular at the state).
// `pivots`, when given, gets the pivots in the order used: det A is their
// product up to sign, so x holds wherever none of them is zero.
std::optional<std::vector<sym::Expr>> solveByElimination(std::vector<std::vector<sym::Expr>> A,
                                                         std::vector<sym::Expr> b,
                                                         std::vector<std::vector<double>> values,
                                                         std::vector<sym::Expr> *pivots = nullptr);

} // namespace mech::mechanics
