// check, fmt and the dumps: each a few calls into the compiler's libraries.
#include "Commands.h"

#include "driver/Pipeline.h"
#include "driver/Reports.h"
#include "driver/Simulation.h"
#include "jit/CompiledModel.h"
#include "sema/Analyzer.h"
#include "sema/ModelPrinter.h"
#include "support/Json.h"
#include "support/OutputFile.h"
#include "syntax/AstDump.h"
#include "syntax/Parser.h"
#include "syntax/Printer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <optional>
#include <sstream>

namespace mech::cli {

OptionWord splitOption(const std::string &arg) {
  size_t equals = arg.find('=');
  if (arg.rfind("--", 0) != 0 || equals == std::string::npos)
    return {arg, "", false};
  return {arg.substr(0, equals), arg.substr(equals + 1), true};
}

int usageError(const std::string &message) {
  std::cerr << "mech: " << message << "\n(run 'mech --help' for usage)\n";
  return kExitUsage;
}

std::optional<int> checkOutputs(const std::string &command, const std::string &model,
                                const std::vector<NamedPath> &outputs,
                                const driver::LoadedModel *loaded) {
  std::vector<NamedPath> inputs = {{"the model file", model}};
  if (loaded)
    for (const std::string &path : loaded->compilation->filesRead())
      inputs.push_back({"an import of the model", path});
  for (size_t i = 0; i < outputs.size(); ++i) {
    const NamedPath &out = outputs[i];
    if (out.path.empty())
      continue;
    for (const NamedPath &in : inputs)
      if (sameFile(out.path, in.path))
        return usageError(command + ": " + out.what + " '" + out.path + "' would overwrite " +
                          in.what + " '" + in.path + "'");
    for (size_t j = 0; j < i; ++j)
      if (!outputs[j].path.empty() && sameFile(out.path, outputs[j].path))
        return usageError(command + ": " + outputs[j].what + " '" + outputs[j].path + "' and " +
                          out.what + " '" + out.path + "' name the same file");
  }
  return std::nullopt;
}

namespace {

// Splits arguments into options (starting with -) and files.
struct Arguments {
  std::vector<std::string> options;
  std::vector<std::string> files;
};

Arguments split(const std::vector<std::string> &args) {
  Arguments result;
  bool onlyFiles = false;
  for (const std::string &arg : args) {
    if (arg == "--") {
      onlyFiles = true;
    } else if (!onlyFiles && arg.size() > 1 && arg[0] == '-') {
      result.options.push_back(arg);
    } else {
      result.files.push_back(arg);
    }
  }
  return result;
}

} // namespace

sema::SearchPath searchPath(const Invocation &invocation) {
  return sema::SearchPath::fromEnvironment(invocation.executable);
}

std::optional<int> parseModelOptions(const std::string &command,
                                     const std::vector<std::string> &args,
                                     const std::vector<std::string> &allowed,
                                     ModelOptions &options) {
  auto allowedOption = [&](const std::string &name) {
    return std::find(allowed.begin(), allowed.end(), name) != allowed.end();
  };
  std::vector<std::string> files;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string arg = args[i];
    std::string name = arg, value;
    bool hasValue = false;
    size_t equals = arg.find('=');
    if (arg.rfind("--", 0) == 0 && equals != std::string::npos) {
      name = arg.substr(0, equals);
      value = arg.substr(equals + 1);
      hasValue = true;
    }
    if (arg.size() < 2 || arg[0] != '-') {
      files.push_back(arg);
      continue;
    }
    if (!allowedOption(name))
      return usageError(command + ": unknown option '" + name + "'");
    if (name == "--json" || name == "--latex") {
      (name == "--json" ? options.json : options.latex) = true;
      continue;
    }
    if (!hasValue) {
      if (i + 1 >= args.size())
        return usageError(command + ": " + name + " needs a value");
      value = args[++i];
    }
    if (name == "--set")
      options.settings.push_back(value);
    else if (name == "--at")
      options.at += (options.at.empty() ? "" : ", ") + value;
    else if (name == "--in")
      options.in += (options.in.empty() ? "" : ", ") + value;
    else if (name == "--for")
      options.fors.push_back(value);
    else if (name == "--time")
      options.time = value;
  }
  if (options.json && options.latex)
    return usageError(command + ": --json and --latex exclude each other");
  if (files.size() != 1)
    return usageError(command + ": expected one model file, got " + std::to_string(files.size()));
  options.file = files[0];
  return std::nullopt;
}

int runCheck(const Invocation &invocation) {
  Arguments args = split(invocation.args);
  bool json = false;
  for (const std::string &option : args.options) {
    if (option != "--json")
      return usageError("check: unknown option '" + option + "'");
    json = true;
  }
  if (args.files.empty())
    return usageError("check: no input files");
  int status = kExitOk;
  JsonWriter out;
  out.beginArray();
  for (const std::string &path : args.files) {
    sema::Compilation compilation(searchPath(invocation));
    sema::Analysis analysis = sema::analyzeFile(compilation, path);
    // The derivation's own checks: T quadratic in the velocities,
    // constraints linear in them.
    bool ok = analysis.ok;
    if (ok && analysis.model)
      ok = mechanics::deriveEquations(*analysis.model, compilation.diagnostics()).has_value();
    compilation.diagnostics().print(std::cerr);
    if (json) {
      out.beginObject().key("file").value(path).key("ok").value(ok);
      out.key("errors").value(static_cast<double>(compilation.diagnostics().errorCount()));
      if (analysis.model) {
        const sema::CheckedModel &m = *analysis.model;
        out.key("model").value(m.name).key("coordinates").beginArray();
        for (const sema::Coord &q : m.coords)
          out.value(q.name);
        out.endArray().key("parameters").beginArray();
        for (const sema::Param &p : m.params)
          out.value(p.name);
        out.endArray().key("constraints").beginArray();
        for (const sema::Constraint &c : m.constraints)
          out.value(c.name);
        out.endArray();
        out.key("bodies").value(static_cast<double>(m.particles.size() + m.bodies.size()));
      } else if (ok) {
        out.key("defs").value(static_cast<double>(analysis.defCount));
      }
      out.endObject();
    }
    if (!ok) {
      status = kExitModelError;
      continue;
    }
    if (json)
      continue;
    if (analysis.model)
      std::cout << path << ": " << sema::summarizeModel(*analysis.model) << "\n";
    else
      std::cout << path << ": library of " << analysis.defCount
                << (analysis.defCount == 1 ? " def" : " defs") << "\n";
  }
  out.endArray();
  if (json)
    std::cout << out.str() << "\n";
  return status;
}

int runFmt(const Invocation &invocation) {
  Arguments args = split(invocation.args);
  bool check = false, write = false, json = false;
  for (const std::string &option : args.options) {
    if (option == "--check")
      check = true;
    else if (option == "--json")
      json = true;
    else if (option == "--write" || option == "-w")
      write = true;
    else
      return usageError("fmt: unknown option '" + option + "'");
  }
  if (check && write)
    return usageError("fmt: --check and --write exclude each other");
  if (args.files.empty())
    return usageError("fmt: no input files");
  if (json && !check)
    return usageError("fmt: --json goes with --check");
  int status = kExitOk;
  std::vector<std::string> unformatted;
  for (const std::string &path : args.files) {
    sema::Compilation compilation;
    const sema::LoadedFile *file = compilation.loadRoot(path, /*withImports=*/false);
    compilation.diagnostics().print(std::cerr);
    if (file == nullptr || !file->ast) {
      status = kExitModelError;
      continue;
    }
    std::string formatted = formatFile(*file->ast);
    if (check) {
      if (formatted != file->source->text()) {
        if (!json)
          std::cout << path << ": not formatted\n";
        unformatted.push_back(path);
        status = kExitModelError;
      }
    } else if (write) {
      std::string error;
      if (formatted != file->source->text() && !writeOutputFile(path, formatted, error)) {
        std::cerr << "mech: error: " << error << "\n";
        status = kExitModelError;
      }
    } else {
      std::cout << formatted;
    }
  }
  if (json) {
    JsonWriter out;
    out.beginObject().key("unformatted").beginArray();
    for (const std::string &path : unformatted)
      out.value(path);
    out.endArray().endObject();
    std::cout << out.str() << "\n";
  }
  return status;
}

int runEquations(const Invocation &invocation) {
  ModelOptions options;
  if (auto status =
          parseModelOptions("equations", invocation.args, {"--set", "--json", "--latex"}, options))
    return *status;
  auto loaded = driver::loadModel(options.file, options.settings, searchPath(invocation), true);
  loaded->diagnostics().print(std::cerr);
  if (!loaded->derivation)
    return kExitModelError;
  mechanics::Equations equations = mechanics::simplified(loaded->equations());
  if (std::string overflow = driver::nonFiniteConstants(equations); !overflow.empty()) {
    loaded->diagnostics().clear(); // printed above
    loaded->diagnostics().error(loaded->model().location, overflow);
    loaded->diagnostics().print(std::cerr);
    return kExitModelError;
  }
  if (options.json)
    std::cout << driver::equationsJson(equations);
  else if (options.latex)
    std::cout << driver::equationsLatex(equations);
  else
    std::cout << driver::equationsText(equations);
  return kExitOk;
}

int runEval(const Invocation &invocation) {
  ModelOptions options;
  if (auto status =
          parseModelOptions("eval", invocation.args, {"--set", "--at", "--json"}, options))
    return *status;
  auto loaded = driver::loadModel(options.file, options.settings, searchPath(invocation), true);
  if (!loaded->derivation) {
    loaded->diagnostics().print(std::cerr);
    return kExitModelError;
  }
  // A state off the constraints is put onto them first, as simulate does.
  std::vector<std::string> notes;
  std::optional<mechanics::State> state =
      driver::consistentState(*loaded, options.at, /*atRest=*/false, notes);
  std::optional<mechanics::Evaluation> evaluation;
  if (state) {
    mechanics::Evaluator evaluator(loaded->equations(), loaded->paramValues());
    evaluation = evaluator.at(*state, loaded->diagnostics(), loaded->model().location);
  }
  if (evaluation)
    evaluation->notes.insert(evaluation->notes.begin(), notes.begin(), notes.end());
  loaded->diagnostics().print(std::cerr);
  if (!evaluation)
    return kExitModelError;
  if (options.json)
    std::cout << driver::evaluationJson(loaded->equations(), *evaluation);
  else
    std::cout << driver::evaluationText(loaded->equations(), *evaluation);
  return kExitOk;
}

namespace {

bool parseNumber(const std::string &text, double &out) {
  char *end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return end != text.c_str() && *end == '\0' && std::isfinite(out);
}

// --max-steps: a whole number of steps from 1 up to what a long holds
// (written 1000 or 1e6); a fraction or a larger number is refused rather
// than truncated or wrapped around.
bool parseStepCount(const std::string &text, long &out) {
  double steps = 0;
  constexpr double kLimit = 0x1p63; // the first double beyond a long
  if (!parseNumber(text, steps) || steps < 1 || steps >= kLimit || steps != std::floor(steps))
    return false;
  out = static_cast<long>(steps);
  return true;
}

// Splits --plot-vars at the commas outside brackets: the output d[1, 2] is
// one name.
std::vector<std::string> splitNames(const std::string &text) {
  std::vector<std::string> names;
  std::string item;
  int depth = 0;
  for (char c : text + ",") {
    depth += (c == '[') - (c == ']');
    if (c != ',' || depth > 0) {
      item += c;
      continue;
    }
    if (item.find_first_not_of(" \t") != std::string::npos)
      names.push_back(item.substr(item.find_first_not_of(" \t")));
    item.clear();
  }
  return names;
}

// The command line of `simulate`.
struct SimulateArgs {
  driver::SimulationOptions options;
  std::string file, output;
  std::vector<std::string> settings;
};

// Applies one option that takes `value`; an exit code on usage errors.
std::optional<int> applySimulateOption(const std::string &name, const std::string &value,
                                       SimulateArgs &parsed) {
  driver::SimulationOptions &options = parsed.options;
  runtime::IntegratorOptions &integrator = options.integrator;
  auto numeric = [&](double &target, bool positive) -> std::optional<int> {
    double number = 0;
    if (!parseNumber(value, number) || (positive && !(number > 0)))
      return usageError("simulate: " + name + " needs a " + (positive ? "positive " : "") +
                        "number, got '" + value + "'");
    target = number;
    return std::nullopt;
  };
  if (name == "--until")
    return numeric(integrator.tEnd, false);
  if (name == "--dt")
    return numeric(integrator.dt, true);
  if (name == "--rtol")
    return numeric(integrator.rtol, true);
  if (name == "--atol")
    return numeric(integrator.atol, true);
  if (name == "--step")
    return numeric(integrator.step, true);
  if (name == "--max-steps") {
    if (!parseStepCount(value, integrator.maxSteps))
      return usageError("simulate: --max-steps needs a positive whole number below 2^63, got '" +
                        value + "'");
  } else if (name == "--method") {
    if (value == "dopri5")
      integrator.method = runtime::Method::Dopri5;
    else if (value == "dop853")
      integrator.method = runtime::Method::Dop853;
    else if (value == "rk4")
      integrator.method = runtime::Method::Rk4;
    else if (value == "midpoint")
      integrator.method = runtime::Method::Midpoint;
    else
      return usageError("simulate: unknown method '" + value +
                        "' (dopri5, dop853, rk4 or midpoint)");
  } else if (name == "--backend") {
    if (value == "jit")
      options.backend = driver::Backend::Jit;
    else if (value == "interp")
      options.backend = driver::Backend::Interpreter;
    else
      return usageError("simulate: unknown backend '" + value + "' (jit or interp)");
  } else if (name == "--baumgarte") {
    size_t comma = value.find(',');
    double a = 0, b = 0;
    if (comma == std::string::npos || !parseNumber(value.substr(0, comma), a) ||
        !parseNumber(value.substr(comma + 1), b) || a < 0 || b < 0)
      return usageError("simulate: --baumgarte needs two non-negative numbers 'a,b', got '" +
                        value + "'");
    options.baumgarte = std::make_pair(a, b);
  } else if (name == "--set") {
    parsed.settings.push_back(value);
  } else if (name == "--init") {
    options.start.init += (options.start.init.empty() ? "" : ", ") + value;
  } else if (name == "-o") {
    parsed.output = value;
  } else if (name == "--plot") {
    options.plotPath = value;
  } else if (name == "--plot-vars") {
    for (const std::string &item : splitNames(value))
      options.plotVars.push_back(item);
  }
  return std::nullopt;
}

std::optional<int> parseSimulateArgs(const std::vector<std::string> &args, SimulateArgs &parsed) {
  static const std::vector<std::string> known = {
      "--until", "--dt", "--method", "--rtol",      "--atol",    "--max-steps", "--set",
      "--init",  "-o",   "--plot",   "--plot-vars", "--backend", "--step",      "--baumgarte"};
  driver::SimulationOptions &options = parsed.options;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &arg = args[i];
    auto [name, value, inlineValue] = splitOption(arg);
    if (arg.size() < 2 || arg[0] != '-') {
      if (!parsed.file.empty())
        return usageError("simulate: expected one model file");
      parsed.file = arg;
      continue;
    }
    if (arg == "--no-cache" || arg == "--strict-init" || arg == "--no-projection") {
      if (arg == "--no-cache")
        options.useCache = false;
      else if (arg == "--strict-init")
        options.start.strictInit = true;
      else
        options.projection = false;
      continue;
    }
    if (std::find(known.begin(), known.end(), name) == known.end())
      return usageError("simulate: unknown option '" + name + "'");
    if (!inlineValue) {
      if (i + 1 >= args.size())
        return usageError("simulate: " + name + " needs a value");
      value = args[++i];
    }
    if (auto status = applySimulateOption(name, value, parsed))
      return status;
  }
  if (parsed.file.empty())
    return usageError("simulate: expected one model file");
  return std::nullopt;
}

// What can go wrong before the run, checked before anything is written (the
// CSV header, a truncated -o file): the options against the model, the time
// grids from the start time that --init may set, the plot's path.
std::optional<int> checkBeforeRun(driver::LoadedModel &loaded,
                                  const driver::SimulationOptions &options) {
  if (!driver::checkSimulation(loaded, options))
    return kExitModelError;
  std::optional<mechanics::State> start =
      driver::parseState(loaded, options.start.init, nullptr, "--init");
  if (!start)
    return kExitModelError;
  runtime::IntegratorOptions integrator = options.integrator;
  integrator.t0 = start->t;
  if (std::string error = driver::gridError(integrator); !error.empty())
    return usageError("simulate: " + error);
  std::string error;
  if (!options.plotPath.empty() && !canWriteOutputFile(options.plotPath, error)) {
    loaded.diagnostics().error({}, error);
    return kExitModelError;
  }
  return std::nullopt;
}

} // namespace

int runSimulate(const Invocation &invocation) {
  auto started = std::chrono::steady_clock::now();
  SimulateArgs args;
  if (auto status = parseSimulateArgs(invocation.args, args))
    return *status;
  std::vector<NamedPath> outputs = {{"-o", args.output}, {"--plot", args.options.plotPath}};
  if (auto status = checkOutputs("simulate", args.file, outputs))
    return *status;
  auto loaded = driver::loadModel(args.file, args.settings, searchPath(invocation), true);
  double deriveSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (!loaded->derivation) {
    loaded->diagnostics().print(std::cerr);
    return kExitModelError;
  }
  if (auto status = checkOutputs("simulate", args.file, outputs, loaded.get()))
    return *status;
  if (auto status = checkBeforeRun(*loaded, args.options)) {
    loaded->diagnostics().print(std::cerr);
    return *status;
  }
  // The samples up to a failure are kept; a write error keeps nothing.
  OutputFile file(args.output);
  std::string error;
  if (!args.output.empty() && !file.open(error)) {
    std::cerr << "mech: error: " << error << "\n";
    return kExitModelError;
  }
  std::ostream &csv = args.output.empty() ? std::cout : file.stream();
  auto summary = driver::simulate(*loaded, args.options, deriveSeconds, csv);
  loaded->diagnostics().print(std::cerr);
  if (!summary)
    return kExitModelError;
  bool written = args.output.empty() || file.commit(error);
  std::cerr << driver::summaryText(*summary);
  if (!written) {
    std::cerr << "mech: error: " << error << "\n";
    return kExitModelError;
  }
  if (!summary->failure.empty()) {
    std::cerr << args.file << ": error: " << summary->failure << "\n";
    return kExitModelError;
  }
  return kExitOk;
}

int runDump(const Invocation &invocation, const std::string &stage) {
  if (stage != "ast" && stage != "sema" && stage != "eom" && stage != "llvm")
    return usageError("unknown dump stage '" + stage + "' (ast, sema, eom or llvm)");
  if (stage == "eom" || stage == "llvm") {
    ModelOptions options;
    if (auto status = parseModelOptions("--dump=" + stage, invocation.args, {"--set"}, options))
      return *status;
    auto loaded = driver::loadModel(options.file, options.settings, searchPath(invocation), true);
    loaded->diagnostics().print(std::cerr);
    if (!loaded->derivation)
      return kExitModelError;
    if (stage == "eom") {
      std::cout << driver::eomDump(mechanics::simplified(loaded->equations()));
      return kExitOk;
    }
    auto programs =
        mechanics::KernelPrograms::build(loaded->equations(), loaded->model().params.size());
    std::string error;
    std::string ir = jit::kernelsIr(programs, error);
    if (ir.empty()) {
      std::cerr << "mech: error: " << error << "\n";
      return kExitModelError;
    }
    std::cout << ir;
    return kExitOk;
  }
  Arguments args = split(invocation.args);
  if (!args.options.empty())
    return usageError("--dump: unknown option '" + args.options[0] + "'");
  if (args.files.size() != 1)
    return usageError("--dump=" + stage + " takes one file");
  sema::Compilation compilation(searchPath(invocation));
  if (stage == "ast") {
    const sema::LoadedFile *file = compilation.loadRoot(args.files[0], /*withImports=*/false);
    compilation.diagnostics().print(std::cerr);
    if (file == nullptr || !file->ast || compilation.diagnostics().hasErrors())
      return kExitModelError;
    std::cout << dumpAst(*file->ast, /*withLocations=*/true);
    return kExitOk;
  }
  sema::Analysis analysis = sema::analyzeFile(compilation, args.files[0]);
  compilation.diagnostics().print(std::cerr);
  if (!analysis.ok)
    return kExitModelError;
  if (analysis.model)
    std::cout << sema::dumpModel(*analysis.model);
  return kExitOk;
}

} // namespace mech::cli
