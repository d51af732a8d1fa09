/* The runtime of a built library: the same DOPRI5 as the CLI's integrator
 * (Hairer's step-size control with the PI term, his initial step, the
 * order-4 continuous extension for the samples) and the same projection
 * onto the constraints after every step (the least change in the metric of
 * the mass matrix), written in C over one workspace allocated per call. */
#include "LibrarySwitches.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HIDDEN MECHRT_HIDDEN

HIDDEN int mechrt_all_finite(const double *v, long count) {
  for (long i = 0; i < count; ++i)
    if (!isfinite(v[i]))
      return 0;
  return 1;
}

HIDDEN const double *mechrt_live_params(const mechrt_model *model, double t, const double *x,
                                        long given, const double *p, double *buffer) {
  long np = model->np, n = model->nq;
  if (model->nswitches == 0)
    return p;
  double state[2 * n + 1];
  memset(state, 0, sizeof state);
  memcpy(state, x, sizeof(double) * (size_t)given);
  if (np > 0)
    memcpy(buffer, p, sizeof(double) * (size_t)np);
  /* g reads the params only: the branches are its output. */
  if (model->switch_values(t, state, buffer, buffer + np) != MECHRT_OK)
    for (long k = 0; k < model->nswitches; ++k)
      buffer[np + k] = NAN;
  return buffer;
}

HIDDEN int mechrt_held_call(const mechrt_model *model, mechrt_kernel kernel, double t,
                            const double *x, long inputs, const double *p, double *out,
                            long count) {
  if (!x || (!p && model->np > 0) || (!out && count > 0))
    return MECHRT_NULL_POINTER;
  if (!isfinite(t) || !mechrt_all_finite(x, inputs) ||
      (model->np > 0 && !mechrt_all_finite(p, model->np)))
    return MECHRT_NON_FINITE;
  double scratch[1];
  int status = kernel(t, x, p, count > 0 ? out : scratch);
  if (status != MECHRT_OK)
    return status;
  return mechrt_all_finite(out, count) ? MECHRT_OK : MECHRT_NON_FINITE;
}

HIDDEN int mechrt_call(const mechrt_model *model, mechrt_kernel kernel, double t, const double *x,
                       long inputs, const double *p, double *out, long count) {
  if (!x || (!p && model->np > 0))
    return MECHRT_NULL_POINTER;
  double live[model->np + model->nswitches + 1];
  if (model->nswitches > 0 && isfinite(t) && mechrt_all_finite(x, inputs))
    p = mechrt_live_params(model, t, x, inputs, p, live);
  return mechrt_held_call(model, kernel, t, x, inputs, p, out, count);
}

HIDDEN int mechrt_constraints(const mechrt_model *model, double t, const double *x, const double *p,
                              double *residuals, double *jacobian) {
  long m = model->nc, n = model->nq;
  if (!x || (!p && model->np > 0) || (m > 0 && (!residuals || !jacobian)))
    return MECHRT_NULL_POINTER;
  if (m == 0)
    return MECHRT_OK;
  double *all = malloc(sizeof(double) * (size_t)(2 * m + m * n));
  if (!all)
    return MECHRT_OUT_OF_MEMORY;
  int status = mechrt_call(model, model->constraints, t, x, 2 * n, p, all, 2 * m + m * n);
  if (status == MECHRT_OK) {
    memcpy(residuals, all, sizeof(double) * (size_t)(2 * m));
    memcpy(jacobian, all + 2 * m, sizeof(double) * (size_t)(m * n));
  }
  free(all);
  return status;
}

/* ---- Projection onto the constraints ------------------------------------ */

typedef mechrt_projection projection;

/* L L^T = A (n*n, lower triangle used) in place; 0 when a pivot is not
 * above `floor`. */
static int cholesky(double *A, long n, double floor) {
  for (long a = 0; a < n; ++a)
    for (long b = 0; b <= a; ++b) {
      double s = A[a * n + b];
      for (long c = 0; c < b; ++c)
        s -= A[a * n + c] * A[b * n + c];
      if (a == b) {
        if (!(s > floor))
          return 0;
        A[a * n + a] = sqrt(s);
      } else {
        A[a * n + b] = s / A[b * n + b];
      }
    }
  return 1;
}

/* x = (L L^T)^-1 x for the factor L (n*n). */
static void cholesky_solve(const double *L, long n, double *x) {
  for (long a = 0; a < n; ++a) {
    double s = x[a];
    for (long c = 0; c < a; ++c)
      s -= L[a * n + c] * x[c];
    x[a] = s / L[a * n + a];
  }
  for (long a = n - 1; a >= 0; --a) {
    double s = x[a];
    for (long c = a + 1; c < n; ++c)
      s -= L[c * n + a] * x[c];
    x[a] = s / L[a * n + a];
  }
}

/* P A P^T = L D L^T of the positive semidefinite A (n*n, both triangles) in
 * place, the largest remaining pivot first (order[i]: the row at position
 * i). Once the largest pivot left is not above `floor`, the rows left depend
 * on the others: their pivots and columns of L become 0 and they are
 * marked 1 in dependent_rows (as runtime/DenseSolve.cpp's
 * factorPivotedLdlt). */
static void ldlt_pivoted(double *A, long n, long *order, double floor, double *dependent_rows) {
  for (long j = 0; j < n; ++j)
    order[j] = j;
  for (long j = 0; j < n; ++j) {
    long pivot = j;
    for (long i = j + 1; i < n; ++i)
      if (A[i * n + i] > A[pivot * n + pivot])
        pivot = i;
    long o = order[j];
    order[j] = order[pivot];
    order[pivot] = o;
    for (long k = 0; k < n; ++k) {
      double swap = A[j * n + k];
      A[j * n + k] = A[pivot * n + k];
      A[pivot * n + k] = swap;
    }
    for (long k = 0; k < n; ++k) {
      double swap = A[k * n + j];
      A[k * n + j] = A[k * n + pivot];
      A[k * n + pivot] = swap;
    }
    double d = A[j * n + j];
    int dependent = !(d > floor);
    A[j * n + j] = dependent ? 0 : d;
    dependent_rows[order[j]] = dependent ? 1 : 0;
    for (long i = j + 1; i < n; ++i)
      for (long k = j + 1; k < n; ++k)
        A[i * n + k] -= dependent ? 0 : A[i * n + j] * A[j * n + k] / d;
    for (long i = j + 1; i < n; ++i)
      A[i * n + j] = dependent ? 0 : A[i * n + j] / d;
  }
}

/* y = S^-1 y for the positive semidefinite S (k*k, both triangles), as
 * runtime/DenseSolve.cpp's solveRegularizedSchur solves it: the rows that
 * depend on others to rounding (pivot below 1e-14) get 0; on the
 * others Cholesky of S + 1e-7 max(diag S) I, then three passes of
 * refinement against S. Where C is losing rank y stays bounded. */
static void solve_regularized(const double *S, long k, double *y) {
  double largest = 0, R[k * k], kept[k * k], dependent[k], mu[k], residual[k];
  long order[k];
  for (long a = 0; a < k; ++a)
    largest = fmax(largest, S[a * k + a]);
  memcpy(R, S, sizeof(double) * (size_t)(k * k));
  ldlt_pivoted(R, k, order, 1e-14 * largest, dependent);
  for (long a = 0; a < k; ++a) {
    for (long b = 0; b < k; ++b)
      kept[a * k + b] = dependent[a] != 0 || dependent[b] != 0 ? 0 : S[a * k + b];
    if (dependent[a] != 0)
      y[a] = 0;
    mu[a] = 0;
    residual[a] = y[a];
  }
  memcpy(R, kept, sizeof(double) * (size_t)(k * k));
  for (long a = 0; a < k; ++a)
    R[a * k + a] += MECHRT_SCHUR_REGULARIZATION * largest;
  if (!cholesky(R, k, 0)) {
    for (long a = 0; a < k; ++a)
      y[a] = NAN;
    return;
  }
  for (int pass = 0; pass <= 3; ++pass) {
    cholesky_solve(R, k, residual);
    for (long a = 0; a < k; ++a)
      mu[a] += residual[a];
    for (long a = 0; a < k; ++a) {
      residual[a] = y[a];
      for (long b = 0; b < k; ++b)
        residual[a] -= kept[a * k + b] * mu[b];
    }
  }
  memcpy(y, mu, sizeof(double) * (size_t)k);
}

/* The metric at the state: M, or M plus 1e-6 of its largest diagonal entry
 * on the diagonal when M is singular (massless coordinates), as the CLI's
 * projection (runtime/ConstraintProjection.cpp) takes it. */
static int factor_metric(projection *w, double t, const double *x) {
  const mechrt_model *model = w->model;
  long n = model->nq;
  w->weighted = model->mass_matrix != NULL && n > 0;
  if (!w->weighted)
    return MECHRT_OK;
  for (int attempt = 0; attempt < 2; ++attempt) {
    int status = model->mass_matrix(t, x, w->p, w->metric);
    if (status != MECHRT_OK)
      return status;
    if (!mechrt_all_finite(w->metric, n * n))
      return MECHRT_NON_FINITE;
    double largest = 0;
    for (long j = 0; j < n; ++j)
      largest = fmax(largest, fabs(w->metric[j * n + j]));
    if (attempt == 1)
      for (long j = 0; j < n; ++j)
        w->metric[j * n + j] += (largest > 0 ? largest : 1) * 1e-6;
    if (cholesky(w->metric, n, 1e-12 * largest))
      return MECHRT_OK;
  }
  return MECHRT_SINGULAR_MASS_MATRIX;
}

/* Solves (C_S W^-1 C_S^T) y = r for the rows S (flags, or all when null) by
 * Cholesky and adds -W^-1 C_S^T y to v: the change with C_S dv = -r that is
 * the least in the metric W (dependent rows dropped, their y 0). */
static int least_change(projection *w, const unsigned char *rows, const double *r, double *v) {
  long m = w->m, n = w->model->nq;
  const double *C = w->values + 2 * m;
  long k = 0;
  long index[m > 0 ? m : 1];
  for (long i = 0; i < m; ++i)
    if (!rows || rows[i])
      index[k++] = i;
  if (k == 0)
    return MECHRT_OK;
  /* Z's rows: W^-1 C_a for each row a in use (C_a itself when W = I). */
  for (long a = 0; a < k; ++a) {
    double *z = w->z + a * n;
    memcpy(z, C + index[a] * n, sizeof(double) * (size_t)n);
    if (w->weighted)
      cholesky_solve(w->metric, n, z);
  }
  double *G = w->gram;
  for (long a = 0; a < k; ++a)
    for (long b = 0; b <= a; ++b) {
      double s = 0;
      for (long j = 0; j < n; ++j)
        s += C[index[a] * n + j] * w->z[b * n + j];
      G[a * k + b] = G[b * k + a] = s;
    }
  double *y = w->y;
  for (long a = 0; a < k; ++a)
    y[a] = r[index[a]];
  solve_regularized(G, k, y);
  for (long a = 0; a < k; ++a)
    for (long j = 0; j < n; ++j)
      v[j] -= w->z[a * n + j] * y[a];
  return MECHRT_OK;
}

static double largest_magnitude(const double *v, long count, const unsigned char *rows) {
  double largest = 0;
  for (long i = 0; i < count; ++i)
    if (!rows || rows[i])
      largest = fmax(largest, fabs(v[i]));
  return largest;
}

/* Moves q onto Phi = 0 by Gauss-Newton steps of least change, then q' onto
 * psi = 0 (linear in q': one step). */
/* Phi, psi and C of the rows in use at (t, x). */
static int constraint_rows(projection *w, double t, const double *x) {
  int status = w->switching ? mechrt_mode_constraints(w->switching, t, x, w->p, w->values)
                            : w->model->constraints(t, x, w->p, w->values);
  if (status != MECHRT_OK)
    return status;
  return mechrt_all_finite(w->values, 2 * w->m + w->m * w->model->nq) ? MECHRT_OK
                                                                      : MECHRT_NON_FINITE;
}

HIDDEN int mechrt_project(projection *w, double t, double *x) {
  const mechrt_model *model = w->model;
  long m = w->m, n = model->nq;
  double size = 1 + largest_magnitude(x, n, NULL);
  int converged = 0;
  for (int iteration = 0; iteration < 12 && !converged; ++iteration) {
    int status = constraint_rows(w, t, x);
    if (status != MECHRT_OK)
      return status;
    if (largest_magnitude(w->values, m, w->holonomic) <= 1e-12 * size) {
      converged = 1;
      break;
    }
    status = factor_metric(w, t, x);
    if (status == MECHRT_OK)
      status = least_change(w, w->holonomic, w->values, x);
    if (status != MECHRT_OK)
      return status;
  }
  if (!converged)
    return MECHRT_PROJECTION_FAILED;
  /* w->values holds the constraints at the projected q. */
  int status = factor_metric(w, t, x);
  return status != MECHRT_OK ? status : least_change(w, NULL, w->values + m, x + n);
}

/* ---- DOPRI5 --------------------------------------------------------------- */

/* Dormand & Prince (1980), with Shampine's order-4 continuous extension, as
 * tabulated in Hairer, Norsett & Wanner, "Solving ODEs I". */
static const double c2 = 1.0 / 5, c3 = 3.0 / 10, c4 = 4.0 / 5, c5 = 8.0 / 9;
static const double a21 = 1.0 / 5;
static const double a31 = 3.0 / 40, a32 = 9.0 / 40;
static const double a41 = 44.0 / 45, a42 = -56.0 / 15, a43 = 32.0 / 9;
static const double a51 = 19372.0 / 6561, a52 = -25360.0 / 2187, a53 = 64448.0 / 6561,
                    a54 = -212.0 / 729;
static const double a61 = 9017.0 / 3168, a62 = -355.0 / 33, a63 = 46732.0 / 5247, a64 = 49.0 / 176,
                    a65 = -5103.0 / 18656;
static const double a71 = 35.0 / 384, a73 = 500.0 / 1113, a74 = 125.0 / 192, a75 = -2187.0 / 6784,
                    a76 = 11.0 / 84;
static const double e1 = 71.0 / 57600, e3 = -71.0 / 16695, e4 = 71.0 / 1920, e5 = -17253.0 / 339200,
                    e6 = 22.0 / 525, e7 = -1.0 / 40;
static const double d1 = -12715105075.0 / 11282082432.0, d3 = 87487479700.0 / 32700410799.0,
                    d4 = -10690763975.0 / 1880347072.0, d5 = 701980252875.0 / 199316789632.0,
                    d6 = -1453857185.0 / 822651844.0, d7 = 69997945.0 / 29380423.0;

/* Step-size control: Hairer's PI controller (beta = 0.04). */
static const double kBeta = 0.04, kExponent = 0.2 - 0.75 * 0.04, kSafety = 0.9;
static const double kMinFactor = 0.2, kMaxFactor = 10;

typedef struct {
  mechrt_system sys;
  double *y, *y1, *tmp, *k[7], *dense[5];
  long steps; /* attempted, over all segments */
} stepper;

HIDDEN const double *mechrt_params_at(const mechrt_system *s, double t) {
  if (!s->inputs)
    return s->p;
  s->inputs(t, s->driven + (s->model->np - s->model->nu), s->inputs_context);
  return s->driven;
}

HIDDEN int mechrt_evaluate(const mechrt_system *s, double t, const double *x, double *xdot) {
  mechrt_switching *w = s->switching;
  if (w && (w->nresting > 0 || w->F > 0)) {
    int status = mechrt_mode_solve(w, t, x, mechrt_params_at(s, t), 0);
    if (status == MECHRT_OK)
      memcpy(xdot, w->xdot, sizeof(double) * (size_t)s->size);
    return status;
  }
  int status = s->model->rhs(t, x, mechrt_params_at(s, t), xdot);
  if (status != MECHRT_OK)
    return status;
  return mechrt_all_finite(xdot, s->size) ? MECHRT_OK : MECHRT_NON_FINITE;
}

static int evaluate(stepper *s, double t, const double *x, double *xdot) {
  return mechrt_evaluate(&s->sys, t, x, xdot);
}

/* One attempted step of size h from (t, y) with k[0] = F(t, y): y1, k[6] and
 * the error norm. Returns a nonzero status when F fails. */
static int attempt(stepper *s, double t, double h, double rtol, double atol, double *error) {
  long N = s->sys.size;
  double *y = s->y, *tmp = s->tmp, **k = s->k;
  int status;
#define STAGE(stage, time, expression)                                                             \
  for (long i = 0; i < N; ++i)                                                                     \
    tmp[i] = y[i] + h * (expression);                                                              \
  if ((status = evaluate(s, t + (time)*h, tmp, k[stage])) != MECHRT_OK)                            \
    return status;
  STAGE(1, c2, a21 * k[0][i])
  STAGE(2, c3, a31 * k[0][i] + a32 * k[1][i])
  STAGE(3, c4, a41 * k[0][i] + a42 * k[1][i] + a43 * k[2][i])
  STAGE(4, c5, a51 * k[0][i] + a52 * k[1][i] + a53 * k[2][i] + a54 * k[3][i])
  STAGE(5, 1.0, a61 * k[0][i] + a62 * k[1][i] + a63 * k[2][i] + a64 * k[3][i] + a65 * k[4][i])
#undef STAGE
  for (long i = 0; i < N; ++i)
    s->y1[i] =
        y[i] + h * (a71 * k[0][i] + a73 * k[2][i] + a74 * k[3][i] + a75 * k[4][i] + a76 * k[5][i]);
  if ((status = evaluate(s, t + h, s->y1, k[6])) != MECHRT_OK)
    return status;
  double sum = 0;
  for (long i = 0; i < N; ++i) {
    double e = h * (e1 * k[0][i] + e3 * k[2][i] + e4 * k[3][i] + e5 * k[4][i] + e6 * k[5][i] +
                    e7 * k[6][i]);
    double scale = atol + rtol * fmax(fabs(y[i]), fabs(s->y1[i]));
    sum += (e / scale) * (e / scale);
  }
  *error = N > 0 ? sqrt(sum / (double)N) : 0;
  return MECHRT_OK;
}

static void prepare_dense_output(stepper *s, double h) {
  double **k = s->k, **r = s->dense;
  for (long i = 0; i < s->sys.size; ++i) {
    double difference = s->y1[i] - s->y[i];
    double b = h * k[0][i] - difference;
    r[0][i] = s->y[i];
    r[1][i] = difference;
    r[2][i] = b;
    r[3][i] = difference - h * k[6][i] - b;
    r[4][i] = h * (d1 * k[0][i] + d3 * k[2][i] + d4 * k[3][i] + d5 * k[4][i] + d6 * k[5][i] +
                   d7 * k[6][i]);
  }
}

static void interpolate(const stepper *s, double theta, double *out) {
  double *const *r = s->dense;
  double rest = 1 - theta;
  for (long i = 0; i < s->sys.size; ++i)
    out[i] = r[0][i] + theta * (r[1][i] + rest * (r[2][i] + theta * (r[3][i] + rest * r[4][i])));
}

HIDDEN double mechrt_initial_step(const mechrt_system *s, double t, const double *y,
                                  const double *f0, double *tmp, double *f1, int order, double rtol,
                                  double atol, double hmax) {
  long N = s->size;
  double dnf = 0, dny = 0;
  for (long i = 0; i < N; ++i) {
    double scale = atol + rtol * fabs(y[i]);
    dnf += (f0[i] / scale) * (f0[i] / scale);
    dny += (y[i] / scale) * (y[i] / scale);
  }
  double h = (dnf <= 1e-10 || dny <= 1e-10) ? 1e-6 : 0.01 * sqrt(dny / dnf);
  h = fmin(h, hmax);
  for (long i = 0; i < N; ++i)
    tmp[i] = y[i] + h * f0[i];
  if (mechrt_evaluate(s, t + h, tmp, f1) != MECHRT_OK)
    return h;
  double der2 = 0;
  for (long i = 0; i < N; ++i) {
    double d = (f1[i] - f0[i]) / (atol + rtol * fabs(y[i]));
    der2 += d * d;
  }
  der2 = sqrt(der2) / h;
  double der12 = fmax(der2, sqrt(dnf));
  double h1 = der12 <= 1e-15 ? fmax(1e-6, h * 1e-3) : pow(0.01 / der12, 1.0 / order);
  return fmin(fmin(100 * h, h1), hmax);
}

/* The sample grid t0, t0 + dt, t0 + 2 dt, ..., whose last point is replaced
 * by t_end (as the CLI's TimeGrid, t0 <= t_end): the index of that last
 * point. */
static long last_sample(double t0, double t_end, double dt) {
  if (t_end == t0)
    return 0;
  double slack = fmax(1e-9 * dt, 8 * 2.220446049250313e-16 * fmax(fabs(t0), fabs(t_end)));
  long k = (long)((t_end - t0) / dt);
  if (k < 1)
    k = 1;
  while (t0 + (double)k * dt - t_end < -slack)
    ++k;
  while (k > 1 && t0 + (double)(k - 1) * dt - t_end >= -slack)
    --k;
  return k;
}

typedef mechrt_samples samples;

HIDDEN double mechrt_sample_time(const samples *r) {
  return r->next < r->last ? r->t0 + (double)r->next * r->dt : r->t_end;
}

/* Appends the values of `kernel` (count of them) at (t, x) to a row. */
static int append(const mechrt_system *s, mechrt_kernel kernel, long count, double t,
                  const double *x, double *to) {
  if (count == 0)
    return MECHRT_OK;
  int status = kernel(t, x, mechrt_params_at(s, t), to);
  if (status != MECHRT_OK)
    return status;
  return mechrt_all_finite(to, count) ? MECHRT_OK : MECHRT_NON_FINITE;
}

/* The row (t, x) and, as asked, lambda and the outputs at that state (in
 * a run with switches, those of its mode, with the contact forces after
 * lambda). A free contact found violated at a sample is a crossing the
 * event search missed: the row is kept, and the run fails. */
HIDDEN int mechrt_write_row(samples *r, const mechrt_system *s, double t, const double *x) {
  const mechrt_model *model = s->model;
  if (r->projection && r->projection->m > 0) {
    memcpy(r->projected, x, sizeof(double) * (size_t)s->size);
    if (mechrt_project(r->projection, t, r->projected) == MECHRT_OK)
      x = r->projected;
  }
  double *row = r->out + r->next * r->width, *extra = row + 1 + s->size;
  row[0] = t;
  memcpy(row + 1, x, sizeof(double) * (size_t)s->size);
  int status = MECHRT_OK;
  if (s->switching) {
    status = mechrt_switching_row(s->switching, s, t, x, extra, r->multipliers, r->outputs);
    if (status == MECHRT_OK)
      ++r->next;
    if (status == MECHRT_OK && mechrt_crossed_unseen(s->switching, s, t, x))
      status = MECHRT_CONTACT_VIOLATED;
    return status;
  }
  if (r->multipliers) {
    status = append(s, model->multipliers, model->nc, t, x, extra);
    extra += model->nc;
  }
  if (status == MECHRT_OK && r->outputs)
    status = append(s, model->outputs, model->nout, t, x, extra);
  if (status == MECHRT_OK)
    ++r->next;
  return status;
}

HIDDEN int mechrt_deliver_samples(samples *r, const mechrt_system *s, double t, double h, double t1,
                                  const double *y1, mechrt_interpolant interpolant,
                                  const void *context, double *scratch) {
  int status;
  while (r->next <= r->last && mechrt_sample_time(r) < t1) {
    double ts = mechrt_sample_time(r);
    interpolant(context, (ts - t) / h, scratch);
    if ((status = mechrt_write_row(r, s, ts, scratch)) != MECHRT_OK)
      return status;
  }
  if (r->next <= r->last && mechrt_sample_time(r) == t1)
    return mechrt_write_row(r, s, t1, y1);
  return MECHRT_OK;
}

HIDDEN int mechrt_project_step(projection *w, double t, double *y, double *scratch, int *moved) {
  long N = 2 * w->model->nq;
  *moved = 0;
  if (w->m == 0)
    return MECHRT_OK;
  memcpy(scratch, y, sizeof(double) * (size_t)N);
  int status = mechrt_project(w, t, y);
  if (status != MECHRT_OK)
    return status == MECHRT_REDUNDANT_CONSTRAINTS ? status : MECHRT_PROJECTION_FAILED;
  *moved = memcmp(scratch, y, sizeof(double) * (size_t)N) != 0;
  return MECHRT_OK;
}

static void dopri5_interpolant(const void *context, double theta, double *out) {
  interpolate((const stepper *)context, theta, out);
}

/* DOPRI5 from (t, s->y) to the samples' t_end, the first step h0 (0:
 * Hairer's initial step): MECHRT_OK at t_end, MECHRT_STOPPED at an event
 * that ends the segment (a run with switches), else a failure. */
static int integrate(stepper *s, projection *w, samples *r, double t, double h0, double rtol,
                     double atol) {
  const double t_end = r->t_end, hmax = t_end - t;
  const long N = s->sys.size;
  const int events = s->sys.switching && s->sys.switching->ne > 0;
  int status;
  if (hmax == 0)
    return MECHRT_OK;
  if ((status = evaluate(s, t, s->y, s->k[0])) != MECHRT_OK)
    return status;
  double h =
      h0 > 0 ? fmin(h0, hmax)
             : mechrt_initial_step(&s->sys, t, s->y, s->k[0], s->tmp, s->k[1], 5, rtol, atol, hmax);
  double previous_error = 1e-4;
  int rejected = 0, failed = 0;
  for (;; ++s->steps) {
    if (s->steps >= MECHRT_MAX_STEPS || fabs(h) < 1e-14 * fabs(t) || t + h == t)
      return failed ? failed : MECHRT_STEP_FAILED;
    int last = t + 1.01 * h - t_end > 0;
    if (last)
      h = t_end - t;
    double error = 0;
    status = attempt(s, t, h, rtol, atol, &error);
    if (status != MECHRT_OK) {
      failed = status;
      rejected = 1;
      h /= 2;
      continue;
    }
    if (!(error <= 1)) {
      if (!(error < INFINITY))
        error = INFINITY;
      failed = 0;
      rejected = 1;
      h /= fmin(1 / kMinFactor, pow(error, kExponent) / kSafety);
      continue;
    }
    failed = 0;
    double t1 = last ? t_end : t + h;
    if (events || (r->next <= r->last && mechrt_sample_time(r) < t1))
      prepare_dense_output(s, h);
    status = mechrt_after_step(r, &s->sys, t, h, t1, s->y1, dopri5_interpolant, s, s->tmp);
    if (status != MECHRT_OK)
      return status;
    memcpy(s->y, s->y1, sizeof(double) * (size_t)N);
    double *fsal = s->k[0];
    s->k[0] = s->k[6];
    s->k[6] = fsal;
    int moved = 0;
    if ((status = mechrt_project_step(w, t1, s->y, s->tmp, &moved)) != MECHRT_OK)
      return status;
    if (moved && (status = evaluate(s, t1, s->y, s->k[0])) != MECHRT_OK)
      return status;
    if (last)
      return MECHRT_OK;
    double factor = pow(error, kExponent) / pow(previous_error, kBeta);
    factor = fmin(fmax(factor / kSafety, 1 / kMaxFactor), 1 / kMinFactor);
    double next = h / factor;
    previous_error = fmax(error, 1e-4);
    if (next > hmax)
      next = hmax;
    if (rejected)
      next = fmin(next, h);
    rejected = 0;
    h = next;
    t = t1;
  }
}

/* One segment of a run with switches (mechrt_run_switching). */
typedef struct {
  stepper *s;
  projection *w;
  samples *r;
  double rtol, atol;
} dopri5_run;

static int dopri5_segment(void *context, double t, const double *y, double h0) {
  dopri5_run *run = context;
  memcpy(run->s->y, y, sizeof(double) * (size_t)run->s->sys.size);
  return integrate(run->s, run->w, run->r, t, h0, run->rtol, run->atol);
}

/* The switching's workspace of a run with events or contacts. */
typedef struct {
  mechrt_switching w;
  void *block;
} switching_space;

static int switching_setup(switching_space *space, const mechrt_model *model,
                           const mechrt_sim_options *options) {
  long n = model->nq, m = model->nc, k = model->ncontacts, F = model->nfrictions;
  long ne = model->nevents + k + 3 * F + model->nswitches;
  size_t doubles = mechrt_switching_doubles(model), s = (size_t)(n + m + k + F);
  size_t crossings = (size_t)ne * MECHRT_MAX_GRID_PARTS;
  space->block =
      malloc(sizeof(double) * doubles + sizeof(mechrt_crossing) * crossings + sizeof(long) * s +
             sizeof(int) * (size_t)ne + (size_t)(2 * k + m + 2 * F) + 1);
  if (!space->block)
    return MECHRT_OUT_OF_MEMORY;
  double *d = space->block;
  mechrt_crossing *c = (mechrt_crossing *)(d + doubles);
  long *pivots = (long *)(c + crossings);
  int *sign = (int *)(pivots + s);
  unsigned char *bytes = (unsigned char *)(sign + ne);
  mechrt_switching_init(&space->w, model, d, bytes, pivots, sign, c, options);
  return MECHRT_OK;
}

/* The run over one workspace: the state projected onto the constraints,
 * its row, then the integration (in segments when the model has events or
 * contacts). m + k rows of constraints at most: a contact mode's. */
static int run(const mechrt_model *model, const double *x0, const double *p, double rtol,
               double atol, const mechrt_sim_options *options, double *out, long last, double t_end,
               double dt, size_t *rows) {
  const double t0 = options->t0;
  long n = model->nq, N = 2 * n, m = model->nc + model->ncontacts + model->nfrictions;
  long np = model->np, S = model->nswitches;
  size_t doubles = (size_t)(16 * N + 2 * m + m * n + m * m + m + n * n + m * n + np + S);
  double *workspace = malloc(sizeof(double) * (doubles > 0 ? doubles : 1));
  switching_space space = {{0}, NULL};
  int switching = model->nevents + model->ncontacts + model->nfrictions + S > 0;
  int status = switching ? switching_setup(&space, model, options) : MECHRT_OK;
  if (!workspace || status != MECHRT_OK) {
    free(workspace);
    free(space.block);
    return MECHRT_OUT_OF_MEMORY;
  }
  double *next = workspace;
  stepper s = {{model, p, N, NULL, NULL, NULL, switching ? &space.w : NULL, NULL},
               NULL,
               NULL,
               NULL,
               {NULL},
               {NULL},
               0};
  s.y = next, next += N;
  s.y1 = next, next += N;
  s.tmp = next, next += N;
  for (int i = 0; i < 7; ++i)
    s.k[i] = next, next += N;
  for (int i = 0; i < 5; ++i)
    s.dense[i] = next, next += N;
  double *projected = next;
  next += N;
  double *gram = next + 2 * m + m * n, *y = gram + m * m, *metric = y + m;
  /* The params the kernels read: the caller's, then the laws' branches; the
   * input function, when given, sets the inputs among them. */
  double *params = metric + n * n + m * n;
  if (np > 0)
    memcpy(params, p, sizeof(double) * (size_t)np);
  s.sys.p = params;
  s.sys.branches = S > 0 ? params + np : NULL;
  projection w = {model, params, model->nc, model->holonomic, NULL, next,
                  gram,  y,      metric,    metric + n * n,   0};
  if (options->inputs && model->nu > 0) {
    s.sys.driven = params;
    s.sys.inputs = options->inputs;
    s.sys.inputs_context = options->inputs_context;
  }
  memcpy(s.y, x0, sizeof(double) * (size_t)N);
  int multipliers = options->multipliers != 0, outputs = options->outputs != 0;
  long width = 1 + N + (multipliers ? m : 0) + (outputs ? model->nout : 0);
  samples r = {out, width, 0, last, t0, t_end, dt, multipliers, outputs, &w, projected};

  if (model->nc > 0)
    status = mechrt_project(&w, t0, s.y);
  if (status == MECHRT_OK && S > 0)
    status = mechrt_start_branches(&s.sys, t0, s.y);
  dopri5_run segments = {&s, &w, &r, rtol, atol};
  if (status == MECHRT_OK && options->method == MECHRT_METHOD_RADAU)
    status = mechrt_integrate_radau(&s.sys, &w, &r, s.y, rtol, atol);
  else if (status == MECHRT_OK && switching)
    status = mechrt_run_switching(&space.w, &s.sys, &w, &r, s.y, dopri5_segment, &segments);
  else if (status == MECHRT_OK && (status = mechrt_write_row(&r, &s.sys, t0, s.y)) == MECHRT_OK &&
           t_end > t0)
    status = integrate(&s, &w, &r, t0, MECHRT_FIRST_STEP, rtol, atol);
  *rows = (size_t)r.next;
  if (switching && options->events_found)
    *options->events_found = space.w.found;
  free(workspace);
  free(space.block);
  return status;
}

/* The run after the checks common to both entry points; *rows is 0. */
static int simulate(const mechrt_model *model, const double *x0, const double *p, double t_end,
                    double dt, double rtol, double atol, const mechrt_sim_options *options,
                    double *out, size_t max_rows, size_t *rows) {
  const double t0 = options->t0;
  if (!x0 || (!p && model->np > 0))
    return MECHRT_NULL_POINTER;
  if (!isfinite(t_end) || !(t_end >= t0) || !(dt > 0) || !isfinite(dt) || !(rtol > 0) ||
      !(atol > 0) || !isfinite(rtol) || !isfinite(atol) || (t_end - t0) / dt > 1e15)
    return MECHRT_INVALID_ARGUMENT;
  if (options->method != MECHRT_METHOD_DOPRI5 &&
      !(options->method == MECHRT_METHOD_RADAU && model->jacobian_parts))
    return MECHRT_INVALID_ARGUMENT;
  long N = 2 * model->nq;
  if (!mechrt_all_finite(x0, N) || (model->np > 0 && !mechrt_all_finite(p, model->np)))
    return MECHRT_NON_FINITE;
  long last = last_sample(t0, t_end, dt);
  if ((size_t)last >= max_rows) {
    *rows = (size_t)last + 1;
    return MECHRT_BUFFER_TOO_SMALL;
  }
  if (!out)
    return MECHRT_NULL_POINTER;

  return run(model, x0, p, rtol, atol, options, out, last, t_end, dt, rows);
}

HIDDEN int mechrt_simulate(const mechrt_model *model, const double *x0, const double *p,
                           double t_end, double dt, double rtol, double atol, double *out,
                           size_t max_rows, size_t *rows) {
  if (!rows)
    return MECHRT_NULL_POINTER;
  *rows = 0;
  const mechrt_sim_options defaults = {
      sizeof(mechrt_sim_options), 0, 0, 0, NULL, NULL, 0, NULL, 0, NULL, NULL};
  return simulate(model, x0, p, t_end, dt, rtol, atol, &defaults, out, max_rows, rows);
}

HIDDEN int mechrt_simulate_with(const mechrt_model *model, const double *x0, const double *p,
                                double t_end, double dt, double rtol, double atol,
                                const mechrt_sim_options *options, double *out, size_t max_rows,
                                size_t *rows) {
  if (!rows)
    return MECHRT_NULL_POINTER;
  *rows = 0;
  if (!options)
    return MECHRT_NULL_POINTER;
  size_t size = options->size;
  /* The size of one of the struct's versions: any other would cut a field. */
  if (size != MECHRT_SIM_OPTIONS_MIN_SIZE && size != MECHRT_SIM_OPTIONS_INPUTS_SIZE &&
      size != MECHRT_SIM_OPTIONS_METHOD_SIZE && size != sizeof(mechrt_sim_options))
    return MECHRT_INVALID_ARGUMENT;
  /* The fields the caller's struct has; the rest keep their defaults (zero). */
  mechrt_sim_options known;
  memset(&known, 0, sizeof known);
  memcpy(&known, options, size);
  if (!isfinite(known.t0))
    return MECHRT_INVALID_ARGUMENT;
  return simulate(model, x0, p, t_end, dt, rtol, atol, &known, out, max_rows, rows);
}
