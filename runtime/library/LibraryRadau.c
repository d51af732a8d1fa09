/* Radau IIA of order 5 for the simulate of built libraries: the method of
 * the CLI's `--method radau` (runtime/Radau5.cpp, which explains each rule)
 * carried over to C for the ODE x' = F(t, x) with the exact Jacobian of
 * LibraryJacobian.c: the simplified Newton iteration in the coordinates that
 * diagonalize A^-1 (one real and one complex n x n system per iteration, LU
 * decompositions kept while h and the Jacobian are), RADAU5's error
 * estimate, Gustafsson's step-size controller, the collocation polynomial
 * for the samples and the next step's starting values. Constraints are
 * kept by the projection after every step, as DOPRI5 keeps them. */
#include "LibrarySwitches.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* RADAU5's constants (runtime/Radau5.cpp). */
enum { kMaxIterations = 7 };
static const double kSafety = 0.9, kMaxGrowth = 8, kMaxShrink = 5;
static const double kThetaReuse = 0.001, kKeepLow = 1.0, kKeepHigh = 1.2;
/* A contraction this many times slower than with a fresh Jacobian marks it
   stale (runtime/Radau5.cpp, kStaleTheta). */
static const double kStaleTheta = 3;

/* ---- The method's constants ----------------------------------------------- */

typedef struct {
  double c[3];
  double A[3][3];
  double gamma, alpha, beta; /* the eigenvalues of A^-1: gamma, alpha +- i beta */
  double T[3][3], Tinv[3][3];
  double error_weights[3];
} coefficients;

/* 3x3 matrices as 9 values, row-major: M(i, j) = M[3 * i + j]. */
static double determinant3(const double *M) {
  return M[0] * (M[4] * M[8] - M[5] * M[7]) - M[1] * (M[3] * M[8] - M[5] * M[6]) +
         M[2] * (M[3] * M[7] - M[4] * M[6]);
}

static void inverse3(const double *M, double *out) {
  double d = determinant3(M);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      /* The cofactor of M(j, i), by cyclic indices. */
      int a = (j + 1) % 3, b = (j + 2) % 3, c = (i + 1) % 3, e = (i + 2) % 3;
      out[3 * i + j] = (M[3 * a + c] * M[3 * b + e] - M[3 * a + e] * M[3 * b + c]) / d;
    }
}

/* The real root of x^3 + p2 x^2 + p1 x + p0 when it has only one. */
static double real_cubic_root(double p2, double p1, double p0) {
  double p = p1 - p2 * p2 / 3, q = 2 * p2 * p2 * p2 / 27 - p2 * p1 / 3 + p0;
  double root = sqrt(q * q / 4 + p * p * p / 27);
  double x = cbrt(-q / 2 + root) + cbrt(-q / 2 - root) - p2 / 3;
  for (int i = 0; i < 3; ++i)
    x -= (((x + p2) * x + p1) * x + p0) / ((3 * x + 2 * p2) * x + p1);
  return x;
}

/* An eigenvector of M for its simple eigenvalue lambda: the cross product
 * of the first two rows of M - lambda I. */
static void null_vector(const double *M, double complex lambda, double complex v[3]) {
  double complex B[2][3];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      B[i][j] = M[3 * i + j] - (i == j ? lambda : 0);
  v[0] = B[0][1] * B[1][2] - B[0][2] * B[1][1];
  v[1] = B[0][2] * B[1][0] - B[0][0] * B[1][2];
  v[2] = B[0][0] * B[1][1] - B[0][1] * B[1][0];
}

/* As runtime/Radau5.cpp derives them from the Butcher tableau. */
static void derive(coefficients *k) {
  const double r6 = sqrt(6.0);
  const double A[3][3] = {{(88 - 7 * r6) / 360, (296 - 169 * r6) / 1800, (-2 + 3 * r6) / 225},
                          {(296 + 169 * r6) / 1800, (88 + 7 * r6) / 360, (-2 - 3 * r6) / 225},
                          {(16 - r6) / 36, (16 + r6) / 36, 1.0 / 9}};
  memcpy(k->A, A, sizeof A);
  k->c[0] = (4 - r6) / 10, k->c[1] = (4 + r6) / 10, k->c[2] = 1;
  double Ainv[3][3];
  inverse3(&A[0][0], &Ainv[0][0]);
  double p2 = -(Ainv[0][0] + Ainv[1][1] + Ainv[2][2]);
  double p1 = Ainv[0][0] * Ainv[1][1] - Ainv[0][1] * Ainv[1][0] + Ainv[0][0] * Ainv[2][2] -
              Ainv[0][2] * Ainv[2][0] + Ainv[1][1] * Ainv[2][2] - Ainv[1][2] * Ainv[2][1];
  double p0 = -determinant3(&Ainv[0][0]);
  k->gamma = real_cubic_root(p2, p1, p0);
  k->alpha = (-p2 - k->gamma) / 2;
  k->beta = sqrt(-p0 / k->gamma - k->alpha * k->alpha);
  double complex v[3], w[3];
  null_vector(&Ainv[0][0], k->gamma, v);
  double norm =
      sqrt(creal(v[0]) * creal(v[0]) + creal(v[1]) * creal(v[1]) + creal(v[2]) * creal(v[2]));
  double sign = creal(v[2]) < 0 ? -1 : 1;
  null_vector(&Ainv[0][0], k->alpha + I * k->beta, w);
  double complex last = w[2];
  for (int i = 0; i < 3; ++i) {
    w[i] /= last;
    k->T[i][0] = sign * creal(v[i]) / norm;
    k->T[i][1] = creal(w[i]);
    k->T[i][2] = -cimag(w[i]);
  }
  inverse3(&k->T[0][0], &k->Tinv[0][0]);
  /* The embedded formula of order 3 (weights integrating 1, s, s^2 on the
   * nodes 0, c with gamma0 = 1/gamma), as differences from b. */
  double moments[3][3], inverse[3][3], integrals[3], b_hat[3], difference[3];
  for (int p = 0; p < 3; ++p) {
    for (int i = 0; i < 3; ++i)
      moments[p][i] = pow(k->c[i], p);
    integrals[p] = 1.0 / (p + 1) - (p == 0 ? 1 / k->gamma : 0);
  }
  inverse3(&moments[0][0], &inverse[0][0]);
  for (int i = 0; i < 3; ++i)
    b_hat[i] =
        inverse[i][0] * integrals[0] + inverse[i][1] * integrals[1] + inverse[i][2] * integrals[2];
  for (int i = 0; i < 3; ++i)
    difference[i] = b_hat[i] - A[2][i];
  for (int j = 0; j < 3; ++j)
    k->error_weights[j] = k->gamma * (Ainv[0][j] * difference[0] + Ainv[1][j] * difference[1] +
                                      Ainv[2][j] * difference[2]);
}

/* ---- One step --------------------------------------------------------- */

typedef struct {
  const mechrt_system *sys;
  coefficients k;
  long n;
  double rtol, atol, newton_tolerance;
  double *y, *f0, *y_new, *f_new, *scale, *stage_state, *real_rhs, *z_term, *error;
  double *z[3], *w[3], *stage_f[3], *dense[3];
  double *J, *real_matrix, *jacobian_workspace;
  double *difference; /* 2n: a contact mode's Jacobian by differences */
  double complex *complex_matrix, *complex_rhs;
  long *real_pivots, *complex_pivots, *jacobian_pivots;
  double factored_h, h_old, faccon, theta, shrink_factor;
  int factored, regular, jacobian_current, has_polynomial, iterations;
  long steps; /* attempted, over all segments */
} radau;

typedef enum { CONVERGED, TOO_SLOW, DIVERGED, RHS_FAILED } newton;

static double tolerance_scale(const radau *s, double a, double b) {
  return s->atol + s->rtol * fmax(fabs(a), fabs(b));
}

static int move_to(radau *s, double t) {
  s->jacobian_current = 0;
  for (long i = 0; i < s->n; ++i)
    s->scale[i] = tolerance_scale(s, s->y[i], 0);
  return mechrt_evaluate(s->sys, t, s->y, s->f0);
}

static int update_jacobian(radau *s, double t) {
  s->factored = 0;
  const mechrt_switching *w = s->sys->switching;
  int status = w && (w->nresting > 0 || w->F > 0)
                   ? mechrt_mode_jacobian(s->sys, t, s->y, s->f0, s->difference, s->J)
                   : mechrt_state_jacobian(s->sys->model, t, s->y, mechrt_params_at(s->sys, t),
                                           s->jacobian_workspace, s->jacobian_pivots, s->J);
  if (status == MECHRT_OK)
    s->jacobian_current = 1;
  return status;
}

/* LU of gamma/h I - J and (alpha + i beta)/h I - J unless current. */
static void factorize(radau *s, double h) {
  if (s->factored && h == s->factored_h)
    return;
  long n = s->n;
  double complex shift = (s->k.alpha + I * s->k.beta) / h;
  for (long i = 0; i < n * n; ++i) {
    s->real_matrix[i] = -s->J[i];
    s->complex_matrix[i] = -s->J[i];
  }
  for (long i = 0; i < n; ++i) {
    s->real_matrix[i * n + i] += s->k.gamma / h;
    s->complex_matrix[i * n + i] += shift;
  }
  s->regular = mechrt_lu_factor(s->real_matrix, n, s->real_pivots) &&
               mechrt_lu_factor_complex(s->complex_matrix, n, s->complex_pivots);
  s->factored = 1;
  s->factored_h = h;
}

/* The last step's collocation polynomial minus its end value, at s steps
 * (of that step's size) from its end. */
static double polynomial(const radau *s, long i, double x) {
  const double *c = s->k.c;
  return x *
         (s->dense[0][i] + (x - (c[1] - 1)) * (s->dense[1][i] + (x - (c[0] - 1)) * s->dense[2][i]));
}

static void starting_values(radau *s, double h) {
  for (long i = 0; i < s->n; ++i) {
    double zi[3] = {0, 0, 0};
    if (s->has_polynomial)
      for (int j = 0; j < 3; ++j)
        zi[j] = polynomial(s, i, s->k.c[j] * h / s->h_old);
    for (int j = 0; j < 3; ++j) {
      s->z[j][i] = zi[j];
      s->w[j][i] = s->k.Tinv[j][0] * zi[0] + s->k.Tinv[j][1] * zi[1] + s->k.Tinv[j][2] * zi[2];
    }
  }
}

static int evaluate_stages(radau *s, double t, double h) {
  for (int j = 0; j < 3; ++j) {
    for (long i = 0; i < s->n; ++i)
      s->stage_state[i] = s->y[i] + s->z[j][i];
    int status = mechrt_evaluate(s->sys, t + s->k.c[j] * h, s->stage_state, s->stage_f[j]);
    if (status != MECHRT_OK)
      return status;
  }
  return MECHRT_OK;
}

/* Solves for the Newton correction of w (into real_rhs and complex_rhs);
 * its norm, infinite when the matrices are singular. */
static double newton_correction(radau *s, double h) {
  const coefficients *k = &s->k;
  double g = k->gamma / h, a = k->alpha / h, b = k->beta / h;
  for (long i = 0; i < s->n; ++i) {
    double fi[3] = {s->stage_f[0][i], s->stage_f[1][i], s->stage_f[2][i]}, gi[3];
    for (int j = 0; j < 3; ++j)
      gi[j] = k->Tinv[j][0] * fi[0] + k->Tinv[j][1] * fi[1] + k->Tinv[j][2] * fi[2];
    s->real_rhs[i] = gi[0] - g * s->w[0][i];
    s->complex_rhs[i] =
        (gi[1] - a * s->w[1][i] + b * s->w[2][i]) + I * (gi[2] - b * s->w[1][i] - a * s->w[2][i]);
  }
  if (!s->regular)
    return INFINITY;
  mechrt_lu_solve(s->real_matrix, s->n, s->real_pivots, s->real_rhs);
  mechrt_lu_solve_complex(s->complex_matrix, s->n, s->complex_pivots, s->complex_rhs);
  double sum = 0;
  for (long i = 0; i < s->n; ++i) {
    double r = s->real_rhs[i], re = creal(s->complex_rhs[i]), im = cimag(s->complex_rhs[i]);
    sum += (r * r + re * re + im * im) / (s->scale[i] * s->scale[i]);
  }
  return s->n > 0 ? sqrt(sum / (double)(3 * s->n)) : 0;
}

static void apply_correction(radau *s) {
  for (long i = 0; i < s->n; ++i) {
    s->w[0][i] += s->real_rhs[i];
    s->w[1][i] += creal(s->complex_rhs[i]);
    s->w[2][i] += cimag(s->complex_rhs[i]);
    for (int j = 0; j < 3; ++j)
      s->z[j][i] =
          s->k.T[j][0] * s->w[0][i] + s->k.T[j][1] * s->w[1][i] + s->k.T[j][2] * s->w[2][i];
  }
}

/* The simplified Newton iteration for the stages of a step of size h; on
 * RHS_FAILED, *status holds the failure. */
static newton solve(radau *s, double t, double h, int *status) {
  starting_values(s, h);
  s->faccon = pow(fmax(s->faccon, DBL_EPSILON), 0.8);
  s->theta = kThetaReuse;
  double previous_norm = 0, previous_rate = 0;
  for (s->iterations = 1;; ++s->iterations) {
    if ((*status = evaluate_stages(s, t, h)) != MECHRT_OK)
      return RHS_FAILED;
    double norm = newton_correction(s, h);
    if (!isfinite(norm))
      return DIVERGED;
    if (s->iterations > 1 && s->iterations < kMaxIterations) {
      double rate = norm / previous_norm;
      s->theta = s->iterations == 2 ? rate : sqrt(rate * previous_rate);
      previous_rate = rate;
      if (!(s->theta < 0.99))
        return DIVERGED;
      s->faccon = s->theta / (1 - s->theta);
      int left = kMaxIterations - 1 - s->iterations;
      double predicted = s->faccon * norm * pow(s->theta, left) / s->newton_tolerance;
      if (predicted >= 1) {
        s->shrink_factor = 0.8 * pow(fmin(fmax(predicted, 1e-4), 20.0), -1.0 / (4 + left));
        return TOO_SLOW;
      }
    }
    previous_norm = fmax(norm, DBL_EPSILON);
    apply_correction(s);
    if (s->faccon * norm <= s->newton_tolerance)
      return CONVERGED;
    if (s->iterations == kMaxIterations)
      return DIVERGED;
  }
}

static double error_norm(const radau *s) {
  double sum = 0;
  for (long i = 0; i < s->n; ++i) {
    double ratio = s->error[i] / tolerance_scale(s, s->y[i], s->y[i] + s->z[2][i]);
    sum += ratio * ratio;
  }
  double error = s->n > 0 ? sqrt(sum / (double)s->n) : 0;
  return error < INFINITY ? fmax(error, 1e-10) : INFINITY;
}

/* The error norm of the solved step into *error; `refine` spends one more
 * F on an estimate that stays reliable for very stiff components. */
static int estimate_error(radau *s, double t, double h, int refine, double *error) {
  const double *e = s->k.error_weights;
  for (long i = 0; i < s->n; ++i) {
    s->z_term[i] = (e[0] * s->z[0][i] + e[1] * s->z[1][i] + e[2] * s->z[2][i]) / h;
    s->error[i] = s->f0[i] + s->z_term[i];
  }
  mechrt_lu_solve(s->real_matrix, s->n, s->real_pivots, s->error);
  *error = error_norm(s);
  if (*error < 1 || !refine)
    return MECHRT_OK;
  for (long i = 0; i < s->n; ++i)
    s->stage_state[i] = s->y[i] + s->error[i];
  int status = mechrt_evaluate(s->sys, t, s->stage_state, s->f_new);
  if (status != MECHRT_OK)
    return status;
  for (long i = 0; i < s->n; ++i)
    s->error[i] = s->f_new[i] + s->z_term[i];
  mechrt_lu_solve(s->real_matrix, s->n, s->real_pivots, s->error);
  *error = error_norm(s);
  return MECHRT_OK;
}

/* Makes y + z_3 (with F there in f_new) the current state and keeps the
 * stages' polynomial. */
static void accept(radau *s, double h) {
  const double c1 = s->k.c[0], c2 = s->k.c[1];
  for (long i = 0; i < s->n; ++i) {
    double z1 = s->z[0][i], z2 = s->z[1][i], z3 = s->z[2][i];
    double first = (z2 - z3) / (c2 - 1), inner = (z1 - z2) / (c1 - c2);
    double second = (inner - first) / (c1 - 1), lower = (inner - z1 / c1) / c2;
    s->dense[0][i] = first;
    s->dense[1][i] = second;
    s->dense[2][i] = second - lower;
  }
  double *swap = s->y;
  s->y = s->y_new, s->y_new = swap;
  swap = s->f0;
  s->f0 = s->f_new, s->f_new = swap;
  for (long i = 0; i < s->n; ++i)
    s->scale[i] = tolerance_scale(s, s->y[i], 0);
  s->h_old = h;
  s->has_polynomial = 1;
  s->jacobian_current = 0;
}

static void radau_interpolant(const void *context, double theta, double *out) {
  const radau *s = context;
  for (long i = 0; i < s->n; ++i)
    out[i] = s->y[i] + polynomial(s, i, theta - 1);
}

/* ---- The step loop ----------------------------------------------------- */

typedef struct {
  int has_previous;
  double h_previous, error_previous;
} step_choice;

static double clamp(double x, double low, double high) {
  return fmin(fmax(x, low), high);
}

static double quotient(double error, int iterations) {
  double safety =
      fmin(kSafety, kSafety * (1 + 2 * kMaxIterations) / (iterations + 2 * kMaxIterations));
  return clamp(pow(error, 0.25) / safety, 1 / kMaxGrowth, kMaxShrink);
}

static double after_accept(step_choice *c, double h, double error, int iterations) {
  double q = quotient(error, iterations);
  if (c->has_previous) {
    double predicted = (c->h_previous / h) * pow(error * error / c->error_previous, 0.25) / kSafety;
    q = fmax(q, clamp(predicted, 1 / kMaxGrowth, kMaxShrink));
  }
  c->has_previous = 1;
  c->h_previous = h;
  c->error_previous = fmax(0.01, error);
  return h / q;
}

/* How an attempted step ended: accepted (MECHRT_OK with *error < 1), too
 * large (MECHRT_OK with *error >= 1) or failed (*shrink set; a status
 * other than MECHRT_OK when F failed). */
static int attempt(radau *s, double t, double h, double t_new, int refine, double *error,
                   double *shrink) {
  int status = MECHRT_OK;
  *shrink = 0;
  switch (solve(s, t, h, &status)) {
  case CONVERGED:
    break;
  case TOO_SLOW:
    *shrink = s->shrink_factor;
    return MECHRT_OK;
  case DIVERGED:
    *shrink = 0.5;
    return MECHRT_OK;
  case RHS_FAILED:
    *shrink = 0.5;
    return status;
  }
  if ((status = estimate_error(s, t, h, refine, error)) != MECHRT_OK) {
    *shrink = 0.5;
    return status;
  }
  if (!(*error < 1))
    return MECHRT_OK;
  for (long i = 0; i < s->n; ++i)
    s->y_new[i] = s->y[i] + s->z[2][i];
  if ((status = mechrt_evaluate(s->sys, t_new, s->y_new, s->f_new)) != MECHRT_OK)
    *shrink = 0.5;
  return status;
}

/* Radau IIA from (t, s->y) to the samples' t_end, the first step h0 (0:
 * chosen): MECHRT_OK at t_end, MECHRT_STOPPED at an event that ends the
 * segment (a run with switches), else a failure. */
static int run(radau *s, mechrt_projection *w, mechrt_samples *r, double t, double h0) {
  const double t_end = r->t_end, hmax = t_end - t;
  if (hmax == 0)
    return MECHRT_OK;
  int status = move_to(s, t);
  if (status != MECHRT_OK)
    return status;
  double h = h0 > 0 ? fmin(h0, hmax)
                    : mechrt_initial_step(s->sys, t, s->y, s->f0, s->stage_state, s->f_new, 4,
                                          s->rtol, s->atol, hmax);
  step_choice choice = {0, 0, 0};
  int need_jacobian = 1, rejected = 0, failed = 0;
  /* The contraction and iterations of the last step with a fresh Jacobian. */
  double fresh_theta = 0;
  int fresh_iterations = 0;
  long accepted = 0;
  for (;; ++s->steps) {
    if (s->steps >= MECHRT_MAX_STEPS || fabs(h) < 1e-14 * fabs(t) || t + h == t)
      return failed ? failed : MECHRT_STEP_FAILED;
    int last = t + 1.01 * h - t_end >= 0;
    if (last)
      h = t_end - t;
    double t_new = last ? t_end : t + h;
    if (need_jacobian) {
      if ((status = update_jacobian(s, t)) != MECHRT_OK)
        return status;
      need_jacobian = 0;
    }
    factorize(s, h);
    double error = INFINITY, shrink = 0;
    status = attempt(s, t, h, t_new, accepted == 0 || rejected, &error, &shrink);
    if (status != MECHRT_OK || shrink > 0 || !(error < 1)) {
      rejected = 1;
      failed = status;
      need_jacobian = !s->jacobian_current;
      if (shrink > 0)
        h *= shrink;
      else
        h = accepted == 0 ? h / 10 : h / quotient(error, s->iterations);
      continue;
    }
    ++accepted;
    failed = 0;
    double h_new = after_accept(&choice, h, error, s->iterations);
    if (s->jacobian_current) {
      fresh_theta = s->theta;
      fresh_iterations = s->iterations;
    }
    accept(s, h);
    status = mechrt_after_step(r, s->sys, t, h, t_new, s->y, radau_interpolant, s, s->stage_state);
    int moved = 0;
    if (status == MECHRT_OK)
      status = mechrt_project_step(w, t_new, s->y, s->stage_state, &moved);
    if (status == MECHRT_OK && moved)
      status = move_to(s, t_new);
    if (status != MECHRT_OK || last)
      return status;
    int as_fresh = s->theta <= kStaleTheta * fresh_theta && s->iterations <= fresh_iterations;
    need_jacobian = s->theta > kThetaReuse && s->iterations > 2 && !as_fresh;
    h_new = fmin(h_new, hmax);
    if (rejected)
      h_new = fmin(h_new, h);
    if (!(!need_jacobian && h_new / h >= kKeepLow && h_new / h <= kKeepHigh))
      h = h_new;
    rejected = 0;
    t = t_new;
  }
}

/* ---- The workspace ------------------------------------------------------ */

/* A new integrator's state: each segment of a run with switches starts
 * afresh, as the CLI's does. */
static void start_afresh(radau *s) {
  s->factored = s->has_polynomial = s->jacobian_current = 0;
  s->h_old = 0;
  s->faccon = 1;
  s->theta = kThetaReuse;
  s->shrink_factor = 0.5;
}

typedef struct {
  radau *s;
  mechrt_projection *w;
  mechrt_samples *r;
} radau_run;

static int radau_segment(void *context, double t, const double *y, double h0) {
  radau_run *segment = context;
  start_afresh(segment->s);
  memcpy(segment->s->y, y, sizeof(double) * (size_t)segment->s->n);
  return run(segment->s, segment->w, segment->r, t, h0);
}

/* The vectors and matrices of the step in one block of doubles. */
static void lay_out(radau *s, double *next) {
  const long n = s->n;
  double **vectors[] = {&s->y,           &s->f0,       &s->y_new,  &s->f_new, &s->scale,
                        &s->stage_state, &s->real_rhs, &s->z_term, &s->error, &s->difference};
  for (size_t v = 0; v < sizeof vectors / sizeof *vectors; ++v)
    *vectors[v] = next, next += v + 1 == sizeof vectors / sizeof *vectors ? 2 * n : n;
  for (int j = 0; j < 3; ++j) {
    s->z[j] = next, next += n;
    s->w[j] = next, next += n;
    s->stage_f[j] = next, next += n;
    s->dense[j] = next, next += n;
  }
  s->J = next, next += n * n;
  s->real_matrix = next, next += n * n;
  s->jacobian_workspace = next;
}

MECHRT_HIDDEN int mechrt_integrate_radau(const mechrt_system *sys, mechrt_projection *w,
                                         mechrt_samples *r, double *y0, double rtol, double atol) {
  const long n = sys->size;
  const long doubles = 23 * n + 2 * n * n + mechrt_jacobian_workspace(sys->model);
  const long size = sys->model->nq + sys->model->nc;
  double *block = malloc(sizeof(double) * (size_t)doubles);
  double complex *complex_block = malloc(sizeof(double complex) * (size_t)(n * n + n));
  long *pivots = malloc(sizeof(long) * (size_t)(2 * n + size));
  int status = MECHRT_OUT_OF_MEMORY;
  if (block && complex_block && pivots) {
    radau s;
    memset(&s, 0, sizeof s);
    derive(&s.k);
    s.sys = sys;
    s.n = n;
    s.rtol = rtol;
    s.atol = atol;
    /* Iterating far below the tolerance buys nothing (runtime/Radau5.cpp). */
    s.newton_tolerance = fmax(10 * DBL_EPSILON / rtol, fmin(0.03, sqrt(rtol)));
    start_afresh(&s);
    lay_out(&s, block);
    s.complex_matrix = complex_block;
    s.complex_rhs = complex_block + n * n;
    s.real_pivots = pivots;
    s.complex_pivots = pivots + n;
    s.jacobian_pivots = pivots + 2 * n;
    radau_run segments = {&s, w, r};
    if (sys->switching) {
      status = mechrt_run_switching(sys->switching, sys, w, r, y0, radau_segment, &segments);
    } else {
      memcpy(s.y, y0, sizeof(double) * (size_t)n);
      status = mechrt_write_row(r, sys, r->t0, s.y);
      if (status == MECHRT_OK)
        status = run(&s, w, r, r->t0, MECHRT_FIRST_STEP);
    }
  }
  free(block);
  free(complex_block);
  free(pivots);
  return status;
}
