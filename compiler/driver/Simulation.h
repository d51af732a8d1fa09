// `mech simulate`: integrate a model's equations with compiled (or
// interpreted) kernels, write the trajectory as CSV, summarise the run, and
// optionally plot it as SVG. Failures (singular mass matrix, non-finite
// state, step size underflow, max steps) are reported with the time they
// happened; the samples up to that time are kept.
#pragma once

#include "driver/ContactRun.h"
#include "driver/EventLog.h"
#include "driver/InitialState.h"
#include "driver/Pipeline.h"
#include "jit/CompiledModel.h"
#include "runtime/Integrator.h"

#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mech::driver {

enum class Backend { Jit, Interpreter };

// The most operations the JIT compiles (jit::estimatedOperations: the
// programs' instructions, their outputs and the unrolled solve); larger
// kernels are interpreted, with a note in the summary, and `mech build`
// refuses them (it has no interpreter to fall back on). At the budget LLVM
// takes about 8 s on the chain (n = 80), 2 s on a dense mass matrix
// (bench/README.md, "Compile time").
inline constexpr size_t kJitBudget = 60'000;
// With tiered execution: kernels of this many operations or more start on
// the interpreter (below, LLVM takes well under a second), and the budget
// of the background compile (chain n = 160 has about 190000 operations).
inline constexpr size_t kTieredFrom = 3'000;
inline constexpr size_t kTieredJitBudget = 400'000;

// How a constrained model keeps its constraints: as the stabilised index-2
// DAE (mechanics/DaeForm.h; radau only, the default there), or by the
// projection of the state after each step (every method; the default but
// for radau).
// Augmented: projection, with the accelerations from the augmented
// Lagrangian iteration (runtime/AugmentedSolve.h).
enum class ConstraintForm { Automatic, Dae, Projection, Augmented };

struct SimulationOptions {
  runtime::IntegratorOptions integrator;
  Backend backend = Backend::Jit;
  bool useCache = true;   // the on-disk cache of compiled kernels
  StartOptions start;     // --init, --strict-init
  bool projection = true; // onto the constraints after each step
  ConstraintForm constraintForm =
      ConstraintForm::Automatic;                       // --constraints dae|projection|augmented
  std::optional<std::pair<double, double>> baumgarte;  // --baumgarte a,b
  std::string plotPath;                                // --plot out.svg|.png
  std::vector<std::string> plotVars;                   // --plot-vars th1,th2
  std::string plotX;                                   // --plot-x th1 (default t)
  std::optional<std::pair<double, double>> plotWindow; // --window a..b
  std::string eventsPath;                              // --events out.csv|.json
  bool keepEvents = false; // the events fired, in SimulationSummary::eventRows (Python)
  // Tiered execution (the CLI's simulate and animate): kernels that take
  // LLVM long to compile start on the interpreter, and native code takes
  // over when a compile on another thread has finished (jit/TieredKernels.h).
  bool tiered = false;
};

struct SimulationSummary {
  std::string method;
  runtime::IntegrationStats stats;
  double deriveSeconds = 0, compileSeconds = 0, integrateSeconds = 0;
  bool derivationCached = false; // read from the derivation cache
  // From the program's start (markProcessStart) to the first step.
  double firstStepSeconds = 0;
  std::string cache;        // what the kernel cache did (jit::CacheReport::outcome), or
                            // "off", or "not used" (no safe cache directory)
  std::string cacheWarning; // a refused directory, a bad entry, a failed store
  bool energyTracked = false;
  double energyDrift = 0; // max |E(t) - E(0)| / |E(0)|
  // max |E(t) - E(0)| / max(|E(0)|, max |T| + |V|): what the drift warning
  // judges, so that a run whose E(0) is near 0 is not flagged for a drift
  // that is small against its terms (nor missed when E(0) = 0).
  double energyDriftOfTerms = 0;
  // E(0) is 0 or a cancellation of T and V: energyDrift says nothing.
  bool energyStartsNearZero = false;
  // Every conserved quantity found symbolically (mechanics/Conservation.h):
  // name and drift max |c(t) - c(0)| / max(|c(0)|, scale), scale being the
  // largest sum of the magnitudes of c's terms over the run.
  std::vector<std::pair<std::string, double>> conservedDrift;
  std::string backendNote;
  // Tiered execution: when native code took over (the t of its first call
  // and the seconds after start), or why it did not ("" when not tiered).
  std::string tiering;
  std::vector<std::string> notes;    // e.g. the projection of the initial state
  std::vector<std::string> warnings; // e.g. --method auto's on a fast oscillation
  bool constrained = false;
  double constraintResidual = 0; // the largest |Phi| or |psi| in the output
  double constraintDrift = 0;    // the same before the samples' projection
  std::string failure;           // empty when the run finished (or stopped)
  size_t samples = 0;
  std::vector<EventCount> events; // per declared event
  std::string stoppedBy;          // the stop event that ended the run, or ""
  double stopTime = 0;
  std::optional<ContactReport> contacts; // a model with contacts or resets
  // Per contact: its impacts, comings to rest and lift-offs, counted.
  std::vector<EventCount> contactEvents;
  // With SimulationOptions::keepEvents: every event fired, in the order of
  // time (a contact's rows named as --events names them), the CSV's columns
  // at each.
  struct EventRow {
    std::string name;
    double t = 0;
    std::vector<double> values;
  };
  std::vector<EventRow> eventRows;
};

// The CSV columns after t: the coordinates, their velocities (q'), the
// multipliers (named after their constraints) and the outputs.
std::vector<std::string> csvColumns(const mechanics::Equations &equations);

// A CSV field as RFC 4180 has it: quoted, with its quotes doubled, when it
// holds a comma, a quote or a line break (an output with two indices is
// d[1, 2]); any other text as it is.
std::string csvField(const std::string &text);

// Whether the model's state jumps: it has contacts or events with resets
// (driver/ContactRun.h runs it).
bool switches(const mechanics::Equations &equations);

// Whether a run of the model with these options integrates the DAE form.
bool usesDaeForm(const mechanics::Equations &equations, const SimulationOptions &options);

// Checks the options against the model, before anything is written: the
// method can run the model, the --plot-vars name columns. Errors go to the
// diagnostics; false when there were any.
bool checkSimulation(LoadedModel &loaded, const SimulationOptions &options);

// Why the options' time grids cannot be walked from `integrator.t0` (the
// output samples at --dt, the fixed steps of rk4 and midpoint at --step):
// too many points for the time span. The message names the option; empty
// when the grids are fine.
std::string gridError(const runtime::IntegratorOptions &integrator);

// Where a simulation's samples go, as they are made: the CLI's CSV, the
// Python package's arrays. The columns after t are csvColumns'.
class SampleSink {
public:
  virtual ~SampleSink() = default;
  virtual void columns(const std::vector<std::string> &names) = 0;
  virtual void row(double t, const std::vector<double> &values) = 0;
  virtual void flush() {}
};

// Runs the simulation, handing the samples to `samples`. Returns the
// summary, or nullopt when the run could not start (errors in the
// diagnostics).
std::optional<SimulationSummary> simulate(LoadedModel &loaded, const SimulationOptions &options,
                                          double deriveSeconds, SampleSink &samples);
// The same, writing the samples to `csv` as CSV rows.
std::optional<SimulationSummary> simulate(LoadedModel &loaded, const SimulationOptions &options,
                                          double deriveSeconds, std::ostream &csv);

std::string summaryText(const SimulationSummary &summary);

// The kernels a run with this method needs beyond the common ones.
jit::KernelSelection kernelSelection(runtime::Method method);

// The kernels of `programs` on the options' back end: compiled (through
// the cache), or interpreted when asked, past the JIT budget or when the
// JIT fails, with the reason in summary.backendNote. summary.cache says
// what the cache did.
// `sourceKey` is LoadedModel::sourceKey when `programs` are the model's own
// (not, say, its Baumgarte-stabilized equations'), else empty.
std::unique_ptr<mechanics::Kernels> makeKernels(const mechanics::KernelPrograms &programs,
                                                const sema::CheckedModel &model,
                                                const SimulationOptions &options,
                                                SimulationSummary &summary,
                                                const std::string &sourceKey = "");

// The model's own kernels for a run with these options (the selection its
// method needs), kept by the loaded model so that a session compiles them
// once (makeKernels otherwise, which fills in summary.cache and backendNote).
std::shared_ptr<mechanics::Kernels>
modelKernels(LoadedModel &loaded, const SimulationOptions &options, SimulationSummary &summary);

// The kernels of a contact mode's programs (driver/ContactRun.h; `mode`
// names its resting contacts, "0110") as makeKernels makes the model's,
// found through the cache's index, with the inputs wired. `note` gets
// makeKernels' backend note (the interpreter instead of the JIT, and why).
std::shared_ptr<mechanics::Kernels> contactModeKernels(const mechanics::KernelPrograms &programs,
                                                       const LoadedModel &loaded,
                                                       const SimulationOptions &options,
                                                       const std::string &mode, std::string &note);

// Marks the start of the program (main's first statement): the summary's
// time to the first step counts from here.
void markProcessStart();

} // namespace mech::driver
