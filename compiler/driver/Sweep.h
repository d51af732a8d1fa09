// The sweep engine behind `mech sweep` (and, later, the Python package's
// mech.sweep): many runs of one derived model, each with its own swept
// params and initial state (driver/SweepPlan.h), each reduced to one row of
// summaries (driver/SweepSummaries.h). The kernels are compiled once and
// shared (compiled kernels keep no state); the runs are spread over a pool
// of threads, and the rows are handed on in the order of the runs as they
// complete, so that the result is the same whatever the thread count, and
// the memory held is bounded by a window of runs, not by the sweep.
#pragma once

#include "driver/Simulation.h"
#include "driver/SweepPlan.h"
#include "driver/SweepSummaries.h"

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace mech::driver {

// The runs one process does when a sweep is split over the processes of an
// MPI job (driver/SweepOnRanks.h): the runs in chunks of `chunk`, dealt to
// the ranks in turn. One rank (the default) does every run.
struct RunShare {
  size_t rank = 0, ranks = 1, chunk = 1;

  size_t owner(size_t run) const { return (run / chunk) % ranks; }
  // How many of `runs` this rank does, and the number of its `local`th.
  size_t localRuns(size_t runs) const;
  size_t globalRun(size_t local) const {
    return ((local / chunk) * ranks + rank) * chunk + local % chunk;
  }
};

// The most threads a sweep takes per process: more than any machine's
// cores, few enough that their stacks fit in memory.
inline constexpr unsigned kMaxSweepThreads = 1024;

struct SweepOptions {
  SimulationOptions simulation; // the integrator and the start, as simulate's
  SweepPlan plan;
  std::vector<SummarySpec> summaries;
  unsigned threads = 0; // 0: one per core; at most kMaxSweepThreads
  RunShare share;
};

// One run's row: its swept values and summaries, how it ended, and why a
// failed run failed.
struct SweepRow {
  size_t run = 0;
  std::vector<double> swept, summaries;
  std::string status; // ok, stopped (by an event) or failed
  std::string message;
};

struct SweepReport {
  size_t runs = 0, written = 0, ok = 0, stopped = 0, failed = 0;
  bool interrupted = false;
  unsigned threads = 1; // per rank
  size_t ranks = 1;
  double compileSeconds = 0, runSeconds = 0;
  std::string backendNote; // the interpreter instead of the JIT, and why
  std::string threadNote;  // fewer threads than asked for, and why
};

// Receives the rows in run order; false stops the sweep (a write error).
using SweepSink = std::function<bool(const SweepRow &)>;
// Told the rows done so far, every so often, for a progress display.
using SweepProgress = std::function<void(size_t done, size_t runs)>;

// Checks the options against the model (before anything is written);
// false with the errors in the diagnostics.
bool checkSweep(LoadedModel &loaded, const SweepOptions &options);

// Runs the sweep on the derived model (this rank's share of its runs, in
// their order); nullopt when it could not start (errors in the
// diagnostics).
std::optional<SweepReport> runSweep(LoadedModel &loaded, const SweepOptions &options,
                                    const SweepSink &sink, const SweepProgress &progress);

} // namespace mech::driver
