// `mech periodic`: a periodic motion as the fixed point of a return map
// (through a declared event's section, or over a forcing period), its
// Floquet multipliers and stability, and with --sweep its continuation in a
// param (driver/PeriodicOrbit.h). Reads the options, runs the engine,
// renders text, JSON and the sweep's plot.
#include "driver/AnalysisText.h"
#include "driver/Commands.h"
#include "driver/LinearizeSweep.h"
#include "driver/PeriodicOrbit.h"
#include "driver/PeriodicReport.h"
#include "driver/Pipeline.h"
#include "driver/PlotFile.h"
#include "driver/Session.h"
#include "driver/Simulation.h"
#include "mechanics/Equilibria.h"
#include "sema/Values.h"
#include "support/NumberText.h"
#include "symbolic/ZeroTest.h"

#include <cmath>

namespace mech::driver {

namespace {

// The kernels with the Jacobian's parts (the state Jacobian of the
// variational equations), as a radau run has them.
std::shared_ptr<mechanics::Kernels> periodicKernels(LoadedModel &loaded) {
  SimulationOptions options;
  options.integrator.method = runtime::Method::Radau;
  SimulationSummary summary;
  return modelKernels(loaded, options, summary);
}

// --period's text, an expression of numbers, units and params ("2*pi/w"),
// at the params' current values; nullopt after reporting an error.
std::optional<double> forcingPeriod(LoadedModel &loaded, const std::string &text) {
  auto values =
      sema::parseAssignments(*loaded.compilation, "--period", "period = " + text, &loaded.model());
  if (!values)
    return std::nullopt;
  const sema::Assignment &a = values->front();
  if (!checkValueDimension(loaded.diagnostics(), a, sema::DimInfo::known(sema::Dimension::time())))
    return std::nullopt;
  if (!(a.value > 0) || !std::isfinite(a.value)) {
    loaded.diagnostics().error(a.location, "--period: the period is " + shortestNumber(a.value) +
                                               "; it must be a positive time");
    return std::nullopt;
  }
  return a.value;
}

// Whether the motion a return map follows depends on t: the equations,
// a contact's gap, or an event the map jumps at (the section, one with
// resets, one that stops).
bool motionDependsOnTime(const mechanics::Equations &eq, std::optional<size_t> section) {
  if (mechanics::dependsOnTime(eq))
    return true;
  for (const mechanics::Equations::Contact &c : eq.contacts)
    if (sym::dependsOnTime(c.gap.phi))
      return true;
  for (size_t i = 0; i < eq.events.size(); ++i) {
    const mechanics::Equations::Event &e = eq.events[i];
    bool watched = section == i || e.stop || !e.resets.empty();
    if (watched && sym::dependsOnTime(e.g))
      return true;
    for (const mechanics::Equations::Reset &r : e.resets)
      if (sym::dependsOnTime(r.value))
        return true;
  }
  return false;
}

// The options that set up the map: the section's event or the forcing
// period; nullopt after reporting an error (the exit status in `status`).
std::optional<ReturnMapSetup> mapSetup(const CommandLine &line, LoadedModel &loaded,
                                       const CommandIo &io, int &status) {
  const mechanics::Equations &eq = loaded.equations();
  ReturnMapSetup setup;
  setup.until = line.number("--until", 100);
  if (line.count("--returns", 1) > 1000) {
    status = io.usageError("periodic: --returns takes at most 1000 returns");
    return std::nullopt;
  }
  setup.returns = static_cast<int>(line.count("--returns", 1));
  status = kExitModelError;
  if (!line.has("--section") && !line.has("--period")) {
    status = io.usageError("periodic: give the section, --section EVENT (a declared event), or "
                           "the forcing's period, --period T");
    return std::nullopt;
  }
  Diagnostics &diagnostics = loaded.diagnostics();
  if (line.has("--period")) {
    if (!motionDependsOnTime(eq, std::nullopt)) {
      diagnostics.error(loaded.model().location,
                        "the motion of " + eq.model +
                            " (its equations, contacts and events) does not depend on t, so every "
                            "time is a period's start: give a "
                            "section with --section EVENT instead of --period");
      return std::nullopt;
    }
    std::optional<double> period = forcingPeriod(loaded, line.value("--period"));
    if (!period)
      return std::nullopt;
    setup.forcingPeriod = *period;
    return setup;
  }
  const std::string name = line.value("--section");
  std::vector<std::string> names;
  for (size_t e = 0; e < eq.events.size(); ++e) {
    names.push_back(eq.events[e].name);
    if (eq.events[e].name == name)
      setup.section = e;
  }
  if (!setup.section) {
    diagnostics.error(loaded.model().location,
                      "--section: '" + name + "' is not an event of " + eq.model +
                          (names.empty() ? " (it declares none: add one, as `event up: x == 0 "
                                           "direction up`)"
                                         : " (its events: " + analysis_text::joined(names) + ")"));
    return std::nullopt;
  }
  if (eq.events[*setup.section].direction == 0) {
    diagnostics.error(eq.events[*setup.section].location,
                      "--section: event '" + name +
                          "' counts crossings either way, so the next one is the way back (half "
                          "a period): give it a direction (`direction up` or `direction down`)");
    return std::nullopt;
  }
  if (eq.events[*setup.section].stop) {
    diagnostics.error(eq.events[*setup.section].location,
                      "--section: event '" + name + "' stops the run; a section must not");
    return std::nullopt;
  }
  if (motionDependsOnTime(eq, setup.section)) {
    diagnostics.error(loaded.model().location,
                      "the motion of " + eq.model +
                          " (its equations, a contact or an event) depends on t, so a return to "
                          "the section need not repeat the motion: "
                          "give the forcing's period with --period T (the stroboscopic map)");
    return std::nullopt;
  }
  return setup;
}

// The guess and the family's choice; false after reporting an error.
bool readRequest(const CommandLine &line, LoadedModel &loaded, ReturnMapSetup &setup,
                 PeriodicRequest &request) {
  std::optional<mechanics::State> guess =
      parseState(loaded, line.value("--guess"), nullptr, "--guess");
  if (!guess)
    return false;
  setup.t0 = guess->t;
  request.guess = guess->q;
  request.guess.insert(request.guess.end(), guess->qd.begin(), guess->qd.end());
  if (line.has("--energy"))
    request.energy = line.number("--energy", 0);
  if (line.has("--fix")) {
    std::string name = line.value("--fix");
    bool primed = !name.empty() && name.back() == '\'';
    int j = coordinateIndex(loaded.model(), primed ? name.substr(0, name.size() - 1) : name);
    if (j < 0) {
      loaded.diagnostics().error({}, "--fix: '" + name + "' is not a coordinate or velocity of " +
                                         loaded.model().name);
      return false;
    }
    request.fixed = static_cast<size_t>(j) + (primed ? loaded.equations().coordinates.size() : 0);
  }
  return true;
}

// --sweep: the param, its values and the param vectors along it; false after
// reporting an error.
struct SweepPlan {
  SweepSpec spec;
  size_t param = 0;
  double scale = 1;
  std::vector<double> values;
};

std::optional<SweepPlan> sweepPlan(const CommandLine &line, LoadedModel &loaded) {
  std::string error;
  std::optional<SweepSpec> spec = parseSweep(line.value("--sweep"), error);
  if (!spec) {
    loaded.diagnostics().error({}, error);
    return std::nullopt;
  }
  SweepPlan plan{*spec, 0, 1, {}};
  std::vector<sema::Param> &params = loaded.analysis.model->params;
  auto found = std::find_if(params.begin(), params.end(),
                            [&](const sema::Param &p) { return p.name == spec->name; });
  if (found == params.end()) {
    loaded.diagnostics().error({}, "--sweep: '" + spec->name + "' is not a param of " +
                                       loaded.model().name);
    return std::nullopt;
  }
  if (found->structural) {
    loaded.diagnostics().error({}, "--sweep: '" + spec->name +
                                       "' is structural (a range bound or index): each value is "
                                       "another model");
    return std::nullopt;
  }
  plan.param = static_cast<size_t>(found - params.begin());
  std::optional<double> scale = paramScale(loaded, *spec, *found);
  if (!scale)
    return std::nullopt;
  plan.scale = *scale;
  for (size_t k = 0; k < spec->count; ++k)
    plan.values.push_back(spec->lo + (spec->hi - spec->lo) * static_cast<double>(k) /
                                         static_cast<double>(spec->count - 1));
  return plan;
}

int runBranch(const CommandLine &line, LoadedModel &loaded, ReturnMap &map,
              const PeriodicRequest &request, const CommandIo &io) {
  std::optional<SweepPlan> plan = sweepPlan(line, loaded);
  if (!plan)
    return kExitModelError;
  std::vector<sema::Param> &params = loaded.analysis.model->params;
  const double kept = params[plan->param].value;
  // A period written with params ("2*pi/w") follows the swept one.
  const std::string periodText = line.value("--period");
  auto paramsAt = [&](double v) {
    params[plan->param].value = v * plan->scale;
    if (!periodText.empty())
      if (std::optional<double> period = forcingPeriod(loaded, periodText))
        map.setForcingPeriod(*period);
    return loaded.paramValues(map.setup().t0);
  };
  Branch branch = continueBranch(map, request, paramsAt, plan->values);
  params[plan->param].value = kept;
  if (loaded.diagnostics().hasErrors())
    return kExitModelError;
  map.setParams(loaded.paramValues(map.setup().t0));
  if (branch.orbits.empty()) {
    loaded.diagnostics().error({}, "--sweep: no periodic motion " + branch.lost);
    return kExitModelError;
  }
  const PeriodicTitle title{loaded.equations(), map.setup(), plan->spec.name, periodText};
  if (std::string path = line.value("--plot"); !path.empty()) {
    std::string error;
    if (!writePlotFile(path, branchPlot(title, plan->spec, branch), error)) {
      loaded.diagnostics().error({}, error);
      return kExitModelError;
    }
  }
  io.out << (line.has("--json") ? branchJson(title, branch) : branchText(title, branch));
  return kExitOk;
}

} // namespace

int runPeriodic(const CommandLine &line, Session &session, const CommandIo &io) {
  if (!session.derive()) {
    session.printDiagnostics(io.err);
    return kExitModelError;
  }
  LoadedModel &loaded = session.loaded();
  const mechanics::Equations &eq = loaded.equations();
  auto fail = [&](int status) {
    session.printDiagnostics(io.err);
    return status;
  };
  if (line.has("--plot") && !line.has("--sweep"))
    return io.usageError("periodic: --plot draws a --sweep's multipliers; give --sweep too");
  int status = kExitModelError;
  std::optional<ReturnMapSetup> setup = mapSetup(line, loaded, io, status);
  if (!setup)
    return fail(status);
  Location where = loaded.model().location;
  if (std::string why = returnMapRefusal(eq, setup->section, where); !why.empty()) {
    loaded.diagnostics().error(where, why);
    return fail(kExitModelError);
  }
  PeriodicRequest request;
  if (!readRequest(line, loaded, *setup, request))
    return fail(kExitModelError);
  std::shared_ptr<mechanics::Kernels> kernels = periodicKernels(loaded);
  ReturnMap map(eq, *kernels, loaded.paramValues(setup->t0), *setup);
  if (line.has("--sweep")) {
    int code = runBranch(line, loaded, map, request, io);
    return code == kExitOk ? code : fail(code);
  }
  std::string error;
  std::optional<PeriodicOrbit> orbit = findPeriodicOrbit(map, request, error);
  if (!orbit) {
    loaded.diagnostics().error(loaded.model().location, error);
    return fail(kExitModelError);
  }
  session.printDiagnostics(io.err);
  const PeriodicTitle title{eq, *setup, "", ""};
  io.out << (line.has("--json") ? orbitJson(title, *orbit) : orbitText(title, *orbit));
  return kExitOk;
}

} // namespace mech::driver
