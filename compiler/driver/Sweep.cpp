// The sweep engine (driver/Sweep.h): what the runs share, one run from its
// swept values to its row, and the pool of workers with the rows put back
// in run order.
#include "driver/Sweep.h"

#include "driver/AnalysisText.h"
#include "driver/ContactRun.h"
#include "driver/Interrupt.h"
#include "driver/RunPieces.h"
#include "mechanics/ConstraintProjection.h"
#include "mechanics/EventFunctions.h"
#include "mechanics/InputKernels.h"
#include "mechanics/StateJacobian.h"
#include "runtime/RhsEvaluator.h"
#include "support/NumberText.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <limits>
#include <map>
#include <mutex>
#include <system_error>
#include <thread>

namespace mech::driver {

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// What every run reads and none writes.
struct Shared {
  Shared(const mechanics::Equations &eq, const SweepOptions &options,
         const mechanics::KernelPrograms &programs, std::shared_ptr<mechanics::Kernels> compiled)
      : eq(eq), options(options), programs(programs), compiled(std::move(compiled)) {}

  const mechanics::Equations &eq;
  const SweepOptions &options;
  const mechanics::KernelPrograms &programs;
  std::shared_ptr<mechanics::Kernels> compiled; // null: each worker interprets
  mechanics::InputFill inputs;
  std::vector<double> params, start; // the base values, before the swept ones
  double t0 = 0;
  std::vector<SweepTarget> targets;
  std::vector<size_t> summaryOutputs; // per summary, the index of its output
  std::vector<std::string> columns;   // simulate's CSV columns, which failures name
  std::vector<bool> holonomic;
  // With constraints: the coordinates (velocities) to keep when a start is
  // projected, in the order to try: the swept and --init's, then the init's.
  std::vector<std::vector<bool>> keepPositions, keepVelocities;
  bool orNoneKept = true; // false when --hold holds coordinates
  size_t n = 0, m = 0;
  bool energyTracked = false, jacobian = false;
  // Contacts or resets: each run is a ContactRun (driver/ContactRun.h).
  bool switching = false;
  const sema::CheckedModel *model = nullptr;
};

// The kernels one worker calls: the shared compiled ones, or its own
// interpreter (which keeps scratch memory), with the inputs' values at t.
std::shared_ptr<mechanics::Kernels> workerKernels(const Shared &s) {
  std::shared_ptr<mechanics::Kernels> kernels =
      s.compiled ? s.compiled
                 : std::shared_ptr<mechanics::Kernels>(mechanics::interpretedKernels(s.programs));
  return s.inputs ? mechanics::withInputs(kernels, s.inputs) : kernels;
}

// What each output sample of a run does: it is put onto the constraints
// (as simulate's samples are), its outputs evaluated and reduced, its
// energy and constraint residual followed.
class RunSummaries {
public:
  RunSummaries(const Shared &s, mechanics::Kernels &kernels, const std::vector<double> &params,
               mechanics::ConstraintProjector *projector)
      : s_(s), kernels_(&kernels), params_(params), projector_(projector),
        summaries_(s.options.summaries, s.summaryOutputs), outputs_(s.eq.outputNames.size()) {}

  // A run with contacts: the kernels and projection of the mode in force
  // (the resting contacts' forces move the outputs that read q'').
  void useMode(mechanics::Kernels &kernels, mechanics::ConstraintProjector &projector) {
    kernels_ = &kernels;
    projector_ = kernels.constraintCount > 0 ? &projector : nullptr;
  }
  void energyJumped(double change) { energy_.jumped(change); }

  // False interrupts the run.
  bool operator()(double t, const double *x) {
    if (interruptRequested())
      return false;
    if (projector_) {
      double before = 0;
      x = projector_->onConstraints(t, x, onManifold_, before);
      constraintDrift_ = std::max(constraintDrift_, before);
    }
    if (!outputs_.empty())
      kernels_->outputs(t, x, params_.data(), outputs_.data());
    summaries_.sample(t, outputs_.data());
    if (s_.energyTracked)
      energy_.sample(*kernels_, params_, t, x);
    return true;
  }

  std::vector<double> values() const {
    return summaries_.values(s_.energyTracked ? energy_.reported() : kNan, constraintDrift_);
  }

private:
  const Shared &s_;
  mechanics::Kernels *kernels_;
  const std::vector<double> &params_;
  mechanics::ConstraintProjector *projector_;
  SummaryAccumulator summaries_;
  EnergyDrift energy_;
  double constraintDrift_ = 0;
  std::vector<double> outputs_, onManifold_;
};

// The outcome of a run in its row; false when it was interrupted (no row).
bool recordResult(const runtime::IntegrationResult &result, const Shared &s,
                  mechanics::Kernels &kernels, const std::vector<double> &params,
                  const Refusal &refusal, SweepRow &row) {
  switch (result.outcome) {
  case runtime::Outcome::Finished:
    row.status = "ok";
    return true;
  case runtime::Outcome::Stopped:
    row.status = "stopped";
    row.message = "stopped by event " + s.eq.events[static_cast<size_t>(result.event)].name +
                  " at t = " + runtime::formatTime(result.failureTime);
    return true;
  case runtime::Outcome::Interrupted:
    return false;
  default:
    break;
  }
  row.status = "failed";
  row.message = failureText(result, s.eq, kernels, params, refusal, s.columns);
  std::fill(row.summaries.begin(), row.summaries.end(), kNan);
  return true;
}

// The run's params and start: the base values with its swept ones.
void applySwept(const Shared &s, const SweepRow &row, std::vector<double> &params,
                std::vector<double> &x) {
  params = s.params;
  x = s.start;
  for (size_t j = 0; j < s.targets.size(); ++j) {
    const SweepTarget &target = s.targets[j];
    if (target.kind == SweepTarget::Kind::Param)
      params[target.index] = row.swept[j];
    else
      x[target.index + (target.kind == SweepTarget::Kind::Velocity ? s.n : 0)] = row.swept[j];
  }
}

// Puts the start onto the constraints (with a projector), keeping the
// swept and given values where they allow, and checks its equations; the
// row's status says when either fails.
bool checkStart(const Shared &s, mechanics::Kernels &kernels, mechanics::ConstraintProjector *onto,
                const std::vector<double> &params, std::vector<double> &x, SweepRow &row) {
  if (onto && (!onto->projectPositions(s.t0, x.data(), s.keepPositions, s.orNoneKept).ok ||
               !onto->projectVelocities(s.t0, x.data(), s.keepVelocities, s.orNoneKept).ok)) {
    row.status = "failed";
    row.message = std::string("the initial state could not be put onto the constraints") +
                  (s.orNoneKept ? "" : " with the coordinates --hold holds");
    return false;
  }
  std::vector<double> xdot(2 * s.n);
  if (int status = kernels.rhs(s.t0, x.data(), params.data(), xdot.data()); status != 0) {
    row.status = "failed";
    row.message = describeFailure(s.eq, kernels, params, status, s.t0, x.data(), "at the start");
    return false;
  }
  return true;
}

// A friction's summary from a run's report: sticks(f), slips(f),
// stuck_time(f).
void frictionSummary(const mechanics::Equations &eq, const SummarySpec &spec,
                     const ContactReport &report, double &value) {
  for (size_t f = 0; f < eq.frictions.size(); ++f) {
    if (eq.frictions[f].slip.name != spec.contact)
      continue;
    value = spec.reducer == SummarySpec::Reducer::Sticks
                ? static_cast<double>(report.sticksPerFriction[f])
            : spec.reducer == SummarySpec::Reducer::Slips
                ? static_cast<double>(report.slipsPerFriction[f])
                : report.stuckTime[f];
  }
}

// The summaries of a contact run's report: impacts(c), rest_time(c),
// lift_time(c) (NaN: never).
void contactSummaries(const Shared &s, const ContactReport &report, SweepRow &row) {
  const std::vector<SummarySpec> &specs = s.options.summaries;
  for (size_t i = 0; i < specs.size(); ++i) {
    if (specs[i].ofFriction()) {
      frictionSummary(s.eq, specs[i], report, row.summaries[i]);
      continue;
    }
    auto contact = std::find_if(s.eq.contacts.begin(), s.eq.contacts.end(),
                                [&](const auto &c) { return c.gap.name == specs[i].contact; });
    if (contact == s.eq.contacts.end())
      continue;
    size_t index = static_cast<size_t>(contact - s.eq.contacts.begin());
    if (specs[i].reducer == SummarySpec::Reducer::Impacts) {
      row.summaries[i] = static_cast<double>(report.impactsPerContact[index]);
      continue;
    }
    bool rests = specs[i].reducer == SummarySpec::Reducer::RestTime;
    for (const ContactSwitch &sw : report.switches)
      if (sw.contact == index && sw.rests == rests) {
        row.summaries[i] = sw.t;
        break;
      }
  }
}

// A run of a model with contacts or resets: its segments reduced as a
// smooth run's samples are, its contact summaries from the report.
runtime::IntegrationResult runSwitching(const Shared &s, mechanics::Kernels &kernels,
                                        ContactModes &modes, const std::vector<double> &params,
                                        const std::vector<double> &x,
                                        const runtime::IntegratorOptions &integrator,
                                        RunSummaries &summaries, SweepRow &row) {
  ContactRun::Hooks hooks;
  hooks.sample = [&summaries](double t, const double *state) { return summaries(t, state); };
  hooks.modeChanged = [&summaries](mechanics::Kernels &k, mechanics::ConstraintProjector &p,
                                   const std::vector<int> &) { summaries.useMode(k, p); };
  hooks.energyJump = [&summaries](double change) { summaries.energyJumped(change); };
  ContactRun run(s.eq, kernels, modes, params, s.inputs, s.options.simulation.projection,
                 std::move(hooks));
  std::string error;
  runtime::IntegrationResult result = run.run(x, integrator, error);
  contactSummaries(s, run.report(), row);
  if (!error.empty()) {
    row.status = "failed";
    row.message = error + " at t = " + shortestNumber(result.failureTime);
    result.outcome = runtime::Outcome::Finished;
  }
  return result;
}

// One run, from its number to its row; false when it was interrupted.
bool runOne(const Shared &s, mechanics::Kernels &kernels, ContactModes &modes, size_t run,
            SweepRow &row) {
  row = SweepRow{};
  row.run = run;
  s.options.plan.values(run, row.swept);
  row.summaries.assign(s.options.summaries.size(), kNan);
  std::vector<double> params, x;
  applySwept(s, row, params, x);
  std::optional<mechanics::ConstraintProjector> projector;
  if (s.m > 0)
    projector.emplace(kernels, params, s.holonomic);
  if (!checkStart(s, kernels, projector ? &*projector : nullptr, params, x, row))
    return true;

  runtime::IntegratorOptions integrator = s.options.simulation.integrator;
  integrator.t0 = s.t0;
  Refusal refusal;
  runtime::RightHandSide rhs = recordingRhs(kernels, params, s.n, refusal);
  std::optional<mechanics::StateJacobian> jacobian;
  if (s.jacobian) {
    jacobian.emplace(kernels);
    integrator.jacobian = [&](double t, const double *state, double *J) {
      return (*jacobian)(t, state, params.data(), J);
    };
  }
  // A contact run projects and watches the events of each of its modes.
  if (projector && !s.switching)
    integrator.project = [&](double t, double *state) { return projector->project(t, state); };
  std::optional<mechanics::EventFunctions> events;
  if (!s.eq.events.empty() && !s.switching) {
    events.emplace(s.eq, kernels, params, s.inputs);
    for (const mechanics::Equations::Event &e : s.eq.events)
      integrator.events.events.push_back({e.direction, e.stop});
    integrator.events.functions = [&](double t, const double *state, double *g) {
      return (*events)(t, state, g);
    };
  }

  RunSummaries summaries(s, kernels, params, projector ? &*projector : nullptr);
  std::vector<double> momentumForce;
  runtime::LagrangianForm lagrangian = lagrangianFormOf(kernels, params, s.n, momentumForce);
  runtime::IntegrationResult result =
      s.switching ? runSwitching(s, kernels, modes, params, x, integrator, summaries, row)
                  : runtime::integrate(rhs, x, integrator, std::ref(summaries), &lagrangian);
  std::vector<double> reduced = summaries.values();
  for (size_t i = 0; i < reduced.size(); ++i)
    if (s.options.summaries[i].contact.empty())
      row.summaries[i] = reduced[i];
  bool recorded = row.status == "failed" || recordResult(result, s, kernels, params, refusal, row);
  // A finished run whose summaries are NaN says so: an empty field under
  // `ok` alone would read as a value that is missing for no reason.
  if (std::string nan = notNumberMessage(s.options.summaries, row.summaries);
      !nan.empty() && row.status != "failed")
    row.message += (row.message.empty() ? "" : "; ") + nan;
  return recorded;
}

// runOne, with anything thrown (memory exhausted) made the run's failure
// rather than the end of the process.
bool runGuarded(const Shared &s, mechanics::Kernels &kernels, ContactModes &modes, size_t run,
                SweepRow &row) {
  try {
    return runOne(s, kernels, modes, run, row);
  } catch (const std::exception &e) {
    row.status = "failed";
    row.message = std::string("the run could not be completed: ") + e.what();
    std::fill(row.summaries.begin(), row.summaries.end(), kNan);
    return true;
  }
}

// Hands the rows to the sink in run order, holding those that finish early;
// a worker waits before starting a run more than `window` runs ahead of the
// next row due, so that the rows held stay bounded.
class RowOrder {
public:
  RowOrder(const SweepSink &sink, const SweepProgress &progress, size_t runs, size_t window)
      : sink_(sink), progress_(progress), runs_(runs), window_(window) {}

  // False when the sweep stops (interrupted, or the sink failed).
  bool waitForRoom(size_t run) {
    std::unique_lock lock(mutex_);
    room_.wait(lock, [&] { return stopped_ || run < next_ + window_; });
    return !stopped_;
  }

  // Takes the row of this rank's `local`th run.
  void put(size_t local, SweepRow row, SweepReport &report) {
    std::lock_guard lock(mutex_);
    pending_.emplace(local, std::move(row));
    while (!stopped_ && !pending_.empty() && pending_.begin()->first == next_) {
      const SweepRow &due = pending_.begin()->second;
      if (!sink_(due)) {
        stopped_ = true;
        break;
      }
      report.ok += due.status == "ok";
      report.stopped += due.status == "stopped";
      report.failed += due.status == "failed";
      pending_.erase(pending_.begin());
      ++next_;
      if (progress_ && (next_ % progressEvery() == 0 || next_ == runs_))
        progress_(next_, runs_);
    }
    room_.notify_all();
  }

  void stop() {
    std::lock_guard lock(mutex_);
    stopped_ = true;
    room_.notify_all();
  }

  size_t written() {
    std::lock_guard lock(mutex_);
    return next_;
  }

private:
  size_t progressEvery() const { return std::max<size_t>(1, runs_ / 200); }

  const SweepSink &sink_;
  const SweepProgress &progress_;
  size_t runs_, window_, next_ = 0;
  bool stopped_ = false;
  std::map<size_t, SweepRow> pending_;
  std::mutex mutex_;
  std::condition_variable room_;
};

// The index of each summary's output among the model's outputs.
std::vector<size_t> summaryOutputs(const mechanics::Equations &eq,
                                   const std::vector<SummarySpec> &summaries) {
  std::vector<size_t> indices;
  for (const SummarySpec &summary : summaries) {
    auto found = std::find(eq.outputNames.begin(), eq.outputNames.end(), summary.output);
    indices.push_back(summary.output.empty() || found == eq.outputNames.end()
                          ? 0
                          : static_cast<size_t>(found - eq.outputNames.begin()));
  }
  return indices;
}

// Up to `count` threads running `work`: fewer when the system cannot make
// more (a process or memory limit), with `note` saying so. The runs go to
// the threads there are, so that a limit costs time, never the rows.
template <typename Work>
std::vector<std::thread> startWorkers(unsigned count, Work &work, std::string &note) {
  std::vector<std::thread> pool;
  pool.reserve(count);
  for (unsigned i = 0; i < count; ++i) {
    try {
      pool.emplace_back(work);
    } catch (const std::system_error &error) {
      note = "only " + std::to_string(i + 1) + " of the " + std::to_string(count + 1) +
             " threads asked for could be started (" + error.what() + "); the runs go to those";
      break;
    }
  }
  return pool;
}

} // namespace

size_t RunShare::localRuns(size_t runs) const {
  size_t count = 0;
  for (size_t first = rank * chunk; first < runs; first += ranks * chunk)
    count += std::min(chunk, runs - first);
  return count;
}

bool checkSweep(LoadedModel &loaded, const SweepOptions &options) {
  if (!checkSimulation(loaded, options.simulation))
    return false;
  const mechanics::Equations &eq = loaded.equations();
  for (const SummarySpec &summary : options.summaries) {
    if (summary.contact.empty())
      continue;
    std::vector<std::string> names;
    if (summary.ofFriction())
      for (const auto &f : eq.frictions)
        names.push_back(f.slip.name);
    else
      for (const auto &c : eq.contacts)
        names.push_back(c.gap.name);
    if (std::find(names.begin(), names.end(), summary.contact) == names.end()) {
      const std::string kind = summary.ofFriction() ? "friction" : "contact",
                        list = analysis_text::joined(names);
      loaded.diagnostics().error(
          {}, "--summary " + summary.name + ": model " + loaded.model().name + " has no " + kind +
                  " '" + summary.contact + "'" +
                  (list.empty() ? " (it declares none)" : " (its " + kind + "s: " + list + ")"));
      return false;
    }
  }
  for (const SummarySpec &summary : options.summaries)
    if (summary.reducer == SummarySpec::Reducer::EnergyDrift && !tracksEnergy(eq)) {
      loaded.diagnostics().error(
          {}, "--summary energy_drift: the energy of " + loaded.model().name +
                  " is not conserved (it has dissipation, forces, time-dependent terms or "
                  "constraints that work), so its drift measures nothing");
      return false;
    }
  return true;
}

std::optional<SweepReport> runSweep(LoadedModel &loaded, const SweepOptions &options,
                                    const SweepSink &sink, const SweepProgress &progress) {
  const mechanics::Equations &eq = loaded.equations();
  SweepReport report;
  report.runs = options.share.localRuns(options.plan.runs());
  auto compileStart = std::chrono::steady_clock::now();
  const jit::KernelSelection selection = kernelSelection(options.simulation.integrator.method);
  const mechanics::KernelPrograms &programs =
      selection.jacobian ? loaded.programsWithJacobian() : loaded.programs();
  SimulationSummary compiled;
  std::shared_ptr<mechanics::Kernels> kernels =
      makeKernels(programs, loaded.model(), options.simulation, compiled, loaded.sourceKey);
  report.backendNote = compiled.backendNote;
  bool shared = options.simulation.backend == Backend::Jit && compiled.backendNote.empty();
  report.compileSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - compileStart).count();

  Shared s{eq, options, programs, shared ? kernels : nullptr};
  if (loaded.inputs && loaded.inputs->varies())
    s.inputs = [signals = loaded.inputs](double t, const double *, double *p) {
      signals->fill(t, p);
    };
  s.params = loaded.paramValues();
  std::vector<std::string> notes;
  std::optional<std::vector<double>> start =
      initialState(loaded, *kernels, s.params, options.simulation.start, s.t0, notes);
  if (!start)
    return std::nullopt;
  runtime::IntegratorOptions integrator = options.simulation.integrator;
  integrator.t0 = s.t0;
  if (std::string error = gridError(integrator); !error.empty()) {
    loaded.diagnostics().error({}, error);
    return std::nullopt;
  }
  s.start = *start;
  s.targets = options.plan.targets();
  s.summaryOutputs = summaryOutputs(eq, options.summaries);
  s.holonomic = mechanics::holonomicFlags(eq);
  GivenValues given;
  if (!parseState(loaded, options.simulation.start.init, &given, "--init") ||
      !heldCoordinates(loaded, options.simulation.start.hold, given))
    return std::nullopt;
  for (const SweepTarget &target : s.targets)
    if (target.kind == SweepTarget::Kind::Position)
      given.positions[target.index] = true;
    else if (target.kind == SweepTarget::Kind::Velocity)
      given.velocities[target.index] = true;
  s.keepPositions = given.positionPreferences();
  s.keepVelocities = given.velocityPreferences();
  s.orNoneKept = !given.holds();
  s.n = eq.coordinates.size();
  s.m = eq.constraints.size();
  s.energyTracked = tracksEnergy(eq);
  s.columns = csvColumns(eq);
  s.jacobian = selection.jacobian;
  s.switching = switches(eq);
  s.model = &loaded.model();

  unsigned threads = options.threads > 0 ? options.threads : std::thread::hardware_concurrency();
  threads = static_cast<unsigned>(std::clamp<size_t>(threads, 1, std::max<size_t>(report.runs, 1)));
  report.threads = threads;
  RowOrder order(sink, progress, report.runs, 64 * size_t(threads));
  std::atomic<size_t> nextRun{0};
  std::atomic<bool> interrupted{false};
  std::mutex compiling; // the contact modes' kernels (driver/ContactRun.h)
  auto work = [&] {
    std::shared_ptr<mechanics::Kernels> mine = workerKernels(s);
    ContactModes modes(
        eq,
        [&](const mechanics::KernelPrograms &programs, const std::string &mode) {
          if (!s.compiled)
            return std::shared_ptr<mechanics::Kernels>(
                s.inputs ? mechanics::withInputs(mechanics::interpretedKernels(programs), s.inputs)
                         : mechanics::interpretedKernels(programs));
          // One compilation at a time: the workers share the kernel cache.
          std::lock_guard lock(compiling);
          std::string note;
          return contactModeKernels(programs, loaded, options.simulation, mode, note);
        },
        s.params.size(), s.jacobian);
    SweepRow row;
    for (size_t local; (local = nextRun++) < report.runs;) {
      if (!order.waitForRoom(local))
        return;
      if (interruptRequested() ||
          !runGuarded(s, *mine, modes, options.share.globalRun(local), row)) {
        interrupted = true;
        order.stop();
        return;
      }
      order.put(local, std::move(row), report);
    }
  };
  auto runStart = std::chrono::steady_clock::now();
  std::vector<std::thread> pool = startWorkers(threads - 1, work, report.threadNote);
  report.threads = static_cast<unsigned>(pool.size() + 1);
  work();
  for (std::thread &thread : pool)
    thread.join();
  report.runSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - runStart).count();
  report.written = order.written();
  report.interrupted = interrupted;
  return report;
}

} // namespace mech::driver
