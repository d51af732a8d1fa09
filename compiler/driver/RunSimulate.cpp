// `mech simulate`: the options read from the command line (checked by the
// table's parser), the checks that must pass before anything is written,
// then the run with CSV to io.out or -o and the summary to io.err.
#include "driver/Commands.h"

#include "driver/NumberPair.h"
#include "driver/PlotFile.h"
#include "driver/Session.h"
#include "driver/Simulation.h"
#include "support/ListItems.h"
#include "support/NumberText.h"
#include "support/OutputFile.h"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ostream>

namespace mech::driver {

namespace {

// Splits --plot-vars at the commas outside brackets: the output d[1, 2] is
// one name.
std::vector<std::string> splitNames(const std::string &text) {
  std::vector<std::string> names;
  for (const ListItem &span : splitListItems(text)) {
    std::string item = text.substr(span.begin, span.end - span.begin);
    if (item.find_first_not_of(" \t") != std::string::npos)
      names.push_back(item.substr(item.find_first_not_of(" \t")));
  }
  return names;
}

// "a..b" with finite a < b.
std::optional<std::pair<double, double>> timeWindow(const std::string &text) {
  auto window = numberPair(text, "..");
  if (!window || !(window->first < window->second))
    return std::nullopt;
  return window;
}

} // namespace

// The options of a run; an exit code for the one value the table's types
// cannot check (--baumgarte's pair).
std::optional<int> simulationOptions(const CommandLine &line, const CommandIo &io,
                                     SimulationOptions &options) {
  runtime::IntegratorOptions &integrator = options.integrator;
  integrator.tEnd = line.number("--until", integrator.tEnd);
  integrator.dt = line.number("--dt", integrator.dt);
  integrator.rtol = line.number("--rtol", integrator.rtol);
  integrator.atol = line.number("--atol", integrator.atol);
  integrator.step = line.number("--step", integrator.step);
  integrator.maxSteps = line.count("--max-steps", integrator.maxSteps);
  // The option's choices are the list's names (CommandTable.cpp).
  integrator.method = runtime::methodNamed(line.value("--method", "dopri5")).value();
  options.backend = line.value("--backend") == "interp" ? Backend::Interpreter : Backend::Jit;
  options.useCache = !line.has("--no-cache");
  options.start.strictInit = line.has("--strict-init");
  options.projection = !line.has("--no-projection");
  if (line.has("--constraints")) {
    const std::string form = line.value("--constraints");
    options.constraintForm = form == "dae"         ? ConstraintForm::Dae
                             : form == "augmented" ? ConstraintForm::Augmented
                                                   : ConstraintForm::Projection;
  }
  options.start.init = line.value("--init");
  options.start.hold = splitNames(line.value("--hold"));
  options.plotPath = line.value("--plot");
  options.eventsPath = line.value("--events");
  for (const std::string &text : line.values("--plot-vars"))
    for (const std::string &item : splitNames(text))
      options.plotVars.push_back(item);
  options.plotX = line.value("--plot-x");
  if (line.has("--window")) {
    options.plotWindow = timeWindow(line.value("--window"));
    if (!options.plotWindow)
      return io.usageError("simulate: --window needs a time span 'a..b' with a < b, got '" +
                           line.value("--window") + "'");
  }
  if ((!options.plotX.empty() || options.plotWindow) && options.plotPath.empty())
    return io.usageError(std::string("simulate: ") +
                         (options.plotX.empty() ? "--window" : "--plot-x") +
                         " shapes the plot: give --plot FILE too");
  if (line.has("--baumgarte")) {
    std::string value = line.value("--baumgarte");
    auto gains = numberPair(value, ",");
    if (!gains ||
        !(gains->first >= 0 && gains->second >= 0 && gains->first < 1e308 && gains->second < 1e308))
      return io.usageError("simulate: --baumgarte needs two non-negative numbers 'a,b', got '" +
                           value + "'");
    options.baumgarte = gains;
  }
  return std::nullopt;
}

namespace {

// What can go wrong before the run, checked before anything is written (the
// CSV header, a truncated -o file): the options against the model, the time
// grids from the start time that --init may set, the plot's path.
std::optional<int> checkBeforeRun(LoadedModel &loaded, const SimulationOptions &options,
                                  const CommandIo &io) {
  if (!checkSimulation(loaded, options))
    return kExitModelError;
  std::optional<mechanics::State> start = parseState(loaded, options.start.init, nullptr, "--init");
  if (!start)
    return kExitModelError;
  runtime::IntegratorOptions integrator = options.integrator;
  integrator.t0 = start->t;
  if (std::string error = gridError(integrator); !error.empty())
    return io.usageError("simulate: " + error);
  if (const auto &window = options.plotWindow;
      window && (window->second <= integrator.t0 || window->first >= integrator.tEnd))
    return io.usageError("simulate: --window " + shortestNumber(window->first) + ".." +
                         shortestNumber(window->second) + " holds no time of the run (" +
                         shortestNumber(integrator.t0) + ".." + shortestNumber(integrator.tEnd) +
                         ")");
  if (std::string error = options.plotPath.empty() ? "" : plotFileProblem(options.plotPath);
      !error.empty()) {
    loaded.diagnostics().error({}, error);
    return kExitModelError;
  }
  return std::nullopt;
}

} // namespace

std::optional<int> readRunInputs(LoadedModel &loaded, const CommandLine &line,
                                 const SimulationOptions &options, const CommandIo &io) {
  if (!readInputs(loaded, line.value("--input")))
    return kExitModelError;
  return checkBeforeRun(loaded, options, io);
}

std::optional<int> prepareRun(const CommandLine &line, Session &session, const CommandIo &io,
                              const SimulationOptions &options, double &deriveSeconds) {
  auto started = std::chrono::steady_clock::now();
  if (line.has("--stop-when")) {
    std::vector<sema::Addition> additions = session.additions();
    additions.push_back(sema::Addition::stopWhen(line.value("--stop-when")));
    session.setAdditions(std::move(additions));
  }
  session.useDerivationCache(options.useCache);
  bool derived = session.derive();
  deriveSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (!derived) {
    session.printDiagnostics(io.err);
    return kExitModelError;
  }
  if (auto status = readRunInputs(session.loaded(), line, options, io)) {
    session.printDiagnostics(io.err);
    return status;
  }
  return std::nullopt;
}

int runSimulate(const CommandLine &line, Session &session, const CommandIo &io) {
  SimulationOptions options;
  if (auto status = simulationOptions(line, io, options))
    return *status;
  // One run: start on the interpreter while LLVM compiles (--backend auto).
  options.tiered = line.value("--backend", "auto") == "auto";
  std::string output = line.value("-o");
  double deriveSeconds = 0;
  if (auto status = prepareRun(line, session, io, options, deriveSeconds))
    return *status;
  LoadedModel &loaded = session.loaded();
  // The samples up to a failure are kept; a write error keeps nothing.
  OutputFile file(output);
  std::string error;
  if (!output.empty() && !file.open(error)) {
    return io.error(error);
  }
  std::ostream &csv = output.empty() ? io.out : file.stream();
  auto summary = simulate(loaded, options, deriveSeconds, csv);
  session.printDiagnostics(io.err);
  if (!summary)
    return kExitModelError;
  bool written = output.empty() || file.commit(error);
  summary->derivationCached = session.derivedFromCache();
  if (!session.derivationCacheWarning().empty())
    summary->warnings.push_back(session.derivationCacheWarning());
  io.err << summaryText(*summary);
  if (!written) {
    return io.error(error);
  }
  if (!summary->failure.empty()) {
    io.err << session.name() << ": error: " << summary->failure << "\n";
    return kExitModelError;
  }
  return kExitOk;
}

} // namespace mech::driver
