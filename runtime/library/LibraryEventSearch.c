/* The events in an accepted step, as the CLI's runtime/StepOutput.cpp finds
 * them: g of every event of the mode on a grid of 4 parts of the step
 * (refined to 32 and 256 where one changes sign more than once), each
 * change of sign from the last nonzero sign in the event's direction a
 * crossing, its time narrowed on the interpolant by the Illinois variant
 * of regula falsi to 1e-12 max(1, |t|), or to 8 ulps for an event that
 * stops the run or a segment. The crossings are recorded in the order of
 * time up to the first that stops; the samples are delivered up to it. */
#include "LibrarySwitches.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double kEventTolerance = 1e-12;
static const double kStopTolerance = 8 * DBL_EPSILON;
static const int kMaxRootIterations = 400;

static int sign_of(double g) {
  return g > 0 ? 1 : g < 0 ? -1 : 0;
}

/* Mode event e's direction and whether it stops. */
static int direction_of(const mechrt_switching *w, long e) {
  if (e < w->E)
    return w->model->event_directions[e];
  if (e >= w->E + w->k + 3 * w->F) /* a piecewise law's g: both ways */
    return 0;
  long f = (e - w->E - w->k) / 3, which = (e - w->E - w->k) % 3;
  /* A slipping friction's slip falls back to 0 from the side it slips on. */
  if (e >= w->E + w->k && which == 1 && w->friction[f] != 0)
    return -w->friction[f];
  return -1;
}
static int stops(const mechrt_switching *w, long e) {
  return e < w->E ? w->model->event_stops[e] : 1;
}

static int evaluate(mechrt_switching *w, const mechrt_system *s, double t, const double *x,
                    double *g) {
  int status = mechrt_mode_events(w, s, t, x, g);
  if (status != MECHRT_OK)
    return status;
  return mechrt_all_finite(g, w->ne) ? MECHRT_OK : MECHRT_NON_FINITE;
}

/* g of every event at parts + 1 evenly spaced times of the step. */
static int sample_grid(mechrt_switching *w, const mechrt_system *s, double t, double h, double t1,
                       int parts, mechrt_interpolant interpolant, const void *context) {
  long ne = w->ne;
  memcpy(w->grid, w->g_old, sizeof(double) * (size_t)ne);
  memcpy(w->grid + parts * ne, w->g_new, sizeof(double) * (size_t)ne);
  for (int j = 1; j < parts; ++j) {
    double c = t + (t1 - t) * j / parts;
    interpolant(context, (c - t) / h, w->probe);
    int status = evaluate(w, s, c, w->probe, w->grid + j * ne);
    if (status != MECHRT_OK)
      return status;
  }
  return MECHRT_OK;
}

static int sign_changes(const mechrt_switching *w, long e, int parts) {
  int sign = w->sign[e], changes = 0;
  for (int j = 1; j <= parts; ++j) {
    int next = sign_of(w->grid[j * w->ne + e]);
    if (next != 0 && sign != 0 && next != sign)
      ++changes;
    if (next != 0)
      sign = next;
  }
  return changes;
}

/* The root of g_e between a (value ga, which may be 0: then a is the
 * root) and b (gb of the other sign), returned on b's side. */
static int locate(mechrt_switching *w, const mechrt_system *s, long e, double t, double h, double a,
                  double ga, double b, double gb, mechrt_interpolant interpolant,
                  const void *context, double *root) {
  if (ga == 0) {
    *root = a;
    return MECHRT_OK;
  }
  const double tolerance =
      (stops(w, e) ? kStopTolerance : kEventTolerance) * fmax(1.0, fmax(fabs(a), fabs(b)));
  int kept = 0; /* +1: a was kept last time, -1: b was */
  double width = fabs(b - a);
  for (int iteration = 0; iteration < kMaxRootIterations && fabs(b - a) > tolerance; ++iteration) {
    double c = (ga * b - gb * a) / (ga - gb);
    int stalled = iteration % 3 == 2 && fabs(b - a) > width / 2;
    if (stalled || !(fmin(a, b) < c && c < fmax(a, b)))
      c = a + (b - a) / 2;
    if (iteration % 3 == 2)
      width = fabs(b - a);
    interpolant(context, (c - t) / h, w->probe);
    int status = evaluate(w, s, c, w->probe, w->g_probe);
    if (status != MECHRT_OK)
      return status;
    double gc = w->g_probe[e];
    if (gc == 0) {
      *root = c;
      return MECHRT_OK;
    }
    if (sign_of(gc) == sign_of(gb)) {
      b = c, gb = gc;
      if (kept == 1)
        ga /= 2;
      kept = 1;
    } else {
      a = c, ga = gc;
      if (kept == -1)
        gb /= 2;
      kept = -1;
    }
  }
  *root = b;
  return MECHRT_OK;
}

/* The crossings of event e on the grid, appended to w->crossings. */
static int crossings_of(mechrt_switching *w, const mechrt_system *s, long e, double t, double h,
                        double t1, int parts, mechrt_interpolant interpolant, const void *context) {
  long ne = w->ne, last = 0;
  for (int j = 1; j <= parts; ++j) {
    int before = w->sign[e], after = sign_of(w->grid[j * ne + e]);
    if (after == 0)
      continue;
    w->sign[e] = after;
    long from = last;
    last = j;
    if (before == 0 || after == before)
      continue;
    int rising = after > before ? 1 : -1;
    if (direction_of(w, e) != 0 && direction_of(w, e) != rising)
      continue;
    double ta = from == 0 ? t : t + (t1 - t) * (double)from / parts;
    double tb = j == parts ? t1 : t + (t1 - t) * (double)j / parts;
    double root = tb;
    int status = locate(w, s, e, t, h, ta, w->grid[from * ne + e], tb, w->grid[j * ne + e],
                        interpolant, context, &root);
    if (status != MECHRT_OK)
      return status;
    w->crossings[w->ncrossings].t = root;
    w->crossings[w->ncrossings].event = e;
    ++w->ncrossings;
  }
  return MECHRT_OK;
}

static int by_time(const void *a, const void *b) {
  const mechrt_crossing *x = a, *y = b;
  if (x->t != y->t)
    return x->t < y->t ? -1 : 1;
  return x->event < y->event ? -1 : x->event > y->event; /* stable: one per event and time */
}

static int find_crossings(mechrt_switching *w, const mechrt_system *s, double t, double h,
                          double t1, mechrt_interpolant interpolant, const void *context) {
  int parts = 4, status;
  if ((status = sample_grid(w, s, t, h, t1, parts, interpolant, context)) != MECHRT_OK)
    return status;
  for (;;) {
    int most = 0;
    for (long e = 0; e < w->ne; ++e) {
      int changes = sign_changes(w, e, parts);
      most = changes > most ? changes : most;
    }
    if (most < 2 || parts >= MECHRT_MAX_GRID_PARTS)
      break;
    parts *= 8;
    if ((status = sample_grid(w, s, t, h, t1, parts, interpolant, context)) != MECHRT_OK)
      return status;
  }
  w->ncrossings = 0;
  for (long e = 0; e < w->ne; ++e)
    if ((status = crossings_of(w, s, e, t, h, t1, parts, interpolant, context)) != MECHRT_OK)
      return status;
  qsort(w->crossings, (size_t)w->ncrossings, sizeof(mechrt_crossing), by_time);
  return MECHRT_OK;
}

int mechrt_events_begin(mechrt_switching *w, const mechrt_system *s, double t, const double *x) {
  int status = evaluate(w, s, t, x, w->g_old);
  if (status != MECHRT_OK)
    return status;
  for (long e = 0; e < w->ne; ++e)
    w->sign[e] = sign_of(w->g_old[e]);
  w->stopped = 0;
  return MECHRT_OK;
}

MECHRT_HIDDEN int mechrt_after_step(mechrt_samples *r, const mechrt_system *s, double t, double h,
                                    double t1, const double *y1, mechrt_interpolant interpolant,
                                    const void *context, double *scratch) {
  mechrt_switching *w = s->switching;
  if (!w || w->ne == 0)
    return mechrt_deliver_samples(r, s, t, h, t1, y1, interpolant, context, scratch);
  int status = evaluate(w, s, t1, y1, w->g_new);
  if (status == MECHRT_OK)
    status = find_crossings(w, s, t, h, t1, interpolant, context);
  if (status != MECHRT_OK)
    return status;
  long stop = 0;
  while (stop < w->ncrossings && !stops(w, w->crossings[stop].event))
    ++stop;
  double until = stop < w->ncrossings ? w->crossings[stop].t : t1;
  const double *x_until = y1;
  if (until != t1) {
    interpolant(context, (until - t) / h, w->at_event);
    x_until = w->at_event;
  } else {
    memcpy(w->at_event, y1, sizeof(double) * (size_t)s->size);
  }
  for (long c = 0; c < w->ncrossings && c <= stop; ++c) {
    const mechrt_crossing *x = &w->crossings[c];
    if (x->event >= w->E)
      continue; /* a contact's: recorded when its switch is made */
    const double *at = y1;
    if (x->t != t1) {
      interpolant(context, (x->t - t) / h, w->probe);
      at = w->probe;
    }
    mechrt_record(w, x->t, MECHRT_EVENT, x->event, 0, 0, at, at);
  }
  if ((status = mechrt_deliver_samples(r, s, t, h, until, x_until, interpolant, context,
                                       scratch)) != MECHRT_OK)
    return status;
  if (w->missed)
    return MECHRT_CONTACT_VIOLATED;
  if (stop < w->ncrossings) {
    w->stopped = 1;
    w->stop_event = w->crossings[stop].event;
    w->stop_time = until;
    return MECHRT_STOPPED;
  }
  double *swap = w->g_old;
  w->g_old = w->g_new;
  w->g_new = swap;
  return MECHRT_OK;
}
