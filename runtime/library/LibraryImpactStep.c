/* The impact step of a run with contacts (as the CLI's
 * compiler/driver/ContactImpact.cpp): the impulsive equations of the
 * contacts that touch at the instant, solved with Newton's law
 * (LibraryImpact.c); which of them rest afterwards (then the impact is
 * solved again with e = 0 for them); the records. */
#include "LibraryImpact.h"
#include "LibrarySwitches.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The problem's arrays, one allocation per impact (impacts are rare next
 * to steps). */
typedef struct {
  mechrt_impact_problem problem;
  double *M, *A, *a, *G, *b, *r, *velocity, *impulse, *before;
  long *touching;
  unsigned char *rests, *previous;
  double *rests_at;
} impact;

static int impact_arrays(impact *w, long n, long m, long k, void **block) {
  size_t doubles = (size_t)(n * n + m * n + m + k * n + 3 * k + 2 * n + k + 2 * n + k);
  *block = malloc(sizeof(double) * doubles + sizeof(long) * (size_t)k + 2 * (size_t)k + 1);
  if (!*block)
    return MECHRT_OUT_OF_MEMORY;
  double *d = *block;
  w->M = d, d += n * n;
  w->A = d, d += m * n;
  w->a = d, d += m;
  w->G = d, d += k * n;
  w->b = d, d += k;
  w->r = d, d += k;
  w->velocity = d, d += n;
  w->impulse = d, d += k;
  w->before = d, d += 2 * n;
  w->rests_at = d, d += k;
  w->touching = (long *)d;
  w->rests = (unsigned char *)(w->touching + k);
  w->previous = w->rests + k;
  return MECHRT_OK;
}

/* M, the bilateral rows A v + a = psi and the velocity before, at (t, x). */
static int bilateral(mechrt_switching *s, impact *w, double t, const double *x, const double *p) {
  const mechrt_model *model = s->model;
  long n = s->n, m = s->m;
  memcpy(w->velocity, x + n, sizeof(double) * (size_t)n);
  int status = model->mass_matrix(t, x, p, w->M);
  if (status != MECHRT_OK || m == 0)
    return status;
  if ((status = model->constraints(t, x, p, s->residuals)) != MECHRT_OK)
    return status;
  memcpy(w->A, s->residuals + 2 * m, sizeof(double) * (size_t)(m * n));
  for (long i = 0; i < m; ++i) {
    w->a[i] = s->residuals[m + i];
    for (long j = 0; j < n; ++j)
      w->a[i] -= w->A[i * n + j] * w->velocity[j];
  }
  return MECHRT_OK;
}

/* The touching contacts' rows G, offsets b (rate = G v + b) and least
 * rates r after the impact: -e times the closing rate (e = 0 where
 * `inelastic`), from the contacts' values before it. */
static void contact_rows(const mechrt_switching *s, impact *w, long touching,
                         const unsigned char *inelastic) {
  long n = s->n, k = s->k;
  for (long c = 0; c < touching; ++c) {
    long i = w->touching[c];
    const double *row = s->contact + 3 * k + i * n;
    double rate = s->contact[k + i];
    memcpy(w->G + c * n, row, sizeof(double) * (size_t)n);
    w->b[c] = rate;
    for (long j = 0; j < n; ++j)
      w->b[c] -= row[j] * w->velocity[j];
    double e = inelastic[c] ? 0.0 : s->restitution[i];
    w->r[c] = -e * fmin(rate, 0.0);
  }
}

static int solve(mechrt_switching *s, impact *w, long touching, double *x) {
  w->problem = (mechrt_impact_problem){s->n, s->m, touching, w->M, w->A,
                                       w->a, w->G, w->b,     w->r, w->velocity};
  int solved = mechrt_solve_impact(&w->problem, x + s->n, w->impulse);
  if (solved == MECHRT_IMPACT_OUT_OF_MEMORY)
    return MECHRT_OUT_OF_MEMORY;
  return solved == MECHRT_IMPACT_SOLVED ? MECHRT_OK : MECHRT_IMPACT_FAILED;
}

/* Which touching contacts rest after the impact that left x: pressed, and
 * not bouncing higher than a touching gap nor longer than the shortest
 * flight; when each rests (the accumulation time of its bounces); the next
 * segment's first step from the shortest bounce that goes on. */
static void resting_after(mechrt_switching *s, const mechrt_system *sys, impact *w, long touching,
                          double t, const double *x) {
  long k = s->k;
  double a[k];
  for (long c = 0; c < touching; ++c)
    s->resting[w->touching[c]] = 0;
  mechrt_mode_count(s);
  mechrt_gap_accelerations(s, sys, t, x, a);
  for (long c = 0; c < touching; ++c) {
    long i = w->touching[c];
    double rate = s->contact[k + i], acceleration = a[i];
    double flight = acceleration < 0 ? 2 * rate / -acceleration : INFINITY;
    double rise = acceleration < 0 ? rate * rate / (2 * -acceleration) : INFINITY;
    w->rests[c] = acceleration < 0 && (rate <= MECHRT_RESTING_RATE || rise < MECHRT_TOUCHING_GAP ||
                                       flight < MECHRT_SHORTEST_FLIGHT * fmax(1.0, t));
    w->rests_at[c] = t;
    double e = s->restitution[i];
    if (w->rests[c] && rate > 0 && e < 1)
      w->rests_at[c] = t + flight / (1 - e);
    if (!w->rests[c] && acceleration < 0 && rate > 0)
      s->short_flight = s->short_flight > 0 ? fmin(s->short_flight, flight / 8) : flight / 8;
  }
}

/* The impact's records: one per contact that pushed, then the rests. */
static void record(mechrt_switching *s, const mechrt_system *sys, impact *w, long touching,
                   double t, const double *x) {
  const double *p = mechrt_params_at(sys, t);
  double before[2] = {0, 0}, after[2] = {0, 0};
  s->model->energy(t, w->before, p, before);
  s->model->energy(t, x, p, after);
  for (long c = 0; c < touching; ++c)
    if (w->impulse[c] > 0)
      mechrt_record(s, t, MECHRT_EVENT_IMPACT, w->touching[c], w->impulse[c], before[0] - after[0],
                    w->before, x);
  for (long c = 0; c < touching; ++c)
    if (w->rests[c] && !w->previous[c])
      mechrt_record(s, w->rests_at[c], MECHRT_EVENT_REST, w->touching[c], 0, 0, x, x);
}

static int impact_with(mechrt_switching *s, const mechrt_system *sys, impact *w, long contact,
                       double t, double *x) {
  long n = s->n, k = s->k, touching = 0;
  const double *p = mechrt_params_at(sys, t);
  int status = mechrt_contact_values(s, t, x, p);
  if (status != MECHRT_OK)
    return status;
  for (long i = 0; i < k; ++i)
    if (i == contact || s->resting[i] || s->contact[i] <= MECHRT_TOUCHING_GAP) {
      w->previous[touching] = s->resting[i];
      w->touching[touching++] = i;
    }
  if ((status = bilateral(s, w, t, x, p)) != MECHRT_OK)
    return status == MECHRT_SINGULAR_MASS_MATRIX ? MECHRT_IMPACT_FAILED : status;
  contact_rows(s, w, touching, w->previous);
  memcpy(w->before, x, sizeof(double) * (size_t)(2 * n));
  if ((status = solve(s, w, touching, x)) != MECHRT_OK)
    return status;
  resting_after(s, sys, w, touching, t, x);
  int any_new = 0;
  for (long c = 0; c < touching; ++c)
    any_new = any_new || (w->rests[c] && !w->previous[c]);
  if (any_new) {
    if ((status = mechrt_contact_values(s, t, w->before, p)) != MECHRT_OK)
      return status;
    contact_rows(s, w, touching, w->rests);
    if ((status = solve(s, w, touching, x)) != MECHRT_OK)
      return status;
  }
  for (long c = 0; c < touching; ++c)
    s->resting[w->touching[c]] = w->rests[c];
  record(s, sys, w, touching, t, x);
  return MECHRT_OK;
}

/* A free contact's gap closed at t: the impact of every touching contact;
 * those that rest afterwards end it without rebound (e = 0). */
int mechrt_impact(mechrt_switching *s, const mechrt_system *sys, long contact, double t,
                  double *x) {
  impact w;
  void *block = NULL;
  int status = impact_arrays(&w, s->n, s->m, s->k, &block);
  if (status == MECHRT_OK)
    status = impact_with(s, sys, &w, contact, t, x);
  free(block);
  return status;
}
