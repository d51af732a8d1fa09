/* The FMI 2.0 functions that read and write an FMU's values by value
 * reference, and its saved states. The value references are those of the
 * modelDescription.xml (compiler/driver/FmuDescription.cpp): the np
 * parameters (the last nu the model's inputs), the 2 nq states (q, q'),
 * their 2 nq derivatives, the nout outputs, then Co-Simulation's
 * settings mech.rtol, mech.atol (Real) and mech.method (Integer). */
#include "Fmi2Instance.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Which kind of value a Real value reference names. */
enum { VR_PARAM, VR_INPUT, VR_STATE, VR_DERIVATIVE, VR_OUTPUT, VR_SETTING, VR_NONE };

static int real_kind(const mechrt_fmu *c, fmi2ValueReference vr, long *index) {
  long r = (long)vr, np = c->np, N = c->N;
  if (r < np - c->nu)
    return *index = r, VR_PARAM;
  if (r < np)
    return *index = r, VR_INPUT;
  if ((r -= np) < N)
    return *index = r, VR_STATE;
  if ((r -= N) < N)
    return *index = r, VR_DERIVATIVE;
  if ((r -= N) < c->nout)
    return *index = r, VR_OUTPUT;
  if ((r -= c->nout) < FMU_SETTING_METHOD)
    return *index = r, VR_SETTING;
  return VR_NONE;
}

static fmi2Status unknown_reference(mechrt_fmu *c, const char *function, fmi2ValueReference vr) {
  fmu_log(c, fmi2Error, "logStatusError", "%s: no variable of this type has value reference %u",
          function, vr);
  return fmi2Error;
}

FMI2_EXPORT fmi2Status fmi2GetReal(fmi2Component component, const fmi2ValueReference vr[],
                                   size_t nvr, fmi2Real value[]) {
  mechrt_fmu *c = component;
  if (!fmu_allowed(c, "fmi2GetReal", ~FMU_IN(FMU_ERROR)))
    return fmi2Error;
  int outputs_ready = 0;
  for (size_t i = 0; i < nvr; ++i) {
    long k;
    int kind = real_kind(c, vr[i], &k), status = MECHRT_OK;
    if (kind == VR_PARAM || kind == VR_INPUT)
      value[i] = c->p[k];
    else if (kind == VR_STATE)
      value[i] = c->x[k];
    else if (kind == VR_SETTING)
      value[i] = c->settings[k];
    else if (kind == VR_DERIVATIVE && (status = fmu_derivatives(c)) == MECHRT_OK)
      value[i] = c->xdot[k];
    else if (kind == VR_OUTPUT && !outputs_ready &&
             (status = mechrt_held_call(c->model, c->model->outputs, *c->t, c->x, c->N, c->p,
                                        c->out, c->nout)) == MECHRT_OK)
      outputs_ready = 1;
    if (kind == VR_OUTPUT && status == MECHRT_OK)
      value[i] = c->out[k];
    if (kind == VR_NONE)
      return unknown_reference(c, "fmi2GetReal", vr[i]);
    if (status != MECHRT_OK)
      return fmu_failed(c, "fmi2GetReal", status);
  }
  return fmi2OK;
}

/* Whether a Real of this kind may be set in the instance's state: the
 * parameters and the start state before initialisation ends (they are
 * fixed), an input at any time. */
static int settable(const mechrt_fmu *c, int kind) {
  unsigned before = FMU_IN(FMU_INSTANTIATED) | FMU_IN(FMU_INITIALIZATION);
  if (kind == VR_INPUT)
    return (FMU_IN(c->state) &
            (before | FMU_IN(FMU_EVENT) | FMU_IN(FMU_CONTINUOUS) | FMU_IN(FMU_STEP))) != 0;
  if (kind == VR_PARAM || kind == VR_STATE || kind == VR_SETTING)
    return (FMU_IN(c->state) & before) != 0;
  return 0;
}

FMI2_EXPORT fmi2Status fmi2SetReal(fmi2Component component, const fmi2ValueReference vr[],
                                   size_t nvr, const fmi2Real value[]) {
  mechrt_fmu *c = component;
  if (!fmu_allowed(c, "fmi2SetReal", ~(FMU_IN(FMU_ERROR) | FMU_IN(FMU_TERMINATED))))
    return fmi2Error;
  for (size_t i = 0; i < nvr; ++i) {
    long k;
    int kind = real_kind(c, vr[i], &k);
    if (kind == VR_NONE)
      return unknown_reference(c, "fmi2SetReal", vr[i]);
    if (!settable(c, kind)) {
      fmu_log(c, fmi2Error, "logStatusError",
              "fmi2SetReal: value reference %u cannot be set now (a parameter or start value "
              "before initialisation ends, an input at any time; derivatives and outputs never)",
              vr[i]);
      return fmi2Error;
    }
    if (!isfinite(value[i]) || (kind == VR_SETTING && !(value[i] > 0))) {
      fmu_log(c, fmi2Error, "logStatusError", "fmi2SetReal: value reference %u: %g is not %s",
              vr[i], value[i], kind == VR_SETTING ? "a positive tolerance" : "finite");
      return fmi2Error;
    }
    double *target = kind == VR_STATE ? c->x : kind == VR_SETTING ? c->settings : c->p;
    target[k] = value[i];
  }
  fmu_touched(c);
  return fmi2OK;
}

/* mech.method, the only Integer: after the Reals of the settings. */
static int is_method(const mechrt_fmu *c, fmi2ValueReference vr) {
  return (long)vr == c->np + 2 * c->N + c->nout + FMU_SETTING_METHOD;
}

FMI2_EXPORT fmi2Status fmi2GetInteger(fmi2Component component, const fmi2ValueReference vr[],
                                      size_t nvr, fmi2Integer value[]) {
  mechrt_fmu *c = component;
  if (!fmu_allowed(c, "fmi2GetInteger", ~FMU_IN(FMU_ERROR)))
    return fmi2Error;
  for (size_t i = 0; i < nvr; ++i) {
    if (!is_method(c, vr[i]))
      return unknown_reference(c, "fmi2GetInteger", vr[i]);
    value[i] = (fmi2Integer)c->settings[FMU_SETTING_METHOD];
  }
  return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2SetInteger(fmi2Component component, const fmi2ValueReference vr[],
                                      size_t nvr, const fmi2Integer value[]) {
  mechrt_fmu *c = component;
  if (!fmu_allowed(c, "fmi2SetInteger", FMU_IN(FMU_INSTANTIATED) | FMU_IN(FMU_INITIALIZATION)))
    return fmi2Error;
  for (size_t i = 0; i < nvr; ++i) {
    if (!is_method(c, vr[i]))
      return unknown_reference(c, "fmi2SetInteger", vr[i]);
    if (value[i] != MECHRT_METHOD_DOPRI5 && value[i] != MECHRT_METHOD_RADAU) {
      fmu_log(c, fmi2Error, "logStatusError",
              "fmi2SetInteger: mech.method is 0 (DOPRI5) or 1 (Radau IIA), not %d", value[i]);
      return fmi2Error;
    }
    c->settings[FMU_SETTING_METHOD] = value[i];
  }
  return fmi2OK;
}

/* The FMU has no Boolean or String variables: any reference is unknown. */
FMI2_EXPORT fmi2Status fmi2GetBoolean(fmi2Component component, const fmi2ValueReference vr[],
                                      size_t nvr, fmi2Boolean value[]) {
  (void)value;
  return nvr == 0 ? fmi2OK : unknown_reference(component, "fmi2GetBoolean", vr[0]);
}

FMI2_EXPORT fmi2Status fmi2SetBoolean(fmi2Component component, const fmi2ValueReference vr[],
                                      size_t nvr, const fmi2Boolean value[]) {
  (void)value;
  return nvr == 0 ? fmi2OK : unknown_reference(component, "fmi2SetBoolean", vr[0]);
}

FMI2_EXPORT fmi2Status fmi2GetString(fmi2Component component, const fmi2ValueReference vr[],
                                     size_t nvr, fmi2String value[]) {
  (void)value;
  return nvr == 0 ? fmi2OK : unknown_reference(component, "fmi2GetString", vr[0]);
}

FMI2_EXPORT fmi2Status fmi2SetString(fmi2Component component, const fmi2ValueReference vr[],
                                     size_t nvr, const fmi2String value[]) {
  (void)value;
  return nvr == 0 ? fmi2OK : unknown_reference(component, "fmi2SetString", vr[0]);
}

/* ---- Saved states ------------------------------------------------------- */

/* A saved state: the instance's state and a copy of its saved block. */
typedef struct {
  char magic[8];
  int64_t count;
  int32_t state, type;
} saved_header;

static const char kMagic[8] = {'m', 'e', 'c', 'h', 'f', 'm', 'u', '2'};

static size_t saved_size(const mechrt_fmu *c) {
  return sizeof(saved_header) + sizeof(double) * (size_t)c->saved_count;
}

FMI2_EXPORT fmi2Status fmi2GetFMUstate(fmi2Component component, fmi2FMUstate *state) {
  mechrt_fmu *c = component;
  if (!fmu_allowed(c, "fmi2GetFMUstate", ~FMU_IN(FMU_ERROR)))
    return fmi2Error;
  unsigned char *copy = *state ? *state : malloc(saved_size(c));
  if (!copy)
    return fmu_failed(c, "fmi2GetFMUstate", MECHRT_OUT_OF_MEMORY);
  saved_header header = {{0}, c->saved_count, c->state, c->type};
  memcpy(header.magic, kMagic, sizeof kMagic);
  memcpy(copy, &header, sizeof header);
  memcpy(copy + sizeof header, c->saved, sizeof(double) * (size_t)c->saved_count);
  *state = copy;
  return fmi2OK;
}

/* Whether `bytes` (of `size`) is a state of this FMU's instances. */
static int valid_state(const mechrt_fmu *c, const void *bytes, size_t size) {
  saved_header header;
  if (!bytes || size != saved_size(c))
    return 0;
  memcpy(&header, bytes, sizeof header);
  return memcmp(header.magic, kMagic, sizeof kMagic) == 0 && header.count == c->saved_count &&
         header.state >= FMU_INSTANTIATED && header.state <= FMU_TERMINATED &&
         header.type == (int32_t)c->type;
}

FMI2_EXPORT fmi2Status fmi2SetFMUstate(fmi2Component component, fmi2FMUstate state) {
  mechrt_fmu *c = component;
  if (!fmu_allowed(c, "fmi2SetFMUstate", ~0u))
    return fmi2Error;
  if (!valid_state(c, state, saved_size(c))) {
    fmu_log(c, fmi2Error, "logStatusError", "fmi2SetFMUstate: not a state of this FMU");
    return fmi2Error;
  }
  saved_header header;
  memcpy(&header, state, sizeof header);
  memcpy(c->saved, (const unsigned char *)state + sizeof header,
         sizeof(double) * (size_t)c->saved_count);
  c->state = header.state;
  fmu_touched(c);
  return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2FreeFMUstate(fmi2Component component, fmi2FMUstate *state) {
  if (!component)
    return fmi2Error;
  if (state) {
    free(*state);
    *state = NULL;
  }
  return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2SerializedFMUstateSize(fmi2Component component, fmi2FMUstate state,
                                                  size_t *size) {
  mechrt_fmu *c = component;
  if (!c || !state || !size)
    return fmi2Error;
  *size = saved_size(c);
  return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2SerializeFMUstate(fmi2Component component, fmi2FMUstate state,
                                             fmi2Byte serialized[], size_t size) {
  mechrt_fmu *c = component;
  if (!c || !valid_state(c, state, size))
    return fmi2Error;
  memcpy(serialized, state, size);
  return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2DeSerializeFMUstate(fmi2Component component, const fmi2Byte serialized[],
                                               size_t size, fmi2FMUstate *state) {
  mechrt_fmu *c = component;
  if (!c || !state)
    return fmi2Error;
  if (!valid_state(c, serialized, size)) {
    fmu_log(c, fmi2Error, "logStatusError",
            "fmi2DeSerializeFMUstate: %zu bytes that are not a state of this FMU", size);
    return fmi2Error;
  }
  void *copy = malloc(size);
  if (!copy)
    return fmu_failed(c, "fmi2DeSerializeFMUstate", MECHRT_OUT_OF_MEMORY);
  memcpy(copy, serialized, size);
  *state = copy;
  return fmi2OK;
}
