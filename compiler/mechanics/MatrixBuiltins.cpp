// det, trace, inv and solve. Up to 4x4 by Laplace expansion along the first
// row of each minor (24 products at most): cheaper than Gaussian
// elimination would be in a symbolic engine, and free of divisions, so it
// stays exact and adds no conditions on pivots being non-zero. Above, the
// matrix is packed into one node and factored numerically in the kernels
// (symbolic/MatrixFunctions.h).
#include "mechanics/MatrixBuiltins.h"

#include "sema/Model.h"
#include "support/Diagnostics.h"
#include "symbolic/MatrixFunctions.h"

namespace mech::mechanics {

using sym::Expr;

namespace {

std::vector<int> without(const std::vector<int> &indices, size_t skipped) {
  std::vector<int> out;
  for (size_t k = 0; k < indices.size(); ++k)
    if (k != skipped)
      out.push_back(indices[k]);
  return out;
}

// The determinant of the submatrix of `m` on the given rows and columns.
Expr minorDeterminant(sym::Context &c, const Tensor &m, const std::vector<int> &rows,
                      const std::vector<int> &cols) {
  auto at = [&](size_t i, size_t j) {
    return m.v[static_cast<size_t>(rows[i] * m.cols + cols[j])];
  };
  if (rows.empty())
    return c.one();
  if (rows.size() == 1)
    return at(0, 0);
  std::vector<int> rest = without(rows, 0);
  std::vector<Expr> terms;
  for (size_t j = 0; j < cols.size(); ++j) {
    // Zero entries (diag, rotations about an axis) drop their whole minor.
    if (at(0, j).isZero())
      continue;
    Expr term = at(0, j) * minorDeterminant(c, m, rest, without(cols, j));
    terms.push_back(j % 2 == 0 ? term : -term);
  }
  return c.add(terms);
}

static_assert(sema::kMaxMatrixSolveSize == sym::kMaxPackedSize);

void checkSquare(const Tensor &m, bool bounded) {
  if (m.isScalar() || m.rows != m.cols || (bounded && m.rows > sema::kMaxMatrixSolveSize))
    internalError("det, trace or inv of a matrix whose shape was not checked");
}

bool numeric(const Tensor &m) {
  return m.rows > sema::kMaxCofactorSize;
}

std::vector<int> allIndices(int n) {
  std::vector<int> out;
  for (int k = 0; k < n; ++k)
    out.push_back(k);
  return out;
}

} // namespace

Expr determinant(sym::Context &context, const Tensor &matrix) {
  checkSquare(matrix, true);
  if (numeric(matrix))
    return sym::packedDeterminant(sym::packMatrix(context, matrix.v));
  std::vector<int> all = allIndices(matrix.rows);
  return minorDeterminant(context, matrix, all, all);
}

Expr trace(sym::Context &context, const Tensor &matrix) {
  checkSquare(matrix, false);
  std::vector<Expr> diagonal;
  for (int i = 0; i < matrix.rows; ++i)
    diagonal.push_back(matrix.v[static_cast<size_t>(i * matrix.cols + i)]);
  return context.add(diagonal);
}

Tensor inverse(sym::Context &context, const Tensor &matrix) {
  checkSquare(matrix, true);
  int n = matrix.rows;
  Tensor out{n, n, {}};
  if (numeric(matrix)) {
    Expr packed = sym::packMatrix(context, matrix.v);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        out.v.push_back(sym::packedInverseEntry(packed, i, j));
    return out;
  }
  std::vector<int> all = allIndices(n);
  Expr det = determinant(context, matrix);
  // (A^-1)[i, j] is the cofactor of A[j, i] over det(A).
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      Expr minor = minorDeterminant(context, matrix, without(all, static_cast<size_t>(j)),
                                    without(all, static_cast<size_t>(i)));
      out.v.push_back(((i + j) % 2 == 0 ? minor : -minor) / det);
    }
  return out;
}

Tensor solve(sym::Context &context, const Tensor &matrix, const Tensor &rhs) {
  return tensorProduct(context, inverse(context, matrix), rhs);
}

} // namespace mech::mechanics
