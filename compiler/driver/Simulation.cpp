// The simulation driver.
#include "driver/Simulation.h"
#include "support/NumberText.h"

#include "driver/ChatterWatch.h"
#include "driver/ColumnUnits.h"
#include "driver/ContactRun.h"
#include "driver/DerivationCache.h"
#include "driver/InitialState.h"
#include "driver/Interrupt.h"
#include "driver/PlotFile.h"
#include "driver/RunPieces.h"
#include "driver/SvgPlot.h"
#include "jit/CompiledModel.h"
#include "jit/ObjectCache.h"
#include "jit/TieredKernels.h"
#include "mechanics/Conservation.h"
#include "mechanics/ConstraintProjection.h"
#include "mechanics/Contacts.h"
#include "mechanics/DaeForm.h"
#include "mechanics/EventFunctions.h"
#include "mechanics/InputKernels.h"
#include "mechanics/Kernels.h"
#include "mechanics/SingularPositions.h"
#include "mechanics/StateJacobian.h"
#include "runtime/TimeGrid.h"
#include "sema/Values.h"
#include "support/OutputFile.h"
#include "symbolic/Print.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <ostream>
#include <sstream>
#include <utility>

namespace mech::driver {

namespace {

using Clock = std::chrono::steady_clock;

// The reference for the time to the first step: the start of main when the
// program marks it, else static initialization.
Clock::time_point &processStart() {
  static Clock::time_point start = Clock::now();
  return start;
}

double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string formatValue(double value) {
  // -0 (a zero times a negative factor) prints as 0, as in the JSON
  // reports: the sign of a zero means nothing to a reader of the CSV.
  return formatNumber(value, 17);
}

std::string shortNumber(double value) {
  return formatNumber(value, 6);
}

// Column names compared without blanks, so that --plot-vars "d[1,2]"
// finds the column d[1, 2].
bool sameName(const std::string &a, const std::string &b) {
  auto blank = [](char c) { return c == ' ' || c == '\t'; };
  std::string x = a, y = b;
  x.erase(std::remove_if(x.begin(), x.end(), blank), x.end());
  y.erase(std::remove_if(y.begin(), y.end(), blank), y.end());
  return x == y;
}

// The columns of the series to plot (the coordinates unless --plot-vars
// names others); nullopt after reporting a name that is no column.
std::optional<std::vector<size_t>> plottedColumns(LoadedModel &loaded,
                                                  const std::vector<std::string> &columns,
                                                  const std::vector<std::string> &plotted,
                                                  const std::string &option = "--plot-vars") {
  std::vector<size_t> indices;
  bool ok = true;
  for (const std::string &name : plotted) {
    auto found = std::find_if(columns.begin(), columns.end(),
                              [&](const std::string &column) { return sameName(column, name); });
    if (found == columns.end()) {
      loaded.diagnostics().error({}, option + ": '" + name +
                                         "' is not a coordinate, velocity, multiplier or output "
                                         "of " +
                                         loaded.model().name);
      ok = false;
      continue;
    }
    indices.push_back(static_cast<size_t>(found - columns.begin()));
  }
  if (!ok)
    return std::nullopt;
  return indices;
}

std::vector<std::string> plottedNames(const mechanics::Equations &eq,
                                      const SimulationOptions &options) {
  return options.plotVars.empty() ? eq.coordinates : options.plotVars;
}

// The drift of the conserved quantities along the samples (a sample on
// the constraints when they are projected).
class ConservedDrift {
public:
  ConservedDrift(const mechanics::Equations &eq, const std::vector<double> &params,
                 SimulationSummary &summary)
      : evaluator_(eq, mechanics::findConserved(eq, /*forReading=*/false), params),
        initial_(evaluator_.size()), values_(evaluator_.size()), scales_(evaluator_.size()),
        change_(evaluator_.size()), scale_(evaluator_.size()) {
    for (const std::string &name : evaluator_.names())
      summary.conservedDrift.push_back({name, 0.0});
  }

  void sample(double t, const double *x, SimulationSummary &summary) {
    if (evaluator_.size() == 0)
      return;
    evaluator_.evaluate(t, x, values_.data(), scales_.data());
    for (size_t i = 0; i < values_.size(); ++i) {
      if (summary.samples == 0)
        initial_[i] = values_[i];
      change_[i] = std::max(change_[i], std::abs(values_[i] - initial_[i]));
      scale_[i] = std::max({scale_[i], scales_[i], std::abs(initial_[i])});
      // A quantity that stays exactly 0 (no scale at all) has no drift.
      summary.conservedDrift[i].second = scale_[i] > 0 ? change_[i] / scale_[i] : change_[i];
    }
  }

private:
  mechanics::ConservedEvaluator evaluator_;
  std::vector<double> initial_, values_, scales_, change_, scale_;
};

} // namespace

std::vector<std::string> csvColumns(const mechanics::Equations &eq) {
  std::vector<std::string> columns;
  for (const std::string &name : eq.coordinates)
    columns.push_back(name);
  for (const std::string &name : eq.coordinates)
    columns.push_back(name + "'");
  for (const auto &k : eq.constraints)
    columns.push_back(k.name);
  for (const auto &c : eq.contacts)
    columns.push_back(c.gap.name);
  for (const auto &f : eq.frictions)
    columns.push_back(f.slip.name);
  for (const std::string &name : eq.outputNames)
    columns.push_back(name);
  return columns;
}

// A header field as RFC 4180 has it: quoted, with its quotes doubled, when
// it holds a comma, a quote or a line break (an output with two indices is
// d[1, 2]). Every other field, and every number, is written as it is.
std::string csvField(const std::string &text) {
  if (text.find_first_of(",\"\n") == std::string::npos)
    return text;
  std::string quoted = "\"";
  for (char c : text)
    quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

bool usesDaeForm(const mechanics::Equations &eq, const SimulationOptions &options) {
  return !eq.constraints.empty() && options.integrator.method == runtime::Method::Radau &&
         (options.constraintForm == ConstraintForm::Automatic ||
          options.constraintForm == ConstraintForm::Dae) &&
         !switches(eq);
}

bool checkSimulation(LoadedModel &loaded, const SimulationOptions &options) {
  const mechanics::Equations &eq = loaded.equations();
  bool ok = true;
  if (options.constraintForm == ConstraintForm::Dae &&
      options.integrator.method != runtime::Method::Radau) {
    loaded.diagnostics().error({}, "--constraints dae needs --method radau (the other methods "
                                   "keep the constraints by projection)");
    ok = false;
  }
  if (usesDaeForm(eq, options) && (options.baumgarte || !options.projection)) {
    loaded.diagnostics().error(
        {}, std::string(options.baumgarte ? "--baumgarte" : "--no-projection") +
                ": radau integrates a constrained model as a DAE, which keeps the constraints "
                "itself; give --constraints projection to integrate it with projection instead");
    ok = false;
  }
  if (!eq.constraints.empty() && options.integrator.method == runtime::Method::Midpoint) {
    loaded.diagnostics().error(eq.constraints.front().location,
                               "--method midpoint does not handle constraints; use dopri5, "
                               "dop853 or rk4");
    ok = false;
  }
  auto jump = std::find_if(eq.velocitySwitches.begin(), eq.velocitySwitches.end(),
                           [](const auto &s) { return s.jumps; });
  if (jump != eq.velocitySwitches.end() &&
      (options.integrator.method == runtime::Method::Rk4 ||
       options.integrator.method == runtime::Method::Midpoint)) {
    loaded.diagnostics().error(
        jump->location,
        std::string("--method ") + runtime::methodName(options.integrator.method) +
            ": the force with sign(" + sym::toMech(jump->argument) +
            ") jumps with a velocity, and a fixed step steps over its switches unseen (a body "
            "that should stick creeps); use an adaptive method, which watches them, or write it "
            "as a `friction` that sticks and slips");
    ok = false;
  }
  if (switches(eq) && options.integrator.method == runtime::Method::Midpoint) {
    loaded.diagnostics().error({}, "--method midpoint: a model with contacts or resets runs with "
                                   "dopri5, dop853, rk4, radau, bdf or auto (the variational "
                                   "integrator does not restart at impacts yet)");
    ok = false;
  }
  if (options.constraintForm == ConstraintForm::Augmented &&
      (switches(eq) || std::any_of(eq.constraints.begin(), eq.constraints.end(),
                                   [](const auto &k) { return !k.reaction.empty(); }))) {
    loaded.diagnostics().error({}, "--constraints augmented: a model with contacts, frictions, "
                                   "resets or constraint reactions of its own solves its "
                                   "constraints by their Schur complement; give "
                                   "--constraints projection");
    ok = false;
  }
  if (switches(eq) && options.constraintForm == ConstraintForm::Dae) {
    loaded.diagnostics().error({}, "--constraints dae: a model with contacts or resets keeps its "
                                   "constraints by projection (a resting contact is a constraint "
                                   "that comes and goes)");
    ok = false;
  }
  if (!eq.contacts.empty()) {
    // A restitution is checked in [0, 1] by sema at the declared values;
    // --set and sweeps may change them.
    std::vector<double> params = loaded.paramValues();
    std::vector<double> e = mechanics::ContactFunctions(eq, params.size()).restitutions(params);
    for (size_t i = 0; i < e.size(); ++i)
      if (!(e[i] >= 0 && e[i] <= 1)) {
        loaded.diagnostics().error(eq.contacts[i].restitutionLocation,
                                   "the restitution of contact '" + eq.contacts[i].gap.name +
                                       "' is " + shortestNumber(e[i]) +
                                       ", outside [0, 1] with the params given");
        ok = false;
      }
  }
  if (switches(eq) && options.baumgarte) {
    loaded.diagnostics().error({}, "--baumgarte: a model with contacts or resets keeps its "
                                   "constraints by projection");
    ok = false;
  }
  if (!options.eventsPath.empty() && eq.events.empty() && eq.contacts.empty() &&
      eq.frictions.empty() && eq.switches.empty()) {
    loaded.diagnostics().error({}, "--events: model " + loaded.model().name +
                                       " declares no event and has no piecewise law (declare "
                                       "one, `event hit: x == 0`, or give --stop-when)");
    ok = false;
  }
  if (!options.plotX.empty() &&
      !plottedColumns(loaded, csvColumns(eq), {options.plotX}, "--plot-x"))
    ok = false;
  return plottedColumns(loaded, csvColumns(eq), plottedNames(eq, options)).has_value() && ok;
}

std::string gridError(const runtime::IntegratorOptions &o) {
  auto tooFine = [&](const char *option, double spacing, const char *points) {
    return std::string(option) + " " + shortNumber(spacing) +
           " is too small for the time span from t = " + shortNumber(o.t0) + " to --until " +
           shortNumber(o.tEnd) + " (more than 1e15 " + points + ")";
  };
  if (!runtime::TimeGrid::fits(o.t0, o.tEnd, o.dt))
    return tooFine("--dt", o.dt, "samples");
  bool fixedStep = o.method == runtime::Method::Rk4 || o.method == runtime::Method::Midpoint;
  if (fixedStep && !runtime::TimeGrid::fits(o.t0, o.tEnd, o.step))
    return tooFine("--step", o.step, "steps");
  return "";
}

bool switches(const mechanics::Equations &eq) {
  return !eq.contacts.empty() || !eq.frictions.empty() || !eq.switches.empty() ||
         std::any_of(eq.events.begin(), eq.events.end(),
                     [](const mechanics::Equations::Event &e) { return !e.resets.empty(); });
}

// What the compiled kernels of the checked model are for (the cache and the
// object code are checked against it).
jit::KernelSignature kernelSignature(const sema::CheckedModel &model) {
  jit::KernelSignature signature;
  signature.model = model.name;
  for (const sema::Coord &coord : model.coords)
    signature.coordinates.push_back(coord.name);
  for (const sema::Param &param : model.params)
    signature.params.push_back(param.name);
  for (const sema::Constraint &constraint : model.constraints)
    signature.constraints.push_back(constraint.name);
  for (const sema::Output &output : model.outputs)
    signature.outputs.push_back(output.name);
  return signature;
}

// The kernels a run with this method needs beyond the common ones.
jit::KernelSelection kernelSelection(runtime::Method method) {
  return {method == runtime::Method::Midpoint, method == runtime::Method::Radau ||
                                                   method == runtime::Method::Bdf ||
                                                   method == runtime::Method::Auto};
}

namespace {

// The caches a compile may use: compiled code, and the index from a model's
// sources to it. Either may be missing (summary says why).
struct KernelCaches {
  std::optional<jit::ObjectCache> code, index;

  KernelCaches(const SimulationOptions &options, const std::string &sourceKey,
               SimulationSummary *summary) {
    if (!options.useCache)
      return;
    std::string why;
    code = jit::ObjectCache::openDefault(why);
    if (!code) {
      if (summary != nullptr) {
        summary->cache = "not used";
        if (!why.empty()) // empty: no folder of the user's to make it in (ObjectCache)
          summary->cacheWarning = "the kernel cache is not used: " + why;
      }
      return;
    }
    if (!sourceKey.empty())
      index = jit::ObjectCache::openDefault(why, kDerivationFolder);
  }

  void use(jit::CompileOptions &compile, const std::string &sourceKey) const {
    compile.cache = code ? &*code : nullptr;
    if (code && index) {
      compile.sourceKey = sourceKey;
      compile.index = &*index;
    }
  }
};

jit::CompileOptions compileOptions(const sema::CheckedModel &model,
                                   jit::KernelSelection selection) {
  jit::CompileOptions compile;
  compile.momentumForce = selection.momentumForce;
  compile.jacobian = selection.jacobian;
  compile.signature = kernelSignature(model);
  return compile;
}

// Interpreted kernels that hand over to native code compiled on another
// thread, from its own copy of the programs and its own caches.
std::unique_ptr<mechanics::Kernels> tieredKernels(const mechanics::KernelPrograms &programs,
                                                  const sema::CheckedModel &model,
                                                  const SimulationOptions &options,
                                                  const std::string &sourceKey,
                                                  jit::KernelSelection selection) {
  auto compile = [programs = std::make_shared<const mechanics::KernelPrograms>(programs),
                  base = compileOptions(model, selection), options, sourceKey] {
    KernelCaches caches(options, sourceKey, nullptr);
    jit::CompileOptions compile = base;
    caches.use(compile, sourceKey);
    jit::BackgroundResult result;
    result.kernels = jit::compileKernels(*programs, result.error, compile, &result.cache);
    return result;
  };
  return std::make_unique<jit::TieredKernels>(mechanics::interpretedKernels(programs),
                                              std::move(compile));
}

} // namespace

// The kernels on the chosen back end (the interpreter when the JIT fails,
// with a note; first the interpreter, then native code, when tiered).
std::unique_ptr<mechanics::Kernels> makeKernels(const mechanics::KernelPrograms &programs,
                                                const sema::CheckedModel &model,
                                                const SimulationOptions &options,
                                                SimulationSummary &summary,
                                                const std::string &sourceKey) {
  summary.cache = "off";
  // A contact mode whose contact force drives a sliding friction solves a
  // non-symmetric system with its consistency check, on the interpreter.
  if (options.backend == Backend::Interpreter || !programs.reactionRows.empty())
    return mechanics::interpretedKernels(programs);
  jit::KernelSelection selection = kernelSelection(options.integrator.method);
  size_t operations = jit::estimatedOperations(programs, selection);
  bool tiered = options.tiered && operations >= kTieredFrom;
  size_t budget = tiered ? kTieredJitBudget : kJitBudget;
  // Past the budget, compiling costs more than the run gains (bench/README.md).
  if (operations > budget) {
    summary.backendNote = "the kernels have " + std::to_string(operations) +
                          " operations, more than the JIT budget of " + std::to_string(budget) +
                          "; using the interpreter";
    return mechanics::interpretedKernels(programs);
  }
  KernelCaches caches(options, sourceKey, &summary);
  jit::CompileOptions compile = compileOptions(model, selection);
  caches.use(compile, sourceKey);
  // A warm run finds its code through the index at once; otherwise a tiered
  // run starts on the interpreter.
  compile.indexOnly = tiered;
  std::string error;
  jit::CacheReport report;
  auto kernels = jit::compileKernels(programs, error, compile, &report);
  if (tiered && !kernels && error.empty()) {
    summary.tiering = "compiling";
    return tieredKernels(programs, model, options, sourceKey, selection);
  }
  if (caches.code) {
    summary.cache = report.outcome;
    if (!report.warning.empty())
      summary.cacheWarning = "kernel cache: " + report.warning;
  }
  if (kernels)
    return kernels;
  summary.backendNote = "the JIT is not available (" + error + "); using the interpreter";
  return mechanics::interpretedKernels(programs);
}

namespace {

// The programs and kernels of a run: the model's own (on the JIT, kept by
// the loaded model across runs), or those of its Baumgarte-stabilized
// equations. Filled in place: `programs` may point into it.
struct RunKernels {
  jit::KernelSelection selection; // what the method needs beyond the common kernels
  std::optional<mechanics::Equations> stabilized;
  // The programs of the stabilized equations, or the model's with the
  // augmented solve: compiled for this run alone.
  std::optional<mechanics::KernelPrograms> ownPrograms;
  const mechanics::KernelPrograms *programs = nullptr;
  std::shared_ptr<mechanics::Kernels> kernels;
};

void buildRunKernels(LoadedModel &loaded, const SimulationOptions &options,
                     const std::vector<double> &params, SimulationSummary &summary,
                     RunKernels &out) {
  const mechanics::Equations &eq = loaded.equations();
  const jit::KernelSelection selection = out.selection = kernelSelection(options.integrator.method);
  if (options.baumgarte) {
    out.stabilized =
        mechanics::baumgarteStabilized(eq, options.baumgarte->first, options.baumgarte->second);
    out.ownPrograms = mechanics::KernelPrograms::build(*out.stabilized, params.size());
    if (selection.jacobian)
      out.ownPrograms->addJacobian(*out.stabilized);
  }
  if (options.constraintForm == ConstraintForm::Augmented && !eq.constraints.empty()) {
    if (!out.ownPrograms)
      out.ownPrograms = selection.jacobian ? loaded.programsWithJacobian() : loaded.programs();
    out.ownPrograms->augmentedSolve = true;
  }
  if (!out.ownPrograms) {
    out.programs = &(selection.jacobian ? loaded.programsWithJacobian() : loaded.programs());
    out.kernels = modelKernels(loaded, options, summary);
    return;
  }
  out.programs = &*out.ownPrograms;
  out.kernels = makeKernels(*out.programs, loaded.model(), options, summary, "");
}

} // namespace

std::shared_ptr<mechanics::Kernels>
modelKernels(LoadedModel &loaded, const SimulationOptions &options, SimulationSummary &summary) {
  const jit::KernelSelection selection = kernelSelection(options.integrator.method);
  const mechanics::KernelPrograms &programs =
      selection.jacobian ? loaded.programsWithJacobian() : loaded.programs();
  // The model's own programs on the JIT: compiled once per loaded model.
  bool keepable = options.backend != Backend::Interpreter;
  std::shared_ptr<mechanics::Kernels> kernels =
      keepable ? loaded.keptKernels(selection.momentumForce, selection.jacobian) : nullptr;
  if (kernels) {
    summary.cache = "not needed: compiled earlier in this session";
    return kernels;
  }
  kernels = makeKernels(programs, loaded.model(), options, summary, loaded.sourceKey);
  if (keepable && summary.backendNote.empty())
    loaded.keepKernels(selection.momentumForce, selection.jacobian, kernels);
  return kernels;
}

namespace {

// The inputs' values at t, for a model whose inputs follow signals or a
// caller's law; empty otherwise.
mechanics::InputFill inputFill(const LoadedModel &loaded) {
  bool signals = loaded.inputs && loaded.inputs->varies();
  if (!signals && !loaded.inputLaw)
    return {};
  if (!loaded.inputLaw)
    return [signals = loaded.inputs](double t, const double *, double *p) { signals->fill(t, p); };
  return [signals = signals ? loaded.inputs : nullptr,
          law = loaded.inputLaw](double t, const double *x, double *p) {
    if (signals)
      signals->fill(t, p);
    law(t, x, p);
  };
}

// What the steps of one run share: the model, its kernels and parameters,
// the options, and the summary they fill in.
// What of each sample the plot keeps: the plotted columns, the abscissa's
// column (t when none) and the time window (all when none).
struct PlotSampling {
  std::vector<size_t> series;
  std::optional<size_t> x;
  std::optional<std::pair<double, double>> window;

  bool shows(double t) const { return !window || (t >= window->first && t <= window->second); }
};

struct Run {
  const mechanics::Equations &eq;
  mechanics::Kernels &kernels;
  const std::vector<double> &params;
  const SimulationOptions &options;
  SimulationSummary &summary;
  size_t n, m; // coordinates, constraints
};

// What each output sample does: it is put onto the constraints, written as
// a CSV row, kept for the plot, and followed for the first integrals' drift.
class Sampler {
public:
  Sampler(Run &run, mechanics::ConstraintProjector &projector, PlotSampling plotted, size_t columns,
          Plot &plot, SampleSink &samples)
      : run_(run), projector_(&projector), kernels_(&run.kernels), plotted_(std::move(plotted)),
        plot_(plot), samples_(samples), conserved_(run.eq, run.params, run.summary), row_(columns),
        onManifold_(2 * run.n), slots_(run.eq.contacts.size() + run.eq.frictions.size(), -1) {}

  // A run with contacts: the kernels and projection of the contact mode
  // now in force, and each contact's slot among its multipliers after the
  // model's (-1: not resting, its force column 0).
  void useMode(mechanics::Kernels &kernels, mechanics::ConstraintProjector &projector,
               const std::vector<int> &slots) {
    kernels_ = &kernels;
    projector_ = &projector;
    slots_ = slots;
  }
  // The force of a slipping friction (its column), from the run.
  void useSlipForce(std::function<double(size_t, double, const double *)> force) {
    slipForce_ = std::move(force);
  }
  // The energy T + V jumped by `change` at an impact or a reset: the drift
  // is measured against the energy after it.
  void energyJumped(double change) { energy_.jumped(change); }

  // False interrupts the run.
  bool operator()(double t, const double *x) {
    if (interruptRequested())
      return false;
    if (kernels_->constraintCount > 0)
      x = onConstraints(t, x);
    writeRow(t, x);
    if (!run_.options.plotPath.empty() && plotted_.shows(t)) {
      plot_.x.push_back(plotted_.x ? row_[*plotted_.x] : t);
      for (size_t i = 0; i < plotted_.series.size(); ++i)
        plot_.series[i].values.push_back(row_[plotted_.series[i]]);
    }
    if (run_.summary.energyTracked) {
      energy_.sample(*kernels_, run_.params, t, x);
      run_.summary.energyDrift = energy_.relative();
      run_.summary.energyDriftOfTerms = energy_.ofTerms();
      run_.summary.energyStartsNearZero = energy_.startsNearZero();
    }
    conserved_.sample(t, x, run_.summary);
    ++run_.summary.samples;
    return true;
  }

  // The CSV's columns at an event, as a sample has them.
  const std::vector<double> &rowAt(double t, const double *x) {
    if (kernels_->constraintCount > 0)
      x = onConstraints(t, x);
    fillRow(t, x);
    return row_;
  }

private:
  // Samples inside a step come from the dense output, which drifts from the
  // constraints by the local error: they are projected too. The residuals
  // before and after go to the summary.
  const double *onConstraints(double t, const double *x) {
    SimulationSummary &summary = run_.summary;
    double before = 0;
    if (run_.options.projection)
      x = projector_->onConstraints(t, x, onManifold_, before);
    else
      before = projector_->residual(t, x);
    summary.constraintDrift = std::max(summary.constraintDrift, before);
    summary.constraintResidual = std::max(summary.constraintResidual, projector_->residual(t, x));
    return x;
  }

  // The row after t: the state, the multipliers, the outputs.
  void fillRow(double t, const double *x) {
    size_t n = run_.n, m = run_.m, k = slots_.size();
    std::copy(x, x + 2 * n, row_.begin());
    size_t held = kernels_->constraintCount;
    if (held > 0) {
      multipliers_.resize(held);
      kernels_->multipliers(t, x, run_.params.data(), multipliers_.data());
      std::copy(multipliers_.begin(), multipliers_.begin() + static_cast<long>(m),
                row_.begin() + static_cast<long>(2 * n));
    }
    const size_t contacts = run_.eq.contacts.size();
    for (size_t i = 0; i < k; ++i)
      row_[2 * n + m + i] = slots_[i] >= 0 ? multipliers_[m + static_cast<size_t>(slots_[i])]
                            : i >= contacts && slipForce_ ? slipForce_(i - contacts, t, x)
                                                          : 0.0;
    if (!run_.eq.outputs.empty())
      kernels_->outputs(t, x, run_.params.data(), row_.data() + 2 * n + m + k);
  }

  void writeRow(double t, const double *x) {
    fillRow(t, x);
    samples_.row(t, row_);
  }

  Run &run_;
  mechanics::ConstraintProjector *projector_;
  mechanics::Kernels *kernels_;
  PlotSampling plotted_;
  Plot &plot_;
  SampleSink &samples_;
  EnergyDrift energy_;
  ConservedDrift conserved_;
  std::vector<double> row_, onManifold_;
  std::vector<int> slots_;
  std::function<double(size_t, double, const double *)> slipForce_;
  std::vector<double> multipliers_;
};

// Once a force chatters (driver/ChatterWatch.h): the error located at it
// and the run's failure at t (its rows up to there are kept). False when
// none does.
bool reportChatter(LoadedModel &loaded, const mechanics::Equations &eq, const ChatterWatch &watch,
                   double t, SimulationSummary &summary) {
  if (!watch.chattering())
    return false;
  loaded.diagnostics().error(eq.velocitySwitches[*watch.chattering()].location, watch.message(eq));
  summary.failure =
      "the run stopped at t = " + shortestNumber(t) + ", where a force chatters (the error above)";
  return true;
}

// The model's events for the integrator: their functions (interpreted,
// with the inputs' values at t), and each event found recorded in `log`
// with the CSV's columns there.
// After them, the arguments of the forces that jump with a velocity
// (`watch`, driver/ChatterWatch.h): a crossing of one is counted there,
// and once one chatters the event functions fail, which ends the run.
void watchEvents(const Run &run, const LoadedModel &loaded,
                 std::optional<mechanics::EventFunctions> &functions, ChatterWatch &watch,
                 Sampler &sampler, EventLog &log, runtime::EventOptions &events) {
  const size_t declared = run.eq.events.size();
  if (declared == 0 && watch.size() == 0)
    return;
  if (declared > 0)
    functions.emplace(run.eq, run.kernels, run.params, inputFill(loaded));
  for (const mechanics::Equations::Event &e : run.eq.events)
    events.events.push_back({e.direction, e.stop});
  for (size_t i = 0; i < watch.size(); ++i)
    events.events.push_back({0, false});
  events.functions = [&functions, &watch, declared](double t, const double *x, double *g) {
    if (watch.chattering())
      return 1;
    if (functions)
      if (int status = (*functions)(t, x, g); status != 0)
        return status;
    if (watch.size() > 0)
      watch.evaluate(t, x, g + declared);
    return 0;
  };
  events.record = [&log, &sampler, &watch, declared](int event, double t, const double *x) {
    if (static_cast<size_t>(event) < declared)
      log.record(event, t, sampler.rowAt(t, x));
    else
      watch.crossed(static_cast<size_t>(event) - declared, t);
  };
  events.chattered = [&log, declared](int event, int times, double t, double tNew) {
    if (static_cast<size_t>(event) < declared)
      log.chattered(event, times, t, tNew);
  };
}

// Redundant constraints at the start, which the DAE form's iteration
// matrix cannot hold (it is singular with dependent rows of C; the
// projection form's state Jacobian leaves them out): the error that says
// so and what runs them, else "".
std::string redundantForDae(const Run &run, double t, const std::vector<double> &x) {
  std::vector<double> residuals(2 * run.m + run.m * run.n);
  run.kernels.constraints(t, x.data(), run.params.data(), residuals.data());
  std::string list = mechanics::redundantConstraints(run.eq, residuals.data() + 2 * run.m);
  if (list.empty())
    return "";
  return "constraints " + list +
         " are redundant at the start, which the DAE form (--constraints "
         "dae, radau's default) cannot hold: run them with --constraints projection";
}

// The DAE form (mechanics/DaeForm.h) as what the integrator integrates:
// its state from the ODE's start, its F (remembering a refused state as
// the ODE's does) and its Jacobian. False, with the error reported, when
// the start has no multipliers.
bool useDaeForm(const Run &run, LoadedModel &loaded, const mechanics::KernelPrograms &programs,
                std::optional<mechanics::DaeForm> &form, std::vector<double> &start,
                runtime::IntegratorOptions &integrator, runtime::RightHandSide &rhs,
                Refusal &refusal) {
  if (std::string redundant = redundantForDae(run, integrator.t0, start); !redundant.empty()) {
    loaded.diagnostics().error({}, redundant);
    return false;
  }
  form.emplace(run.eq, programs, run.kernels, run.params, inputFill(loaded));
  std::vector<double> x = start;
  if (int status = form->initialState(integrator.t0, x.data(), start); status != 0) {
    loaded.diagnostics().error({}, describeFailure(run.eq, run.kernels, run.params, status,
                                                   integrator.t0, x.data(), "at the start"));
    return false;
  }
  integrator.algebraicFrom = form->differential();
  integrator.auxiliaryFrom = form->differential() + static_cast<long>(run.m); // mu
  integrator.project = {};
  integrator.jacobian = [&form](double t, const double *y, double *J) {
    return form->jacobian(t, y, J);
  };
  rhs = [&form, &run, &refusal](double t, const double *y, double *F) {
    int status = form->rhs(t, y, F);
    if (status != 0) {
      refusal.state.assign(y, y + 2 * run.n);
      refusal.t = t;
    }
    return status;
  };
  run.summary.notes.push_back("the constraints are kept by the DAE form (index 2, with the "
                              "position and velocity constraints), without projection");
  return true;
}

// The run's outcome in its summary (events, notes, the stop or the
// failure), then the events file and the plot. False, with the error
// reported, when a file cannot be written.
bool recordOutcome(const runtime::IntegrationResult &result, const Run &run, const Refusal &refusal,
                   const std::vector<std::string> &columns, const EventLog &eventLog,
                   const Plot &plot, LoadedModel &loaded, SampleSink &samples) {
  SimulationSummary &summary = run.summary;
  const SimulationOptions &options = run.options;
  summary.events = eventLog.counts();
  if (options.keepEvents)
    for (const EventLog::Row &row : eventLog.rows())
      summary.eventRows.push_back({eventLog.name(row.event), row.t, row.values});
  summary.notes.insert(summary.notes.end(), result.notes.begin(), result.notes.end());
  summary.warnings = result.warnings;
  for (const EventCount &c : summary.events)
    if (c.mostInOneStep > 1)
      summary.warnings.push_back(
          "event " + c.name + " re-fired " + std::to_string(c.mostInOneStep) +
          " times within one step (t = " + shortestNumber(c.stepFrom) + " to " +
          shortestNumber(c.stepTo) + "): it chatters; each crossing is counted, " +
          "found on a grid of up to 256 points of the step");
  if (result.outcome == runtime::Outcome::Stopped) {
    summary.stoppedBy = run.eq.events[static_cast<size_t>(result.event)].name;
    summary.stopTime = result.failureTime;
  } else if (result.outcome != runtime::Outcome::Finished) {
    summary.failure = failureText(result, run.eq, run.kernels, run.params, refusal, columns);
  }
  samples.flush();
  std::string error;
  if (!options.eventsPath.empty() &&
      !writeOutputFile(options.eventsPath, eventLog.text(options.eventsPath), error)) {
    loaded.diagnostics().error({}, error);
    return false;
  }
  if (!options.plotPath.empty() && !writePlotFile(options.plotPath, renderSvg(plot), error)) {
    loaded.diagnostics().error({}, error);
    return false;
  }
  return true;
}

// The names the event log counts: the model's events, then per contact its
// impacts, its coming to rest and its lift-offs, per friction its sticks
// and slips, per piecewise law its switches.
std::vector<std::string> eventLogNames(const mechanics::Equations &eq) {
  std::vector<std::string> names;
  for (const mechanics::Equations::Event &e : eq.events)
    names.push_back(e.name);
  for (const mechanics::Equations::Contact &c : eq.contacts)
    for (const char *what : {"", " rests", " lifts off"})
      names.push_back(c.gap.name + what);
  for (const mechanics::Equations::Friction &f : eq.frictions)
    for (const char *what : {" sticks", " slips"})
      names.push_back(f.slip.name + what);
  for (const mechanics::Equations::Switch &s : eq.switches)
    names.push_back("law at " + std::to_string(s.location.line) + ":" +
                    std::to_string(s.location.column) + " switches");
  return names;
}

// What the events file's JSON adds to an impact's row: the contact's
// impulse, the energy the impact took and the velocities after it.
std::vector<std::pair<std::string, double>> impactValues(const ImpactRecord &impact, size_t contact,
                                                         const mechanics::Equations &eq) {
  std::vector<std::pair<std::string, double>> values;
  for (size_t i = 0; i < impact.contacts.size(); ++i)
    if (impact.contacts[i] == contact)
      values.emplace_back("impulse", impact.impulses[i]);
  values.emplace_back("energy_lost", impact.energyLost);
  for (size_t j = 0; j < impact.after.size(); ++j)
    values.emplace_back(eq.coordinates[j] + "' after", impact.after[j]);
  return values;
}

// A run of a model with contacts or resets (driver/ContactRun.h): its
// segments sampled and logged as a smooth run's are; the contact modes'
// kernels on the run's back end, with the inputs wired.
std::pair<runtime::IntegrationResult, ContactReport>
runWithContacts(LoadedModel &loaded, Run &run, mechanics::Kernels &kernels,
                const std::vector<double> &start, const runtime::IntegratorOptions &integrator,
                Sampler &sampler, EventLog &eventLog) {
  const size_t declared = run.eq.events.size();
  ContactRun::Hooks hooks;
  hooks.sample = [&sampler](double t, const double *x) { return sampler(t, x); };
  hooks.modeChanged = [&sampler](mechanics::Kernels &k, mechanics::ConstraintProjector &p,
                                 const std::vector<int> &slots) { sampler.useMode(k, p, slots); };
  hooks.declared = [&](int event, double t, const double *x) {
    eventLog.record(event, t, sampler.rowAt(t, x));
  };
  hooks.chattered = [&eventLog](int event, int times, double t, double tNew) {
    eventLog.chattered(event, times, t, tNew);
  };
  hooks.contact = [&, declared](size_t contact, const char *what, double t, const double *x,
                                const ImpactRecord *impact) {
    int kind = std::string(what) == "impact" ? 0 : std::string(what) == "rests" ? 1 : 2;
    std::vector<std::pair<std::string, double>> extra;
    if (impact)
      extra = impactValues(*impact, contact, run.eq);
    eventLog.record(static_cast<int>(declared + 3 * contact) + kind, t, sampler.rowAt(t, x),
                    std::move(extra));
  };
  hooks.friction = [&, declared](size_t friction, bool sticks, double t, const double *x) {
    eventLog.record(static_cast<int>(declared + 3 * run.eq.contacts.size() + 2 * friction) +
                        (sticks ? 0 : 1),
                    t, sampler.rowAt(t, x));
  };
  hooks.switched = [&, declared](size_t law, double t, const double *x) {
    eventLog.record(
        static_cast<int>(declared + 3 * run.eq.contacts.size() + 2 * run.eq.frictions.size() + law),
        t, sampler.rowAt(t, x));
  };
  hooks.energyJump = [&sampler](double change) { sampler.energyJumped(change); };
  ContactModes modes(
      run.eq,
      [&](const mechanics::KernelPrograms &programs, const std::string &mode) {
        std::string note;
        std::shared_ptr<mechanics::Kernels> k =
            contactModeKernels(programs, loaded, run.options, mode, note);
        if (!note.empty())
          run.summary.notes.push_back("a contact mode's kernels: " + note);
        return k;
      },
      run.params.size(), kernelSelection(run.options.integrator.method).jacobian);
  ContactRun contacts(run.eq, kernels, modes, run.params, inputFill(loaded), run.options.projection,
                      std::move(hooks));
  sampler.useSlipForce(
      [&contacts](size_t i, double t, const double *x) { return contacts.slipForce(i, t, x); });
  ChatterWatch watch(run.eq, run.params, inputFill(loaded));
  contacts.watch(watch);
  std::string error;
  runtime::IntegrationResult result = contacts.run(start, integrator, error);
  if (reportChatter(loaded, run.eq, watch, result.failureTime, run.summary)) {
    result.outcome = runtime::Outcome::Finished;
  } else if (std::optional<size_t> law = contacts.chatteringSwitch()) {
    loaded.diagnostics().error(run.eq.switches[*law].location, error);
    result.outcome = runtime::Outcome::Finished;
    run.summary.failure = "the run stopped at t = " + shortestNumber(result.failureTime) +
                          ", where a piecewise law chatters (the error above)";
  } else if (!error.empty()) {
    result.outcome = runtime::Outcome::Finished; // the failure is `error`, set below
    run.summary.failure = error + " at t = " + shortestNumber(result.failureTime);
  }
  return {result, contacts.report()};
}

// The summary of a run with contacts: its report; the first integrals are
// not followed across the jumps (the impacts change them), nor under
// friction (which works).
std::optional<SimulationSummary> finishContactSummary(SimulationSummary &summary,
                                                      const ContactReport &report,
                                                      const mechanics::Equations &eq) {
  const size_t declared = eq.events.size();
  summary.contacts = report;
  // The switches of piecewise laws are counted by the report (the log
  // keeps their rows for --events only).
  const size_t logged = declared + 3 * eq.contacts.size() + 2 * eq.frictions.size();
  summary.contactEvents.assign(summary.events.begin() + static_cast<long>(declared),
                               summary.events.begin() + static_cast<long>(logged));
  summary.events.resize(declared);
  // A piecewise law's switch keeps the state and T + V: only impacts,
  // resets and friction end the first integrals.
  const bool jumps =
      !eq.contacts.empty() || !eq.frictions.empty() ||
      std::any_of(eq.events.begin(), eq.events.end(),
                  [](const mechanics::Equations::Event &e) { return !e.resets.empty(); });
  if (jumps && !summary.conservedDrift.empty()) {
    summary.conservedDrift.clear();
    summary.notes.push_back(eq.frictions.empty()
                                ? "the first integrals are not followed across impacts and resets"
                                : "the first integrals are not followed with friction, impacts "
                                  "and resets");
  }
  return summary;
}

// The samples as CSV rows, after a header of the columns.
class CsvSamples : public SampleSink {
public:
  explicit CsvSamples(std::ostream &csv) : csv_(csv) {}

  void columns(const std::vector<std::string> &names) override {
    csv_ << "t";
    for (const std::string &name : names)
      csv_ << "," << csvField(name);
    csv_ << "\n";
  }
  void row(double t, const std::vector<double> &values) override {
    csv_ << formatValue(t);
    for (double v : values)
      csv_ << "," << formatValue(v);
    csv_ << "\n";
  }
  void flush() override { csv_.flush(); }

private:
  std::ostream &csv_;
};

} // namespace

std::shared_ptr<mechanics::Kernels> contactModeKernels(const mechanics::KernelPrograms &programs,
                                                       const LoadedModel &loaded,
                                                       const SimulationOptions &options,
                                                       const std::string &mode, std::string &note) {
  SimulationSummary scratch;
  // The cache's index finds a warm run's kernels by the sources and the
  // mode (its programs follow from both), as it finds the model's own.
  std::string key = loaded.sourceKey.empty() ? "" : loaded.sourceKey + "\ncontact mode " + mode;
  SimulationOptions untiered = options; // a mode's kernels are made mid-run, once
  untiered.tiered = false;
  std::shared_ptr<mechanics::Kernels> kernels =
      makeKernels(programs, loaded.model(), untiered, scratch, key);
  note = scratch.backendNote;
  if (mechanics::InputFill fill = inputFill(loaded))
    kernels = mechanics::withInputs(kernels, fill);
  return kernels;
}

std::optional<SimulationSummary> simulate(LoadedModel &loaded, const SimulationOptions &options,
                                          double deriveSeconds, std::ostream &csv) {
  CsvSamples samples(csv);
  return simulate(loaded, options, deriveSeconds, samples);
}

namespace {

// What tiered execution did in the run, for the summary.
void reportTiering(const mechanics::Kernels &kernels, SimulationSummary &summary) {
  const auto *tiered = dynamic_cast<const jit::TieredKernels *>(&kernels);
  if (tiered == nullptr)
    return;
  char text[200];
  if (auto at = tiered->switched()) {
    std::snprintf(text, sizeof text,
                  "the interpreter until t = %g, native code from there (compiled in %.2f s on "
                  "another thread)",
                  at->t, at->seconds);
    summary.tiering = text;
    if (auto outcome = tiered->outcome())
      summary.cache = outcome->cache.outcome;
    return;
  }
  auto outcome = tiered->outcome();
  if (outcome && !outcome->error.empty())
    summary.tiering =
        "the interpreter throughout: the JIT is not available (" + outcome->error + ")";
  else
    summary.tiering = "the interpreter throughout: the run ended before its native code was "
                      "ready (the compile on another thread was abandoned)";
}

} // namespace

// Compile, find the initial state, then integrate with a sampler that writes
// the CSV as the run goes (the rows up to a failure are kept).
std::optional<SimulationSummary> simulate(LoadedModel &loaded, const SimulationOptions &options,
                                          double deriveSeconds, SampleSink &samples) {
  const mechanics::Equations &eq = loaded.equations();
  const sema::CheckedModel &model = loaded.model();
  size_t n = eq.coordinates.size(), m = eq.constraints.size();
  SimulationSummary summary;
  summary.method = runtime::methodName(options.integrator.method);
  summary.deriveSeconds = deriveSeconds;
  if (!checkSimulation(loaded, options))
    return std::nullopt;
  std::vector<double> params = loaded.paramValues();

  auto compileStart = Clock::now();
  RunKernels built;
  buildRunKernels(loaded, options, params, summary, built);
  const mechanics::KernelPrograms &programs = *built.programs;
  std::shared_ptr<mechanics::Kernels> kernels = built.kernels;
  const jit::KernelSelection selection = built.selection;
  summary.compileSeconds = since(compileStart);
  // Inputs that follow signals are read at each call's t.
  if (mechanics::InputFill fill = inputFill(loaded))
    kernels = mechanics::withInputs(kernels, fill);

  double t0 = 0;
  std::optional<std::vector<double>> x0 =
      initialState(loaded, *kernels, params, options.start, t0, summary.notes);
  if (!x0)
    return std::nullopt;
  runtime::IntegratorOptions integrator = options.integrator;
  integrator.t0 = t0;
  // The command checks this before loading; other callers learn it here
  // rather than from an exception out of the integrator.
  if (std::string error = gridError(integrator); !error.empty()) {
    loaded.diagnostics().error({}, error);
    return std::nullopt;
  }

  // Energy drift is meaningful for a conservative model whose T has no
  // parts linear in or free of the velocities (then the Jacobi integral is T + V).
  summary.energyTracked = tracksEnergy(eq);

  std::vector<std::string> columns = csvColumns(eq);
  std::vector<std::string> plotted = plottedNames(eq, options);
  // Checked by checkSimulation above.
  PlotSampling plotting;
  plotting.series = *plottedColumns(loaded, columns, plotted);
  plotting.window = options.plotWindow;
  samples.columns(columns);

  Plot plot;
  plot.title = model.name;
  std::vector<std::string> units = columnUnits(model, eq);
  for (size_t i = 0; i < plotted.size(); ++i)
    plot.series.push_back({plotted[i], {}, units[plotting.series[i]]});
  if (!options.plotX.empty()) {
    plotting.x = plottedColumns(loaded, columns, {options.plotX}, "--plot-x")->front();
    const std::string &unit = units[*plotting.x];
    plot.xLabel = columns[*plotting.x] + (unit.empty() ? "" : " [" + unit + "]");
  }

  mechanics::ConstraintProjector projector(*kernels, params, mechanics::holonomicFlags(eq));
  summary.constrained = m > 0;
  // The DAE form keeps the constraints itself: its samples are reported as
  // they are, without projection.
  const bool dae = usesDaeForm(eq, options);
  SimulationOptions effective = options;
  effective.projection = options.projection && !dae;
  Run run{eq, *kernels, params, effective, summary, n, m};
  Sampler sampler(run, projector, std::move(plotting), columns.size(), plot, samples);
  Refusal refusal;
  if (m > 0 && effective.projection)
    integrator.project = [&](double t, double *x) { return projector.project(t, x); };
  std::optional<mechanics::EventFunctions> eventFunctions;
  EventLog eventLog(eventLogNames(eq), columns, !options.eventsPath.empty() || options.keepEvents);
  if (switches(eq)) {
    // The implicit methods: each contact mode supplies its own dF/dx
    // (ContactRun); this one only says that they are wanted.
    if (selection.jacobian)
      integrator.jacobian = [](double, const double *, double *) {
        return mechanics::kStatusKernelNotCompiled;
      };
    auto integrateStart = Clock::now();
    summary.firstStepSeconds =
        std::chrono::duration<double>(integrateStart - processStart()).count();
    auto result = runWithContacts(loaded, run, *kernels, *x0, integrator, sampler, eventLog);
    summary.integrateSeconds = since(integrateStart);
    reportTiering(*built.kernels, summary);
    summary.stats = result.first.stats;
    if (!recordOutcome(result.first, run, refusal, columns, eventLog, plot, loaded, samples))
      return std::nullopt;
    return finishContactSummary(summary, result.second, eq);
  }
  ChatterWatch watch(eq, params, inputFill(loaded));
  watchEvents(run, loaded, eventFunctions, watch, sampler, eventLog, integrator.events);
  std::vector<double> momentumForce;
  runtime::LagrangianForm lagrangian = lagrangianFormOf(*kernels, params, n, momentumForce);
  // Its buffers are allocated only for the implicit methods.
  std::optional<mechanics::StateJacobian> stateJacobian;
  std::optional<mechanics::DaeForm> daeForm;
  runtime::RightHandSide rhs = recordingRhs(*kernels, params, n, refusal);
  std::vector<double> start = *x0;
  if (dae) {
    if (!useDaeForm(run, loaded, programs, daeForm, start, integrator, rhs, refusal))
      return std::nullopt;
  } else if (selection.jacobian) {
    stateJacobian.emplace(*kernels);
    integrator.jacobian = [&](double t, const double *x, double *J) {
      return (*stateJacobian)(t, x, params.data(), J);
    };
  }

  mechanics::SingularPositionWatch singular(eq, *kernels, params);
  if (m > 0) {
    singular.start(integrator.t0, x0->data());
    integrator.stepped = [&singular](double t, const double *x) {
      singular.step(t, x);
      return true;
    };
  }

  auto integrateStart = Clock::now();
  summary.firstStepSeconds = std::chrono::duration<double>(integrateStart - processStart()).count();
  runtime::IntegrationResult result =
      runtime::integrate(rhs, start, integrator, std::ref(sampler), &lagrangian);
  summary.integrateSeconds = since(integrateStart);
  reportTiering(*built.kernels, summary);
  summary.stats = result.stats;
  for (std::string &note : singular.notes())
    summary.notes.push_back(std::move(note));
  if (!recordOutcome(result, run, refusal, columns, eventLog, plot, loaded, samples))
    return std::nullopt;
  for (std::string &warning : singular.warnings())
    summary.warnings.push_back(std::move(warning));
  if (!summary.failure.empty())
    summary.failure += singular.failureNote(dae);
  reportChatter(loaded, eq, watch, result.failureTime, summary);
  return summary;
}

void markProcessStart() {
  processStart() = Clock::now();
}

// Per contact: its impacts, when it came to rest and lifted off; the
// energy the impacts took and the resets changed.
std::string contactsText(const SimulationSummary &s) {
  if (!s.contacts)
    return "";
  std::ostringstream out;
  const ContactReport &r = *s.contacts;
  const size_t k = r.impactsPerContact.size();
  for (size_t i = 0; i + 2 < 3 * k && i + 2 < s.contactEvents.size(); i += 3) {
    const EventCount &hits = s.contactEvents[i], &rests = s.contactEvents[i + 1],
                     &lifts = s.contactEvents[i + 2];
    out << "contact " << hits.name << ": ";
    if (hits.count == 0)
      out << "no impact";
    else if (hits.count == 1)
      out << "1 impact, at t = " << formatNumber(hits.first, 0);
    else
      out << hits.count << " impacts, first at t = " << formatNumber(hits.first, 0)
          << ", last at t = " << formatNumber(hits.last, 0);
    if (rests.count > 0)
      out << "; came to rest " << (rests.count == 1 ? "at" : "first at")
          << " t = " << formatNumber(rests.first, 0);
    if (lifts.count > 0)
      out << "; lifted off " << (lifts.count == 1 ? "at" : "first at")
          << " t = " << formatNumber(lifts.first, 0);
    out << "\n";
  }
  for (size_t i = 3 * k; i + 1 < s.contactEvents.size(); i += 2) {
    const EventCount &sticks = s.contactEvents[i], &slips = s.contactEvents[i + 1];
    std::string name = sticks.name.substr(0, sticks.name.size() - std::string(" sticks").size());
    out << "friction " << name << ": " << sticks.count << (sticks.count == 1 ? " stick" : " sticks")
        << ", " << slips.count << (slips.count == 1 ? " slip" : " slips");
    if (sticks.count > 0)
      out << "; first stuck at t = " << formatNumber(sticks.first, 0);
    if (slips.count > 0)
      out << "; first slipped at t = " << formatNumber(slips.first, 0);
    out << "\n";
  }
  for (size_t i = 0; i < r.switchesPerLaw.size(); ++i) {
    out << "piecewise law at " << r.switchPlaces[i] << ": ";
    const long count = r.switchesPerLaw[i];
    if (count == 0)
      out << "no switch\n";
    else
      out << count << (count == 1 ? " switch, at t = " : " switches, first at t = ")
          << formatNumber(r.firstSwitch[i], 0) << "\n";
  }
  if (r.impactCount > 0)
    out << "energy lost at impacts " << formatNumber(r.energyLostAtImpacts, 0) << "\n";
  if (r.resets > 0)
    out << "energy changed by resets " << formatNumber(r.energyChangedAtResets, 0) << "\n";
  return out.str();
}

std::string summaryText(const SimulationSummary &s) {
  std::ostringstream out;
  char line[256];
  std::snprintf(line, sizeof line,
                "method %s: %ld steps accepted, %ld rejected, %ld rhs evaluations, %zu samples\n",
                s.method.c_str(), s.stats.accepted, s.stats.rejected, s.stats.rhsEvaluations,
                s.samples);
  out << line;
  if (s.stats.jacobianEvaluations > 0) {
    std::snprintf(line, sizeof line, "  %ld Jacobian evaluations, %ld factorizations",
                  s.stats.jacobianEvaluations, s.stats.factorizations);
    out << line;
    if (s.stats.sparseFactorizations > 0)
      out << (s.stats.sparseFactorizations == s.stats.factorizations
                  ? std::string(" (sparse LU)")
                  : " (" + std::to_string(s.stats.sparseFactorizations) + " by sparse LU)");
    out << "\n";
  }
  std::snprintf(line, sizeof line,
                "time: derive %.3f s%s, compile %.3f s (cache %s), integrate %.4f s; first step "
                "%.3f s after start\n",
                s.deriveSeconds, s.derivationCached ? " (cached)" : "", s.compileSeconds,
                s.cache.c_str(), s.integrateSeconds, s.firstStepSeconds);
  out << line;
  if (!s.tiering.empty())
    out << "tiers: " << s.tiering << "\n";
  // A first integral that drifts by more than this (relative) says the
  // integration did not follow the model: the numbers are not its motion.
  constexpr double kDriftWarning = 1e-2;
  std::string warnings;
  bool fixedStep = s.method == "rk4" || s.method == "midpoint";
  const char *advice = fixedStep ? "the step is too large for this model (try a smaller --step or "
                                   "an adaptive method)"
                                 : "the tolerances are too loose for this model (try a smaller "
                                   "--rtol and --atol)";
  auto warnIfLarge = [&](const std::string &what, double drift) {
    if (!(drift <= kDriftWarning)) {
      warnings += "warning: " + what + " " + formatNumber(drift, 3) + " exceeds " +
                  formatNumber(kDriftWarning, 3) + "; " + advice + "\n";
    }
  };
  if (s.energyTracked) {
    // Relative to E(0) only where E(0) is not 0 or a cancellation of T and
    // V (the chaos pendulum starts at E = -1e-17): there the ratio says
    // nothing.
    if (s.energyStartsNearZero)
      out << "energy drift max|E(t) - E(0)| of the largest |T| + |V| = "
          << formatNumber(s.energyDriftOfTerms, 3) << " (E(0) is about 0)\n";
    else
      out << "energy drift max|E(t) - E(0)|/|E(0)| = " << formatNumber(s.energyDrift, 3) << "\n";
    warnIfLarge("energy drift (of the largest |T| + |V|)", s.energyDriftOfTerms);
  }
  for (const auto &[name, drift] : s.conservedDrift) {
    out << "conserved " << name << ": drift " << formatNumber(drift, 3) << "\n";
    if (!(s.energyTracked && name == "h")) // h = T + V: warned about above
      warnIfLarge("drift of conserved " + name, drift);
  }
  for (const std::string &warning : s.warnings)
    warnings += "warning: " + warning + "\n";
  out << warnings;
  for (const EventCount &e : s.events) {
    out << "event " << e.name << ": ";
    if (e.count == 0)
      out << "did not fire\n";
    else if (e.count == 1)
      out << "fired once, at t = " << formatNumber(e.first, 0) << "\n";
    else
      out << "fired " << e.count << " times, first at t = " << formatNumber(e.first, 0)
          << ", last at t = " << formatNumber(e.last, 0) << "\n";
  }
  out << contactsText(s);
  if (!s.stoppedBy.empty())
    out << "stopped by event " << s.stoppedBy << " at t = " << formatNumber(s.stopTime, 0) << "\n";
  if (s.constrained) {
    out << "largest constraint residual " << formatNumber(s.constraintResidual, 3)
        << " in the output, " << formatNumber(s.constraintDrift, 3) << " before projection\n";
  }
  for (const std::string &note : s.notes)
    out << "note: " << note << "\n";
  if (!s.cacheWarning.empty())
    out << "warning: " << s.cacheWarning << "\n";
  if (!s.backendNote.empty())
    out << "note: " << s.backendNote << "\n";
  return out.str();
}

} // namespace mech::driver
