// A run whose state jumps: impacts at unilateral contacts (Newton's law,
// simultaneous contacts solved together, runtime/ImpactLaw.h), resting
// contacts held as constraints until their force would pull (lift-off),
// and the resets of events. The run is a chain of smooth segments, each
// integrated in one contact mode up to the event that ends it; the switch
// is applied there and the next segment starts from the new state, its
// samples on the same grid. Used by `mech simulate` (and so by the REPL,
// Python and animate) for models with contacts or resets.
#pragma once

#include "mechanics/Contacts.h"
#include "mechanics/InputKernels.h"
#include "mechanics/Kernels.h"
#include "mechanics/Switches.h"
#include "runtime/ImpactLaw.h"
#include "runtime/Integrator.h"

#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mech::mechanics {
class ConstraintProjector;
class EventFunctions;
} // namespace mech::mechanics

namespace mech::driver {

class ChatterWatch;

// One impact: its time, the contacts that pushed (with their impulses),
// the velocities before and after, and the kinetic energy it took.
struct ImpactRecord {
  double t = 0;
  std::vector<size_t> contacts;
  std::vector<double> impulses; // per contact in `contacts`
  std::vector<double> before, after;
  double energyLost = 0;
};

// A contact that came to rest or lifted off.
struct ContactSwitch {
  double t = 0;
  size_t contact = 0;
  bool rests = true;
};

// The contacts' part of a run's summary.
struct ContactReport {
  std::vector<ImpactRecord> impacts; // at most kKeptImpacts kept; `impactCount` counts all
  long impactCount = 0;
  std::vector<long> impactsPerContact;
  std::vector<ContactSwitch> switches;
  double energyLostAtImpacts = 0;
  // Per friction: how often it came to stick and began to slip, and the
  // time it spent stuck.
  std::vector<long> sticksPerFriction, slipsPerFriction;
  std::vector<double> stuckTime;
  std::vector<ContactSwitch> frictionSwitches; // `contact` the friction, `rests`: it sticks
  double energyChangedAtResets = 0;
  long resets = 0;
  // Per switch of a piecewise law (mechanics/Switches.h): where it was
  // written ("line:column"), how often the run restarted there, and when
  // first.
  std::vector<std::string> switchPlaces;
  std::vector<long> switchesPerLaw;
  std::vector<double> firstSwitch;
};

inline constexpr size_t kKeptImpacts = 100000;

// The rows an impact keeps of a model's m constraints, A v + a = 0 after it
// (A = C, a = psi - C v at (t, x)), into `problem` (whose n and velocity
// are set): ContactImpact.cpp.
void impactConstraintRows(mechanics::Kernels &kernels, size_t m, double t, const double *x,
                          const double *p, runtime::ImpactProblem &problem);

// The contact modes met so far: each one's equations (the model's with its
// resting contacts held, mechanics::modeEquations) and kernels, made by
// `compile` (the model's back end, its inputs wired) from its programs,
// which are kept with them. A simulation's, or a sweep worker's, reused by
// its runs, so that a mode is derived and compiled once.
class ContactModes {
public:
  // Compiles a mode's programs; `key` names the mode among the model's
  // (its resting contacts, "0110"), for the kernel cache's index.
  using Compile = std::function<std::shared_ptr<mechanics::Kernels>(
      const mechanics::KernelPrograms &, const std::string &key)>;
  // `jacobian`: the programs get dF/dx's parts too (the implicit methods).
  ContactModes(const mechanics::Equations &model, Compile compile, size_t params,
               bool jacobian = false)
      : model_(model), compile_(std::move(compile)), params_(params), jacobian_(jacobian) {}

  struct Mode {
    mechanics::Equations equations;
    std::unique_ptr<mechanics::KernelPrograms> programs;
    std::shared_ptr<mechanics::Kernels> kernels; // null: none rests, the model's own
  };
  const Mode &operator()(const mechanics::ModeKey &mode);

private:
  const mechanics::Equations &model_;
  Compile compile_;
  size_t params_;
  bool jacobian_;
  std::map<mechanics::ModeKey, Mode> modes_;
};

class ContactRun {
public:
  struct Hooks {
    // The output sample (false interrupts the run).
    std::function<bool(double t, const double *x)> sample;
    // The kernels now in use and, per contact and then per friction, its
    // slot among their multipliers after the model's constraints (-1: not
    // resting, not sticking).
    std::function<void(mechanics::Kernels &, mechanics::ConstraintProjector &,
                       const std::vector<int> &)>
        modeChanged;
    // A declared event fired (logged with the row there).
    std::function<void(int event, double t, const double *x)> declared;
    std::function<void(int event, int times, double t, double tNew)> chattered;
    // A contact event for the log: impact (with its record), rest or
    // lift-off of `contact`, with the state there (before an impact).
    std::function<void(size_t contact, const char *what, double t, const double *x,
                       const ImpactRecord *impact)>
        contact;
    // A friction came to stick (`sticks`) or began to slip, at (t, x).
    std::function<void(size_t friction, bool sticks, double t, const double *x)> friction;
    // Piecewise law `law` (Equations::switches) changed branch at (t, x).
    std::function<void(size_t law, double t, const double *x)> switched;
    // The energy T + V jumped by `change` at t (an impact or a reset).
    std::function<void(double change)> energyJump;
  };

  // `kernels` are the model's own (the mode where no contact rests),
  // `modes` the other modes' (of the same equations).
  ContactRun(const mechanics::Equations &equations, mechanics::Kernels &kernels,
             ContactModes &modes, const std::vector<double> &params, mechanics::InputFill fill,
             bool projection, Hooks hooks);
  ~ContactRun();

  // Integrates from x0 at options.t0; the result's stats are the sum over
  // the segments. With options.jacobian set (an implicit method), each
  // mode's dF/dx is its own (the kernels must have the Jacobian's parts). `error` says why a switch
  // could not be made (the result is then RhsFailed at its time).
  runtime::IntegrationResult run(const std::vector<double> &x0,
                                 const runtime::IntegratorOptions &options, std::string &error);
  const ContactReport &report() const { return report_; }
  // Watches the forces that jump with a velocity in every segment
  // (driver/ChatterWatch.h): once one chatters the run ends there.
  void watch(ChatterWatch &watch) { watch_ = &watch; }
  // The force of friction `i` while it slips, -sigma mu_k N, at (t, x).
  double slipForce(size_t i, double t, const double *x);
  // The switch of a piecewise law that switched back and forth without
  // the run advancing (the run's error then says so), if one did.
  std::optional<size_t> chatteringSwitch() const { return chattering_; }

private:
  struct Mode;
  // Where the run is between segments.
  struct Progress {
    std::vector<double> x;
    double t = 0;
    bool first = true;
    long switches = 0, switchesHere = 0;
    double lastSwitch = NAN;
  };
  runtime::IntegrationResult segments(const std::vector<double> &x0,
                                      const runtime::IntegratorOptions &options,
                                      std::string &error);
  Mode &modeFor(const mechanics::ModeKey &key);
  // Friction `i` sticks (or slips) from t: the report's counts and time.
  void frictionChanged(size_t i, bool sticks, double t, const double *x);
  // The mode now: the contacts' resting flags and the frictions' states.
  mechanics::ModeKey key() const;
  // The frictions (driver/ContactFriction.cpp): their states at the start,
  // the state of friction `i` whose slip is 0 at (t, x), and a switch.
  bool startFrictions(double t, const std::vector<double> &x, std::string &error);
  bool settleFriction(size_t i, double t, const std::vector<double> &x, std::string &error);
  bool frictionSwitch(const mechanics::ModeEvent &what, double t, const std::vector<double> &x,
                      std::string &error);
  // Friction i's stick ends at t: its time stuck counted.
  void endStick(size_t i, double t);
  // The frictions whose normal force is a contact's (driver/ContactFriction.cpp).
  double contactForce(const Mode &mode, const std::vector<double> &lambda, size_t c) const;
  bool contactFrictionsFollow(double t, const std::vector<double> &x, std::string &error);
  bool frictionConsistent(double t, const std::vector<double> &x, std::string &error);
  std::string paradox(Mode &mode, const double *x) const;
  // The params with the inputs at (t, x) (x: the state, for laws of it).
  const std::vector<double> &filledParams(double t, const double *x);
  bool startModes(double t, const double *x, std::string &error);
  // The piecewise laws (driver/ContactSwitches.cpp): each switch's branch
  // from the sign of its g at (t, x), and the switch `k` whose g crossed 0.
  void holdBranches(double t, const double *x);
  void holdBranchesAhead(double t, const double *x, const std::vector<size_t> &onSwitch);
  std::string switchPlace(size_t k, bool at) const;
  bool lawSwitched(size_t k, const Progress &at, std::string &error);
  std::optional<size_t> closingAtStart(double t, const std::vector<double> &x);
  bool crossedUnseen(double t, const double *x, std::string &message);
  runtime::IntegrationResult segment(const runtime::IntegratorOptions &options, const Progress &at,
                                     std::vector<double> &atEvent, std::string &missed,
                                     runtime::IntegrationResult &total);
  bool applySwitch(const mechanics::ModeEvent &what, Progress &at, long maxSwitches,
                   std::string &error);
  static runtime::IntegrationResult endedAt(runtime::IntegrationResult total, double t,
                                            const std::string &error);
  // The impacts (driver/ContactImpact.cpp).
  bool impact(size_t contact, double t, std::vector<double> &x, std::string &error);
  bool impactProblem(double t, const std::vector<double> &x, const std::vector<double> &p,
                     runtime::ImpactProblem &problem, std::string &error);
  void contactRows(const std::vector<size_t> &touching, const std::vector<bool> &inelastic,
                   runtime::ImpactProblem &problem) const;
  std::vector<bool> restingAfter(double t, const std::vector<double> &x,
                                 const std::vector<size_t> &touching, std::vector<double> &restsAt);
  void recordImpact(double t, const std::vector<double> &before, const std::vector<double> &after,
                    const std::vector<size_t> &touching, const std::vector<double> &impulses);
  bool reset(size_t event, double t, std::vector<double> &x, std::string &error);
  std::vector<double> gapAccelerations(double t, const std::vector<double> &x);
  // T and V at (t, x).
  std::pair<double, double> energy(double t, const double *x);

  const mechanics::Equations &eq_;
  mechanics::Kernels &kernels_;
  ContactModes &sharedModes_;
  const std::vector<double> &params_;
  std::vector<double> filled_; // params_ with the inputs' values at a time
  mechanics::InputFill fill_;
  bool projection_;
  Hooks hooks_;
  mechanics::ContactFunctions contacts_;
  std::vector<double> restitution_;
  std::vector<bool> resting_;
  // Per friction: 0 sticks, +1 / -1 slips with that sign, or
  // mechanics::kFrictionOff (its contact is open).
  std::vector<signed char> friction_;
  // Where a mode's solve last found Painleve's paradox (the rhs refused).
  std::vector<double> paradoxState_;
  std::vector<double> stuckSince_; // per friction: when it came to stick, NaN slipping
  std::map<mechanics::ModeKey, std::unique_ptr<Mode>> modes_;
  ContactReport report_;
  double shortFlight_ = 0; // the next segment's first step, when a flight is short
  ChatterWatch *watch_ = nullptr;
  mechanics::Branches branch_; // per switch of a piecewise law: +1 or -1
  // Per switch: its flips since the one at quickSince_, which began a run
  // of flips too close in time to be motion.
  std::vector<long> quickFlips_;
  std::vector<double> quickSince_;
  std::optional<size_t> chattering_;
};

} // namespace mech::driver
