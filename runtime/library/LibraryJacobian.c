/* The state Jacobian dF/dx of a built library's model, x = (q, q'),
 * F = (q', q''): exact, from the kernel of symbolic derivatives. q'' is
 * defined implicitly by the first-kind residual
 * r = (f + C^T lambda - M q'', gamma - C q'') = 0, so
 * [M, -C^T; C, 0] [dq''/dx; dlambda/dx] = dr/dx with q'' and lambda held,
 * as mechanics/StateJacobian.cpp assembles it for the CLI. */
#include "LibraryInternal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Row i of C less its projection on the k rows of `basis` (orthonormal),
 * into v; its squared size. */
static double row_remainder(const double *C, long n, long i, const double *basis, long k,
                            double *v) {
  memcpy(v, C + i * n, sizeof(double) * (size_t)n);
  for (long b = 0; b < k; ++b) {
    double dot = 0;
    for (long j = 0; j < n; ++j)
      dot += basis[b * n + j] * v[j];
    for (long j = 0; j < n; ++j)
      v[j] -= dot * basis[b * n + j];
  }
  double size = 0;
  for (long j = 0; j < n; ++j)
    size += v[j] * v[j];
  return size;
}

/* The rows of C (m*n) that the acceleration solve keeps, about: pivoted
 * Gram-Schmidt (the largest remainder first) until the largest remainder
 * is below 1e-14 of the largest row, in squared size, as the kernel's
 * pivoted factorization of the Schur complement decides. Into kept, in
 * their order in C; their count. `basis` (m*n) and `v` (n) are scratch.
 * `smallest` gets the smallest kept remainder over the largest row (both
 * squared): where it is small, the rows are nearly dependent. */
static long independent_rows(const double *C, long m, long n, double *v, double *basis, long *kept,
                             double *smallest) {
  *smallest = 1;
  double largest = 0;
  for (long i = 0; i < m; ++i)
    largest = fmax(largest, row_remainder(C, n, i, basis, 0, v));
  unsigned char taken[m > 0 ? m : 1];
  memset(taken, 0, sizeof taken);
  long k = 0;
  for (; k < m; ++k) {
    long best = -1;
    double size = 0;
    for (long i = 0; i < m; ++i)
      if (!taken[i]) {
        double s = row_remainder(C, n, i, basis, k, v);
        if (best < 0 || s > size) {
          best = i;
          size = s;
        }
      }
    if (!(size > 1e-14 * largest))
      break;
    *smallest = fmin(*smallest, size / largest);
    row_remainder(C, n, best, basis, k, v);
    for (long j = 0; j < n; ++j)
      basis[k * n + j] = v[j] / sqrt(size);
    taken[best] = 1;
  }
  long count = 0;
  for (long i = 0; i < m; ++i)
    if (taken[i])
      kept[count++] = i;
  return count;
}

MECHRT_HIDDEN long mechrt_jacobian_workspace(const mechrt_model *model) {
  long n = model->nq, m = model->nc, size = n + m;
  /* The kernel's parts, then the first-kind matrix and one column. */
  return n * n + m * n + 2 * size * n + size * size + size;
}

MECHRT_HIDDEN int mechrt_state_jacobian(const mechrt_model *model, double t, const double *x,
                                        const double *p, double *workspace, long *pivots,
                                        double *J) {
  long n = model->nq, m = model->nc, size = n + m;
  double *parts = workspace;
  int status = model->jacobian_parts(t, x, p, parts);
  if (status != MECHRT_OK)
    return status;
  const double *M = parts, *C = parts + n * n, *byQ = C + m * n, *byQd = byQ + size * n;
  if (!mechrt_all_finite(parts, n * n + m * n + 2 * size * n))
    return MECHRT_NON_FINITE;
  double *K = parts + n * n + m * n + 2 * size * n, *column = K + size * size;
  /* Rows of C that depend on earlier ones carry no multiplier in the
   * acceleration solve: they are left out (kept[0..k) are the others). */
  long kept[m > 0 ? m : 1];
  double smallest = 1;
  long k = independent_rows(C, m, n, column, K, kept, &smallest);
  size = n + k;
  /* Near a singular position the acceleration solve regularizes its Schur
   * complement (S + eps I): so does the Jacobian (mechanics/StateJacobian's
   * rule, with C's rows standing in for S's pivots). */
  double eps = 0;
  if (smallest < 1e3 * MECHRT_SCHUR_REGULARIZATION) {
    double inertia = 0, row_size = 0;
    for (long i = 0; i < n; ++i)
      inertia = fmax(inertia, fabs(M[i * n + i]));
    for (long a = 0; a < m; ++a)
      row_size = fmax(row_size, row_remainder(C, n, a, K, 0, column));
    eps = MECHRT_SCHUR_REGULARIZATION * row_size / (inertia > 0 ? inertia : 1);
  }
  memset(K, 0, sizeof(double) * (size_t)(size * size));
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j)
      K[i * size + j] = M[i * n + j];
  for (long a = 0; a < k; ++a) {
    for (long j = 0; j < n; ++j) {
      K[j * size + n + a] = -C[kept[a] * n + j];
      K[(n + a) * size + j] = C[kept[a] * n + j];
    }
    K[(n + a) * size + n + a] = eps;
  }
  if (!mechrt_lu_factor(K, size, pivots))
    return MECHRT_SINGULAR_MASS_MATRIX;
  memset(J, 0, sizeof(double) * (size_t)(4 * n * n));
  for (long i = 0; i < n; ++i)
    J[i * 2 * n + n + i] = 1;
  /* Column c of dF/dx: dq''/dx_c, from the same column of dr/dx. */
  for (long c = 0; c < 2 * n; ++c) {
    const double *from = c < n ? byQ : byQd;
    long c0 = c < n ? c : c - n;
    for (long i = 0; i < n; ++i)
      column[i] = from[i * n + c0];
    for (long a = 0; a < k; ++a)
      column[n + a] = from[(n + kept[a]) * n + c0];
    mechrt_lu_solve(K, size, pivots, column);
    for (long i = 0; i < n; ++i)
      J[(n + i) * 2 * n + c] = column[i];
  }
  return mechrt_all_finite(J, 4 * n * n) ? MECHRT_OK : MECHRT_NON_FINITE;
}

MECHRT_HIDDEN int mechrt_jacobian(const mechrt_model *model, double t, const double *x,
                                  const double *p, double *out) {
  double live[model->np + model->nswitches + 1];
  if (x && (p || model->np == 0) && model->nswitches > 0 && isfinite(t) &&
      mechrt_all_finite(x, 2 * model->nq))
    p = mechrt_live_params(model, t, x, 2 * model->nq, p, live);
  return mechrt_held_jacobian(model, t, x, p, out);
}

MECHRT_HIDDEN int mechrt_held_jacobian(const mechrt_model *model, double t, const double *x,
                                       const double *p, double *out) {
  long n = model->nq, size = n + model->nc;
  if (!x || (!p && model->np > 0) || (!out && n > 0))
    return MECHRT_NULL_POINTER;
  if (!isfinite(t) || !mechrt_all_finite(x, 2 * n) ||
      (model->np > 0 && !mechrt_all_finite(p, model->np)))
    return MECHRT_NON_FINITE;
  if (n == 0)
    return MECHRT_OK;
  double *workspace = malloc(sizeof(double) * (size_t)mechrt_jacobian_workspace(model));
  long *pivots = malloc(sizeof(long) * (size_t)size);
  int status = workspace && pivots ? mechrt_state_jacobian(model, t, x, p, workspace, pivots, out)
                                   : MECHRT_OUT_OF_MEMORY;
  free(workspace);
  free(pivots);
  return status;
}
