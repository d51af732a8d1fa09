// The equations of the first kind with non-ideal reactions (runtime/
// DenseSolve.h, solveWithReactions): the multipliers act along W, not C,
// so the Schur complement C (M + s C^T C)^-1 W^T is not symmetric and is
// solved by LU with partial pivoting. The consistency check reads how the
// checked rows' forces respond to their own accelerations, d lambda /
// d gamma = (C M^-1 W^T)^-1, which the regularised solve gives exactly
// (the scale s cancels): a column per checked row.
#include "runtime/DenseSolve.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace mech::runtime {

namespace {

// LU of the m*m matrix S in place with row pivots `pivot`; false when a
// pivot is below `tolerance` of the largest entry.
bool factorLu(size_t m, double *S, std::vector<size_t> &pivot, double tolerance) {
  double largest = 0;
  for (size_t i = 0; i < m * m; ++i)
    largest = std::max(largest, std::abs(S[i]));
  pivot.resize(m);
  for (size_t j = 0; j < m; ++j) {
    size_t best = j;
    for (size_t i = j + 1; i < m; ++i)
      if (std::abs(S[i * m + j]) > std::abs(S[best * m + j]))
        best = i;
    pivot[j] = best;
    if (!(std::abs(S[best * m + j]) > tolerance * largest))
      return false;
    if (best != j)
      for (size_t k = 0; k < m; ++k)
        std::swap(S[j * m + k], S[best * m + k]);
    for (size_t i = j + 1; i < m; ++i) {
      double l = S[i * m + j] /= S[j * m + j];
      for (size_t k = j + 1; k < m; ++k)
        S[i * m + k] -= l * S[j * m + k];
    }
  }
  return true;
}

void substituteLu(size_t m, const double *S, const std::vector<size_t> &pivot, double *b) {
  for (size_t j = 0; j < m; ++j)
    std::swap(b[j], b[pivot[j]]);
  for (size_t i = 0; i < m; ++i)
    for (size_t k = 0; k < i; ++k)
      b[i] -= S[i * m + k] * b[k];
  for (size_t i = m; i-- > 0;) {
    for (size_t k = i + 1; k < m; ++k)
      b[i] -= S[i * m + k] * b[k];
    b[i] /= S[i * m + i];
  }
}

// Whether every principal minor of the k*k matrix B (row-major) is
// positive (k is a handful of contacts: 2^k determinants by elimination).
bool isPMatrix(size_t k, const std::vector<double> &B) {
  for (size_t subset = 1; subset < (size_t{1} << k); ++subset) {
    std::vector<size_t> rows;
    for (size_t i = 0; i < k; ++i)
      if (subset & (size_t{1} << i))
        rows.push_back(i);
    const size_t r = rows.size();
    std::vector<double> A(r * r);
    for (size_t i = 0; i < r; ++i)
      for (size_t j = 0; j < r; ++j)
        A[i * r + j] = B[rows[i] * k + rows[j]];
    std::vector<size_t> pivot;
    double det = 1;
    if (!factorLu(r, A.data(), pivot, 0))
      return false;
    for (size_t i = 0; i < r; ++i)
      det *= (pivot[i] != i ? -1 : 1) * A[i * r + i];
    if (!(det > 0))
      return false;
  }
  return true;
}

} // namespace

int solveWithReactions(size_t n, size_t m, double *M, const double *f, const double *C,
                       const double *W, const double *gamma, const size_t *checked,
                       size_t checkedCount, double *qdd, double *lambda, size_t *culprit) {
  const double s = constraintScale(n, m, M, C);
  std::vector<double> y(f, f + n), Z(W, W + m * n), S(m * m), r(m);
  if (!factorRegularized(n, m, M, C, gamma, s, y.data()))
    return kSolveSingular;
  for (size_t i = 0; i < m; ++i)
    substituteLdlt(n, M, Z.data() + i * n); // Z = (M + s C^T C)^-1 W^T, by rows
  for (size_t i = 0; i < m; ++i) {
    r[i] = gamma[i];
    for (size_t k = 0; k < n; ++k)
      r[i] -= C[i * n + k] * y[k];
    for (size_t j = 0; j < m; ++j) {
      double sum = 0;
      for (size_t k = 0; k < n; ++k)
        sum += C[i * n + k] * Z[j * n + k];
      S[i * m + j] = sum;
    }
  }
  std::vector<size_t> pivot;
  if (!factorLu(m, S.data(), pivot, kSchurTolerance)) {
    *culprit = checkedCount ? checked[0] : 0;
    return checkedCount ? kSolveInconsistent : kSolveRedundant;
  }
  substituteLu(m, S.data(), pivot, r.data()); // r = lambda
  // d lambda / d gamma_j = S^-1 (e_j - s C (M + s C^T C)^-1 C_j^T), per checked row j.
  std::vector<double> response(checkedCount * checkedCount), v(n), u(m);
  for (size_t b = 0; b < checkedCount; ++b) {
    const size_t j = checked[b];
    std::copy(C + j * n, C + (j + 1) * n, v.begin());
    substituteLdlt(n, M, v.data());
    for (size_t i = 0; i < m; ++i) {
      u[i] = i == j ? 1 : 0;
      for (size_t k = 0; k < n; ++k)
        u[i] -= s * C[i * n + k] * v[k];
    }
    substituteLu(m, S.data(), pivot, u.data());
    for (size_t a = 0; a < checkedCount; ++a)
      response[a * checkedCount + b] = u[checked[a]];
  }
  for (size_t a = 0; a < checkedCount; ++a)
    if (!(response[a * checkedCount + a] > 0)) {
      *culprit = checked[a];
      return kSolveInconsistent;
    }
  if (checkedCount > 1 && !isPMatrix(checkedCount, response)) {
    *culprit = checked[0];
    return kSolveInconsistent;
  }
  for (size_t k = 0; k < n; ++k) {
    qdd[k] = y[k];
    for (size_t i = 0; i < m; ++i)
      qdd[k] += Z[i * n + k] * r[i];
  }
  std::copy(r.begin(), r.end(), lambda);
  return kSolveOk;
}

} // namespace mech::runtime
