// The commands that read files (check, fmt, --dump=ast|sema), equations,
// eval and --dump=eom|llvm, and the dispatch of a parsed command line.
#include "driver/Commands.h"

#include "driver/CommandFiles.h"

#include "driver/InitialState.h"
#include "driver/LinearizeSweep.h"
#include "driver/Reports.h"
#include "driver/Session.h"
#include "jit/CompiledModel.h"
#include "mechanics/Kernels.h"
#include "sema/Analyzer.h"
#include "sema/ModelPrinter.h"
#include "support/Json.h"
#include "support/OutputFile.h"
#include "support/Utf8.h"
#include "symbolic/ProgramListing.h"
#include "syntax/AstDump.h"

#include "syntax/Parser.h"
#include "syntax/Printer.h"

#include <algorithm>
#include <ostream>
#include <sstream>

namespace mech::driver {

int CommandIo::usageError(const std::string &message) const {
  err << "mech: " << escapeForTerminal(message) << "\n" << helpHint << "\n";
  return kExitUsage;
}

int CommandIo::error(const std::string &message) const {
  err << "mech: error: " << escapeForTerminal(message) << "\n";
  return kExitModelError;
}

bool isModelCommand(const CommandLine &line) {
  if (line.command == "--dump")
    return findStage(line.stage) != nullptr && findStage(line.stage)->model;
  return line.command != "check" && line.command != "fmt" && line.command != "repl";
}

namespace {

// The analyses of the smooth equations do not see contacts and resets
// (they would find a ball resting on its floor falling): say so, so that
// their answer does not read as the model's whole motion.
void noteSwitchesIgnored(const std::string &command, Session &session, const CommandIo &io) {
  if (!session.checked())
    return;
  const sema::CheckedModel &model = session.loaded().model();
  std::string names;
  for (const sema::Contact &contact : model.contacts)
    names += (names.empty() ? "" : ", ") + contact.name;
  bool resets = std::any_of(model.events.begin(), model.events.end(),
                            [](const sema::Event &e) { return !e.resets.empty(); });
  std::string frictions;
  for (const sema::Friction &friction : model.frictions)
    frictions += (frictions.empty() ? "" : ", ") + friction.name;
  std::vector<std::string> parts;
  if (!names.empty())
    parts.push_back("the contacts (" + names + ")");
  if (!frictions.empty())
    parts.push_back("the frictions (" + frictions + ")");
  if (resets)
    parts.push_back("the events' resets");
  if (parts.empty())
    return;
  std::string list;
  for (size_t i = 0; i < parts.size(); ++i)
    list += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
  io.err << "note: " << command << " analyses the smooth equations: " << list
         << " are not part of it\n";
}

} // namespace

int runModelCommand(const CommandLine &line, Session &session, const CommandIo &io) {
  if (auto status = checkCommandFiles(line, session, io))
    return *status;
  const std::string &c = line.command;
  if (c == "equilibria" || c == "steady" || c == "linearize" || c == "conserved" || c == "solve" ||
      (c == "equations" && line.has("--minimal")))
    noteSwitchesIgnored(c, session, io);
  if (c == "equations")
    return runEquations(line, session, io);
  if (c == "eval")
    return runEval(line, session, io);
  if (c == "simulate")
    return runSimulate(line, session, io);
  if (c == "equilibria")
    return runEquilibria(line, session, io);
  if (c == "steady")
    return runSteady(line, session, io);
  if (c == "periodic")
    return runPeriodic(line, session, io);
  if (c == "linearize")
    return runLinearize(line, session, io);
  if (c == "conserved")
    return runConserved(line, session, io);
  if (c == "solve")
    return runSolve(line, session, io);
  if (c == "build")
    return runBuild(line, session, io);
  if (c == "sweep")
    return runSweep(line, session, io);
  if (c == "animate")
    return runAnimate(line, session, io);
  if (c == "--dump")
    return runDumpModel(line, session, io);
  return io.usageError("unknown command '" + c + "'");
}

int runFileCommand(const CommandLine &line, const sema::SearchPath &searchPath,
                   const CommandIo &io) {
  if (line.command == "check")
    return runCheck(line, searchPath, io);
  if (line.command == "fmt")
    return runFmt(line, io);
  return runDumpFile(line, searchPath, io);
}

namespace {

void checkJson(JsonWriter &out, const std::string &path, bool ok, int errors,
               const sema::Analysis &analysis) {
  out.beginObject().key("file").value(path).key("ok").value(ok);
  out.key("errors").value(static_cast<double>(errors));
  if (analysis.model) {
    const sema::CheckedModel &m = *analysis.model;
    out.key("model").value(m.name).key("coordinates").beginArray();
    for (const sema::Coord &q : m.coords)
      out.value(q.name);
    out.endArray().key("parameters").beginArray();
    for (const sema::Param &p : m.params)
      if (!p.input)
        out.value(p.name);
    out.endArray().key("inputs").beginArray();
    for (const sema::Param &p : m.params)
      if (p.input)
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

} // namespace

int runCheck(const CommandLine &line, const sema::SearchPath &searchPath, const CommandIo &io) {
  bool json = line.has("--json");
  int status = kExitOk;
  JsonWriter out;
  out.beginArray();
  for (const std::string &path : line.operands) {
    sema::Compilation compilation(searchPath);
    sema::Analysis analysis = sema::analyzeFile(compilation, path);
    // The derivation's own checks: T quadratic in the velocities,
    // constraints linear in them.
    bool ok = analysis.ok;
    if (ok && analysis.model)
      ok = mechanics::deriveEquations(*analysis.model, compilation.diagnostics()).has_value();
    compilation.diagnostics().print(io.err);
    if (json)
      checkJson(out, path, ok, compilation.diagnostics().errorCount(), analysis);
    if (!ok) {
      status = kExitModelError;
      continue;
    }
    if (json)
      continue;
    if (analysis.model)
      io.out << path << ": " << sema::summarizeModel(*analysis.model) << "\n";
    else
      io.out << path << ": library of " << analysis.defCount
             << (analysis.defCount == 1 ? " def" : " defs") << "\n";
  }
  out.endArray();
  if (json)
    io.out << out.str() << "\n";
  return status;
}

int runFmt(const CommandLine &line, const CommandIo &io) {
  bool check = line.has("--check"), write = line.has("--write"), json = line.has("--json");
  if (json && !check)
    return io.usageError("fmt: --json goes with --check");
  int status = kExitOk;
  std::vector<std::string> unformatted;
  for (const std::string &path : line.operands) {
    sema::Compilation compilation;
    const sema::LoadedFile *file = compilation.loadRoot(path, /*withImports=*/false);
    compilation.diagnostics().print(io.err);
    if (file == nullptr || !file->ast) {
      status = kExitModelError;
      continue;
    }
    std::string formatted = formatFile(*file->ast);
    if (check) {
      if (formatted != file->source->text()) {
        if (!json)
          io.out << path << ": not formatted\n";
        unformatted.push_back(path);
        status = kExitModelError;
      }
    } else if (write) {
      std::string error;
      if (formatted != file->source->text() && !writeOutputFile(path, formatted, error)) {
        status = io.error(error);
      }
    } else {
      io.out << formatted;
    }
  }
  if (json) {
    JsonWriter out;
    out.beginObject().key("unformatted").beginArray();
    for (const std::string &path : unformatted)
      out.value(path);
    out.endArray().endObject();
    io.out << out.str() << "\n";
  }
  return status;
}

int runEquations(const CommandLine &line, Session &session, const CommandIo &io) {
  if (line.has("--independent") && !line.has("--minimal"))
    return io.usageError("equations: --independent chooses the speeds of --minimal: give "
                         "--minimal too");
  bool derived = session.derive();
  session.printDiagnostics(io.err);
  if (!derived)
    return kExitModelError;
  LoadedModel &loaded = session.loaded();
  if (line.has("--minimal")) {
    if (!loaded.equations().constraints.empty())
      return runMinimalEquations(line, session, io);
    if (!independentChoice(loaded, line.value("--independent"))) {
      session.printDiagnostics(io.err);
      return kExitModelError;
    }
    io.err << "note: " << loaded.model().name
           << " has no constraints: its equations are already minimal (every q' is an "
              "independent speed); they follow as without --minimal\n";
  }
  mechanics::Equations equations = mechanics::simplified(loaded.equations());
  if (std::string overflow = nonFiniteConstants(equations); !overflow.empty()) {
    loaded.diagnostics().error(loaded.model().location, overflow);
    session.printDiagnostics(io.err);
    return kExitModelError;
  }
  if (line.has("--json"))
    io.out << equationsJson(equations);
  else if (line.has("--latex"))
    io.out << equationsLatex(equations);
  else
    io.out << equationsText(equations);
  return kExitOk;
}

int runEval(const CommandLine &line, Session &session, const CommandIo &io) {
  if (!session.derive()) {
    session.printDiagnostics(io.err);
    return kExitModelError;
  }
  LoadedModel &loaded = session.loaded();
  // A state off the constraints is put onto them first, as simulate does.
  std::vector<std::string> notes;
  std::optional<mechanics::State> state =
      readInputs(loaded, line.value("--input"))
          ? consistentState(loaded, line.value("--at"), Velocities::GivenOrInit, notes)
          : std::nullopt;
  std::optional<mechanics::Evaluation> evaluation;
  if (state) {
    mechanics::Evaluator evaluator(loaded.equations(), loaded.paramValues(state->t));
    evaluation = evaluator.at(*state, loaded.diagnostics(), loaded.model().location);
  }
  if (evaluation)
    evaluation->notes.insert(evaluation->notes.begin(), notes.begin(), notes.end());
  session.printDiagnostics(io.err);
  if (!evaluation)
    return kExitModelError;
  if (line.has("--json"))
    io.out << evaluationJson(loaded.equations(), *evaluation);
  else
    io.out << evaluationText(loaded.equations(), *evaluation);
  return kExitOk;
}

namespace {

// The names of the kernels' inputs, in InputLayout's order: params, q, q',
// q'', t, the multipliers.
std::vector<std::string> inputNames(const sema::CheckedModel &model,
                                    const mechanics::Equations &eq) {
  std::vector<std::string> names;
  for (const sema::Param &p : model.params)
    names.push_back(p.name);
  for (const char *primes : {"", "'", "''"})
    for (const std::string &q : eq.coordinates)
      names.push_back(q + primes);
  names.push_back("t");
  for (const auto &c : eq.constraints)
    names.push_back(c.name);
  return names;
}

// "M[x,y]" for every pair, row by row, or "f[x]" for every name.
void indexed(std::vector<std::string> &names, const std::string &what,
             const std::vector<std::string> &rows, const std::vector<std::string> *cols = nullptr) {
  for (const std::string &r : rows) {
    if (cols == nullptr)
      names.push_back(what + "[" + r + "]");
    else
      for (const std::string &c : *cols)
        names.push_back(what + "[" + r + "," + c + "]");
  }
}

// The CSE'd programs the back ends run, with named inputs and outputs.
std::string programsDump(LoadedModel &loaded) {
  const mechanics::Equations &eq = loaded.equations();
  const mechanics::KernelPrograms &programs = loaded.programs();
  std::vector<std::string> inputs = inputNames(loaded.model(), eq), constraints;
  for (const auto &c : eq.constraints)
    constraints.push_back(c.name);
  const std::vector<std::string> &q = eq.coordinates;
  std::vector<std::string> dynamics, energy = {"T", "V"}, momenta, residuals;
  indexed(dynamics, "M", q, &q);
  indexed(dynamics, "f", q);
  indexed(dynamics, "C", constraints, &q);
  indexed(dynamics, "gamma", constraints);
  indexed(momenta, "p", q);
  indexed(momenta, "force", q);
  indexed(residuals, "Phi", constraints);
  indexed(residuals, "psi", constraints);
  indexed(residuals, "C", constraints, &q);
  std::ostringstream out;
  out << "dynamics (M q'' = f, C q'' = gamma):\n"
      << sym::programListing(programs.dynamics, inputs, dynamics) << "energy:\n"
      << sym::programListing(programs.energy, inputs, energy) << "outputs:\n"
      << sym::programListing(programs.outputs, inputs, eq.outputNames) << "momenta and forces:\n"
      << sym::programListing(programs.momentumForce, inputs, momenta) << "constraint residuals:\n"
      << sym::programListing(programs.residuals, inputs, residuals);
  return out.str();
}

} // namespace

int runDumpModel(const CommandLine &line, Session &session, const CommandIo &io) {
  bool derived = session.derive();
  session.printDiagnostics(io.err);
  if (!derived)
    return kExitModelError;
  LoadedModel &loaded = session.loaded();
  if (line.stage == "eom") {
    io.out << eomDump(mechanics::simplified(loaded.equations()));
    return kExitOk;
  }
  if (line.stage == "program") {
    io.out << programsDump(loaded);
    return kExitOk;
  }
  const mechanics::KernelPrograms &programs = loaded.programs();
  std::string error;
  std::string ir = jit::kernelsIr(programs, error);
  if (ir.empty()) {
    return io.error(error);
  }
  io.out << ir;
  return kExitOk;
}

int runDumpFile(const CommandLine &line, const sema::SearchPath &searchPath, const CommandIo &io) {
  sema::Compilation compilation(searchPath);
  const std::string &path = line.operands[0];
  if (line.stage == "ast") {
    const sema::LoadedFile *file = compilation.loadRoot(path, /*withImports=*/false);
    compilation.diagnostics().print(io.err);
    if (file == nullptr || !file->ast || compilation.diagnostics().hasErrors())
      return kExitModelError;
    io.out << dumpAst(*file->ast, /*withLocations=*/true);
    return kExitOk;
  }
  sema::Analysis analysis = sema::analyzeFile(compilation, path);
  compilation.diagnostics().print(io.err);
  if (!analysis.ok)
    return kExitModelError;
  if (analysis.model)
    io.out << sema::dumpModel(*analysis.model);
  return kExitOk;
}

} // namespace mech::driver
