// Gaussian elimination on symbolic entries (mechanics/SymbolicElimination.h),
// run on the numbers of the reference state alongside, which say whether a
// pivot is regular there.
#include "mechanics/SymbolicElimination.h"

#include "symbolic/ZeroTest.h"

#include <cmath>
#include <tuple>

namespace mech::mechanics {

using sym::Expr;

namespace {

using Rows = std::vector<std::vector<Expr>>;
using Values = std::vector<std::vector<double>>;

struct Pivot {
  size_t row = 0, col = 0;
};

// How many entries of each row and column not eliminated yet are not zero.
std::pair<std::vector<size_t>, std::vector<size_t>>
nonZeroCounts(const Rows &A, const std::vector<bool> &rowDone, const std::vector<bool> &colDone) {
  size_t n = A.size();
  std::vector<size_t> rows(n, 0), cols(n, 0);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j)
      if (!rowDone[i] && !colDone[j] && !A[i][j].isZero())
        ++rows[i], ++cols[j];
  return {rows, cols};
}

// The pivot among the rows and columns left (see the header), or nullopt
// when every entry left is zero at the reference state.
std::optional<Pivot> choosePivot(const Rows &A, const Values &values,
                                 const std::vector<bool> &rowDone,
                                 const std::vector<bool> &colDone) {
  size_t n = A.size();
  double scale = 0;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j)
      if (!rowDone[i] && !colDone[j])
        scale = std::max(scale, std::abs(values[i][j]));
  auto [rowCounts, colCounts] = nonZeroCounts(A, rowDone, colDone);
  std::optional<Pivot> best;
  std::tuple<size_t, bool, double> bestKey;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) {
      if (rowDone[i] || colDone[j] || A[i][j].isZero() || !(std::abs(values[i][j]) > 1e-9 * scale))
        continue;
      std::tuple<size_t, bool, double> key = {(rowCounts[i] - 1) * (colCounts[j] - 1),
                                              !A[i][j].isNumber(), A[i][j]->treeSize};
      if (!best || key < bestKey)
        best = Pivot{i, j}, bestKey = key;
    }
  return best;
}

// Eliminates the pivot's column from the other rows left; entries that
// cancel exactly become 0, so that the structure stays as sparse as it is.
void eliminate(Rows &A, std::vector<Expr> &b, Values &values, const Pivot &p,
               const std::vector<bool> &rowDone, const std::vector<bool> &colDone) {
  size_t n = A.size();
  std::vector<Expr *> changed;
  for (size_t i = 0; i < n; ++i) {
    if (rowDone[i] || i == p.row || A[i][p.col].isZero())
      continue;
    Expr factor = A[i][p.col] / A[p.row][p.col];
    double numeric = values[i][p.col] / values[p.row][p.col];
    for (size_t j = 0; j < n; ++j) {
      if (colDone[j] || j == p.col || A[p.row][j].isZero())
        continue;
      A[i][j] = A[i][j] - factor * A[p.row][j];
      values[i][j] -= numeric * values[p.row][j];
      changed.push_back(&A[i][j]);
    }
    b[i] = b[i] - factor * b[p.row];
    changed.push_back(&b[i]);
    A[i][p.col] = A[i][p.col].context().zero();
    values[i][p.col] = 0;
  }
  std::vector<Expr> entries;
  for (Expr *e : changed)
    entries.push_back(*e);
  std::vector<bool> zero = sym::areIdenticallyZero(entries);
  for (size_t k = 0; k < changed.size(); ++k)
    if (zero[k])
      *changed[k] = changed[k]->context().zero();
}

} // namespace

std::optional<std::vector<Expr>> solveByElimination(Rows A, std::vector<Expr> b, Values values,
                                                    std::vector<Expr> *pivotValues) {
  size_t n = A.size();
  std::vector<bool> rowDone(n, false), colDone(n, false);
  std::vector<Pivot> pivots;
  for (size_t k = 0; k < n; ++k) {
    std::optional<Pivot> p = choosePivot(A, values, rowDone, colDone);
    if (!p)
      return std::nullopt;
    eliminate(A, b, values, *p, rowDone, colDone);
    rowDone[p->row] = colDone[p->col] = true;
    pivots.push_back(*p);
  }
  // Back substitution: a pivot's row holds only its own column and those
  // of the pivots after it.
  std::vector<Expr> x(n);
  for (size_t k = n; k-- > 0;) {
    const Pivot &p = pivots[k];
    Expr sum = b[p.row];
    for (size_t later = k + 1; later < n; ++later)
      if (!A[p.row][pivots[later].col].isZero())
        sum = sum - A[p.row][pivots[later].col] * x[pivots[later].col];
    x[p.col] = sum / A[p.row][p.col];
  }
  if (pivotValues)
    for (const Pivot &p : pivots)
      pivotValues->push_back(A[p.row][p.col]);
  return x;
}

} // namespace mech::mechanics
