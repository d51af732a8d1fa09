// The return map of a periodic motion and its Jacobian: P takes the state
// at the start of a period to the state at the start of the next, either
// through a Poincaré section (the next crossing of a declared event in its
// direction, and that event's resets: a walker's heel strike) or over a
// forcing period (the stroboscopic map of a model that depends on t
// periodically). dP/dx0 comes from the variational equations Phi' = J Phi
// integrated with the motion (J exact, mechanics/StateJacobian.h), carried
// across each jump on the way by its saltation matrix
//   S = R_x + (f+ - R_x f- - R_t) g_x / (g_x f- + g_t),
// and ended on the section by dP = (R_x - (R_x f- + R_t) g_x / (g_x f- + g_t)) Phi,
// where R is the jump (an event's resets, or a contact's impact by Newton's
// law, whose R_x is taken by central differences) and g the function that
// located it. The orbit's motion follows the model's own equations: free
// flight between impacts and resets, constraints held by the first-kind
// equations (no projection: at the tolerances used the drift over a period
// is far below Newton's; the fixed point itself is put on the
// constraints by Newton's method).
#pragma once

#include "mechanics/Contacts.h"
#include "mechanics/EventFunctions.h"
#include "mechanics/JumpJacobians.h"
#include "mechanics/Kernels.h"
#include "mechanics/StateJacobian.h"
#include "runtime/Integrator.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mech::driver {

struct ReturnMapSetup {
  // The declared event whose crossings are the section; none: the
  // stroboscopic map over `forcingPeriod`.
  std::optional<size_t> section;
  double forcingPeriod = 0;
  double t0 = 0;      // the time each period starts at (the stroboscopic map's phase)
  double until = 100; // the longest time to the section's next crossing
  // P is the map's k-th iterate: a motion that repeats after k crossings
  // or forcing periods (a period-doubled gait with 2).
  int returns = 1;
  double rtol = 1e-12, atol = 1e-12;
};

struct ReturnMapValue {
  std::vector<double> x;      // P(x0): after the section's resets
  std::vector<double> before; // at the section's crossing, before its resets (= x without one)
  double period = 0;          // the time from x0 to P(x0)
  // With several returns: the state at the start of each after the first.
  std::vector<std::vector<double>> returnStates;
  std::vector<double> jacobian; // dP/dx0, N x N row-major, when asked for
  long resets = 0, impacts = 0; // the jumps on the way, the section's own not counted
  // The largest change of T + V at a jump (the section's resets included),
  // relative to |T| + |V| there.
  double energyJump = 0;
  long steps = 0, rhsEvaluations = 0;
};

class ReturnMap {
public:
  // `kernels` are the model's (with the Jacobian's parts), `params` its
  // param values; the model must pass returnMapRefusal.
  ReturnMap(const mechanics::Equations &equations, mechanics::Kernels &kernels,
            std::vector<double> params, ReturnMapSetup setup);
  ReturnMap(const ReturnMap &) = delete;
  ReturnMap &operator=(const ReturnMap &) = delete;

  size_t dimension() const { return N_; }
  void setParams(const std::vector<double> &params) {
    params_ = params;
    restitution_ = contacts_.restitutions(params_);
  }
  void setForcingPeriod(double period) { setup_.forcingPeriod = period; }
  const std::vector<double> &params() const { return params_; }
  const ReturnMapSetup &setup() const { return setup_; }
  // Whether the model's own equations keep T + V (no forces beyond the
  // potential's, no dissipation, no t): its motions between jumps do.
  bool conservativeFlow() const { return eq_.conservative; }
  // P(x0), with dP/dx0 when `jacobian`; nullopt with `error` when the
  // motion from x0 does not come back (no crossing within `until`, a stop
  // event, a contact that comes to rest, a failed step).
  std::optional<ReturnMapValue> operator()(const std::vector<double> &x0, bool jacobian,
                                           std::string &error);
  // One return from x0 at time `start`.
  std::optional<ReturnMapValue> once(const std::vector<double> &x0, double start, bool jacobian,
                                     std::string &error);
  // The constraints at (t0, x): the residuals (Phi of each holonomic
  // constraint, then psi of each) into `residuals` and their derivatives
  // d/dx, one row of N per residual, into `rows` (psi's by central
  // differences in q; the rest exact). Nothing for a model without.
  void constraintRows(const std::vector<double> &x, std::vector<double> &residuals,
                      std::vector<double> &rows);
  // What rests at x, or "": the whole state (x' = F(t0, x) vanishes to
  // 1e-8 of x), or a contact (its gap and rate vanish so).
  std::string restingAt(const std::vector<double> &x);
  // T + V at (t0, x).
  double energy(const double *x);
  // The terms' scale |T| + |V| at (t0, x), against which energy changes are judged.
  double energyScale(const double *x);

private:
  // An event the map watches: the section, an event with resets, a stop
  // event, or a contact's gap.
  struct Watched {
    enum Kind { Section, Reset, Stop, Impact } kind;
    size_t index; // the declared event, or the contact
  };
  int augmentedRhs(double t, const double *y, double *ydot);
  int watchedFunctions(double t, const double *y, double *g);
  // Applies the jump of watched event `w` at (t, x) to x and, when the
  // Jacobian is integrated, its saltation matrix to Phi; false with `error`.
  bool jump(const Watched &w, double t, double *x, double *phi, ReturnMapValue &value,
            std::string &error);
  bool saltation(const Watched &w, double t, const double *before, const double *after,
                 std::vector<double> &S, std::string &error);
  std::pair<double, double> energyTerms(const double *x); // T, V at (t0, x)
  // Records the change of T + V from `before` to `after` at a jump.
  void energyChange(const double *before, const double *after, ReturnMapValue &value);
  // Whether (t, x) keeps the constraints (Phi and psi to 1e-8 of x).
  bool keepsConstraints(double t, const double *x);
  bool impactMap(size_t contact, double t, const double *x, double *out, std::string &error);
  bool finish(double t, const double *y, ReturnMapValue &value, std::string &error);
  // The jump's R_x and R_t, g_x and g_t at (t, x).
  bool jumpDerivatives(const Watched &w, double t, const double *x, std::vector<double> &Rx,
                       std::vector<double> &Rt, std::vector<double> &gx, double &gt,
                       std::string &error);
  std::string watchedName(const Watched &w) const;

  const mechanics::Equations &eq_;
  mechanics::Kernels &kernels_;
  std::vector<double> params_;
  ReturnMapSetup setup_;
  size_t n_, N_;
  mechanics::StateJacobian stateJacobian_;
  mechanics::EventFunctions events_;
  mechanics::ContactFunctions contacts_;
  mechanics::JumpJacobians jumps_;
  std::vector<Watched> watched_;
  runtime::EventOptions eventOptions_;
  bool withJacobian_ = false;
  std::vector<double> J_, g_, restitution_, constraintOut_;
};

// Why the model's periodic motions cannot be found by a return map, or ""
// when they can: its motion must follow its own equations between jumps
// (no frictions or inputs), and the functions of the events
// it jumps at (the section's, those with resets) must not read
// accelerations or multipliers. `where` gets the declaration at fault,
// when one is.
std::string returnMapRefusal(const mechanics::Equations &equations, std::optional<size_t> section,
                             Location &where);

} // namespace mech::driver
