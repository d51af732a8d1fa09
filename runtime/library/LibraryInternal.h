/* What the C files of the library runtime share with each other and with
 * nothing else: the system being integrated, the sample rows, the
 * projection onto the constraints, the dense LU decompositions, the state
 * Jacobian and the Radau IIA integrator. Every function here is hidden in a
 * built library. */
#ifndef MECH_LIBRARY_INTERNAL_H
#define MECH_LIBRARY_INTERNAL_H

#include "LibraryRuntime.h"

#include <complex.h>

#define MECHRT_HIDDEN __attribute__((visibility("hidden")))

/* The most steps a run takes, accepted and rejected, before it gives up. */
#define MECHRT_MAX_STEPS 10000000L
/* The regularization of the Schur complement, relative to its largest
 * diagonal entry, as runtime/DenseSolve.h's kSchurRegularization. */
#define MECHRT_SCHUR_REGULARIZATION 1e-7

/* The first step a run tries, as `mech simulate`'s default --step: the
 * integrators' controllers take it from there (Hairer's initial-step
 * estimate is used only where no first step is given). */
#define MECHRT_FIRST_STEP 0.001

/* 1 when the `count` values are all finite. */
int mechrt_all_finite(const double *v, long count);

/* The switches of a run with events or contacts (LibrarySwitches.h). */
typedef struct mechrt_switching mechrt_switching;

/* The system x' = F(t, x) of a run: the model at its parameters, with the
 * inputs set at each t by the caller's function when it gave one, in the
 * contact mode of `switching` when it is not NULL. */
typedef struct {
  const mechrt_model *model;
  const double *p;
  long size; /* 2 nq */
  mechrt_input_function inputs;
  void *inputs_context;
  double *driven; /* with an input function: a copy of p whose inputs it sets */
  mechrt_switching *switching;
  /* The held branches of the piecewise laws (nswitches values after the
   * params in p, and in driven, which is then p itself), or NULL. */
  double *branches;
} mechrt_system;

/* The parameters at t. Inputs enter only the rhs, the multipliers, the
 * outputs and the Jacobian (never M or the constraints), so only those read
 * them here. */
const double *mechrt_params_at(const mechrt_system *s, double t);

/* p (np values) with the branches of the piecewise laws set as written at
 * (t, x), x holding `given` values (q, or q and q'; q' read as 0 when
 * absent): `buffer` (np + nswitches values), or p itself when the model
 * has no piecewise law. */
const double *mechrt_live_params(const mechrt_model *model, double t, const double *x, long given,
                                 const double *p, double *buffer);

/* F(t, x) into xdot, MECHRT_NON_FINITE when a value is not finite. */
int mechrt_evaluate(const mechrt_system *s, double t, const double *x, double *xdot);

/* Hairer's initial step for a method whose local error is O(h^(order+1)),
 * from (t, y) with f0 = F(t, y); tmp and f1 are scratch (size values). A
 * failure of F is left to the step loop, which meets it and shrinks h. */
double mechrt_initial_step(const mechrt_system *s, double t, const double *y, const double *f0,
                           double *tmp, double *f1, int order, double rtol, double atol,
                           double hmax);

/* The rows of a run's output on the grid t0, t0 + dt, ..., t_end. */
typedef struct {
  double *out;
  long width, next, last;
  double t0, t_end, dt;
  int multipliers, outputs; /* the row holds lambda (and the contact forces), then the outputs */
  /* With constraints (the model's, or a contact mode's), a row's state is
   * put onto them first, as `mech simulate` puts its samples (the dense
   * output drifts from them by the local error): NULL for none. */
  struct mechrt_projection_s *projection;
  double *projected; /* 2 nq values */
} mechrt_samples;

/* The time of the next row; the rows still due are those with next <= last. */
double mechrt_sample_time(const mechrt_samples *r);

/* Writes the row (t, x) and, as asked, lambda and the outputs there. */
int mechrt_write_row(mechrt_samples *r, const mechrt_system *s, double t, const double *x);

/* The state at t + theta h within an integrator's last step, into out. */
typedef void (*mechrt_interpolant)(const void *context, double theta, double *out);

/* The integrators' report of an accepted step from t (size h) to t1 with
 * the state y1: the samples due in it and, in a run with events, the
 * events in it (LibraryEventSearch.c). MECHRT_OK to go on; MECHRT_STOPPED
 * when an event ends the step early (the switching holds where and which);
 * else a failure. scratch holds size values. */
int mechrt_after_step(mechrt_samples *r, const mechrt_system *s, double t, double h, double t1,
                      const double *y1, mechrt_interpolant interpolant, const void *context,
                      double *scratch);
#define MECHRT_STOPPED (-1)

/* Writes the rows due in (t, t1) from the step's interpolant, and the row
 * at t1 from y1 when one is due there; scratch holds size values. */
int mechrt_deliver_samples(mechrt_samples *r, const mechrt_system *s, double t, double h, double t1,
                           const double *y1, mechrt_interpolant interpolant, const void *context,
                           double *scratch);

/* The workspace of the projection onto the constraints: the model's, and
 * in a contact mode the resting contacts' too (m rows in all). */
typedef struct mechrt_projection_s {
  const mechrt_model *model;
  const double *p;
  long m;
  const unsigned char *holonomic; /* m flags */
  mechrt_switching *switching;    /* NULL, or the rows beyond the model's are its */
  double *values;                 /* Phi, psi, C */
  double *gram;                   /* C W^-1 C^T over the rows in use, then its Cholesky factor */
  double *y;                      /* m */
  double *metric; /* n*n: the Cholesky factor of W = M (regularized when singular) */
  double *z;      /* m*n: W^-1 C^T, row by row */
  int weighted;   /* W is M (the model has a mass-matrix kernel), else I */
} mechrt_projection;

/* Moves the state x (2 nq values) onto the constraints at t: positions by
 * Gauss-Newton steps of least change, then velocities. */
int mechrt_project(mechrt_projection *w, double t, double *x);

/* mechrt_project after a step, when the model has constraints; *moved says
 * whether it changed y (then F must be evaluated afresh). scratch holds
 * 2 nq values. A failure is MECHRT_REDUNDANT_CONSTRAINTS or
 * MECHRT_PROJECTION_FAILED. */
int mechrt_project_step(mechrt_projection *w, double t, double *y, double *scratch, int *moved);

/* PA = LU of the n*n row-major A in place, with partial pivoting (the row
 * swaps in `pivots`, n entries). Returns 0 when a pivot is zero or below
 * n * eps of A's largest entry: A is singular to working precision. */
int mechrt_lu_factor(double *A, long n, long *pivots);
/* b = A^-1 b from mechrt_lu_factor's result. */
void mechrt_lu_solve(const double *LU, long n, const long *pivots, double *b);
/* The same for a complex matrix. */
int mechrt_lu_factor_complex(double complex *A, long n, long *pivots);
void mechrt_lu_solve_complex(const double complex *LU, long n, const long *pivots,
                             double complex *b);

/* The number of doubles of mechrt_state_jacobian's workspace. */
long mechrt_jacobian_workspace(const mechrt_model *model);
/* dF/dx (2n x 2n, row-major) at (t, x), assembled from the model's
 * jacobian_parts kernel as mechanics/StateJacobian does: one LU of the
 * first-kind matrix [M, -C^T; C, 0] for the 2n columns. */
int mechrt_state_jacobian(const mechrt_model *model, double t, const double *x, const double *p,
                          double *workspace, long *pivots, double *J);

/* Integrates the system from the samples' t0 to t_end with Radau IIA of
 * order 5 (LibraryRadau.c), from the state y0 (already projected), writing
 * its row and the samples and projecting after every step when the model
 * has constraints; in segments between the switches when the system has
 * a switching (y0 is then the run's scratch state). */
int mechrt_integrate_radau(const mechrt_system *s, mechrt_projection *w, mechrt_samples *r,
                           double *y0, double rtol, double atol);

#endif
