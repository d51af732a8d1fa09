// The header's text. Its comments are the ABI's documentation: a caller
// reads the layouts and codes here, in the header of their own model.
#include "driver/LibraryHeader.h"

#include "support/NumberText.h"

#include <cctype>
#include <cstdio>
#include <sstream>

namespace mech::driver {

namespace {

std::string upper(std::string text) {
  for (char &c : text)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

// " *   q[0]  th1 [rad]" lines, for `array` entries.
void list(std::ostringstream &out, const char *array, const std::vector<HeaderEntry> &entries,
          bool withValue) {
  for (size_t i = 0; i < entries.size(); ++i) {
    out << " *   " << array << "[" << i << "]  " << entries[i].name;
    if (!entries[i].unit.empty())
      out << " [" << entries[i].unit << "]";
    if (withValue)
      out << " = " << shortestNumber(entries[i].value);
    out << "\n";
  }
}

// PREFIX_event_record and its kinds; the layout is mechrt_event_record
// (runtime/library/LibraryRuntime.h).
std::string eventRecord(const std::string &p, const std::string &P) {
  return R"(
/* An event of a run (see )" +
         p + R"(_sim_options). */
typedef struct {
  double t;           /* when, in s (for a rest: when the bounces accumulate) */
  int kind;           /* )" +
         P + R"(_EVENT_* below */
  int index;          /* the event's index in event_names (kind )" +
         P + R"(_EVENT), the friction's
                         in friction_names (STICK, SLIP), the law's (SWITCH, law[i]
                         below), else the contact's */
  double impulse;     /* an impact: the contact's impulse (its multiplier's unit times s) */
  double energy_lost; /* an impact: the kinetic energy it took, in J (all its contacts) */
} )" + p +
         R"(_event_record;

#define )" +
         P +
         R"(_EVENT 0          /* a declared event fired (a stop event ends the run there) */
#define )" +
         P +
         R"(_EVENT_IMPACT 1   /* a contact closed: the velocities jumped by Newton's law */
#define )" +
         P +
         R"(_EVENT_REST 2     /* a contact came to rest: held closed by its force */
#define )" +
         P +
         R"(_EVENT_LIFT_OFF 3 /* a resting contact's force fell to zero: it opens */
#define )" +
         P +
         R"(_EVENT_STICK 4    /* a friction's slip reached 0 and its force holds it there */
#define )" +
         P +
         R"(_EVENT_SLIP 5     /* a friction began to slip (or its slip turned back) */
#define )" +
         P +
         R"(_EVENT_SWITCH 6   /* a piecewise law changed branch (its g crossed 0) */
)";
}

// PREFIX_sim_options and its initializer; the layout is mechrt_sim_options
// (runtime/library/LibraryRuntime.h).
std::string simOptions(const std::string &p, const std::string &P) {
  return eventRecord(p, P) + R"(
/* The options of )" +
         p + R"(_simulate_with. The caller sets size to
 * sizeof()" +
         p +
         R"(_sim_options): fields beyond the size a caller gives take
 * their defaults, so that a program compiled against this header keeps
 * working with a library that has more fields (later ABI versions only
 * append). Every default is the field's zero value; )" +
         P + R"(_SIM_OPTIONS_INIT
 * initializes a struct to the defaults. */
typedef struct {
  size_t size;     /* sizeof()" +
         p + R"(_sim_options) */
  double t0;       /* the start time in s (default 0) */
  int multipliers; /* nonzero: each row also holds lambda (nc values), then the
                      ncontacts contacts' and nfrictions frictions' forces */
  int outputs;     /* nonzero: each row also holds the outputs (nout values) */
  /* The inputs against time: inputs(t, u, inputs_context) writes the nu
   * inputs' values at t into u (the last nu entries of a copy of p) before
   * each evaluation. NULL: the inputs keep their values in p. */
  void (*inputs)(double t, double *u, void *context);
  void *inputs_context;
  /* The integrator: )" +
         P + R"(_METHOD_DOPRI5 (the default, as above) or
   * )" + P +
         R"(_METHOD_RADAU, Radau IIA of order 5 with the exact
   * Jacobian for stiff models (`mech simulate --method radau`); with
   * constraints it projects after every step as DOPRI5 does. */
  int method;
  /* The events of the run (the model's events, and its contacts' impacts,
   * rests and lift-offs), in the order of time: the first max_events are
   * stored in events when it is not NULL; *events_found, when not NULL,
   * is set to how many there were (stored or not). event_states, when not
   * NULL, gets for each stored event the state x before it and after it
   * (4*nq values; the same twice but for impacts and resets). */
  )" + p +
         R"(_event_record *events;
  size_t max_events;
  size_t *events_found;
  double *event_states;
} )" + p +
         R"(_sim_options;

#define )" +
         P + "_METHOD_DOPRI5 0\n#define " + P + "_METHOD_RADAU 1\n#define " + P +
         "_SIM_OPTIONS_INIT {sizeof(" + p + "_sim_options), 0.0, 0, 0, 0, 0, " + P +
         "_METHOD_DOPRI5, 0, 0, 0, 0}\n";
}

// The opening comment: the model's names and units, the array layouts and
// the calling conventions, read by whoever calls the library.
void writeLayoutComment(std::ostringstream &out, const HeaderModel &model) {
  const std::string &p = model.prefix;
  size_t nq = model.coordinates.size(), np = model.params.size(), nc = model.constraints.size(),
         nout = model.outputs.size();
  out << "/* " << model.file << ": the C interface of the model " << model.model
      << ", compiled to native\n * code by `" << model.command << "`.\n *\n";
  out << " * Coordinates q (nq = " << nq << "). A state x = (q, q') holds 2*nq = " << 2 * nq
      << " values:\n * x[0 .. nq-1] = q, x[nq .. 2nq-1] = q'.\n";
  list(out, "q", model.coordinates, false);
  out << " *\n * Parameters p (np = " << np << "), SI units; the defaults are " << p
      << "_model()->param_defaults.\n";
  list(out, "p", model.params, true);
  if (model.inputs > 0)
    out << " * The last nu = " << model.inputs
        << " of them are the model's inputs u (0 by default): every kernel\n"
           " * reads them from p; "
        << p << "_simulate_with can set them against time.\n";
  if (nc > 0) {
    out << " *\n * Constraints (nc = " << nc
        << "), each with a multiplier lambda, the generalized\n"
           " * constraint force C^T lambda being added to the forces: M q'' = f + C^T lambda.\n";
    for (size_t i = 0; i < nc; ++i)
      out << " *   lambda[" << i << "]  " << model.constraints[i].name
          << (model.constraints[i].unit.empty() ? "" : " [" + model.constraints[i].unit + "]")
          << (model.holonomic[i] ? "  (holonomic)" : "  (nonholonomic)") << "\n";
  }
  if (nout > 0) {
    out << " *\n * Outputs (nout = " << nout << "):\n";
    list(out, "out", model.outputs, false);
  }
  if (!model.events.empty() || !model.contacts.empty() || !model.frictions.empty() ||
      !model.switches.empty())
    out << " *\n * " << p
        << "_simulate_with locates the events and makes the contacts' impacts,\n"
           " * rests and lift-offs, the frictions' sticking and slipping, the\n"
           " * events' resets and the piecewise laws' switches (each law held on\n"
           " * its branch until its g crosses 0), as `mech simulate` does. The\n"
           " * other functions evaluate the laws as written.\n";
  for (size_t i = 0; i < model.events.size(); ++i)
    out << " *   event[" << i << "]  " << model.events[i] << "\n";
  for (size_t i = 0; i < model.contacts.size(); ++i)
    out << " *   contact[" << i << "]  " << model.contacts[i] << "\n";
  for (size_t i = 0; i < model.frictions.size(); ++i)
    out << " *   friction[" << i << "]  " << model.frictions[i] << "\n";
  for (size_t i = 0; i < model.switches.size(); ++i)
    out << " *   law[" << i << "]  " << model.switches[i] << "\n";
  out << R"( *
 * Every function returns a status code (below) and never aborts, throws or
 * keeps state between calls: the functions are thread-safe and re-entrant.
 * p may be NULL when np = 0. Matrices are row-major. Time t is in s.
 */
)";
}

// The ABI version and the status codes, the values every entry point
// returns.
void writeStatusCodes(std::ostringstream &out, const std::string &p, const std::string &P,
                      int abiVersion) {
  out << R"(
/* The version of this interface; )"
      << p << R"(_abi_version() returns the library's. */
#define )"
      << P << "_ABI_VERSION " << abiVersion << R"(

/* Status codes. */
#define )"
      << P << R"(_OK 0
#define )"
      << P
      << R"(_SINGULAR_MASS_MATRIX 1   /* M (with constraints: M on their null space) is singular */
#define )"
      << P << R"(_REDUNDANT_CONSTRAINTS 3  /* the rows of the constraint Jacobian C are dependent */
#define )"
      << P << R"(_NON_FINITE 4             /* an input (t, x, p) or a result is NaN or infinite */
#define )"
      << P << R"(_BUFFER_TOO_SMALL 5       /* simulate: *rows is set to the rows needed */
#define )"
      << P << R"(_NULL_POINTER 6
#define )"
      << P
      << R"(_INVALID_ARGUMENT 7       /* simulate: t_end < t0, dt, rtol or atol <= 0, options */
#define )"
      << P
      << R"(_STEP_FAILED 8            /* simulate: the step size underflowed or 1e7 steps passed */
#define )"
      << P << R"(_OUT_OF_MEMORY 9
#define )"
      << P
      << R"(_PROJECTION_FAILED 10     /* simulate: the state could not be put onto the constraints */
#define )"
      << P << R"(_CONTACT_VIOLATED 11     /* simulate: a contact's gap is negative at the start,
                                        or an impact was missed (smaller rtol, atol) */
#define )"
      << P << R"(_IMPACT_FAILED 12        /* simulate: an impact's equations have no solution */
#define )"
      << P << R"(_RESET_FAILED 13         /* simulate: an event's resets break the constraints */
#define )"
      << P << R"(_TOO_MANY_SWITCHES 14    /* simulate: more than 1e7 impacts, rests, lift-offs
                                        and resets, more than 1000 at one instant, or a
                                        piecewise law switching back and forth (64 times
                                        within 1e-6 s: a sliding mode) */
#define )"
      << P << R"(_NORMAL_NEGATIVE 15      /* simulate: a friction's normal force fell below 0 */
#define )"
      << P << R"(_FRICTION_PARADOX 16     /* simulate: a contact's force that drives a sliding
                                        friction has no unique value (Painleve's paradox) */
)";
}

// PREFIX_model_info, the model's description, and the functions returning it
// and the library's ABI version.
void writeModelInfo(std::ostringstream &out, const std::string &p, const std::string &P) {
  out << R"(
typedef struct {
  int abi_version;        /* )"
      << P << R"(_ABI_VERSION */
  const char *name;       /* the model's name */
  int nq, np, nc, nout;   /* coordinates, params, constraints, outputs */
  const char *const *coord_names, *const *param_names, *const *constraint_names,
      *const *output_names; /* nq, np, nc, nout names; NULL when the count is 0 */
  const double *param_defaults; /* np values, SI */
  const double *init_state;     /* 2*nq values: the model's init (q, q') */
  int nu;                       /* inputs: the last nu of the np parameters */
  int nevents, ncontacts;       /* the model's events and contacts */
  const char *const *event_names, *const *contact_names; /* NULL when the count is 0 */
  int nfrictions;               /* the model's frictions */
  const char *const *friction_names; /* NULL when the count is 0 */
} )" << p
      << R"(_model_info;

const )"
      << p << "_model_info *" << p << R"(_model(void);
int )" << p
      << R"(_abi_version(void);
)";
}

// The entry points evaluating the model at one state.
void writeEvaluations(std::ostringstream &out, const std::string &p) {
  out << R"(
/* x' = (q', q''): 2*nq values. */
int )" << p
      << R"(_rhs(double t, const double *x, const double *p, double *xdot);
/* M(q, t): nq*nq values. */
int )" << p
      << R"(_mass_matrix(double t, const double *q, const double *p, double *M);
/* f(q, q', t), the right-hand side of M q'' = f (+ C^T lambda): nq values. */
int )" << p
      << R"(_forcing(double t, const double *x, const double *p, double *f);
/* The kinetic and the potential energy: T_V[0] = T, T_V[1] = V, in J. */
int )" << p
      << R"(_energy(double t, const double *x, const double *p, double *T_V);
/* The model's outputs: nout values (none when nout = 0). */
int )" << p
      << R"(_outputs(double t, const double *x, const double *p, double *out);
/* The multipliers lambda: nc values (none when nc = 0). */
int )" << p
      << R"(_multipliers(double t, const double *x, const double *p, double *lambda);
/* The Jacobian dF/dx of x' = F(t, x) = (q', q''): (2*nq)*(2*nq) values,
 * row i the derivatives of x'[i]. Exact: assembled from the symbolic
 * derivatives of the equations (with constraints, of their first-kind form),
 * as the implicit integrators of `mech simulate` use it. */
int )" << p
      << R"(_jacobian(double t, const double *x, const double *p, double *J);
/* The constraint residuals, residuals[0 .. nc-1] = Phi (0 for a nonholonomic
 * constraint) and residuals[nc .. 2nc-1] = psi = C q' + dPhi/dt, and the
 * Jacobian C = dpsi/dq': nc*nq values. Nothing is written when nc = 0. */
int )" << p
      << R"(_constraints(double t, const double *x, const double *p, double *residuals,
                double *jacobian);
)";
}

// The integrators: PREFIX_simulate, its options, and PREFIX_simulate_with.
void writeSimulation(std::ostringstream &out, const std::string &p, const std::string &P) {
  out << R"(/* Integrates from t = 0 to t_end with the Dormand-Prince 5(4) method
 * (relative and absolute tolerances rtol, atol > 0), with constraints
 * projecting the state onto them at the start and after every step. Writes
 * rows of 1 + 2*nq values (t, q, q') at t = 0, dt, 2 dt, ... and t_end into
 * out (max_rows rows), and the number written to *rows. When max_rows is too
 * small nothing is integrated: the result is )"
      << P << R"(_BUFFER_TOO_SMALL with the
 * rows needed in *rows (out may be NULL to ask). On a failure mid-run the
 * rows up to it are kept. */
int )" << p
      << R"(_simulate(const double *x0, const double *p, double t_end, double dt, double rtol,
                 double atol, double *out, size_t max_rows, size_t *rows);
)" << simOptions(p, P)
      << R"(
/* As )"
      << p << R"(_simulate, from options->t0 to t_end (t_end >= t0; rows at t0,
 * t0 + dt, ..., t_end), each row (t, q, q') followed by the nc multipliers
 * lambda and the contacts' and frictions' forces when options->multipliers
 * is nonzero, then the nout outputs when options->outputs is: rows of
 * 1 + 2*nq [+ nc + ncontacts + nfrictions] [+ nout] values, the columns of
 * `mech simulate`. options NULL is )"
      << P << R"(_NULL_POINTER; a size other than
 * this struct's and its earlier versions' (the fields before inputs, and
 * before method), a t0 that is not finite or an unknown method, )"
      << P << R"(_INVALID_ARGUMENT. */
int )" << p
      << R"(_simulate_with(const double *x0, const double *p, double t_end, double dt,
                      double rtol, double atol, const )"
      << p << R"(_sim_options *options, double *out,
                      size_t max_rows, size_t *rows);
)";
}

} // namespace

// The header, section by section: documentation comment, status codes,
// model description, evaluations, integrators, and the closing guards.
std::string libraryHeader(const HeaderModel &model) {
  const std::string &p = model.prefix;
  const std::string P = upper(p);
  std::ostringstream out;
  writeLayoutComment(out, model);
  // The include guard and the C linkage enclose every declaration.
  out << "#ifndef " << P << "_H\n#define " << P << R"(_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif
)";
  writeStatusCodes(out, p, P, model.abiVersion);
  writeModelInfo(out, p, P);
  writeEvaluations(out, p);
  writeSimulation(out, p, P);
  out << R"(
#ifdef __cplusplus
}
#endif

#endif
)";
  return out.str();
}

} // namespace mech::driver
