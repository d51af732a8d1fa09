// det, trace, inv and solve of square matrices of symbolic expressions: the
// one implementation behind the language's built-ins (Lowering) and the
// REPL's calculator. Up to 4x4 exact: the determinant by cofactor
// expansion, the inverse as adj(A)/det(A), so symbols stay symbols and
// rationals stay rationals. Above, up to 16x16, the packed nodes of
// symbolic/MatrixFunctions.h, factored numerically in the kernels (exact
// still when every entry is a number).
#pragma once

#include "mechanics/Lowering.h"

namespace mech::mechanics {

// The matrix is n x n, as sema::squareMatrixProblem checks; determinant,
// inverse and solve also need n <= sema::kMaxMatrixSolveSize.
sym::Expr determinant(sym::Context &context, const Tensor &matrix);
sym::Expr trace(sym::Context &context, const Tensor &matrix);

// adj(A)/det(A). A determinant that is zero divides by zero: callers that can
// report it check determinant(...).isZero() first (the REPL does).
Tensor inverse(sym::Context &context, const Tensor &matrix);
// x with A x = b (b a vector or matrix of n rows): A^-1 b.
Tensor solve(sym::Context &context, const Tensor &matrix, const Tensor &rhs);

} // namespace mech::mechanics
