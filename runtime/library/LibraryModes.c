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
  long n = model->nq, m = model->nc, k = model->ncontacts, F = model->nfrictions;
  long ne = model->nevents + k + 3 * F + model->nswitches, s = n + m + k + F;
  return (size_t)(k                                           /* restitution */
                  + 4 * k + k * n                             /* contact */
                  + 5 * F + F * n                             /* fvalues */
                  + 2 * n + 3 * n + m + k + F                 /* xdot, xs, forces */
                  + n * n + 2 * m + m * n + s * s + 2 * s     /* M, residuals, kkt, rhs, probe */
                  + 3 * ne + (MECHRT_MAX_GRID_PARTS + 1) * ne /* g_old, g_new, g_probe, grid */
                  + 2 * 2 * n);                               /* probe, at_event */
}

void mechrt_switching_init(mechrt_switching *w, const mechrt_model *model, double *d,
                           unsigned char *bytes, long *pivots, int *sign,
                           mechrt_crossing *crossings, const mechrt_sim_options *options) {
  memset(w, 0, sizeof *w);
  long n = model->nq, m = model->nc, k = model->ncontacts, F = model->nfrictions;
  long s = n + m + k + F;
  w->model = model;
  w->n = n, w->m = m, w->k = k, w->E = model->nevents, w->F = F;
  w->S = model->nswitches;
  w->ne = w->E + k + 3 * F + w->S;
  w->resting = bytes;
  w->holonomic = bytes + k;
  w->friction = (signed char *)(bytes + 2 * k + m + F);
  memset(bytes, 0, (size_t)(2 * k + m + 2 * F));
  if (m > 0)
    memcpy(w->holonomic, model->holonomic, (size_t)m);
  w->restitution = d, d += k;
  w->contact = d, d += 4 * k + k * n;
  w->fvalues = d, d += 5 * F + F * n;
  w->xdot = d, d += 2 * n;
  w->xs = d, d += 3 * n + m;
  w->forces = d, d += k + F;
  w->M = d, d += n * n;
  w->residuals = d, d += 2 * m + m * n;
  w->kkt = d, d += s * s;
  w->kkt_rhs = d, d += s;
  w->kkt_probe = d, d += s;
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

/* The `count` values of `kernel` at (t, x), checked finite (none when
 * `count` is 0: the model has no such elements). */
static int kernel_values(mechrt_kernel kernel, long count, double t, const double *x,
                         const double *p, double *out) {
  if (count == 0)
    return MECHRT_OK;
  int status = kernel(t, x, p, out);
  if (status != MECHRT_OK)
    return status;
  return mechrt_all_finite(out, count) ? MECHRT_OK : MECHRT_NON_FINITE;
}

int mechrt_friction_values(mechrt_switching *w, double t, const double *x, const double *p) {
  return kernel_values(w->model->frictions, w->F == 0 ? 0 : 5 * w->F + w->F * w->n, t, x, p,
                       w->fvalues);
}

int mechrt_contact_values(mechrt_switching *w, double t, const double *x, const double *p) {
  return kernel_values(w->model->contacts, w->k == 0 ? 0 : 4 * w->k + w->k * w->n, t, x, p,
                       w->contact);
}

/* Whether the mode adds forces to the model's solution (a resting contact,
 * a friction): mechrt_mode_solve then leaves the contacts' and frictions'
 * values evaluated at its state. */
static int forced(const mechrt_switching *w) {
  return w->nresting > 0 || w->F > 0;
}

void mechrt_mode_count(mechrt_switching *w) {
  w->nresting = w->nstick = 0;
  for (long c = 0; c < w->k; ++c)
    if (w->resting[c])
      w->holonomic[w->m + w->nresting++] = 1;
  for (long f = 0; f < w->F; ++f)
    if (w->friction[f] == 0)
      w->holonomic[w->m + w->nresting + w->nstick++] = 0;
}

long mechrt_friction_contact(const mechrt_switching *w, long f) {
  return w->model->friction_contacts ? w->model->friction_contacts[f] : -1;
}

/* One row of the mode's KKT matrix K (size s) at `row`: the constraint row
 * `g` (n values) and its transpose, with the right-hand side `rhs`. */
static void kkt_row(double *K, double *b, long s, long n, long row, const double *g, double rhs) {
  for (long j = 0; j < n; ++j) {
    K[j * s + row] = -g[j];
    K[row * s + j] = g[j];
  }
  b[row] = rhs;
}

/* The residual gamma - g q''_0 of a row g (n values) at the solution
 * without the mode's forces (in w->xdot). */
static double row_residual(const mechrt_switching *w, const double *g, double gamma) {
  for (long j = 0; j < w->n; ++j)
    gamma -= g[j] * w->xdot[w->n + j];
  return gamma;
}

/* The KKT system of the resting contacts' forces, the sticking frictions'
 * forces and the slipping frictions' forces -sigma mu_k N C^T around the
 * solution without them (w->xs holds q''_0 and lambda_0); adds their
 * effect. */
static int add_mode_forces(mechrt_switching *w, double t, const double *x, const double *p) {
  const mechrt_model *model = w->model;
  long n = w->n, m = w->m, k = w->k, F = w->F, s = n + m + w->nresting + w->nstick;
  const double *G = w->contact + 3 * k, *gamma = w->contact + 2 * k;
  const double *N = w->fvalues + F, *muk = w->fvalues + 3 * F, *fgamma = w->fvalues + 4 * F;
  const double *Cf = w->fvalues + 5 * F;
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
    kkt_row(K, b, s, n, n + a, C + a * n, 0);
  long row = n + m;
  for (long c = 0; c < k; ++c)
    if (w->resting[c])
      kkt_row(K, b, s, n, row++, G + c * n, row_residual(w, G + c * n, gamma[c]));
  for (long f = 0; f < F; ++f) {
    const long c = mechrt_friction_contact(w, f);
    if (w->friction[f] == MECHRT_FRICTION_OFF)
      continue;
    if (w->friction[f] == 0) {
      kkt_row(K, b, s, n, row++, Cf + f * n, row_residual(w, Cf + f * n, fgamma[f]));
      continue;
    }
    /* A slip's force: known on the first block, or with the contact's
     * unknown force N its column's share. */
    const long column = c >= 0 ? mechrt_contact_row(w, c) : -1;
    for (long j = 0; j < n; ++j) {
      if (column >= 0)
        K[j * s + column] += w->friction[f] * muk[f] * Cf[f * n + j];
      else
        b[j] -= w->friction[f] * muk[f] * N[f] * Cf[f * n + j];
    }
  }
  if (!mechrt_lu_factor(K, s, w->pivots))
    return MECHRT_SINGULAR_MASS_MATRIX;
  if (!mechrt_contacts_consistent(w, s))
    return MECHRT_FRICTION_PARADOX;
  mechrt_lu_solve(K, s, w->pivots, b);
  for (long j = 0; j < n; ++j) {
    w->xdot[n + j] += b[j];
    w->xs[2 * n + j] = w->xdot[n + j];
  }
  for (long a = 0; a < m; ++a)
    w->xs[3 * n + a] += b[n + a];
  row = n + m;
  for (long c = 0; c < k; ++c)
    w->forces[c] = w->resting[c] ? b[row++] : 0;
  for (long f = 0; f < F; ++f) {
    const long c = mechrt_friction_contact(w, f);
    if (w->friction[f] == MECHRT_FRICTION_OFF)
      w->forces[k + f] = 0;
    else if (w->friction[f] == 0)
      w->forces[k + f] = b[row++];
    else
      w->forces[k + f] = -w->friction[f] * muk[f] * (c >= 0 ? w->forces[c] : N[f]);
  }
  return MECHRT_OK;
}

int mechrt_mode_solve(mechrt_switching *w, double t, const double *x, const double *p, int full) {
  const mechrt_model *model = w->model;
  long n = w->n, m = w->m;
  int status = model->rhs(t, x, p, w->xdot);
  if (status != MECHRT_OK)
    return status;
  memset(w->forces, 0, sizeof(double) * (size_t)(w->k + w->F));
  if (full || forced(w)) {
    memcpy(w->xs, x, sizeof(double) * (size_t)(2 * n));
    memcpy(w->xs + 2 * n, w->xdot + n, sizeof(double) * (size_t)n);
    if (m > 0 && (status = model->multipliers(t, x, p, w->xs + 3 * n)) != MECHRT_OK)
      return status;
  }
  if (forced(w)) {
    if ((status = mechrt_contact_values(w, t, x, p)) != MECHRT_OK ||
        (status = mechrt_friction_values(w, t, x, p)) != MECHRT_OK ||
        (status = add_mode_forces(w, t, x, p)) != MECHRT_OK)
      return status;
  }
  return mechrt_all_finite(w->xdot, 2 * n) ? MECHRT_OK : MECHRT_NON_FINITE;
}

int mechrt_mode_events(mechrt_switching *w, const mechrt_system *s, double t, const double *x,
                       double *g) {
  const mechrt_model *model = w->model;
  const double *p = mechrt_params_at(s, t);
  int status;
  int solve = forced(w) || (w->E > 0 && model->events_read_solution);
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
  /* A forced mode's solve left the contacts' and frictions' values at x. */
  if (!forced(w) && (status = mechrt_contact_values(w, t, x, p)) != MECHRT_OK)
    return status;
  for (long c = 0; c < w->k; ++c)
    g[w->E + c] = w->resting[c] ? w->forces[c] : w->contact[c];
  /* Per friction: N; sticking mu_s N - F, mu_s N + F; slipping s, 1. */
  const long F = w->F;
  /* A friction whose N is a contact's: its contact's lift-off, not N, and
   * nothing while the contact is open. */
  for (long f = 0; f < F; ++f) {
    double *at = g + w->E + w->k + 3 * f;
    const long c = mechrt_friction_contact(w, f);
    if (w->friction[f] == MECHRT_FRICTION_OFF) {
      at[0] = at[1] = at[2] = 1;
      continue;
    }
    double normal = c >= 0 ? w->forces[c] : w->fvalues[F + f];
    double limit = w->fvalues[2 * F + f] * normal, force = w->forces[w->k + f];
    at[0] = c >= 0 ? 1 : normal;
    at[1] = w->friction[f] == 0 ? limit - force : w->fvalues[f];
    at[2] = w->friction[f] == 0 ? limit + force : 1;
  }
  /* The piecewise laws' g, whose crossings end the segment. */
  if (w->S > 0)
    return model->switch_values(t, x, p, g + w->E + w->k + 3 * F);
  return MECHRT_OK;
}

void mechrt_gap_accelerations(mechrt_switching *w, const mechrt_system *s, double t,
                              const double *x, double *a) {
  long n = w->n, k = w->k;
  const double *p = mechrt_params_at(s, t);
  for (long c = 0; c < k; ++c)
    a[c] = 0;
  const int solved = mechrt_mode_solve(w, t, x, p, 0) == MECHRT_OK;
  /* The values at x either way (a forced mode's solve left them). */
  if (((!solved || !forced(w)) && mechrt_contact_values(w, t, x, p) != MECHRT_OK) || !solved)
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
  long n = w->n, m = w->m, k = w->k, F = w->F, rows = m + w->nresting + w->nstick;
  int status = MECHRT_OK;
  if (m > 0 && (status = w->model->constraints(t, x, p, w->residuals)) != MECHRT_OK)
    return status;
  if ((status = mechrt_contact_values(w, t, x, p)) != MECHRT_OK ||
      (status = mechrt_friction_values(w, t, x, p)) != MECHRT_OK)
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
  for (long f = 0; f < F; ++f) { /* a sticking slip: a velocity constraint */
    if (w->friction[f] != 0)
      continue;
    phi[row] = 0;
    psi[row] = w->fvalues[f];
    memcpy(C + row * n, w->fvalues + 5 * F + f * n, sizeof(double) * (size_t)n);
    ++row;
  }
  return MECHRT_OK;
}

void mechrt_mode_changed(mechrt_switching *w, mechrt_projection *projection) {
  mechrt_mode_count(w);
  projection->m = w->m + w->nresting + w->nstick;
  projection->holonomic = w->holonomic;
  projection->switching = w->nresting + w->nstick > 0 ? w : NULL;
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
