// The numeric path of det and inv: above the sizes where the cofactor
// expansion stays small (mechanics/MatrixBuiltins.h), a matrix is packed
// into one node, matrix(a11, ..., ann), and its determinant and the entries
// of its inverse are nodes over it, det(M) and inv(i, j, M). The engine
// differentiates them by the matrix calculus identities
//   d det(A) = det(A) tr(A^-1 dA),   d A^-1 = -A^-1 dA A^-1,
// so derivatives stay in the same nodes; the back ends (Program, the JIT)
// factor each packed matrix once per evaluation, by Gauss-Jordan
// elimination with partial pivoting (invertDense below). When every entry
// is a number the value is computed at once, exactly for rationals.
#pragma once

#include "symbolic/Expr.h"

#include <functional>
#include <vector>

namespace mech::sym {

// The largest matrix of the numeric path: beyond it the derivatives that a
// Jacobian needs (n^2 terms for each entry of the inverse) would grow past
// what a model's kernels can hold.
inline constexpr int kMaxPackedSize = 16;

// matrix(a11, ..., ann) from the n*n entries in row-major order.
Expr packMatrix(Context &context, const std::vector<Expr> &entries);
// n of a packed n x n matrix of `entries` entries (n^2), and of its node.
inline size_t packedSide(size_t entries) {
  size_t n = 1;
  while (n * n < entries)
    ++n;
  return n;
}
int packedSize(const Node *matrix);
// det(M), and the entry (i, j) of M's inverse, counted from 0.
Expr packedDeterminant(const Expr &matrix);
Expr packedInverseEntry(const Expr &matrix, int i, int j);
// (i, j), counted from 0, of an inv(i, j, M) node.
std::pair<int, int> inverseEntryIndex(const Node *entry);

// Whether the operands of a det or inv node have the shape every pass takes
// for granted (a decoded cache is checked with it): det of a packed matrix,
// inv of two integer indices within it and the matrix.
bool matrixOperandsFit(Fn fn, const std::vector<const Node *> &ops);

// The value of det or inv when every entry of the matrix is a number (an
// empty Expr otherwise, or for the inverse of a singular matrix).
Expr foldMatrixFunction(Context &context, Fn fn, const std::vector<Expr> &args);

// The derivative of a det or inv node, given each entry's derivative.
Expr matrixFunctionDerivative(const Node *n, const std::function<Expr(const Node *)> &derive);

// Gauss-Jordan elimination with partial pivoting of the n x n row-major
// matrix `a` (overwritten): its inverse into `inverse` (n*n), its
// determinant returned. A singular matrix has determinant 0 and an inverse
// of infinities and NaNs, as a division by zero would give.
double invertDense(size_t n, double *a, double *inverse);

} // namespace mech::sym
