// Dense solves of the equations of motion (runtime/DenseSolve.h): LDL^T
// without pivoting, and the constrained system through M + s C^T C and its
// Schur complement. The JIT emits the same algorithm (jit/
// EmitterLinearAlgebra.cpp); the interpreter back end and the evaluator call
// these.
#include "runtime/DenseSolve.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace mech::runtime {

bool factorLdlt(size_t n, double *A, double relativeTolerance) {
  double largest = 0;
  for (size_t j = 0; j < n; ++j)
    largest = std::max(largest, std::abs(A[j * n + j]));
  double tolerance = relativeTolerance * largest;
  for (size_t j = 0; j < n; ++j) {
    double d = A[j * n + j];
    for (size_t k = 0; k < j; ++k)
      d -= A[j * n + k] * A[j * n + k] * A[k * n + k];
    if (!(d > tolerance))
      return false;
    A[j * n + j] = d;
    for (size_t i = j + 1; i < n; ++i) {
      double s = A[i * n + j];
      for (size_t k = 0; k < j; ++k)
        s -= A[i * n + k] * A[j * n + k] * A[k * n + k];
      A[i * n + j] = s / d;
    }
  }
  return true;
}

size_t factorPivotedLdlt(size_t n, double *A, size_t *order, double relativeTolerance,
                         double *dependentRows) {
  double largest = 0;
  for (size_t j = 0; j < n; ++j)
    largest = std::max(largest, std::abs(A[j * n + j]));
  const double tolerance = relativeTolerance * largest;
  size_t rank = n;
  for (size_t j = 0; j < n; ++j)
    order[j] = j;
  for (size_t j = 0; j < n; ++j) {
    size_t pivot = j;
    for (size_t i = j + 1; i < n; ++i)
      if (A[i * n + i] > A[pivot * n + pivot])
        pivot = i;
    std::swap(order[j], order[pivot]);
    for (size_t k = 0; k < n; ++k)
      std::swap(A[j * n + k], A[pivot * n + k]);
    for (size_t k = 0; k < n; ++k)
      std::swap(A[k * n + j], A[k * n + pivot]);
    // Once the largest pivot left is rounding, the rows left depend on the
    // others: their pivots and columns of L become 0 and update nothing.
    const double d = A[j * n + j];
    const bool dependent = !(d > tolerance);
    rank -= dependent;
    if (dependentRows)
      dependentRows[order[j]] = dependent ? 1 : 0;
    A[j * n + j] = dependent ? 0 : d;
    // Right-looking: the Schur complement of the trailing block, both
    // triangles (the pivot search reads its diagonal, the swaps its rows).
    for (size_t i = j + 1; i < n; ++i)
      for (size_t k = j + 1; k < n; ++k)
        A[i * n + k] -= dependent ? 0 : A[i * n + j] * A[j * n + k] / d;
    for (size_t i = j + 1; i < n; ++i)
      A[i * n + j] = dependent ? 0 : A[i * n + j] / d;
  }
  return rank;
}

void substitutePivotedLdlt(size_t n, const double *A, const size_t *order, double *b,
                           double *scratch) {
  for (size_t i = 0; i < n; ++i)
    scratch[i] = b[order[i]];
  substituteLdlt(n, A, scratch);
  for (size_t i = 0; i < n; ++i)
    b[order[i]] = scratch[i];
}

void substituteLdlt(size_t n, const double *A, double *b) {
  for (size_t i = 0; i < n; ++i)
    for (size_t k = 0; k < i; ++k)
      b[i] -= A[i * n + k] * b[k];
  // A zero pivot (a dependent row of a semidefinite factor) gives that
  // unknown 0; a factor from factorLdlt has none.
  for (size_t i = 0; i < n; ++i)
    b[i] = A[i * n + i] == 0 ? 0 : b[i] / A[i * n + i];
  for (size_t i = n; i-- > 0;)
    for (size_t k = i + 1; k < n; ++k)
      b[i] -= A[k * n + i] * b[k];
}

int solveLdlt(size_t n, double *M, double *b) {
  if (!factorLdlt(n, M, kPivotTolerance))
    return kSolveSingular;
  substituteLdlt(n, M, b);
  return kSolveOk;
}

double constraintScale(size_t n, size_t m, const double *M, const double *C) {
  double inertia = 0, rows = 0;
  for (size_t j = 0; j < n; ++j)
    inertia = std::max(inertia, std::abs(M[j * n + j]));
  for (size_t i = 0; i < m; ++i) {
    double row = 0;
    for (size_t k = 0; k < n; ++k)
      row += C[i * n + k] * C[i * n + k];
    rows = std::max(rows, row);
  }
  if (rows == 0)
    return 1;
  return (inertia > 0 ? inertia : 1) / rows;
}

bool factorRegularized(size_t n, size_t m, double *M, const double *C, const double *gamma,
                       double s, double *y) {
  // M + s C^T C and f + s C^T gamma: the same solutions, since C q'' = gamma.
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j) {
      y[j] += s * C[i * n + j] * gamma[i];
      for (size_t k = 0; k < n; ++k)
        M[j * n + k] += s * C[i * n + j] * C[i * n + k];
    }
  if (!factorLdlt(n, M, kPivotTolerance))
    return false;
  substituteLdlt(n, M, y);
  return true;
}

void solveRegularizedSchur(size_t m, const double *S, double *r) {
  // Rows that depend on others to rounding (redundant constraints, or an
  // exactly singular position) are set aside first: their multipliers are
  // 0, and a residual they would disagree on (off the constraints) is not
  // amplified by 1 / eps in every pass.
  std::vector<double> R(S, S + m * m), dependent(m), kept(m * m), mu(m, 0.0), residual(m);
  std::vector<size_t> order(m);
  factorPivotedLdlt(m, R.data(), order.data(), kDependentRowTolerance, dependent.data());
  double largest = 0;
  for (size_t i = 0; i < m; ++i)
    largest = std::max(largest, S[i * m + i]);
  for (size_t i = 0; i < m; ++i) {
    for (size_t j = 0; j < m; ++j)
      kept[i * m + j] = dependent[i] != 0 || dependent[j] != 0 ? 0 : S[i * m + j];
    residual[i] = dependent[i] != 0 ? 0 : r[i];
  }
  R = kept;
  for (size_t i = 0; i < m; ++i)
    R[i * m + i] += kSchurRegularization * largest;
  // kept + eps I is positive definite (kept is semidefinite): a failure can
  // only come from values that are not finite, which the solve passes on.
  if (!factorLdlt(m, R.data(), 0)) {
    std::fill(r, r + m, std::numeric_limits<double>::quiet_NaN());
    return;
  }
  for (int pass = 0; pass <= kSchurRefinements; ++pass) {
    substituteLdlt(m, R.data(), residual.data()); // the correction
    for (size_t i = 0; i < m; ++i)
      mu[i] += residual[i];
    for (size_t i = 0; i < m; ++i) {
      residual[i] = dependent[i] != 0 ? 0 : r[i];
      for (size_t j = 0; j < m; ++j)
        residual[i] -= kept[i * m + j] * mu[j];
    }
  }
  std::copy(mu.begin(), mu.end(), r);
}

int solveConstrained(size_t n, size_t m, double *M, const double *f, const double *C,
                     const double *gamma, double *qdd, double *lambda) {
  double s = constraintScale(n, m, M, C);
  std::vector<double> y(f, f + n), Z(m * n), S(m * m), r(m);
  if (!factorRegularized(n, m, M, C, gamma, s, y.data()))
    return kSolveSingular;
  // Z = (M + s C^T C)^-1 C^T, one row of C at a time.
  std::copy(C, C + m * n, Z.begin());
  for (size_t i = 0; i < m; ++i)
    substituteLdlt(n, M, Z.data() + i * n);
  for (size_t i = 0; i < m; ++i) {
    r[i] = -gamma[i];
    for (size_t k = 0; k < n; ++k)
      r[i] += C[i * n + k] * y[k];
    for (size_t j = 0; j < m; ++j) {
      double sum = 0;
      for (size_t k = 0; k < n; ++k)
        sum += C[i * n + k] * Z[j * n + k];
      S[i * m + j] = sum;
    }
  }
  solveRegularizedSchur(m, S.data(), r.data()); // r = mu = -lambda
  for (size_t k = 0; k < n; ++k) {
    qdd[k] = y[k];
    for (size_t i = 0; i < m; ++i)
      qdd[k] -= Z[i * n + k] * r[i];
  }
  for (size_t i = 0; i < m; ++i)
    lambda[i] = -r[i];
  return kSolveOk;
}

} // namespace mech::runtime
