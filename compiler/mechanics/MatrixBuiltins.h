// det, trace and inv of a square matrix of symbolic expressions: the one
// implementation behind the language's built-ins (Lowering) and the REPL's
// calculator. Exact: the determinant by cofactor expansion, the inverse as
// adj(A)/det(A), so symbols stay symbols and rationals stay rationals.
#pragma once

#include "mechanics/Lowering.h"

namespace mech::mechanics {

// The matrix is n x n, as sema::squareMatrixProblem checks; determinant and
// inverse also need n <= sema::kMaxCofactorSize.
sym::Expr determinant(sym::Context &context, const Tensor &matrix);
sym::Expr trace(sym::Context &context, const Tensor &matrix);

// adj(A)/det(A). A determinant that is zero divides by zero: callers that can
// report it check determinant(...).isZero() first (the REPL does).
Tensor inverse(sym::Context &context, const Tensor &matrix);

} // namespace mech::mechanics
