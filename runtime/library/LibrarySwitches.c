/* A run with events or contacts, in smooth segments (as the CLI's
 * compiler/driver/ContactRun.cpp and ContactImpact.cpp): each segment is
 * integrated in one contact mode up to the event that ends it; there the
 * switch is made (an impact by Newton's law, a contact coming to rest, a
 * lift-off, an event's resets) and the next segment starts from the new
 * state, its samples on the same grid. Only the grid's rows are written
 * (and, when a stop event ends the run, the row there); the switches go
 * to the caller's event records. */
#include "LibrarySwitches.h"
#include "LibraryImpact.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Where the run is between segments. */
typedef struct {
  mechrt_switching *w;
  const mechrt_system *s;
  mechrt_projection *projection;
  long switches, here;
  double last_switch;
  /* Per piecewise law: its switches in a row within kQuickFlipSpan of the
   * first of them, and when that was (a sliding mode, as the CLI's). */
  long *quick_flips;
  double *quick_since;
} run_state;

static const double kQuickFlipSpan = 1e-6;
static const long kMaxQuickFlips = 64;

int mechrt_switching_row(mechrt_switching *w, const mechrt_system *s, double t, const double *x,
                         double *extra, int multipliers, int outputs) {
  const mechrt_model *model = w->model;
  const double *p = mechrt_params_at(s, t);
  int status = mechrt_mode_solve(w, t, x, p, 1);
  if (status != MECHRT_OK)
    return status;
  if (multipliers) {
    memcpy(extra, w->xs + 3 * w->n, sizeof(double) * (size_t)w->m);
    memcpy(extra + w->m, w->forces, sizeof(double) * (size_t)(w->k + w->F));
    extra += w->m + w->k + w->F;
  }
  if (outputs && model->nout > 0) {
    if ((status = model->outputs_at(t, w->xs, p, extra)) != MECHRT_OK)
      return status;
    if (!mechrt_all_finite(extra, model->nout))
      return MECHRT_NON_FINITE;
  }
  return MECHRT_OK;
}

int mechrt_crossed_unseen(mechrt_switching *w, const mechrt_system *s, double t, const double *x) {
  if (w->k == 0 || mechrt_contact_values(w, t, x, mechrt_params_at(s, t)) != MECHRT_OK)
    return 0;
  for (long c = 0; c < w->k; ++c)
    if (!w->resting[c] &&
        w->contact[c] < -MECHRT_TOUCHING_GAP * fmax(1.0, fabs(w->contact[w->k + c])))
      return 1;
  return 0;
}

/* The contacts at rest at the start: touching, not moving, and pressed by
 * the motion. A restitution outside [0, 1] or a violated contact fails. */
static int start_modes(mechrt_switching *w, const mechrt_system *s, double t, const double *x) {
  long k = w->k;
  if (k == 0)
    return MECHRT_OK;
  double a[k];
  mechrt_gap_accelerations(w, s, t, x, a);
  int status = mechrt_contact_values(w, t, x, mechrt_params_at(s, t));
  if (status != MECHRT_OK)
    return status;
  memcpy(w->restitution, w->contact + 3 * k + k * w->n, sizeof(double) * (size_t)k);
  for (long c = 0; c < k; ++c)
    if (!(w->restitution[c] >= 0 && w->restitution[c] <= 1))
      return MECHRT_INVALID_ARGUMENT;
  for (long c = 0; c < k; ++c) {
    double gap = w->contact[c];
    if (gap < -MECHRT_TOUCHING_GAP)
      return MECHRT_CONTACT_VIOLATED;
    w->resting[c] =
        gap <= MECHRT_TOUCHING_GAP && fabs(w->contact[k + c]) <= MECHRT_RESTING_RATE && a[c] < 0;
  }
  return MECHRT_OK;
}

/* A free contact that touches at the start while closing, or -1. */
static long closing_at_start(mechrt_switching *w, const mechrt_system *s, double t,
                             const double *x) {
  if (w->k == 0 || mechrt_contact_values(w, t, x, mechrt_params_at(s, t)) != MECHRT_OK)
    return -1;
  for (long c = 0; c < w->k; ++c)
    if (!w->resting[c] && w->contact[c] <= MECHRT_TOUCHING_GAP &&
        w->contact[w->k + c] < -MECHRT_RESTING_RATE)
      return c;
  return -1;
}

/* The largest |Phi| (holonomic) and |psi| of the mode's constraints. */
static double mode_residual(run_state *run, double t, const double *x) {
  mechrt_projection *w = run->projection;
  long m = w->m;
  int status = w->switching ? mechrt_mode_constraints(w->switching, t, x, w->p, w->values)
                            : w->model->constraints(t, x, w->p, w->values);
  if (status != MECHRT_OK)
    return INFINITY;
  double largest = 0;
  for (long i = 0; i < m; ++i)
    largest = fmax(largest, fmax(w->holonomic[i] ? fabs(w->values[i]) : 0, fabs(w->values[m + i])));
  return largest;
}

int mechrt_start_branches(const mechrt_system *s, double t, const double *x) {
  const mechrt_model *model = s->model;
  long S = model->nswitches, N = s->size;
  double g[S], later[S], ahead[N], rate[N];
  int status = model->switch_values(t, x, mechrt_params_at(s, t), g);
  if (status != MECHRT_OK)
    return status;
  if (!mechrt_all_finite(g, S))
    return MECHRT_NON_FINITE;
  int on_switch = 0;
  for (long k = 0; k < S; ++k) {
    s->branches[k] = g[k]; /* the laws as written, for the look ahead */
    on_switch = on_switch || g[k] == 0;
  }
  if (on_switch) {
    const double step = 1e-6 * fmax(1.0, fabs(t));
    memcpy(ahead, x, sizeof(double) * (size_t)N);
    for (int i = 0; i < 2 && status == MECHRT_OK; ++i) {
      status = model->rhs(t + i * step, ahead, mechrt_params_at(s, t + i * step), rate);
      for (long j = 0; j < N; ++j)
        ahead[j] += step * rate[j];
    }
    if (status == MECHRT_OK &&
        model->switch_values(t + 2 * step, ahead, mechrt_params_at(s, t + 2 * step), later) ==
            MECHRT_OK)
      for (long k = 0; k < S; ++k)
        if (g[k] == 0)
          s->branches[k] = later[k];
  }
  for (long k = 0; k < S; ++k)
    s->branches[k] = s->branches[k] > 0 ? 1 : -1;
  return MECHRT_OK;
}

/* Event e's resets from the state before it; the new state must keep the
 * model's constraints. The event's record gets the state after. */
static int reset(run_state *run, long e, double t, double *x) {
  mechrt_switching *w = run->w;
  const mechrt_model *model = w->model;
  long N = 2 * w->n, first = model->reset_offsets[e], count = model->reset_offsets[e + 1] - first;
  double before[N], values[model->reset_offsets[w->E] > 0 ? model->reset_offsets[w->E] : 1];
  memcpy(before, x, sizeof(double) * (size_t)N);
  int status = model->resets(t, before, mechrt_params_at(run->s, t), values);
  if (status != MECHRT_OK)
    return status;
  if (!mechrt_all_finite(values + first, count))
    return MECHRT_NON_FINITE;
  for (long j = 0; j < count; ++j)
    x[model->reset_targets[first + j]] = values[first + j];
  if (w->m > 0) {
    double scale = 0;
    for (long i = 0; i < N; ++i)
      scale = fmax(scale, fabs(x[i]));
    if (!(mode_residual(run, t, x) <= 1e-8 * fmax(1.0, scale)))
      return MECHRT_RESET_FAILED;
  }
  /* The crossing was recorded when it was found, with the state before. */
  if (w->record_states && w->found > 0 && w->found <= w->max_records)
    memcpy(w->record_states + (w->found - 1) * 2 * N + N, x, sizeof(double) * (size_t)N);
  return MECHRT_OK;
}

/* Makes the switch of mode event `event` at (t, x): a reset, a lift-off
 * or an impact (LibraryImpactStep.c). */
static int apply_switch(run_state *run, long event, double t, double *x) {
  mechrt_switching *w = run->w;
  run->here = t == run->last_switch ? run->here + 1 : 0;
  run->last_switch = t;
  if (++run->switches > MECHRT_MAX_STEPS || run->here > MECHRT_MAX_SWITCHES_AT_ONE_TIME)
    return MECHRT_TOO_MANY_SWITCHES;
  int status;
  if (event >= w->E + w->k + 3 * w->F) {
    /* A piecewise law's g crossed 0: its other branch from here on. */
    long law = event - w->E - w->k - 3 * w->F;
    run->s->branches[law] = run->s->branches[law] > 0 ? -1 : 1;
    mechrt_record(w, t, MECHRT_EVENT_SWITCH, law, 0, 0, x, x);
    /* Each branch driving g back across 0: no motion on either (a
     * sliding mode), which would switch without end. */
    const double span = kQuickFlipSpan * fmax(1.0, fabs(t));
    if (run->quick_flips[law] == 0 || !(fabs(t - run->quick_since[law]) <= span)) {
      run->quick_flips[law] = 1;
      run->quick_since[law] = t;
    } else if (++run->quick_flips[law] > kMaxQuickFlips) {
      return MECHRT_TOO_MANY_SWITCHES;
    }
    return MECHRT_OK;
  }
  if (event >= w->E + w->k) {
    long f = event - w->E - w->k;
    status = mechrt_friction_switch(w, run->s, f / 3, (int)(f % 3), t, x);
  } else if (event < w->E) {
    status = reset(run, event, t, x);
  } else if (w->resting[event - w->E]) {
    w->resting[event - w->E] = 0;
    mechrt_record(w, t, MECHRT_EVENT_LIFT_OFF, event - w->E, 0, 0, x, x);
    status = MECHRT_OK;
  } else {
    status = mechrt_impact(w, run->s, event - w->E, t, x);
  }
  if (status == MECHRT_OK && event < w->E + w->k)
    status = mechrt_contact_frictions_follow(w, run->s, t, x);
  mechrt_mode_changed(w, run->projection);
  return status;
}

/* The run's last row, at the stop event that ends it, unless written. */
static int final_row(mechrt_samples *r, const mechrt_system *s, double t, const double *x) {
  if (r->next > 0 && r->out[(r->next - 1) * r->width] == t)
    return MECHRT_OK;
  return mechrt_write_row(r, s, t, x);
}

int mechrt_run_switching(mechrt_switching *w, const mechrt_system *s, mechrt_projection *projection,
                         mechrt_samples *r, double *y, mechrt_segment segment, void *context) {
  const mechrt_model *model = w->model;
  long N = s->size;
  long quick_flips[w->S + 1];
  double quick_since[w->S + 1];
  memset(quick_flips, 0, sizeof quick_flips);
  run_state run = {w, s, projection, 0, 0, NAN, quick_flips, quick_since};
  double t = r->t0;
  int status = mechrt_start_frictions(w, s, t, y);
  mechrt_mode_changed(w, projection);
  if (status == MECHRT_OK)
    status = start_modes(w, s, t, y);
  if (status == MECHRT_OK)
    status = mechrt_contact_frictions_follow(w, s, t, y);
  mechrt_mode_changed(w, projection);
  if (status == MECHRT_OK)
    status = mechrt_write_row(r, s, t, y);
  long closing = status == MECHRT_OK ? closing_at_start(w, s, t, y) : -1;
  if (closing >= 0)
    status = apply_switch(&run, w->E + closing, t, y);
  while (status == MECHRT_OK) {
    if ((status = mechrt_events_begin(w, s, t, y)) != MECHRT_OK)
      break;
    /* As the CLI's segments: the first step, shortened for a short flight. */
    double h0 = w->short_flight > 0 ? fmin(MECHRT_FIRST_STEP, w->short_flight) : MECHRT_FIRST_STEP;
    w->short_flight = 0;
    status = segment(context, t, y, h0);
    if (status != MECHRT_STOPPED)
      break;
    long e = w->stop_event;
    t = w->stop_time;
    memcpy(y, w->at_event, sizeof(double) * (size_t)N);
    if (e < w->E && model->reset_offsets[e + 1] == model->reset_offsets[e])
      return final_row(r, s, t, y);
    status = apply_switch(&run, e, t, y);
  }
  return status;
}
