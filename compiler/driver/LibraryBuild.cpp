// The build in steps: the model's description and initial state, the object
// code from LLVM, the runtime object from mech itself, and the link by the
// system's C compiler driver with a version script that exports only
// PREFIX_*. The intermediate files live in a private temporary folder.
#include "driver/LibraryBuild.h"

#include "driver/InitialState.h"
#include "driver/LibraryHeader.h"
#include "driver/Reports.h"
#include "driver/Simulation.h"
#include "driver/UnitText.h"
#include "jit/CompiledModel.h"
#include "jit/LibraryModule.h"
#include "mechanics/Evaluation.h"
#include "mechanics/Kernels.h"
#include "mechanics/SwitchPrograms.h"
#include "mechanics/Switches.h"
#include "runtime/library/LibraryRuntimeObject.h"
#include "support/OutputFile.h"
#include "support/RunTool.h"
#include "support/TemporaryFolder.h"
#include "symbolic/Piecewise.h"
#include "symbolic/Print.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace mech::driver {

namespace {

namespace fs = std::filesystem;

bool endsWith(const std::string &text, const std::string &suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A tool of the link, run with its output in `log`.
bool runTool(const std::vector<std::string> &args, const fs::path &log, std::string &error) {
  return mech::runTool(args, log.string(),
                       "linking a library needs a C compiler driver (Debian: build-essential); "
                       "set CC to use another",
                       error);
}

// The compiler driver's words: CC split on blanks as make splits it
// (CC="gcc -O2" runs gcc with -O2), "cc" when CC is unset or blank.
std::vector<std::string> compilerDriver() {
  const char *cc = std::getenv("CC");
  std::vector<std::string> words;
  std::string word;
  for (const char *c = cc ? cc : "";; ++c) {
    if (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\0') {
      if (!word.empty())
        words.push_back(std::move(word));
      word.clear();
      if (*c == '\0')
        break;
    } else {
      word += *c;
    }
  }
  if (words.empty())
    words.push_back("cc");
  return words;
}

// The compiler driver's words followed by `args`.
std::vector<std::string> withCompiler(std::vector<std::string> args) {
  std::vector<std::string> command = compilerDriver();
  command.insert(command.end(), args.begin(), args.end());
  return command;
}

// What the library's model description holds: the names, the parameter
// defaults and the initial state it starts from.
jit::LibraryDescription describeLibrary(const sema::CheckedModel &model,
                                        const mechanics::Equations &eq, const std::string &prefix,
                                        const std::vector<double> &params,
                                        const std::vector<double> &x0) {
  jit::LibraryDescription library;
  library.prefix = prefix;
  library.name = model.name;
  library.coordinates = eq.coordinates;
  for (const sema::Param &p : model.params)
    library.params.push_back(p.name);
  library.paramDefaults = params;
  library.initialState = x0;
  for (const auto &constraint : eq.constraints) {
    library.constraints.push_back(constraint.name);
    library.holonomic.push_back(constraint.holonomic);
  }
  library.outputs = eq.outputNames;
  library.inputs = eq.inputs.size();
  for (const mechanics::Equations::Event &e : eq.events)
    library.events.push_back(e.name);
  for (const mechanics::Equations::Contact &c : eq.contacts)
    library.contacts.push_back(c.gap.name);
  for (const mechanics::Equations::Friction &f : eq.frictions)
    library.frictions.push_back(f.slip.name);
  return library;
}

// Links the two objects into `staged`: a relocatable object whose only
// global symbols are PREFIX_*, or a shared library whose version script
// exports only those, so that libraries of several models coexist.
bool linkStaged(const fs::path &folder, const std::string &output, const std::string &prefix,
                const fs::path &modelObject, const fs::path &runtimeObject,
                const std::string &staged, std::string &error) {
  fs::path log = folder / "log";
  if (endsWith(output, ".o")) {
    fs::path combined = folder / "combined.o";
    return runTool(withCompiler({"-r", "-nostdlib", "-o", combined.string(), modelObject.string(),
                                 runtimeObject.string()}),
                   log, error) &&
           runTool({"objcopy", "--wildcard", "--keep-global-symbol=" + prefix + "_*",
                    combined.string(), staged},
                   log, error);
  }
  return linkSharedObject(folder, staged, {modelObject, runtimeObject}, prefix + "_*", error);
}

// What the header documents: the names with the units the values are in.
HeaderModel describeHeader(const sema::CheckedModel &model, const mechanics::Equations &eq,
                           const LibraryBuildOptions &options, const std::vector<double> &params) {
  HeaderModel header;
  header.prefix = options.prefix;
  header.model = model.name;
  header.file = fs::path(options.header).filename().string();
  header.command = options.command;
  header.abiVersion = jit::kLibraryAbiVersion;
  for (size_t j = 0; j < eq.coordinates.size(); ++j)
    header.coordinates.push_back(
        {eq.coordinates[j], siUnitText(model.coords[j].unit, eq.coordinateDims[j]), 0});
  for (size_t i = 0; i < model.params.size(); ++i)
    header.params.push_back(
        {model.params[i].name, siUnitText(model.params[i].unit, model.params[i].dim), params[i]});
  header.inputs = eq.inputs.size();
  for (const auto &constraint : eq.constraints) {
    header.constraints.push_back({constraint.name, forceUnit(constraint.multiplierDim), 0});
    header.holonomic.push_back(constraint.holonomic);
  }
  for (const std::string &name : eq.outputNames)
    header.outputs.push_back({name, "", 0});
  for (const mechanics::Equations::Event &e : eq.events)
    header.events.push_back(e.name);
  for (const mechanics::Equations::Contact &c : eq.contacts)
    header.contacts.push_back(c.gap.name);
  for (const mechanics::Equations::Friction &f : eq.frictions)
    header.frictions.push_back(f.slip.name);
  for (const mechanics::Equations::Switch &s : eq.switches)
    header.switches.push_back("law at " + std::to_string(s.location.line) + ":" +
                              std::to_string(s.location.column) + ", where " +
                              sym::toMech(sym::upright(s.g)) + " = 0");
  return header;
}

} // namespace

bool isValidPrefix(const std::string &prefix) {
  if (prefix.empty() || std::isdigit(static_cast<unsigned char>(prefix[0])))
    return false;
  for (char c : prefix)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
      return false;
  return true;
}

bool linkSharedObject(const fs::path &folder, const std::string &staged,
                      const std::vector<fs::path> &objects, const std::string &exported,
                      std::string &error) {
  fs::path versionScript = folder / "exports.map";
  if (!writeOutputFile(versionScript, "{\n  global: " + exported + ";\n  local: *;\n};\n", error))
    return false;
  std::vector<std::string> args{"-shared", "-o", staged};
  for (const fs::path &object : objects)
    args.push_back(object.string());
  for (const char *flag : {"-Wl,-z,noexecstack", "-Wl,--as-needed", "-lm"})
    args.push_back(flag);
  args.push_back("-Wl,--version-script=" + versionScript.string());
  return runTool(withCompiler(args), folder / "log", error);
}

std::optional<BuildStart> buildStart(LoadedModel &loaded, std::vector<std::string> &notes,
                                     std::string &error) {
  BuildStart start;
  start.params = loaded.paramValues();
  const mechanics::KernelPrograms &programs = loaded.programsWithJacobian();

  // The model's init, on its constraints, as the CLI would start from it.
  auto kernels = mechanics::interpretedKernels(programs);
  double t0 = 0;
  std::optional<std::vector<double>> x0 =
      initialState(loaded, *kernels, start.params, {}, t0, notes);
  if (!x0)
    return std::nullopt;
  start.x0 = std::move(*x0);

  // A library past the JIT budget would take minutes to compile
  // (bench/README.md, "Compile time").
  if (size_t operations =
          jit::estimatedOperations(programs, {.momentumForce = false, .jacobian = true});
      operations > kJitBudget) {
    error = "the kernels have " + std::to_string(operations) +
            " operations, more than the JIT budget of " + std::to_string(kJitBudget) +
            ": LLVM would take too long to compile them (simulate runs such a model on the "
            "interpreter)";
    return std::nullopt;
  }
  return start;
}

std::string compileModelObject(LoadedModel &loaded, const BuildStart &start,
                               const std::string &prefix, bool nativeCpu, const std::string &guid,
                               std::string &error) {
  const mechanics::Equations &eq = loaded.equations();
  jit::LibraryDescription library =
      describeLibrary(loaded.model(), eq, prefix, start.params, start.x0);
  library.fmuGuid = guid;
  if (eq.switches.empty())
    return jit::compileLibraryObject(loaded.programsWithJacobian(),
                                     mechanics::SwitchPrograms::build(eq, start.params.size()),
                                     library, nativeCpu, error);
  // The library's runtime holds the branches of its piecewise laws: the
  // kernels read them after the params (mechanics::withBranchInputs).
  const size_t np = start.params.size(), inputs = np + eq.switches.size();
  const mechanics::Equations held = mechanics::withBranchInputs(eq, np);
  mechanics::KernelPrograms programs = mechanics::KernelPrograms::build(held, inputs);
  programs.addJacobian(held);
  mechanics::SwitchPrograms switchPrograms = mechanics::SwitchPrograms::build(held, inputs);
  switchPrograms.switches = eq.switches.size();
  std::vector<sym::Expr> g;
  for (const mechanics::Equations::Switch &s : eq.switches)
    g.push_back(s.g);
  const mechanics::InputLayout layout{inputs, eq.coordinates.size(), eq.constraints.size()};
  switchPrograms.switchValues =
      sym::Program(g, [&](const sym::SymbolInfo &s) { return layout.index(s); });
  return jit::compileLibraryObject(programs, switchPrograms, library, nativeCpu, error);
}

bool buildLibrary(LoadedModel &loaded, const LibraryBuildOptions &options,
                  std::vector<std::string> &notes, std::string &error) {
  std::optional<BuildStart> start = buildStart(loaded, notes, error);
  if (!start)
    return false;
  std::string object =
      compileModelObject(loaded, *start, options.prefix, options.nativeCpu, "", error);
  if (object.empty())
    return false;

  // Both outputs are staged beside where they go and renamed only when
  // complete, so that a failed build never leaves half a library where a
  // good one was, nor a header without its library.
  OutputFile libraryFile(options.output, 0777), headerFile(options.header);
  if (!libraryFile.open(error) || (!options.header.empty() && !headerFile.open(error)))
    return false;
  TemporaryFolder folder("mech-build");
  if (folder.path().empty()) {
    error = std::string("cannot create a temporary folder: ") + std::strerror(errno);
    return false;
  }
  fs::path modelObject = folder.path() / "model.o", runtimeObject = folder.path() / "runtime.o";
  if (!writeOutputFile(modelObject, object, error) ||
      !writeOutputFile(runtimeObject, runtime::libraryRuntimeObject(), error))
    return false;

  // The tools write in the private folder; the result is copied into place,
  // so that a write error names the output and its reason.
  std::string staged = (folder.path() / "library").string();
  if (!linkStaged(folder.path(), options.output, options.prefix, modelObject, runtimeObject, staged,
                  error))
    return false;
  if (!options.header.empty())
    headerFile.stream() << libraryHeader(
        describeHeader(loaded.model(), loaded.equations(), options, start->params));
  std::ifstream built(staged, std::ios::binary);
  libraryFile.stream() << built.rdbuf();
  if (!built) {
    error = "cannot read the linked library '" + staged + "'";
    return false;
  }
  bool header = !options.header.empty();
  return libraryFile.flush(error) && (!header || headerFile.flush(error)) &&
         libraryFile.commit(error) && (!header || headerFile.commit(error));
}

} // namespace mech::driver
