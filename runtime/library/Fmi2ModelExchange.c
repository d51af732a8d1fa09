/* The FMI 2.0 functions of Model Exchange: the importer's integrator
 * sets t and x and asks for x' = F(t, x) and for the event indicators,
 * the model's declared events' g; in event mode the FMU applies the
 * resets of the events that crossed in their direction, ends the run at a
 * stop event, and moves a constrained model's state back onto its
 * constraints (the importer integrates the ODE form, which drifts from
 * them; state values may change only in event mode, so the FMU asks for
 * one when the drift passes mech.rtol times the state's size). */
#include "Fmi2Instance.h"

#include <math.h>
#include <string.h>

FMI2_EXPORT fmi2Status fmi2SetTime(fmi2Component component, fmi2Real time) {
  mechrt_fmu *c = component;
  if (!fmu_allowed(c, "fmi2SetTime", FMU_IN(FMU_EVENT) | FMU_IN(FMU_CONTINUOUS)))
    return fmi2Error;
  if (!isfinite(time)) {
    fmu_log(c, fmi2Error, "logStatusError", "fmi2SetTime: t = %g is not finite", time);
    return fmi2Error;
  }
  *c->t = time;
  fmu_touched(c);
  return fmi2OK;
}

static int states_count_fits(mechrt_fmu *c, const char *function, size_t nx) {
  if ((long)nx == c->N)
    return 1;
  fmu_log(c, fmi2Error, "logStatusError", "%s: %zu states given, the model has %ld", function, nx,
          c->N);
  return 0;
}

FMI2_EXPORT fmi2Status fmi2SetContinuousStates(fmi2Component component, const fmi2Real x[],
                                               size_t nx) {
  mechrt_fmu *c = component;
  if (!fmu_allowed(c, "fmi2SetContinuousStates", FMU_IN(FMU_CONTINUOUS)) ||
      !states_count_fits(c, "fmi2SetContinuousStates", nx))
    return fmi2Error;
  memcpy(c->x, x, sizeof(double) * nx);
  fmu_touched(c);
  return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2GetContinuousStates(fmi2Component component, fmi2Real x[], size_t nx) {
  mechrt_fmu *c = component;
  if (!fmu_allowed(c, "fmi2GetContinuousStates", ~FMU_IN(FMU_ERROR)) ||
      !states_count_fits(c, "fmi2GetContinuousStates", nx))
    return fmi2Error;
  memcpy(x, c->x, sizeof(double) * nx);
  return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2GetNominalsOfContinuousStates(fmi2Component component,
                                                         fmi2Real x_nominal[], size_t nx) {
  mechrt_fmu *c = component;
  if (!fmu_allowed(c, "fmi2GetNominalsOfContinuousStates", ~FMU_IN(FMU_ERROR)) ||
      !states_count_fits(c, "fmi2GetNominalsOfContinuousStates", nx))
    return fmi2Error;
  for (size_t i = 0; i < nx; ++i)
    x_nominal[i] = 1;
  return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2GetDerivatives(fmi2Component component, fmi2Real derivatives[],
                                          size_t nx) {
  mechrt_fmu *c = component;
  if (!fmu_allowed(c, "fmi2GetDerivatives", ~FMU_IN(FMU_ERROR)) ||
      !states_count_fits(c, "fmi2GetDerivatives", nx))
    return fmi2Error;
  int status = fmu_derivatives(c);
  if (status != MECHRT_OK)
    return fmu_failed(c, "fmi2GetDerivatives", status);
  memcpy(derivatives, c->xdot, sizeof(double) * nx);
  return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2GetEventIndicators(fmi2Component component, fmi2Real eventIndicators[],
                                              size_t ni) {
  mechrt_fmu *c = component;
  if (!fmu_allowed(c, "fmi2GetEventIndicators", ~FMU_IN(FMU_ERROR)))
    return fmi2Error;
  if ((long)ni != c->ne + c->S) {
    fmu_log(c, fmi2Error, "logStatusError",
            "fmi2GetEventIndicators: %zu indicators asked for, the model has %ld", ni,
            c->ne + c->S);
    return fmi2Error;
  }
  int status = fmu_event_values(c, c->g);
  if (status != MECHRT_OK)
    return fmu_failed(c, "fmi2GetEventIndicators", status);
  memcpy(eventIndicators, c->g, sizeof(double) * ni);
  return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2EnterEventMode(fmi2Component component) {
  return fmu_enter(component, "fmi2EnterEventMode", FMU_IN(FMU_EVENT) | FMU_IN(FMU_CONTINUOUS),
                   FMU_EVENT);
}

FMI2_EXPORT fmi2Status fmi2EnterContinuousTimeMode(fmi2Component component) {
  return fmu_enter(component, "fmi2EnterContinuousTimeMode", FMU_IN(FMU_EVENT), FMU_CONTINUOUS);
}

FMI2_EXPORT fmi2Status fmi2CompletedIntegratorStep(fmi2Component component,
                                                   fmi2Boolean noSetFMUStatePriorToCurrentPoint,
                                                   fmi2Boolean *enterEventMode,
                                                   fmi2Boolean *terminateSimulation) {
  mechrt_fmu *c = component;
  (void)noSetFMUStatePriorToCurrentPoint;
  if (!fmu_allowed(c, "fmi2CompletedIntegratorStep", FMU_IN(FMU_CONTINUOUS)))
    return fmi2Error;
  *enterEventMode = fmi2False;
  *terminateSimulation = fmi2False;
  double residual;
  int status = fmu_constraint_residual(c, &residual);
  if (status != MECHRT_OK)
    return fmu_failed(c, "fmi2CompletedIntegratorStep", status);
  if (residual > fmu_projection_threshold(c))
    *enterEventMode = fmi2True;
  c->flags[1] = *c->t;
  return fmi2OK;
}

/* Whether event e crossed from `before` (its value when the last event
 * mode ended) to `now` in its direction, between the standard's domains
 * g > 0 and g <= 0. The importer enters event mode at every change of
 * domain; the values are not renewed at fmi2CompletedIntegratorStep, which
 * importers call at the crossing itself before entering event mode. */
static int crossed(int direction, double before, double now) {
  int falling = before > 0 && now <= 0, rising = before <= 0 && now > 0;
  return direction < 0 ? falling : direction > 0 ? rising : falling || rising;
}

/* Event e's resets, from the state before (as `mech simulate` applies
 * them); the new state must keep the constraints. */
static int apply_resets(mechrt_fmu *c, long e) {
  const mechrt_model *model = c->model;
  long first = model->reset_offsets[e], count = model->reset_offsets[e + 1] - first;
  int status = mechrt_held_call(model, model->resets, *c->t, c->x, c->N, c->p, c->resets,
                                model->reset_offsets[c->ne]);
  if (status != MECHRT_OK)
    return status;
  for (long j = 0; j < count; ++j)
    c->x[model->reset_targets[first + j]] = c->resets[first + j];
  fmu_touched(c);
  double residual;
  if ((status = fmu_constraint_residual(c, &residual)) != MECHRT_OK)
    return status;
  return residual <= 1e-8 * fmu_state_scale(c) ? MECHRT_OK : MECHRT_RESET_FAILED;
}

/* The declared events that crossed since the last accepted point: their
 * resets (several at one instant in the order of declaration, each from
 * the state the one before left), or the end of the run at a stop. */
static int handle_events(mechrt_fmu *c, fmi2EventInfo *info) {
  int status = fmu_event_values(c, c->g), reset = 0;
  for (long e = 0; status == MECHRT_OK && e < c->ne; ++e) {
    if (!crossed(c->model->event_directions[e], c->g_pre[e], c->g[e]))
      continue;
    long resets = c->model->reset_offsets[e + 1] - c->model->reset_offsets[e];
    fmu_log(c, fmi2OK, "logEvents", "event %s at t = %.17g", c->info->event_names[e], *c->t);
    if (resets > 0) {
      status = apply_resets(c, e);
      info->valuesOfContinuousStatesChanged = fmi2True;
      reset = 1;
    } else if (c->model->event_stops[e]) {
      info->terminateSimulation = fmi2True;
      c->flags[0] = 1;
    }
  }
  /* Each piecewise law takes the branch of the side its g is on (g > 0,
   * or g <= 0); one whose g the importer's root finding left at 0 (to
   * 1e-9 of its size), still on the side it came from, the other side, to
   * which it is moving. A g that stays exactly 0 since the last event (a
   * start on the switch, its branch chosen by the side it moves to) keeps
   * its branch. */
  for (long k = 0; status == MECHRT_OK && k < c->S; ++k) {
    double now = c->g[c->ne + k], before = c->g_pre[c->ne + k];
    if (now == 0 && before == 0)
      continue;
    int side = now > 0 ? 1 : -1;
    if (fabs(now) <= 1e-9 * fmax(1.0, fabs(before)) && before != 0)
      side = before > 0 ? -1 : 1;
    double *branch = c->p + c->np + k;
    if (*branch == side)
      continue;
    *branch = side;
    fmu_touched(c);
    /* The states keep their values, but x' jumps or kinks here: the
     * importer is to restart its integrator, as `mech simulate` does
     * (fmpy, for one, keeps its multistep history otherwise). */
    info->valuesOfContinuousStatesChanged = fmi2True;
    fmu_log(c, fmi2OK, "logEvents", "piecewise law %ld switched at t = %.17g", k, *c->t);
  }
  /* The values the next crossing is judged against: those just read,
   * unless a reset moved the state. */
  if (status == MECHRT_OK && reset)
    status = fmu_event_values(c, c->g_pre);
  else if (status == MECHRT_OK)
    memcpy(c->g_pre, c->g, sizeof(double) * (size_t)(c->ne + c->S));
  return status;
}

FMI2_EXPORT fmi2Status fmi2NewDiscreteStates(fmi2Component component, fmi2EventInfo *info) {
  mechrt_fmu *c = component;
  if (!fmu_allowed(c, "fmi2NewDiscreteStates", FMU_IN(FMU_EVENT)))
    return fmi2Error;
  memset(info, 0, sizeof *info);
  int status = handle_events(c, info);
  double residual = 0;
  if (status == MECHRT_OK)
    status = fmu_constraint_residual(c, &residual);
  if (status == MECHRT_OK && residual > 0.01 * fmu_projection_threshold(c)) {
    status = fmu_project(c);
    info->valuesOfContinuousStatesChanged = fmi2True;
    if (status == MECHRT_OK)
      status = fmu_event_values(c, c->g_pre);
  }
  if (status != MECHRT_OK) {
    c->state = FMU_ERROR;
    return fmu_failed(c, "fmi2NewDiscreteStates", status);
  }
  return fmi2OK;
}
