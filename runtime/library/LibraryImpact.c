/* The impact law of the runtime of built libraries: the port of the CLI's
 * runtime/ImpactLaw.cpp, step for step, so that a library and the CLI pick
 * the same set of pushing contacts at an impact. The sets are tried by size,
 * then in binary order; each one's square KKT system is solved by an LU with
 * complete pivoting whose rank test is that of Eigen's FullPivLU with the
 * threshold 1e-12, as the C++ does it; the first set whose impulses push
 * and whose other contacts do not close too fast is the answer. One
 * workspace, allocated per call. */
#include "LibraryInternal.h"

#include "LibraryImpact.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The relative size below which a pivot counts as zero (the C++'s
 * lu.setThreshold(1e-12)). */
#define PIVOT_THRESHOLD 1e-12

/* What the C++ allocates per set, laid out once for the largest set. */
typedef struct {
  double *K;         /* the KKT matrix of a set (row-major), then its LU */
  double *x;         /* its right-hand side, then (v+, mu, Lambda of the set) */
  double *Mv;        /* M v-, n values: the same for every set */
  long *rows, *cols; /* the LU's row and column transpositions */
  long *active;      /* the contacts of the set, in increasing order */
  void *block;
} workspace;

static int allocate(workspace *w, long n, long m, long k) {
  size_t N = (size_t)(n + m + k);
  size_t doubles = N * N + N + (size_t)n, longs = 2 * N + (size_t)k;
  /* The doubles first, so that the longs after them are aligned too; at
   * least one byte, as malloc(0) may return NULL. */
  w->block = malloc(sizeof(double) * doubles + sizeof(long) * longs + 1);
  if (!w->block)
    return 0;
  w->K = w->block;
  w->x = w->K + N * N;
  w->Mv = w->x + N;
  w->rows = (long *)(w->Mv + n);
  w->cols = w->rows + N;
  w->active = w->cols + N;
  return 1;
}

/* The entry of the corner from (k, k) with the largest magnitude, found as
 * Eigen's maxCoeff finds it: column by column, the first of equal ones, so
 * that ties (frequent: unit masses, rows of +-1) break the same way. */
static double find_pivot(const double *A, long N, long k, long *row, long *col) {
  double biggest = fabs(A[k * N + k]);
  *row = k;
  *col = k;
  for (long j = k; j < N; ++j)
    for (long i = k; i < N; ++i)
      if (fabs(A[i * N + j]) > biggest) {
        biggest = fabs(A[i * N + j]);
        *row = i;
        *col = j;
      }
  return biggest;
}

static void swap_rows_and_columns(double *A, long N, long k, long row, long col) {
  if (row != k)
    for (long j = 0; j < N; ++j) {
      double swap = A[k * N + j];
      A[k * N + j] = A[row * N + j];
      A[row * N + j] = swap;
    }
  if (col != k)
    for (long i = 0; i < N; ++i) {
      double swap = A[i * N + k];
      A[i * N + k] = A[i * N + col];
      A[i * N + col] = swap;
    }
}

/* PAQ = LU of the N*N row-major A in place, with complete pivoting, as
 * Eigen's FullPivLU computes it. Returns 1 when A is invertible by its
 * test: every pivot larger than PIVOT_THRESHOLD times the largest one (not
 * always the first: a later pivot can grow past it). A pivot that is NaN
 * fails the test, as in Eigen. */
static int full_pivot_factor(double *A, long N, long *rows, long *cols) {
  double largest = 0;
  long nonzero = N;
  for (long k = 0; k < N; ++k) {
    double biggest = find_pivot(A, N, k, &rows[k], &cols[k]);
    if (biggest == 0) {
      nonzero = k; /* the corner is zero: the rank is k */
      break;
    }
    if (biggest > largest)
      largest = biggest;
    swap_rows_and_columns(A, N, k, rows[k], cols[k]);
    for (long i = k + 1; i < N; ++i)
      A[i * N + k] /= A[k * N + k];
    for (long i = k + 1; i < N; ++i)
      for (long j = k + 1; j < N; ++j)
        A[i * N + j] -= A[i * N + k] * A[k * N + j];
  }
  if (nonzero < N)
    return 0;
  for (long i = 0; i < N; ++i)
    if (!(fabs(A[i * N + i]) > largest * PIVOT_THRESHOLD))
      return 0;
  return 1;
}

/* b = A^-1 b from full_pivot_factor's result. The substitutions go column
 * by column, as Eigen's triangular solves do for its column-major LU. */
static void full_pivot_solve(const double *LU, long N, const long *rows, const long *cols,
                             double *b) {
  for (long k = 0; k < N; ++k) {
    double swap = b[k];
    b[k] = b[rows[k]];
    b[rows[k]] = swap;
  }
  for (long j = 0; j < N; ++j)
    for (long i = j + 1; i < N; ++i)
      b[i] -= LU[i * N + j] * b[j];
  for (long j = N - 1; j >= 0; --j) {
    b[j] /= LU[j * N + j];
    for (long i = 0; i < j; ++i)
      b[i] -= LU[i * N + j] * b[j];
  }
  /* x = Q b, Q the product of the column transpositions in their order. */
  for (long k = N - 1; k >= 0; --k) {
    double swap = b[k];
    b[k] = b[cols[k]];
    b[cols[k]] = swap;
  }
}

/* The KKT system of the s contacts in w->active:
 *   [M, -A^T, -G_S^T; A, 0, 0; G_S, 0, 0] (v+, mu, Lambda_S)
 *     = (M v-, -a, r_S - b_S),
 * solved into w->x; 0 when it is singular or its solution is not finite. */
static int solve_set(const mechrt_impact_problem *p, workspace *w, long s) {
  long n = p->n, m = p->m, N = n + m + s;
  double *K = w->K, *x = w->x;
  memset(K, 0, sizeof(double) * (size_t)(N * N));
  for (long i = 0; i < n; ++i) {
    for (long j = 0; j < n; ++j)
      K[i * N + j] = p->M[i * n + j];
    x[i] = w->Mv[i];
  }
  for (long c = 0; c < m; ++c) {
    for (long j = 0; j < n; ++j) {
      K[j * N + n + c] = -p->A[c * n + j];
      K[(n + c) * N + j] = p->A[c * n + j];
    }
    x[n + c] = -p->a[c];
  }
  for (long c = 0; c < s; ++c) {
    long i = w->active[c];
    for (long j = 0; j < n; ++j) {
      K[j * N + n + m + c] = -p->G[i * n + j];
      K[(n + m + c) * N + j] = p->G[i * n + j];
    }
    x[n + m + c] = p->r[i] - p->b[i];
  }
  if (!full_pivot_factor(K, N, w->rows, w->cols))
    return 0;
  full_pivot_solve(K, N, w->rows, w->cols, x);
  return mechrt_all_finite(x, N);
}

static double dot(const double *u, const double *v, long n) {
  double sum = 0;
  for (long j = 0; j < n; ++j)
    sum += u[j] * v[j];
  return sum;
}

/* What "nonnegative" means for the rates w: 1e-9 of the scale of G v-, r
 * and b (at least 1), the same for every set. */
static double rate_tolerance(const mechrt_impact_problem *p) {
  double Gv = 0, r = 0, b = 0;
  for (long i = 0; i < p->k; ++i) {
    Gv += fabs(dot(p->G + i * p->n, p->velocity, p->n));
    r += fabs(p->r[i]);
    b += fabs(p->b[i]);
  }
  return 1e-9 * fmax(fmax(1.0, Gv), fmax(r, b));
}

/* Whether the solved set is the answer: its impulses push (none below
 * -1e-9 of their sum) and the contacts outside it do not close faster than
 * their least rates, w = G v+ + b - r >= -tolerance. */
static int accepted(const mechrt_impact_problem *p, const double *x, unsigned set, long s,
                    double tolerance) {
  const double *impulse = x + p->n + p->m;
  double impulses = 0;
  for (long c = 0; c < s; ++c)
    impulses += fabs(impulse[c]);
  impulses = fmax(1e-300, impulses);
  for (long c = 0; c < s; ++c)
    if (!(impulse[c] >= -1e-9 * impulses))
      return 0;
  for (long i = 0; i < p->k; ++i)
    if (!(set & (1u << i)) && !(dot(p->G + i * p->n, x, p->n) + p->b[i] - p->r[i] >= -tolerance))
      return 0;
  return 1;
}

static long popcount(unsigned set) {
  long count = 0;
  for (; set; set &= set - 1)
    ++count;
  return count;
}

/* The sets of pushing contacts by size, then in increasing binary order
 * within a size (the C++'s stable sort of 0 .. 2^k - 1 by popcount); the
 * first accepted one is written out. */
static int enumerate(const mechrt_impact_problem *p, workspace *w, double *velocity,
                     double *impulse) {
  const double tolerance = rate_tolerance(p);
  int status = MECHRT_IMPACT_SINGULAR;
  for (long size = 0; size <= p->k; ++size)
    for (unsigned set = 0; set < (1u << p->k); ++set) {
      if (popcount(set) != size)
        continue;
      long s = 0;
      for (long i = 0; i < p->k; ++i)
        if (set & (1u << i))
          w->active[s++] = i;
      if (!solve_set(p, w, s))
        continue;
      status = MECHRT_IMPACT_NO_SOLUTION;
      if (!accepted(p, w->x, set, s, tolerance))
        continue;
      for (long i = 0; i < p->n; ++i)
        velocity[i] = w->x[i];
      for (long i = 0; i < p->k; ++i)
        impulse[i] = 0;
      /* A pull within the tolerance is no impulse (the C++'s max(0, .)). */
      for (long c = 0; c < s; ++c) {
        double push = w->x[p->n + p->m + c];
        impulse[w->active[c]] = 0 < push ? push : 0;
      }
      return MECHRT_IMPACT_SOLVED;
    }
  return status;
}

MECHRT_HIDDEN int mechrt_solve_impact(const mechrt_impact_problem *problem, double *velocity,
                                      double *impulse) {
  const mechrt_impact_problem *p = problem;
  if (p->k > MECHRT_MAX_IMPACT_CONTACTS)
    return MECHRT_IMPACT_TOO_MANY_CONTACTS;
  workspace w;
  if (!allocate(&w, p->n, p->m, p->k))
    return MECHRT_IMPACT_OUT_OF_MEMORY;
  /* M v-, once. The outputs are written last, so velocity may alias v-. */
  for (long i = 0; i < p->n; ++i)
    w.Mv[i] = dot(p->M + i * p->n, p->velocity, p->n);
  int status = enumerate(p, &w, velocity, impulse);
  free(w.block);
  return status;
}
