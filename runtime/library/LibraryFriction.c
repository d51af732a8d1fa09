/* The frictions of a run with switches (as the CLI's
 * compiler/driver/ContactFriction.cpp): each sticks (its slip held at 0 by
 * a force within mu_s N) or slips with a sign (the force -sigma mu_k N).
 * Where a slip reaches 0, the force that would hold it decides: within the
 * cone it sticks, else it slips the way that force cannot hold. A normal
 * force below 0 ends the run (MECHRT_NORMAL_NEGATIVE). */
#include "LibrarySwitches.h"

#include <math.h>

/* A force at the cone's edge is held: the relative rounding of mu_s N. */
static const double kConeTolerance = 1e-12;

/* Friction i's slip is 0 at (t, x): it sticks if the force holding it is
 * within the cone, else it slips the other way. */
static int settle(mechrt_switching *w, const mechrt_system *s, long i, double t, const double *x) {
  w->friction[i] = 0;
  mechrt_mode_count(w);
  const double *p = mechrt_params_at(s, t);
  int status = mechrt_mode_solve(w, t, x, p, 1);
  if (status != MECHRT_OK)
    return status;
  const long c = mechrt_friction_contact(w, i);
  const double force = w->forces[w->k + i], normal = c >= 0 ? w->forces[c] : w->fvalues[w->F + i];
  if (normal < 0)
    return MECHRT_NORMAL_NEGATIVE;
  const int sticks = fabs(force) <= w->fvalues[2 * w->F + i] * normal * (1 + kConeTolerance);
  if (!sticks)
    w->friction[i] = force > 0 ? -1 : 1;
  mechrt_mode_count(w);
  mechrt_record(w, t, sticks ? MECHRT_EVENT_STICK : MECHRT_EVENT_SLIP, i, 0, 0, x, x);
  return MECHRT_OK;
}

int mechrt_start_frictions(mechrt_switching *w, const mechrt_system *s, double t, const double *x) {
  const long F = w->F;
  if (F == 0)
    return MECHRT_OK;
  int status = mechrt_friction_values(w, t, x, mechrt_params_at(s, t));
  if (status != MECHRT_OK)
    return status;
  for (long f = 0; f < F; ++f) {
    const double mus = w->fvalues[2 * F + f], muk = w->fvalues[3 * F + f];
    if (!(muk >= 0 && muk <= mus))
      return MECHRT_INVALID_ARGUMENT;
    if (mechrt_friction_contact(w, f) >= 0) { /* acts once its contact rests */
      w->friction[f] = MECHRT_FRICTION_OFF;
      continue;
    }
    if (w->fvalues[F + f] < 0)
      return MECHRT_NORMAL_NEGATIVE;
    w->friction[f] = w->fvalues[f] > 0 ? 1 : -1;
  }
  mechrt_mode_count(w);
  /* Those at rest are settled in order, in the mode the others set. */
  for (long f = 0; f < F; ++f) {
    if (w->friction[f] == MECHRT_FRICTION_OFF)
      continue;
    if ((status = mechrt_friction_values(w, t, x, mechrt_params_at(s, t))) != MECHRT_OK)
      return status;
    if (fabs(w->fvalues[f]) <= MECHRT_RESTING_RATE && (status = settle(w, s, f, t, x)) != MECHRT_OK)
      return status;
  }
  return MECHRT_OK;
}

int mechrt_contact_frictions_follow(mechrt_switching *w, const mechrt_system *s, double t,
                                    const double *x) {
  for (long f = 0; f < w->F; ++f) {
    const long c = mechrt_friction_contact(w, f);
    if (c < 0)
      continue;
    if (!w->resting[c]) {
      w->friction[f] = MECHRT_FRICTION_OFF;
      continue;
    }
    if (w->friction[f] != MECHRT_FRICTION_OFF)
      continue;
    int status = mechrt_friction_values(w, t, x, mechrt_params_at(s, t));
    if (status != MECHRT_OK)
      return status;
    const double slip = w->fvalues[f];
    w->friction[f] = slip > 0 ? 1 : -1;
    mechrt_mode_count(w);
    if (fabs(slip) <= MECHRT_RESTING_RATE && (status = settle(w, s, f, t, x)) != MECHRT_OK)
      return status;
    if ((status = mechrt_mode_solve(w, t, x, mechrt_params_at(s, t), 1)) != MECHRT_OK)
      return status;
  }
  mechrt_mode_count(w);
  return MECHRT_OK;
}

int mechrt_friction_switch(mechrt_switching *w, const mechrt_system *s, long i, int which, double t,
                           const double *x) {
  if (which == 0)
    return MECHRT_NORMAL_NEGATIVE;
  if (w->friction[i] != 0)
    return settle(w, s, i, t, x);
  /* Its force beyond mu_s N: it slips back; below -mu_s N: ahead. */
  w->friction[i] = which == 2 ? 1 : -1;
  mechrt_mode_count(w);
  mechrt_record(w, t, MECHRT_EVENT_SLIP, i, 0, 0, x, x);
  return MECHRT_OK;
}
