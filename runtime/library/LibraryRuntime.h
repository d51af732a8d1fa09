/* The numeric runtime inside every shared library that `mech build` makes:
 * argument and result checks around the compiled kernels, DOPRI5 with dense
 * output for mech_simulate (LibraryRuntime.c), Radau IIA
 * (LibraryRadau.c) with the state Jacobian (LibraryJacobian.c) and its dense
 * LU (LibraryDenseLu.c), and the projection onto constraints. Plain C, so
 * that a library needs nothing but libc and libm; no global state, so that
 * it is thread-safe and re-entrant. Every symbol is hidden: the library
 * exports only its prefixed entry points, which jit/LibraryModule.cpp emits
 * as LLVM IR calling the functions below. The layout of mechrt_model is a
 * contract with that file. */
#ifndef MECH_LIBRARY_RUNTIME_H
#define MECH_LIBRARY_RUNTIME_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A compiled kernel: x = (q, q'), p the parameters, out its results. */
typedef int (*mechrt_kernel)(double t, const double *x, const double *p, double *out);

typedef struct {
  long nq, np, nc, nout;
  mechrt_kernel rhs;              /* x' = (q', q''), 2*nq values */
  mechrt_kernel constraints;      /* Phi (nc), psi (nc), C (nc*nq, row-major) */
  mechrt_kernel multipliers;      /* lambda, nc values */
  mechrt_kernel outputs;          /* nout values */
  const unsigned char *holonomic; /* nc flags: Phi(q, t) = 0 is a constraint */
  mechrt_kernel mass_matrix;      /* M at q (nq*nq), the projection's metric; NULL: Euclidean */
  long nu;                        /* inputs: the last nu of the np parameters */
  /* M (nq*nq), C (nc*nq), then dr/dq and dr/dq' ((nq+nc)*nq each) of the
   * first-kind residual r at the solved q'' and multipliers. */
  mechrt_kernel jacobian_parts;
  /* The switches of a run (LibrarySwitches.c), as `mech simulate` makes
   * them. The contacts, frictions, events_at, outputs_at and resets
   * kernels are NULL in a model without events, contacts and frictions. */
  mechrt_kernel energy; /* T, V */
  long ncontacts, nevents;
  /* Per contact: gap, rate, gamma (phi'' = G q'' - gamma) for all contacts
   * in turn, the rows G = dphi/dq (ncontacts*nq), the restitutions. */
  mechrt_kernel contacts;
  /* The events' g and the outputs at xs = (q, q', q'', lambda): 3*nq + nc
   * values, the accelerations and multipliers of the mode in use. */
  mechrt_kernel events_at, outputs_at;
  mechrt_kernel resets;             /* every event's reset values, from the state before */
  const long *reset_offsets;        /* nevents + 1: event i's values [offsets[i], offsets[i+1]) */
  const long *reset_targets;        /* per reset value: its index in x */
  const int *event_directions;      /* per event: -1 (falling), 0 (either), 1 (rising) */
  const unsigned char *event_stops; /* per event: it ends the run, or (with resets) a segment */
  long events_read_solution;        /* the events' g read q'' or lambda */
  long nfrictions;
  /* Per friction: slip, normal force, mu_s, mu_k, gamma (s' = C q'' -
   * gamma), each for all frictions in turn, then the rows C = ds/dq'. */
  mechrt_kernel frictions;
  /* Per friction: the contact whose force is its normal force (it acts
   * while that contact rests), or -1 (its normal force is an expression). */
  const int *friction_contacts;
  /* The piecewise laws: every kernel reads p of np + nswitches values, the
   * last nswitches the branch of each law (> 0: the branch where its g >
   * 0, else the other). With branch = g the laws are as written (the
   * entry points' calls, mechrt_live_params); a run holds them on their
   * branch between switches (LibrarySwitches.c), as `mech simulate` does.
   * switch_values: each law's g at (t, x, p). */
  long nswitches;
  mechrt_kernel switch_values;
} mechrt_model;

/* Writes the inputs' values at t into u (nu values). */
typedef void (*mechrt_input_function)(double t, double *u, void *context);

/* PREFIX_event_record of the generated header: an event of a run. */
typedef struct {
  double t;
  int kind;           /* MECHRT_EVENT_* */
  int index;          /* the event's index (kind EVENT), else the contact's */
  double impulse;     /* IMPACT: the contact's impulse */
  double energy_lost; /* IMPACT: the kinetic energy the impact took (all its contacts) */
} mechrt_event_record;

enum {
  MECHRT_EVENT = 0,
  MECHRT_EVENT_IMPACT = 1,
  MECHRT_EVENT_REST = 2,
  MECHRT_EVENT_LIFT_OFF = 3,
  MECHRT_EVENT_STICK = 4,
  MECHRT_EVENT_SLIP = 5,
  MECHRT_EVENT_SWITCH = 6 /* a piecewise law changed branch; index: the law */
};

/* PREFIX_sim_options of the generated header (LibraryHeader.cpp), field for
 * field: a contract with that file. Every default is the field's zero. */
typedef struct {
  size_t size; /* the caller's sizeof: fields beyond it take their defaults */
  double t0;
  int multipliers, outputs;
  mechrt_input_function inputs; /* NULL: the inputs keep their values in p */
  void *inputs_context;
  int method;                  /* MECHRT_METHOD_DOPRI5 (0) or MECHRT_METHOD_RADAU */
  mechrt_event_record *events; /* max_events records, or NULL */
  size_t max_events;
  size_t *events_found; /* NULL, or set to the number of events (all, stored or not) */
  double *event_states; /* NULL, or per stored record the state before and after (4 nq) */
} mechrt_sim_options;

enum { MECHRT_METHOD_DOPRI5 = 0, MECHRT_METHOD_RADAU = 1 };

/* The sizes a caller may pass: the struct as first published (start time,
 * rows), with the input function, and as it is now (with the method).
 * Fields are only appended, so a struct of any of these sizes is read up to
 * its end. */
#define MECHRT_SIM_OPTIONS_MIN_SIZE (sizeof(size_t) + sizeof(double) + 2 * sizeof(int))
#define MECHRT_SIM_OPTIONS_INPUTS_SIZE (offsetof(mechrt_sim_options, method))
#define MECHRT_SIM_OPTIONS_METHOD_SIZE (offsetof(mechrt_sim_options, events))

/* The status codes of the C ABI, as documented in the generated header. */
enum {
  MECHRT_OK = 0,
  MECHRT_SINGULAR_MASS_MATRIX = 1,
  MECHRT_REDUNDANT_CONSTRAINTS = 3,
  MECHRT_NON_FINITE = 4,
  MECHRT_BUFFER_TOO_SMALL = 5,
  MECHRT_NULL_POINTER = 6,
  MECHRT_INVALID_ARGUMENT = 7,
  MECHRT_STEP_FAILED = 8,
  MECHRT_OUT_OF_MEMORY = 9,
  MECHRT_PROJECTION_FAILED = 10,
  MECHRT_CONTACT_VIOLATED =
      11, /* a contact's gap is negative at the start, or a crossing was missed */
  MECHRT_IMPACT_FAILED = 12,     /* an impact's equations have no solution */
  MECHRT_RESET_FAILED = 13,      /* an event's resets break the constraints */
  MECHRT_TOO_MANY_SWITCHES = 14, /* impacts, rests, lift-offs and resets beyond the step budget,
                                    more than 1000 at one instant, or a piecewise law
                                    switching back and forth (64 times within 1e-6 s:
                                    a sliding mode) */
  MECHRT_NORMAL_NEGATIVE = 15,   /* a friction's normal force fell below 0 */
  MECHRT_FRICTION_PARADOX = 16   /* a contact's force driving a sliding friction has no
                                    unique value (Painleve's paradox) */
};

/* Calls `kernel` after checking the pointers (p may be null only when
 * np = 0, out only when count = 0) and that t, the `inputs` values of x and
 * the parameters are finite; then checks that its `count` results are.
 * p holds the np parameters: the piecewise laws are evaluated as written. */
int mechrt_call(const mechrt_model *model, mechrt_kernel kernel, double t, const double *x,
                long inputs, const double *p, double *out, long count);
/* The same with p of np + nswitches values, the laws held on the branches
 * after the parameters (an FMU's calls). */
int mechrt_held_call(const mechrt_model *model, mechrt_kernel kernel, double t, const double *x,
                     long inputs, const double *p, double *out, long count);

/* The residuals Phi, psi (2*nc values) and the Jacobian C (nc*nq). */
int mechrt_constraints(const mechrt_model *model, double t, const double *x, const double *p,
                       double *residuals, double *jacobian);

/* dF/dx (2nq x 2nq, row-major) of x' = F(t, x) at (t, x), after the checks
 * of mechrt_call: MECHRT_SINGULAR_MASS_MATRIX when the first-kind matrix
 * [M, -C^T; C, 0] cannot be solved with, MECHRT_OUT_OF_MEMORY when its
 * workspace cannot be allocated. */
int mechrt_jacobian(const mechrt_model *model, double t, const double *x, const double *p,
                    double *out);
/* The same with the laws held on the branches after the np parameters. */
int mechrt_held_jacobian(const mechrt_model *model, double t, const double *x, const double *p,
                         double *out);

/* Integrates from t = 0 to t_end with DOPRI5 and writes rows (t, q, q') at
 * t = 0, dt, 2 dt, ... and t_end. With constraints, the start and the end of
 * every step are projected onto them. */
int mechrt_simulate(const mechrt_model *model, const double *x0, const double *p, double t_end,
                    double dt, double rtol, double atol, double *out, size_t max_rows,
                    size_t *rows);

/* As mechrt_simulate, from options->t0 to t_end, each row followed by the
 * multipliers and the outputs at its state when the options ask for them,
 * with DOPRI5 or Radau IIA (options->method).
 * The options are checked first: NULL is MECHRT_NULL_POINTER; a size other
 * than those of the struct's versions, a t0 that is not finite or after
 * t_end, an unknown method, MECHRT_INVALID_ARGUMENT. */
int mechrt_simulate_with(const mechrt_model *model, const double *x0, const double *p, double t_end,
                         double dt, double rtol, double atol, const mechrt_sim_options *options,
                         double *out, size_t max_rows, size_t *rows);

#ifdef __cplusplus
}
#endif

#endif
