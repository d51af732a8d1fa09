/* An instance of an FMU that `mech build --fmu` makes: the model of the
 * library (its kernels and description, from the hidden accessors that
 * jit/LibraryModule.cpp emits), the time, parameters and state, and the
 * state machine of the FMI 2.0 calling sequence. Shared by the common
 * functions (Fmi2Common.c), the values and FMU states (Fmi2Values.c),
 * Model Exchange (Fmi2ModelExchange.c) and Co-Simulation
 * (Fmi2CoSimulation.c). Hidden in the FMU. */
#ifndef MECH_FMI2_INSTANCE_H
#define MECH_FMI2_INSTANCE_H

#include "Fmi2Types.h"
#include "LibraryInternal.h"

/* PREFIX_model_info of the generated header, field for field: a contract
 * with jit/LibraryModule.cpp's modelInfo. */
typedef struct {
  int abi_version;
  const char *name;
  int nq, np, nc, nout;
  const char *const *coordinate_names, *const *param_names, *const *constraint_names,
                                                                *const *output_names;
  const double *param_defaults, *init_state;
  int nu, nevents, ncontacts;
  const char *const *event_names, *const *contact_names;
  int nfrictions;
  const char *const *friction_names;
} mechrt_library_info;

const mechrt_model *mechrt_library_model(void);
const mechrt_library_info *mechrt_library_description(void);
const char *mechrt_library_guid(void);

/* The states of the calling sequence (the standard's figures 7 and 9). */
enum {
  FMU_INSTANTIATED,
  FMU_INITIALIZATION,
  FMU_EVENT,      /* Model Exchange */
  FMU_CONTINUOUS, /* Model Exchange */
  FMU_STEP,       /* Co-Simulation: between steps */
  FMU_TERMINATED,
  FMU_ERROR
};

/* Bit masks of the states, for the checks at each function's entry. */
#define FMU_IN(state) (1u << (state))

/* The solver settings of Co-Simulation, after the model's values in the
 * value references (the modelDescription.xml's mech.rtol, mech.atol,
 * mech.method). */
enum { FMU_SETTING_RTOL, FMU_SETTING_ATOL, FMU_SETTING_METHOD, FMU_SETTINGS };

typedef struct {
  fmi2CallbackFunctions callbacks;
  char *name;
  fmi2Type type;
  int logging;
  int state;
  const mechrt_model *model;
  const mechrt_library_info *info;
  long nq, np, nc, nout, nu, ne, N; /* N = 2 nq, the continuous states */
  /* The piecewise laws: their held branches follow the params in p, their
   * g the declared events' in the event indicators (g_pre, g). */
  long S;

  /* What an FMU state saves (Fmi2Values.c copies these as one block):
   * the time, the parameters, the state x = (q, q'), the events' g at the
   * last accepted point, the settings, whether a stop event ended the
   * run, and the time of the last successful step. */
  double *saved;    /* the block: t, p, x, g_pre, settings, flags */
  double *t;        /* 1 */
  double *p;        /* np */
  double *x;        /* N */
  double *g_pre;    /* ne */
  double *settings; /* FMU_SETTINGS: rtol, atol, method */
  double *flags;    /* 2: terminated, last successful time */
  long saved_count;

  /* Scratch: the derivatives, the outputs, xs = (q, q', q'', lambda) for
   * the events, the events' g now, and the projection's workspace. */
  double *xdot, *out, *xs, *g, *resets;
  double *input_rates; /* nu: Co-Simulation's inputs' first derivatives over the next step */
  double *rows;        /* 2 (1 + N): the rows of a Co-Simulation step, (t, x) at its ends */
  int xdot_valid;
  mechrt_projection projection;
  double *projection_space;
} mechrt_fmu;

/* Logs through the environment's logger, when logging is on (always for
 * errors and warnings). */
void fmu_log(mechrt_fmu *c, fmi2Status status, const char *category, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

/* Whether the instance may be called in its state (one of `allowed`'s
 * bits); logs an error naming the function when not. */
int fmu_allowed(mechrt_fmu *c, const char *function, unsigned allowed);

/* Moves the instance to state `next` when it is in one of `allowed`. */
fmi2Status fmu_enter(mechrt_fmu *c, const char *function, unsigned allowed, int next);

/* An error of the runtime (MECHRT_*) as FMI's status, logged with what. */
fmi2Status fmu_failed(mechrt_fmu *c, const char *function, int status);

/* The model's derivatives at the instance's t and x into c->xdot (once
 * per change of t, p or x). */
int fmu_derivatives(mechrt_fmu *c);

/* The events' g at (t, x) into g (ne values). */
int fmu_event_values(mechrt_fmu *c, double *g);

/* The largest residual of the constraints at (t, x): |Phi| of the
 * holonomic ones, |psi| of all. */
int fmu_constraint_residual(mechrt_fmu *c, double *largest);

/* Moves x onto the constraints (mechrt_project). */
int fmu_project(mechrt_fmu *c);

/* max(1, |x|): the size of the state, for tolerances. */
double fmu_state_scale(const mechrt_fmu *c);

/* The threshold above which Model Exchange asks for an event to project,
 * and Co-Simulation's projections' reference: rtol * max(1, |x|). */
double fmu_projection_threshold(const mechrt_fmu *c);

/* After t, p or x changed. */
static inline void fmu_touched(mechrt_fmu *c) {
  c->xdot_valid = 0;
}

#endif
