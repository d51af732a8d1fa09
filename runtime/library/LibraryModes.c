/* A run's contact mode, numerically: with the contacts in R resting, the
 * accelerations solve M q'' = f + C^T lambda + G_R^T Lambda, C q'' =
 * gamma_C, G_R q'' = gamma_R. The model's rhs kernel gives the solution
 * without R (q''_0, lambda_0); by linearity the mode's is that plus the
 * solution of [M, -C^T, -G_R^T; C, 0, 0; G_R, 0, 0] [dq''; dlambda;
 * Lambda] = [0; 0; gamma_R - G_R q''_0], one LU of size n + m + r. The
 * CLI derives each mode's equations instead (mechanics::modeEquations):
 * the same system, so the two agree to rounding. */
#include "LibrarySwitches.h"

#include <math.h>
#include <string.h>

size_t mechrt_switching_doubles(const mechrt_model *model) {
  long n = model->nq, m = model->nc, k = model->ncontacts, ne = model->nevents + k;
  long s = n + m + k;
  return (size_t)(k                                           /* restitution */
                  + 4 * k + k * n                             /* contact */
                  + 2 * n + 3 * n + m + k                     /* xdot, xs, forces */
                  + n * n + 2 * m + m * n + s * s + s         /* M, residuals, kkt, kkt_rhs */
                  + 3 * ne + (MECHRT_MAX_GRID_PARTS + 1) * ne /* g_old, g_new, g_probe, grid */
                  + 2 * 2 * n);                               /* probe, at_event */
}

void mechrt_switching_init(mechrt_switching *w, const mechrt_model *model, double *d,
                           unsigned char *bytes, long *pivots, int *sign,
                           mechrt_crossing *crossings, const mechrt_sim_options *options) {
  memset(w, 0, sizeof *w);
  long n = model->nq, m = model->nc, k = model->ncontacts;
  long s = n + m + k;
  w->model = model;
  w->n = n, w->m = m, w->k = k, w->E = model->nevents;
  w->ne = w->E + k;
  w->resting = bytes;
  w->holonomic = bytes + k;
  memset(bytes, 0, (size_t)(2 * k + m));
  if (m > 0)
    memcpy(w->holonomic, model->holonomic, (size_t)m);
  w->restitution = d, d += k;
  w->contact = d, d += 4 * k + k * n;
  w->xdot = d, d += 2 * n;
  w->xs = d, d += 3 * n + m;
  w->forces = d, d += k;
  w->M = d, d += n * n;
  w->residuals = d, d += 2 * m + m * n;
  w->kkt = d, d += s * s;
  w->kkt_rhs = d, d += s;
  w->g_old = d, d += w->ne;
  w->g_new = d, d += w->ne;
  w->g_probe = d, d += w->ne;
  w->grid = d, d += (MECHRT_MAX_GRID_PARTS + 1) * w->ne;
  w->probe = d, d += 2 * n;
  w->at_event = d;
  w->pivots = pivots;
  w->sign = sign;
  w->crossings = crossings;
  w->records = options->events;
  w->max_records = options->events ? options->max_events : 0;
  w->record_states = options->event_states;
}

int mechrt_contact_values(mechrt_switching *w, double t, const double *x, const double *p) {
  if (w->k == 0)
    return MECHRT_OK;
  int status = w->model->contacts(t, x, p, w->contact);
  if (status != MECHRT_OK)
    return status;
  return mechrt_all_finite(w->contact, 4 * w->k + w->k * w->n) ? MECHRT_OK : MECHRT_NON_FINITE;
}

/* The KKT system of the resting contacts' forces around the solution
 * without them (w->xs holds q''_0 and lambda_0); adds their effect. */
static int add_resting_forces(mechrt_switching *w, double t, const double *x, const double *p) {
  const mechrt_model *model = w->model;
  long n = w->n, m = w->m, r = w->nresting, s = n + m + r;
  const double *G = w->contact + 3 * w->k, *gamma = w->contact + 2 * w->k;
  int status = model->mass_matrix(t, x, p, w->M);
  if (status == MECHRT_OK && m > 0)
    status = model->constraints(t, x, p, w->residuals);
  if (status != MECHRT_OK)
    return status;
  const double *C = w->residuals + 2 * m;
  double *K = w->kkt, *b = w->kkt_rhs;
  memset(K, 0, sizeof(double) * (size_t)(s * s));
  memset(b, 0, sizeof(double) * (size_t)s);
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j)
      K[i * s + j] = w->M[i * n + j];
  for (long a = 0; a < m; ++a)
    for (long j = 0; j < n; ++j) {
      K[j * s + n + a] = -C[a * n + j];
      K[(n + a) * s + j] = C[a * n + j];
    }
  long row = n + m;
  for (long c = 0; c < w->k; ++c) {
    if (!w->resting[c])
      continue;
    double residual = gamma[c];
    for (long j = 0; j < n; ++j) {
      K[j * s + row] = -G[c * n + j];
      K[row * s + j] = G[c * n + j];
      residual -= G[c * n + j] * w->xdot[n + j];
    }
    b[row++] = residual;
  }
  if (!mechrt_lu_factor(K, s, w->pivots))
    return MECHRT_SINGULAR_MASS_MATRIX;
  mechrt_lu_solve(K, s, w->pivots, b);
  for (long j = 0; j < n; ++j) {
    w->xdot[n + j] += b[j];
    w->xs[2 * n + j] = w->xdot[n + j];
  }
  for (long a = 0; a < m; ++a)
    w->xs[3 * n + a] += b[n + a];
  row = n + m;
  for (long c = 0; c < w->k; ++c)
    w->forces[c] = w->resting[c] ? b[row++] : 0;
  return MECHRT_OK;
}

int mechrt_mode_solve(mechrt_switching *w, double t, const double *x, const double *p, int full) {
  const mechrt_model *model = w->model;
  long n = w->n, m = w->m;
  int status = model->rhs(t, x, p, w->xdot);
  if (status != MECHRT_OK)
    return status;
  memset(w->forces, 0, sizeof(double) * (size_t)w->k);
  if (full || w->nresting > 0) {
    memcpy(w->xs, x, sizeof(double) * (size_t)(2 * n));
    memcpy(w->xs + 2 * n, w->xdot + n, sizeof(double) * (size_t)n);
    if (m > 0 && (full || w->nresting > 0) &&
        (status = model->multipliers(t, x, p, w->xs + 3 * n)) != MECHRT_OK)
      return status;
  }
  if (w->nresting > 0) {
    if ((status = mechrt_contact_values(w, t, x, p)) != MECHRT_OK ||
        (status = add_resting_forces(w, t, x, p)) != MECHRT_OK)
      return status;
  }
  return mechrt_all_finite(w->xdot, 2 * n) ? MECHRT_OK : MECHRT_NON_FINITE;
}

int mechrt_mode_events(mechrt_switching *w, const mechrt_system *s, double t, const double *x,
                       double *g) {
  const mechrt_model *model = w->model;
  const double *p = mechrt_params_at(s, t);
  int status;
  int solve = w->nresting > 0 || (w->E > 0 && model->events_read_solution);
  if (solve && (status = mechrt_mode_solve(w, t, x, p, 1)) != MECHRT_OK)
    return status;
  if (w->E > 0) {
    if (!solve) {
      memcpy(w->xs, x, sizeof(double) * (size_t)(2 * w->n));
      memset(w->xs + 2 * w->n, 0, sizeof(double) * (size_t)(w->n + w->m));
    }
    if ((status = model->events_at(t, w->xs, p, g)) != MECHRT_OK)
      return status;
  }
  if (w->k > 0 && (status = mechrt_contact_values(w, t, x, p)) != MECHRT_OK)
    return status;
  for (long c = 0; c < w->k; ++c)
    g[w->E + c] = w->resting[c] ? w->forces[c] : w->contact[c];
  return MECHRT_OK;
}

void mechrt_gap_accelerations(mechrt_switching *w, const mechrt_system *s, double t,
                              const double *x, double *a) {
  long n = w->n, k = w->k;
  const double *p = mechrt_params_at(s, t);
  for (long c = 0; c < k; ++c)
    a[c] = 0;
  int solved = mechrt_mode_solve(w, t, x, p, 0) == MECHRT_OK;
  if (mechrt_contact_values(w, t, x, p) != MECHRT_OK || !solved)
    return;
  const double *gamma = w->contact + 2 * k, *G = w->contact + 3 * k;
  for (long c = 0; c < k; ++c) {
    a[c] = -gamma[c];
    for (long j = 0; j < n; ++j)
      a[c] += G[c * n + j] * w->xdot[n + j];
  }
}

int mechrt_mode_constraints(mechrt_switching *w, double t, const double *x, const double *p,
                            double *values) {
  long n = w->n, m = w->m, k = w->k, rows = m + w->nresting;
  int status = MECHRT_OK;
  if (m > 0 && (status = w->model->constraints(t, x, p, w->residuals)) != MECHRT_OK)
    return status;
  if ((status = mechrt_contact_values(w, t, x, p)) != MECHRT_OK)
    return status;
  double *phi = values, *psi = values + rows, *C = values + 2 * rows;
  memcpy(phi, w->residuals, sizeof(double) * (size_t)m);
  memcpy(psi, w->residuals + m, sizeof(double) * (size_t)m);
  memcpy(C, w->residuals + 2 * m, sizeof(double) * (size_t)(m * n));
  long row = m;
  for (long c = 0; c < k; ++c) {
    if (!w->resting[c])
      continue;
    phi[row] = w->contact[c];
    psi[row] = w->contact[k + c];
    memcpy(C + row * n, w->contact + 3 * k + c * n, sizeof(double) * (size_t)n);
    ++row;
  }
  return MECHRT_OK;
}

void mechrt_mode_changed(mechrt_switching *w, mechrt_projection *projection) {
  w->nresting = 0;
  for (long c = 0; c < w->k; ++c) {
    w->holonomic[w->m + w->nresting] = 1;
    w->nresting += w->resting[c] ? 1 : 0;
  }
  projection->m = w->m + w->nresting;
  projection->holonomic = w->holonomic;
  projection->switching = w->nresting > 0 ? w : NULL;
}

void mechrt_record(mechrt_switching *w, double t, int kind, long index, double impulse,
                   double energy_lost, const double *before, const double *after) {
  if (w->found < w->max_records) {
    mechrt_event_record *record = &w->records[w->found];
    record->t = t;
    record->kind = kind;
    record->index = (int)index;
    record->impulse = impulse;
    record->energy_lost = energy_lost;
    if (w->record_states) {
      double *states = w->record_states + w->found * 4 * w->n;
      memcpy(states, before, sizeof(double) * (size_t)(2 * w->n));
      memcpy(states + 2 * w->n, after, sizeof(double) * (size_t)(2 * w->n));
    }
  }
  ++w->found;
}

int mechrt_mode_jacobian(const mechrt_system *s, double t, const double *y, const double *f0,
                         double *scratch, double *J) {
  long N = s->size;
  double *x = scratch, *f = scratch + N;
  memcpy(x, y, sizeof(double) * (size_t)N);
  for (long j = 0; j < N; ++j) {
    double step = sqrt(2.220446049250313e-16) * fmax(1.0, fabs(y[j]));
    x[j] = y[j] + step;
    int status = mechrt_evaluate(s, t, x, f);
    x[j] = y[j];
    if (status != MECHRT_OK)
      return status;
    for (long i = 0; i < N; ++i)
      J[i * N + j] = (f[i] - f0[i]) / step;
  }
  return MECHRT_OK;
}
