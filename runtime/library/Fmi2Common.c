/* The FMI 2.0 functions common to Model Exchange and Co-Simulation: the
 * instance's life (instantiate, set up, initialise, terminate, reset,
 * free), the logging, and the model evaluations the other Fmi2 files
 * share: derivatives, event functions, constraint residuals and the
 * projection onto the constraints. */
#include "Fmi2Instance.h"
#include "LibrarySwitches.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const state_names[] = {
    "instantiated", "initialization mode", "event mode", "continuous-time mode",
    "step mode",    "terminated",          "error"};

MECHRT_HIDDEN void fmu_log(mechrt_fmu *c, fmi2Status status, const char *category,
                           const char *format, ...) {
  if (!c->callbacks.logger || (!c->logging && status < fmi2Warning))
    return;
  char message[1024];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof message, format, args);
  va_end(args);
  /* The message goes as an argument, never as a format: it may hold '%'. */
  c->callbacks.logger(c->callbacks.componentEnvironment, c->name, status, category, "%s", message);
}

MECHRT_HIDDEN int fmu_allowed(mechrt_fmu *c, const char *function, unsigned allowed) {
  if (!c)
    return 0;
  if (FMU_IN(c->state) & allowed)
    return 1;
  fmu_log(c, fmi2Error, "logStatusError", "%s may not be called in %s", function,
          state_names[c->state]);
  return 0;
}

MECHRT_HIDDEN fmi2Status fmu_enter(mechrt_fmu *c, const char *function, unsigned allowed,
                                   int next) {
  if (!fmu_allowed(c, function, allowed))
    return fmi2Error;
  c->state = next;
  return fmi2OK;
}

static const char *failure_text(int status) {
  switch (status) {
  case MECHRT_SINGULAR_MASS_MATRIX:
    return "the mass matrix (or the equations of the first kind) is singular";
  case MECHRT_REDUNDANT_CONSTRAINTS:
    return "the constraints are redundant at the state";
  case MECHRT_NON_FINITE:
    return "a value is not finite (an argument, a parameter or a result)";
  case MECHRT_STEP_FAILED:
    return "the integrator's step size fell below its minimum";
  case MECHRT_OUT_OF_MEMORY:
    return "out of memory";
  case MECHRT_PROJECTION_FAILED:
    return "the state could not be projected onto the constraints";
  case MECHRT_RESET_FAILED:
    return "an event's resets break the constraints";
  case MECHRT_TOO_MANY_SWITCHES:
    return "too many events at one time";
  case MECHRT_INVALID_ARGUMENT:
    return "an argument is out of its range";
  default:
    return "the model's evaluation failed";
  }
}

MECHRT_HIDDEN fmi2Status fmu_failed(mechrt_fmu *c, const char *function, int status) {
  fmu_log(c, fmi2Error, "logStatusError", "%s at t = %.17g: %s (status %d)", function, *c->t,
          failure_text(status), status);
  return fmi2Error;
}

MECHRT_HIDDEN int fmu_derivatives(mechrt_fmu *c) {
  if (c->xdot_valid)
    return MECHRT_OK;
  int status = mechrt_held_call(c->model, c->model->rhs, *c->t, c->x, c->N, c->p, c->xdot, c->N);
  c->xdot_valid = status == MECHRT_OK;
  return status;
}

static int declared_event_values(mechrt_fmu *c, double *g);

MECHRT_HIDDEN int fmu_event_values(mechrt_fmu *c, double *g) {
  int status = MECHRT_OK;
  if (c->ne > 0)
    status = declared_event_values(c, g);
  if (status == MECHRT_OK && c->S > 0)
    status = mechrt_held_call(c->model, c->model->switch_values, *c->t, c->x, c->N, c->p, g + c->ne,
                              c->S);
  return status;
}

/* The branches of the piecewise laws at the start (as mechrt_start_branches). */
MECHRT_HIDDEN int fmu_start_branches(mechrt_fmu *c) {
  if (c->S == 0)
    return MECHRT_OK;
  mechrt_system s = {c->model, c->p, c->N, NULL, NULL, NULL, NULL, c->p + c->np};
  fmu_touched(c);
  return mechrt_start_branches(&s, *c->t, c->x);
}

static int declared_event_values(mechrt_fmu *c, double *g) {
  /* xs = (q, q', q'', lambda): the events may read accelerations and
   * multipliers (a rope that goes slack, a normal force). Solved only
   * where they do: the importer asks for the indicators at every step. */
  memcpy(c->xs, c->x, sizeof(double) * (size_t)c->N);
  int status = MECHRT_OK;
  if (!c->model->events_read_solution)
    return mechrt_held_call(c->model, c->model->events_at, *c->t, c->xs, c->N + c->nq + c->nc, c->p,
                            g, c->ne);
  if ((status = fmu_derivatives(c)) != MECHRT_OK)
    return status;
  memcpy(c->xs + c->N, c->xdot + c->nq, sizeof(double) * (size_t)c->nq);
  if (c->nc > 0) {
    status = mechrt_held_call(c->model, c->model->multipliers, *c->t, c->x, c->N, c->p,
                              c->xs + c->N + c->nq, c->nc);
    if (status != MECHRT_OK)
      return status;
  }
  return mechrt_held_call(c->model, c->model->events_at, *c->t, c->xs, c->N + c->nq + c->nc, c->p,
                          g, c->ne);
}

MECHRT_HIDDEN int fmu_constraint_residual(mechrt_fmu *c, double *largest) {
  *largest = 0;
  long m = c->nc;
  if (m == 0)
    return MECHRT_OK;
  double *values = c->projection.values;
  int status = mechrt_held_call(c->model, c->model->constraints, *c->t, c->x, c->N, c->p, values,
                                2 * m + m * c->nq);
  if (status != MECHRT_OK)
    return status;
  for (long i = 0; i < m; ++i)
    *largest =
        fmax(*largest, fmax(c->model->holonomic[i] ? fabs(values[i]) : 0, fabs(values[m + i])));
  return MECHRT_OK;
}

MECHRT_HIDDEN int fmu_project(mechrt_fmu *c) {
  if (c->nc == 0)
    return MECHRT_OK;
  fmu_touched(c);
  return mechrt_project(&c->projection, *c->t, c->x);
}

MECHRT_HIDDEN double fmu_state_scale(const mechrt_fmu *c) {
  double scale = 1;
  for (long i = 0; i < c->N; ++i)
    scale = fmax(scale, fabs(c->x[i]));
  return scale;
}

MECHRT_HIDDEN double fmu_projection_threshold(const mechrt_fmu *c) {
  return c->settings[FMU_SETTING_RTOL] * fmu_state_scale(c);
}

/* The instance's values as the model declares them: the defaults, the
 * model's init (on its constraints), t = 0, the default settings. */
static void set_defaults(mechrt_fmu *c) {
  *c->t = 0;
  if (c->np > 0)
    memcpy(c->p, c->info->param_defaults, sizeof(double) * (size_t)c->np);
  memcpy(c->x, c->info->init_state, sizeof(double) * (size_t)c->N);
  c->settings[FMU_SETTING_RTOL] = 1e-8;
  c->settings[FMU_SETTING_ATOL] = 1e-10;
  c->settings[FMU_SETTING_METHOD] = MECHRT_METHOD_DOPRI5;
  c->flags[0] = 0;
  c->flags[1] = 0;
  fmu_touched(c);
}

/* The instance's arrays in two blocks: what an FMU state saves, and the
 * scratch. */
static int allocate(mechrt_fmu *c) {
  long n = c->nq, m = c->nc, N = c->N;
  c->saved_count = 1 + c->np + c->S + N + c->ne + c->S + FMU_SETTINGS + 2;
  c->saved = calloc((size_t)c->saved_count, sizeof(double));
  long resets = c->model->reset_offsets ? c->model->reset_offsets[c->ne] : 0;
  long scratch = N + c->nout + N + n + m + c->ne + c->S + resets + 1 + c->nu + 2 * (1 + N);
  long projection = 2 * m + m * n + m * m + m + n * n + m * n + 1;
  c->xdot = calloc((size_t)(scratch + projection), sizeof(double));
  if (!c->saved || !c->xdot)
    return 0;
  double *next = c->saved;
  c->t = next++;
  c->p = next, next += c->np + c->S;
  c->x = next, next += N;
  c->g_pre = next, next += c->ne + c->S;
  c->settings = next, next += FMU_SETTINGS;
  c->flags = next;
  next = c->xdot + N;
  c->out = next, next += c->nout;
  c->xs = next, next += N + n + m;
  c->g = next, next += c->ne + c->S;
  c->resets = next, next += resets + 1;
  c->input_rates = next, next += c->nu;
  c->rows = next, next += 2 * (1 + N);
  c->projection_space = next;
  double *gram = next + 2 * m + m * n, *y = gram + m * m, *metric = y + m;
  mechrt_projection w = {c->model, c->p, m,      c->model->holonomic, NULL, next,
                         gram,     y,    metric, metric + n * n,      0};
  c->projection = w;
  return 1;
}

static void release(mechrt_fmu *c) {
  free(c->saved);
  free(c->xdot);
  free(c->name);
  free(c);
}

FMI2_EXPORT const char *fmi2GetTypesPlatform(void) {
  return "default";
}

FMI2_EXPORT const char *fmi2GetVersion(void) {
  return "2.0";
}

FMI2_EXPORT fmi2Component fmi2Instantiate(fmi2String instanceName, fmi2Type fmuType,
                                          fmi2String fmuGUID, fmi2String fmuResourceLocation,
                                          const fmi2CallbackFunctions *functions,
                                          fmi2Boolean visible, fmi2Boolean loggingOn) {
  (void)fmuResourceLocation, (void)visible;
  if (!functions)
    return NULL;
  mechrt_fmu *c = calloc(1, sizeof(mechrt_fmu));
  if (!c)
    return NULL;
  c->callbacks = *functions;
  c->name = strdup(instanceName ? instanceName : "");
  c->type = fmuType;
  c->logging = loggingOn != fmi2False;
  c->model = mechrt_library_model();
  c->info = mechrt_library_description();
  const char *guid = mechrt_library_guid();
  /* `mech build --fmu` refuses contacts and frictions (their modes are
   * state a run carries that the FMU's variables do not); a binary of
   * such a model is not this FMU's. */
  if (!c->name || !fmuGUID || strcmp(fmuGUID, guid) != 0 ||
      c->model->ncontacts + c->model->nfrictions > 0 ||
      (fmuType != fmi2ModelExchange && fmuType != fmi2CoSimulation)) {
    if (c->name)
      fmu_log(c, fmi2Error, "logStatusError",
              "fmi2Instantiate: the guid '%s' is not this FMU's (%s), or the type %d is unknown",
              fmuGUID ? fmuGUID : "(null)", guid, (int)fmuType);
    free(c->name);
    free(c);
    return NULL;
  }
  c->nq = c->model->nq, c->np = c->model->np, c->nc = c->model->nc;
  c->nout = c->model->nout, c->nu = c->model->nu, c->ne = c->model->nevents;
  c->S = c->model->nswitches;
  c->N = 2 * c->nq;
  if (!allocate(c)) {
    fmu_log(c, fmi2Error, "logStatusError", "fmi2Instantiate: out of memory");
    release(c);
    return NULL;
  }
  set_defaults(c);
  c->state = FMU_INSTANTIATED;
  return c;
}

FMI2_EXPORT void fmi2FreeInstance(fmi2Component component) {
  if (component)
    release(component);
}

FMI2_EXPORT fmi2Status fmi2SetDebugLogging(fmi2Component component, fmi2Boolean loggingOn,
                                           size_t nCategories, const fmi2String categories[]) {
  mechrt_fmu *c = component;
  (void)nCategories, (void)categories;
  if (!fmu_allowed(c, "fmi2SetDebugLogging", ~0u))
    return fmi2Error;
  c->logging = loggingOn != fmi2False;
  return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2SetupExperiment(fmi2Component component, fmi2Boolean toleranceDefined,
                                           fmi2Real tolerance, fmi2Real startTime,
                                           fmi2Boolean stopTimeDefined, fmi2Real stopTime) {
  mechrt_fmu *c = component;
  (void)stopTimeDefined, (void)stopTime;
  if (!fmu_allowed(c, "fmi2SetupExperiment", FMU_IN(FMU_INSTANTIATED)))
    return fmi2Error;
  if (!isfinite(startTime) || (toleranceDefined && !(tolerance > 0 && tolerance < 1))) {
    fmu_log(c, fmi2Error, "logStatusError",
            "fmi2SetupExperiment: the start time %g or the tolerance %g is out of range", startTime,
            tolerance);
    return fmi2Error;
  }
  /* The tolerance is Co-Simulation's relative tolerance (mech.rtol), and
   * Model Exchange's threshold for projecting onto the constraints. */
  if (toleranceDefined)
    c->settings[FMU_SETTING_RTOL] = tolerance;
  *c->t = startTime;
  fmu_touched(c);
  return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2EnterInitializationMode(fmi2Component component) {
  return fmu_enter(component, "fmi2EnterInitializationMode", FMU_IN(FMU_INSTANTIATED),
                   FMU_INITIALIZATION);
}

FMI2_EXPORT fmi2Status fmi2ExitInitializationMode(fmi2Component component) {
  mechrt_fmu *c = component;
  if (!fmu_allowed(c, "fmi2ExitInitializationMode", FMU_IN(FMU_INITIALIZATION)))
    return fmi2Error;
  /* The start state onto the constraints, as `mech simulate` starts; then
   * the events' values there, from which the first crossing is judged. */
  int status = fmu_project(c);
  if (status == MECHRT_OK)
    status = fmu_start_branches(c);
  if (status == MECHRT_OK)
    status = fmu_event_values(c, c->g_pre);
  if (status != MECHRT_OK) {
    c->state = FMU_ERROR;
    return fmu_failed(c, "fmi2ExitInitializationMode", status);
  }
  c->flags[1] = *c->t;
  c->state = c->type == fmi2ModelExchange ? FMU_EVENT : FMU_STEP;
  return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2Terminate(fmi2Component component) {
  return fmu_enter(component, "fmi2Terminate",
                   FMU_IN(FMU_EVENT) | FMU_IN(FMU_CONTINUOUS) | FMU_IN(FMU_STEP) |
                       FMU_IN(FMU_ERROR),
                   FMU_TERMINATED);
}

FMI2_EXPORT fmi2Status fmi2Reset(fmi2Component component) {
  mechrt_fmu *c = component;
  if (!fmu_allowed(c, "fmi2Reset", ~0u))
    return fmi2Error;
  set_defaults(c);
  c->state = FMU_INSTANTIATED;
  return fmi2OK;
}
