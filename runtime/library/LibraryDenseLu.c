/* The library runtime's dense LU decomposition with partial pivoting, real
 * and complex: the Newton matrices of Radau IIA and the first-kind matrix of
 * the state Jacobian. Small and plain on purpose: the models of a library
 * have tens of coordinates, where a blocked algorithm gains nothing, and the
 * library must need nothing but libc and libm. Tested against Eigen's
 * PartialPivLU (tests/unit/LibraryLinearAlgebraTest.cpp). */
#include "LibraryInternal.h"

#include <float.h>
#include <math.h>

/* One template for both scalar types, as the two differ only in the type
 * and its magnitude. */
#define MECHRT_DEFINE_LU(SCALAR, MAGNITUDE, FACTOR, SOLVE)                                         \
  MECHRT_HIDDEN int FACTOR(SCALAR *A, long n, long *pivots) {                                      \
    double largest = 0;                                                                            \
    for (long i = 0; i < n * n; ++i)                                                               \
      largest = fmax(largest, MAGNITUDE(A[i]));                                                    \
    const double tiny = (double)n * DBL_EPSILON * largest;                                         \
    int regular = n == 0 || (largest > 0 && isfinite(largest));                                    \
    for (long k = 0; k < n; ++k) {                                                                 \
      long pivot = k;                                                                              \
      for (long i = k + 1; i < n; ++i)                                                             \
        if (MAGNITUDE(A[i * n + k]) > MAGNITUDE(A[pivot * n + k]))                                 \
          pivot = i;                                                                               \
      pivots[k] = pivot;                                                                           \
      if (pivot != k)                                                                              \
        for (long j = 0; j < n; ++j) {                                                             \
          SCALAR swap = A[k * n + j];                                                              \
          A[k * n + j] = A[pivot * n + j];                                                         \
          A[pivot * n + j] = swap;                                                                 \
        }                                                                                          \
      if (!(MAGNITUDE(A[k * n + k]) > tiny)) {                                                     \
        regular = 0;                                                                               \
        continue;                                                                                  \
      }                                                                                            \
      for (long i = k + 1; i < n; ++i) {                                                           \
        SCALAR factor = A[i * n + k] / A[k * n + k];                                               \
        A[i * n + k] = factor;                                                                     \
        for (long j = k + 1; j < n; ++j)                                                           \
          A[i * n + j] -= factor * A[k * n + j];                                                   \
      }                                                                                            \
    }                                                                                              \
    return regular;                                                                                \
  }                                                                                                \
                                                                                                   \
  MECHRT_HIDDEN void SOLVE(const SCALAR *LU, long n, const long *pivots, SCALAR *b) {              \
    for (long k = 0; k < n; ++k)                                                                   \
      if (pivots[k] != k) {                                                                        \
        SCALAR swap = b[k];                                                                        \
        b[k] = b[pivots[k]];                                                                       \
        b[pivots[k]] = swap;                                                                       \
      }                                                                                            \
    for (long i = 0; i < n; ++i)                                                                   \
      for (long j = 0; j < i; ++j)                                                                 \
        b[i] -= LU[i * n + j] * b[j];                                                              \
    for (long i = n - 1; i >= 0; --i) {                                                            \
      for (long j = i + 1; j < n; ++j)                                                             \
        b[i] -= LU[i * n + j] * b[j];                                                              \
      b[i] /= LU[i * n + i];                                                                       \
    }                                                                                              \
  }

MECHRT_DEFINE_LU(double, fabs, mechrt_lu_factor, mechrt_lu_solve)
MECHRT_DEFINE_LU(double complex, cabs, mechrt_lu_factor_complex, mechrt_lu_solve_complex)
