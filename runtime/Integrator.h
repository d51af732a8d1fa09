// The numeric integrators for first-order systems x' = F(t, x): Dormand–Prince
// 5(4) and 8(5,3) with step-size control and dense output, the implicit
// Radau IIA of order 5 and the variable-order BDF of orders 1–5 for stiff
// systems, the classic fixed-step RK4, and a symplectic variational
// integrator (the midpoint discrete Lagrangian) for mechanical systems. One
// entry point, `integrate`, serves the CLI, the REPL and the tests; a run
// ends with an Outcome that says why it stopped and where.
#pragma once

#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mech::runtime {

// Status codes returned by a right-hand side: 0 ok, nonzero an error the model
// reports (e.g. 1 = singular mass matrix).
using RightHandSide = std::function<int(double t, const double *x, double *xdot)>;

// Receives the state at each output time; returning false interrupts the run.
using SampleCallback = std::function<bool(double t, const double *x)>;

// Called with the state at the end of every accepted step, after the samples
// inside the step were delivered; it may change the state (a projection onto
// constraints, against drift), which then starts the next step. Returning
// false stops the run (Outcome::RhsFailed with status 0). The adaptive
// methods and RK4 call it; the midpoint method, which serves unconstrained
// models, does not.
using StepProjection = std::function<bool(double t, double *x)>;

// Told the state at the end of every accepted step, after the projection
// (if any); it only reads it (a watch along the run). Returning false stops
// the run as StepProjection's false does. Called where StepProjection is.
using StepObserver = std::function<bool(double t, const double *x)>;

// The Jacobian dF/dx at (t, x), row-major: J[i*n + j] = dF_i/dx_j for a
// system of dimension n. Status codes as for RightHandSide.
using Jacobian = std::function<int(double t, const double *x, double *J)>;

// Auto starts with Dopri5 and switches to Radau where the steps are limited
// by stability, not accuracy (runtime/AutoSwitch.h).
enum class Method { Dopri5, Dop853, Rk4, Midpoint, Radau, Bdf, Auto };

// The methods by the names the command line, the summaries and Python use:
// the one list, in the order the help gives them.
struct MethodName {
  Method method;
  const char *name;
};
inline constexpr MethodName kMethodNames[] = {
    {Method::Dopri5, "dopri5"},     {Method::Dop853, "dop853"}, {Method::Rk4, "rk4"},
    {Method::Midpoint, "midpoint"}, {Method::Radau, "radau"},   {Method::Bdf, "bdf"},
    {Method::Auto, "auto"}};
inline const char *methodName(Method method) {
  for (const MethodName &m : kMethodNames)
    if (m.method == method)
      return m.name;
  return "?";
}
// The method of a name, or nullopt for one that is not in the list.
inline std::optional<Method> methodNamed(std::string_view name) {
  for (const MethodName &m : kMethodNames)
    if (name == m.name)
      return m.method;
  return std::nullopt;
}

// Events: the zero crossings of functions g_i(t, x), located on each step's
// interpolant (runtime/StepOutput.h). An event fires where g_i changes sign
// (g_i = 0 at a step's end is no crossing until the sign on the other side
// is seen, so a g_i that starts at 0 does not fire at t0), in the chosen
// direction: +1 when g_i rises through 0 as t grows, -1 when it falls, 0
// either. A stop event ends the run there (Outcome::Stopped).
struct EventOptions {
  struct Event {
    int direction = 0;
    bool stop = false;
    // A stop adds a last sample at the event, unless it only restarts the
    // integration there (a piecewise law's switch: the state goes on).
    bool sampledAtStop = true;
  };
  std::vector<Event> events;
  // Evaluates every g_i(t, x) into g; status codes as for RightHandSide.
  std::function<int(double t, const double *x, double *g)> functions;
  // Receives each event found, in the order of time: its index, the time
  // (just past the crossing, within 1e-12 max(1, |t|) of it) and the state
  // there. Optional.
  std::function<void(int event, double t, const double *x)> record;
  // Told when one event fired more than once within one step from t to
  // tNew (it chatters: it switches faster than the steps resolve): the
  // event and how often. Optional.
  std::function<void(int event, int times, double t, double tNew)> chattered;
};

// What the variational integrator needs beyond x' = F(t, x), for a system
// whose x = (q, q') holds n coordinates and their velocities: the momenta
// p = dL/dq' and the forces dL/dq + Q (Q: the generalized forces not derived
// from L, dissipation included), both at x; and the mass matrix
// M = d2L/dq'2 at q. Status codes as for RightHandSide.
struct LagrangianForm {
  long coordinates = 0;
  std::function<int(double t, const double *x, double *momentum, double *force)> momentumAndForce;
  std::function<int(double t, const double *q, double *M)> massMatrix; // n*n, row-major
};

struct IntegratorOptions {
  Method method = Method::Dopri5;
  double t0 = 0, tEnd = 10;
  double dt = 0.01; // output sampling
  double rtol = 1e-8, atol = 1e-10;
  // Fixed step for RK4, the midpoint method and a fixedStep Radau run;
  // initial guess for the adaptive methods, 0 = automatic.
  double step = 0.001;
  long maxSteps = 1000000; // attempted steps, rejected ones included
  StepProjection project;  // none when empty
  StepObserver stepped;    // none when empty; a DAE's too
  // Method::Radau, Method::Bdf and Method::Auto: dF/dx, required (the
  // other methods ignore it).
  Jacobian jacobian;
  // Method::Radau only, for tests and benchmarks: step at the fixed `step`
  // (> 0) without error control, to measure the order of the method itself.
  // Method::Bdf refuses it: a formula of fixed order needs past values to
  // start from (integrateBdfFixedOrder in runtime/Bdf.h takes them).
  bool fixedStep = false;
  EventOptions events; // none when events.events is empty
  // A run that continues an earlier one from t0 (after an impact or a
  // reset): the output samples stay on the earlier run's grid, origin +
  // k dt, past t0; none is taken at t0 itself (the caller has written the
  // state there). NaN: the grid starts at t0, with a sample there.
  double sampleOrigin = std::numeric_limits<double>::quiet_NaN();
  // Method::Radau only: the system is the DAE B x' = F(t, x) with B =
  // diag(I, 0): components from `algebraicFrom` on have no derivative, F's
  // rows there are constraints (0 = F_i), and they are of index 2 (their
  // errors are judged times h, as RADAU5 does). -1: an ODE.
  long algebraicFrom = -1;
  // ... and components from `auxiliaryFrom` on (>= algebraicFrom) are
  // auxiliary: variables whose exact value is 0 (the multipliers of a
  // stabilised form), left out of the error and Newton norms, since their
  // rounding noise can exceed any absolute tolerance while the state they
  // correct is measured. -1: none.
  long auxiliaryFrom = -1;
};

struct IntegrationStats {
  long accepted = 0;
  long rejected = 0; // retried with a smaller step, failed stages included
  long rhsEvaluations = 0;
  long jacobianEvaluations = 0; // Method::Radau and Method::Bdf only
  // Method::Radau and Method::Bdf only: decompositions of the Newton
  // matrices, for Radau each one real and one complex LU, for BDF one LU of
  // I − (h/α_k) J.
  long factorizations = 0;
  long sparseFactorizations = 0; // of them, by the sparse LU (runtime/NewtonLu.h)
};

enum class Outcome {
  Finished,
  StepSizeUnderflow,
  NonFinite,
  RhsFailed,
  MaxSteps,
  Interrupted,
  // The implicit equations of a midpoint step (or of a fixed Radau or
  // fixed-order BDF step) had no solution.
  NoConvergence,
  // A stop event fired (IntegrationResult::event says which) at failureTime.
  Stopped
};

struct IntegrationResult {
  Outcome outcome = Outcome::Finished;
  double failureTime = 0;    // where the run stopped, unless it Finished
  int failureComponent = -1; // NonFinite: the offending component of x (or of x')
  int rhsStatus = 0;         // RhsFailed: the status the right-hand side returned
  int event = -1; // Stopped: the stop event; NonFinite: the event whose function was not finite
  // Method::Auto: what it decided and when ("switched from dopri5 to radau
  // at t = ..."), and what it would not decide silently (a fast oscillation
  // that is real motion).
  std::vector<std::string> notes, warnings;
  IntegrationStats stats;
  // "finished", "step size underflow at t = 0.99999", "non-finite value in
  // component 3 at t = 1.25", ...
  std::string message() const;
};

// Calls sample(t, x) at t0, t0 + dt, ..., tEnd (the last sample exactly at
// tEnd; integration runs backwards when tEnd < t0), using dense output for the
// adaptive methods so that sampling does not change the step sizes; RK4 steps
// at `step` and interpolates samples with its own cubic Hermite interpolation.
// Stops at the first failure, after the samples up to that point were
// delivered. `sample` may return false to interrupt; an empty `sample`
// receives nothing.
//
// Failures of the adaptive methods inside a step (the right-hand side
// returning a status, or a non-finite value) reject the step and halve it, as
// a too-large error would: a stage can leave the trajectory's neighbourhood
// when the step is too long. The failure is reported when the step size
// underflows (|h| < 1e-14 |t|), so its time is located to that precision; a
// failure at the initial state is reported at once, and so is any failure of
// RK4, which has no step to shrink.
//
// Throws std::invalid_argument for options no run can satisfy (dt <= 0,
// atol <= 0 or rtol < 0 for the adaptive methods, RK4 without a positive
// step, non-finite times, ...).
//
// Method::Radau and Method::Bdf need options.jacobian (std::invalid_argument
// otherwise). A failure of the Jacobian, evaluated at accepted states only, is
// reported at once, as RhsFailed with its status or NonFinite with the row of
// the offending entry. Radau's samples between steps come from the
// collocation polynomial, of order 3 only: on stiff problems, whose long
// steps end far more accurately, they can be much less accurate than the
// tolerance (see runtime/Radau5.h). BDF's come from the polynomial through
// its last k + 1 values, of the method's order (see runtime/Bdf.h).
//
// Method::Midpoint needs `lagrangian` (it is ignored by the other methods):
// it steps at the fixed `step` with the discrete Euler-Lagrange equations of
// L_d = h L((q0 + q1)/2, (q1 - q0)/h), forces entering by the discrete
// Lagrange-d'Alembert principle, and samples by cubic Hermite interpolation
// with F at the step's ends.
IntegrationResult integrate(const RightHandSide &f, std::vector<double> x0,
                            const IntegratorOptions &options, const SampleCallback &sample,
                            const LagrangianForm *lagrangian = nullptr);

} // namespace mech::runtime
