/* The switches of a built library's run with events or contacts, as `mech
 * simulate` makes them (compiler/driver/ContactRun.h): the events located
 * on each step's dense output (LibraryEventSearch.c), the contact modes
 * (resting contacts held by their forces, solved numerically from M, C
 * and the contacts' rows: LibraryModes.c), and the impacts, rests,
 * lift-offs and resets between the smooth segments of the run
 * (LibrarySwitches.c). Hidden in a built library. */
#ifndef MECH_LIBRARY_SWITCHES_H
#define MECH_LIBRARY_SWITCHES_H

#include "LibraryInternal.h"

/* The tolerances of driver/ContactTolerances.h, the same numbers. */
#define MECHRT_TOUCHING_GAP 1e-9
#define MECHRT_RESTING_RATE 1e-9
#define MECHRT_SHORTEST_FLIGHT 1e-10
#define MECHRT_MAX_SWITCHES_AT_ONE_TIME 1000

/* A friction's state while its normal force is an open contact's. */
#define MECHRT_FRICTION_OFF 2

/* A crossing found in a step: its time and the mode event's index. */
typedef struct {
  double t;
  long event;
} mechrt_crossing;

struct mechrt_switching {
  const mechrt_model *model;
  long n, m, k, E, F; /* coordinates, the model's constraints, contacts, declared events,
                         frictions */
  long S;             /* piecewise laws: mode events E + k + 3 F + j, after the frictions' */

  /* The mode: which contacts rest, their count, the projection's flags. */
  unsigned char *resting; /* k */
  long nresting;
  /* F: 0 sticks, +1 or -1 slips with that sign of the slip, or
   * MECHRT_FRICTION_OFF (its normal force is an open contact's). */
  signed char *friction;
  long nstick;
  unsigned char *holonomic; /* m + k + F: the model's, then 1 per resting contact, 0 per
                               sticking friction */
  double *restitution;      /* k */

  /* The contacts' values at the last mechrt_contact_values: gap, rate,
   * gamma (k each), rows (k*n), restitutions (k). */
  double *contact;
  /* The frictions' values at the last mechrt_friction_values: slip, N,
   * mu_s, mu_k, gamma (F each), rows C = ds/dq' (F*n). */
  double *fvalues;

  /* The mode's solution at the last mechrt_mode_solve: x' (2n), then
   * xs = (q, q', q'', lambda) (3n + m), and each contact's force (k, 0
   * where not resting), then each friction's (F: held while it sticks,
   * -sigma mu_k N while it slips). */
  double *xdot, *xs, *forces;
  double *M, *residuals, *kkt, *kkt_rhs; /* n*n, 2m + m*n, s*s, s (s = n + m + k + F) */
  double *kkt_probe;                     /* s: a column of the KKT inverse (the paradox check) */
  long *pivots;                          /* s */

  /* The events of the mode: E declared, then one per contact (its impact
   * when free, its lift-off when resting), all falling, then three per
   * friction: its normal force; sticking, its force beyond mu_s N and
   * below -mu_s N; slipping, its slip reaching 0 (and a constant). */
  long ne;
  double *g_old, *g_new, *g_probe, *grid, *probe, *at_event;
  int *sign;
  mechrt_crossing *crossings; /* ne * MECHRT_MAX_GRID_PARTS */
  long ncrossings;
  int stopped;      /* the last step ended at a stop event */
  long stop_event;  /* which */
  double stop_time; /* when; at_event holds the state there */

  /* What the caller wants of the events. */
  mechrt_event_record *records;
  size_t max_records, found;
  double *record_states;

  /* A violated contact seen at a sample (a crossing the search missed). */
  int missed;
  double short_flight; /* the next segment's first step, when a flight is short */
};

#define MECHRT_MAX_GRID_PARTS 256

/* The doubles, longs/ints and crossings the switching's arrays need. */
size_t mechrt_switching_doubles(const mechrt_model *model);

/* Lays out the arrays in `doubles` (mechrt_switching_doubles of them), the
 * flags in `bytes` (2k + m bytes), the pivots, signs and crossings in
 * their buffers; reads the options' event records. */
void mechrt_switching_init(mechrt_switching *w, const mechrt_model *model, double *doubles,
                           unsigned char *bytes, long *pivots, int *sign,
                           mechrt_crossing *crossings, const mechrt_sim_options *options);

/* The contacts' values at (t, x), params p, into w->contact. */
int mechrt_contact_values(mechrt_switching *w, double t, const double *x, const double *p);
/* The frictions' values at (t, x), params p, into w->fvalues. */
int mechrt_friction_values(mechrt_switching *w, double t, const double *x, const double *p);

/* The frictions at the start (LibraryFriction.c): the coefficients and
 * normal forces checked, each slipping with the sign of its slip or, where
 * that is 0, settled as where a slip reaches 0. */
int mechrt_start_frictions(mechrt_switching *w, const mechrt_system *s, double t, const double *x);
/* The frictions whose normal force is a contact's follow it at (t, x):
 * where it rests they stick or slip (as at the start), where it is open
 * they do not act; MECHRT_FRICTION_PARADOX where the mode then has no
 * contact force. */
int mechrt_contact_frictions_follow(mechrt_switching *w, const mechrt_system *s, double t,
                                    const double *x);
/* Friction f's contact (its normal force), or -1. */
long mechrt_friction_contact(const mechrt_switching *w, long f);
/* The row of resting contact c in the mode's KKT system (LibraryConsistency.c). */
long mechrt_contact_row(const mechrt_switching *w, long c);
/* With the mode's KKT matrix factored in w->kkt (size s): whether the
 * resting contacts whose forces drive sliding frictions respond to their
 * own accelerations as contacts do, d lambda / d gamma on them (the KKT
 * inverse on their rows) a P-matrix; for one, positive
 * (LibraryConsistency.c). */
int mechrt_contacts_consistent(mechrt_switching *w, long s);
/* Friction i's event `which` (0: its normal force; 1, 2: its force leaving
 * the cone, or its slip reaching 0) at (t, x): the switch made. */
int mechrt_friction_switch(mechrt_switching *w, const mechrt_system *s, long i, int which, double t,
                           const double *x);

/* The mode's x' (and, with `full`, q'', lambda and the contact forces)
 * at (t, x) with params p: into w->xdot, w->xs, w->forces. */
int mechrt_mode_solve(mechrt_switching *w, double t, const double *x, const double *p, int full);

/* The mode's event functions at (t, x) into g (w->ne values). */
int mechrt_mode_events(mechrt_switching *w, const mechrt_system *s, double t, const double *x,
                       double *g);

/* dF/dx of the mode's x' = F(t, x) at (t, y) by forward differences from
 * f0 = F(t, y) (scratch: 2 * size values), for Radau's Newton iteration in
 * a mode where contacts rest (the exact Jacobian's parts are the model's
 * without them). */
int mechrt_mode_jacobian(const mechrt_system *s, double t, const double *y, const double *f0,
                         double *scratch, double *J);

/* phi'' of every contact at (t, x) in the mode into a (k values; 0 where
 * the mode cannot be solved); leaves the contacts' values at x. */
void mechrt_gap_accelerations(mechrt_switching *w, const mechrt_system *s, double t,
                              const double *x, double *a);

/* The resting contacts' rows after the model's, for the projection: Phi,
 * psi (m + r each) and C ((m + r) * n) into values. */
int mechrt_mode_constraints(mechrt_switching *w, double t, const double *x, const double *p,
                            double *values);

/* A row's values after (t, x) in the mode: lambda and the contact forces
 * when `multipliers`, then the outputs when `outputs`. */
int mechrt_switching_row(mechrt_switching *w, const mechrt_system *s, double t, const double *x,
                         double *extra, int multipliers, int outputs);

/* Whether a free contact's gap at the sample (t, x) is negative beyond
 * what locating its impact leaves: the event search missed a crossing. */
int mechrt_crossed_unseen(mechrt_switching *w, const mechrt_system *s, double t, const double *x);

/* g of the mode's events at the start of a segment, and their signs. */
int mechrt_events_begin(mechrt_switching *w, const mechrt_system *s, double t, const double *x);

/* After the resting flags or the frictions' states changed: the counts
 * of resting contacts and sticking frictions and the projection's flags. */
void mechrt_mode_count(mechrt_switching *w);

/* After `resting` changed: the count, the flags, the projection's rows. */
void mechrt_mode_changed(mechrt_switching *w, mechrt_projection *projection);

/* Appends an event record (states before and after, 2n values each). */
void mechrt_record(mechrt_switching *w, double t, int kind, long index, double impulse,
                   double energy_lost, const double *before, const double *after);

/* A free contact's gap closed at t: the impact of every contact touching
 * there, the velocities in x replaced by those after it, the records
 * (LibraryImpactStep.c). */
int mechrt_impact(mechrt_switching *w, const mechrt_system *s, long contact, double t, double *x);

/* The run from the samples' t0, where y0 is the (projected) state whose
 * row is written, to t_end, in segments: `integrate` integrates one from
 * (t, y) with the first step h0 (0: chosen) until the end or a stop. */
typedef int (*mechrt_segment)(void *context, double t, const double *y, double h0);
/* The branches of the piecewise laws at the start of a run (s->branches):
 * each law's as the sign of its g there; where g is 0, the side g moves to
 * a moment ahead (two Euler steps, so that a g at rest shows the sign of
 * its second derivative), as `mech simulate` starts. */
int mechrt_start_branches(const mechrt_system *s, double t, const double *x);

int mechrt_run_switching(mechrt_switching *w, const mechrt_system *s, mechrt_projection *projection,
                         mechrt_samples *r, double *y, mechrt_segment segment, void *context);

#endif
