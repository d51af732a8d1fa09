/* The FMI 2.0 functions of Co-Simulation: fmi2DoStep integrates the model
 * over the communication step with the library's own integrator (DOPRI5,
 * or Radau IIA by mech.method, at mech.rtol and mech.atol), as `mech
 * simulate` runs it: the state projected onto the constraints at the start
 * and after every step, the events located and their resets applied, a
 * stop event ending the run (fmi2Discard, with fmi2Terminated true and
 * fmi2LastSuccessfulTime the stop's time). The inputs are held over the
 * step, or follow the first derivatives fmi2SetRealInputDerivatives gave. */
#include "Fmi2Instance.h"

#include <math.h>
#include <string.h>

/* The inputs along the step: their values at its start plus their rates
 * times the time since. */
typedef struct {
  const mechrt_fmu *c;
  double t0;
} input_ramp;

static void ramp_inputs(double t, double *u, void *context) {
  const input_ramp *ramp = context;
  const mechrt_fmu *c = ramp->c;
  for (long i = 0; i < c->nu; ++i)
    u[i] = c->p[c->np - c->nu + i] + c->input_rates[i] * (t - ramp->t0);
}

/* Whether the step's events hold a stop (an event without resets that
 * ends the run). */
static int stopped_by_event(const mechrt_fmu *c, const mechrt_event_record *records, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    long e = records[i].index;
    if (records[i].kind == MECHRT_EVENT && c->model->event_stops[e] &&
        c->model->reset_offsets[e + 1] == c->model->reset_offsets[e])
      return 1;
  }
  return 0;
}

/* One run of the library's integrator from (t, x) to t + h, leaving the
 * state at its end in x; *stop says whether a stop event ended it. */
static int integrate_step(mechrt_fmu *c, double h, int *stop) {
  enum { kRecords = 64 };
  mechrt_event_record records[kRecords];
  size_t found = 0, rows = 0;
  double t0 = *c->t, t1 = t0 + h;
  input_ramp ramp = {c, t0};
  int ramped = 0;
  for (long i = 0; i < c->nu; ++i)
    ramped |= c->input_rates[i] != 0;
  mechrt_sim_options options;
  memset(&options, 0, sizeof options);
  options.size = sizeof options;
  options.t0 = t0;
  options.method = (int)c->settings[FMU_SETTING_METHOD];
  options.inputs = ramped ? ramp_inputs : NULL;
  options.inputs_context = &ramp;
  options.events = records;
  options.max_events = kRecords;
  options.events_found = &found;
  long width = 1 + c->N;
  double *out = c->rows;
  int status = mechrt_simulate_with(c->model, c->x, c->p, t1, h, c->settings[FMU_SETTING_RTOL],
                                    c->settings[FMU_SETTING_ATOL], &options, out, 2, &rows);
  if (status == MECHRT_OK && rows > 0) {
    const double *last = out + (rows - 1) * (size_t)width;
    *stop = rows < 2 || stopped_by_event(c, records, found < kRecords ? found : kRecords);
    /* A stop's row is at its time; else the last row is t1's (written as
     * t0 + h, which may differ from t1 in the last place). */
    *c->t = *stop ? last[0] : t1;
    memcpy(c->x, last + 1, sizeof(double) * (size_t)c->N);
  }
  return status;
}

FMI2_EXPORT fmi2Status fmi2DoStep(fmi2Component component, fmi2Real currentCommunicationPoint,
                                  fmi2Real communicationStepSize,
                                  fmi2Boolean noSetFMUStatePriorToCurrentPoint) {
  mechrt_fmu *c = component;
  (void)noSetFMUStatePriorToCurrentPoint;
  if (!fmu_allowed(c, "fmi2DoStep", FMU_IN(FMU_STEP)))
    return fmi2Error;
  double t = *c->t, h = communicationStepSize;
  if (c->flags[0] != 0) {
    fmu_log(c, fmi2Error, "logStatusError",
            "fmi2DoStep: the run ended at a stop event at t = %.17g", t);
    return fmi2Error;
  }
  if (!(h > 0) || !isfinite(h) || fabs(currentCommunicationPoint - t) > 1e-12 * fmax(1, fabs(t))) {
    fmu_log(c, fmi2Error, "logStatusError",
            "fmi2DoStep: a step of %g from t = %.17g; the FMU is at t = %.17g (steps are "
            "positive and start where the last one ended)",
            h, currentCommunicationPoint, t);
    return fmi2Error;
  }
  int stop = 0, status = integrate_step(c, h, &stop);
  memset(c->input_rates, 0, sizeof(double) * (size_t)c->nu);
  fmu_touched(c);
  if (status != MECHRT_OK) {
    c->state = FMU_ERROR;
    return fmu_failed(c, "fmi2DoStep", status);
  }
  c->flags[1] = *c->t;
  if (stop) {
    c->flags[0] = 1;
    fmu_log(c, fmi2OK, "logEvents", "a stop event ended the run at t = %.17g", *c->t);
    return fmi2Discard;
  }
  return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2SetRealInputDerivatives(fmi2Component component,
                                                   const fmi2ValueReference vr[], size_t nvr,
                                                   const fmi2Integer order[],
                                                   const fmi2Real value[]) {
  mechrt_fmu *c = component;
  if (!fmu_allowed(c, "fmi2SetRealInputDerivatives",
                   FMU_IN(FMU_INSTANTIATED) | FMU_IN(FMU_INITIALIZATION) | FMU_IN(FMU_STEP)))
    return fmi2Error;
  for (size_t i = 0; i < nvr; ++i) {
    long input = (long)vr[i] - (c->np - c->nu);
    if (input < 0 || input >= c->nu || order[i] != 1 || !isfinite(value[i])) {
      fmu_log(c, fmi2Error, "logStatusError",
              "fmi2SetRealInputDerivatives: value reference %u, order %d: the FMU takes the "
              "first derivatives of its inputs (maxInputDerivativeOrder 1), finite",
              vr[i], order[i]);
      return fmi2Error;
    }
    c->input_rates[input] = value[i];
  }
  return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2GetRealOutputDerivatives(fmi2Component component,
                                                    const fmi2ValueReference vr[], size_t nvr,
                                                    const fmi2Integer order[], fmi2Real value[]) {
  (void)vr, (void)order, (void)value;
  mechrt_fmu *c = component;
  if (!c)
    return fmi2Error;
  if (nvr == 0)
    return fmi2OK;
  fmu_log(c, fmi2Error, "logStatusError",
          "fmi2GetRealOutputDerivatives: the FMU gives no derivatives of its outputs "
          "(maxOutputDerivativeOrder 0)");
  return fmi2Error;
}

FMI2_EXPORT fmi2Status fmi2CancelStep(fmi2Component component) {
  mechrt_fmu *c = component;
  if (!c)
    return fmi2Error;
  fmu_log(c, fmi2Error, "logStatusError",
          "fmi2CancelStep: fmi2DoStep always finishes before it returns (canRunAsynchronuously "
          "is false), so there is no step to cancel");
  return fmi2Error;
}

FMI2_EXPORT fmi2Status fmi2GetStatus(fmi2Component component, const fmi2StatusKind kind,
                                     fmi2Status *value) {
  mechrt_fmu *c = component;
  if (!c || kind != fmi2DoStepStatus)
    return fmi2Discard;
  *value = c->state == FMU_ERROR ? fmi2Error : fmi2OK;
  return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2GetRealStatus(fmi2Component component, const fmi2StatusKind kind,
                                         fmi2Real *value) {
  mechrt_fmu *c = component;
  if (!c || kind != fmi2LastSuccessfulTime)
    return fmi2Discard;
  *value = c->flags[1];
  return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2GetIntegerStatus(fmi2Component component, const fmi2StatusKind kind,
                                            fmi2Integer *value) {
  (void)component, (void)kind, (void)value;
  return fmi2Discard; /* no status of this FMU is an integer */
}

FMI2_EXPORT fmi2Status fmi2GetBooleanStatus(fmi2Component component, const fmi2StatusKind kind,
                                            fmi2Boolean *value) {
  mechrt_fmu *c = component;
  if (!c || kind != fmi2Terminated)
    return fmi2Discard;
  *value = c->flags[0] != 0 ? fmi2True : fmi2False;
  return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2GetStringStatus(fmi2Component component, const fmi2StatusKind kind,
                                           fmi2String *value) {
  (void)component, (void)kind, (void)value;
  return fmi2Discard; /* fmi2PendingStatus: no step is ever pending */
}
