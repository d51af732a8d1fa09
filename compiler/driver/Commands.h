// The commands of mech, run on a parsed command line (driver/CommandTable.h)
// and, for the model commands, on a Session: the CLI makes the session from
// the command line's file and --set values, the REPL passes its own. Each
// writes its report to io.out and its messages to io.err, and returns the
// exit code: 0 success, 1 errors in a model, 2 usage errors.
#pragma once

#include "driver/CommandTable.h"
#include "sema/Compilation.h"

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace mech::driver {

struct LoadedModel;
struct SimulationOptions;
struct SweepOptions;

class Session;

inline constexpr int kExitOk = 0;
inline constexpr int kExitModelError = 1;
inline constexpr int kExitUsage = 2;

// Where a command writes, and where its usage errors send the user.
struct CommandIo {
  std::ostream &out;
  std::ostream &err;
  std::string helpHint = "(run 'mech --help' for usage)";

  // Reports "mech: MESSAGE" and the hint; returns kExitUsage.
  int usageError(const std::string &message) const;
  // Reports "mech: error: MESSAGE", its terminal controls escaped (a path
  // or a system's reason may hold them); returns kExitModelError.
  int error(const std::string &message) const;
};

// Whether the command runs on one model (a Session) rather than on files
// (check, fmt, --dump=ast|sema).
bool isModelCommand(const CommandLine &line);

// Runs a model command on `session` (whose --set values the caller applied).
int runModelCommand(const CommandLine &line, Session &session, const CommandIo &io);
// Runs check, fmt and --dump=ast|sema, which read files.
int runFileCommand(const CommandLine &line, const sema::SearchPath &searchPath,
                   const CommandIo &io);

// The commands, one per file under driver/Run*.cpp.
int runEquations(const CommandLine &line, Session &session, const CommandIo &io);
// equations --minimal on a derived model with constraints.
int runMinimalEquations(const CommandLine &line, Session &session, const CommandIo &io);
int runEval(const CommandLine &line, Session &session, const CommandIo &io);
int runDumpModel(const CommandLine &line, Session &session, const CommandIo &io);
int runSimulate(const CommandLine &line, Session &session, const CommandIo &io);
int runEquilibria(const CommandLine &line, Session &session, const CommandIo &io);
int runSteady(const CommandLine &line, Session &session, const CommandIo &io);
int runPeriodic(const CommandLine &line, Session &session, const CommandIo &io);
int runLinearize(const CommandLine &line, Session &session, const CommandIo &io);
int runConserved(const CommandLine &line, Session &session, const CommandIo &io);
int runSolve(const CommandLine &line, Session &session, const CommandIo &io);
int runBuild(const CommandLine &line, Session &session, const CommandIo &io);
int runSweep(const CommandLine &line, Session &session, const CommandIo &io);
int runAnimate(const CommandLine &line, Session &session, const CommandIo &io);

// The options of simulate (and of sweep's runs) from the command line; an
// exit code for the one value the table's types cannot check (--baumgarte).
std::optional<int> simulationOptions(const CommandLine &line, const CommandIo &io,
                                     SimulationOptions &options);
// Reads a sweep's options (the CLI's, or words the Python package made),
// adds the summaries to the session's model, derives it and checks the
// runs (driver/Sweep.h); nullopt when the sweep can run, else the exit
// status, with the errors in the session's diagnostics or on io.err.
std::optional<int> prepareSweep(const CommandLine &line, Session &session, const CommandIo &io,
                                SweepOptions &options);
int runCheck(const CommandLine &line, const sema::SearchPath &searchPath, const CommandIo &io);
int runFmt(const CommandLine &line, const CommandIo &io);
int runDumpFile(const CommandLine &line, const sema::SearchPath &searchPath, const CommandIo &io);

// A file a command reads or writes, and what names it ("-o", "the model file").
// Which files a command reads and writes, and the check that no output
// replaces an input, are in driver/CommandFiles.h.
struct NamedPath {
  std::string what, path;
};

// What simulate reads and checks between deriving and running: --input's
// signals, the options against the model (a method it needs, the grid),
// the start (--init) and the plot's path. nullopt when the run can start;
// else the exit status, with the errors in the model's diagnostics (or, for
// a usage error, on io.err).
std::optional<int> readRunInputs(LoadedModel &loaded, const CommandLine &line,
                                 const SimulationOptions &options, const CommandIo &io);

// The steps of simulate and animate before their run: --stop-when as an
// event of the model from here on (the REPL runs such a command on a
// session of its own), the derivation, then readRunInputs (the files were
// checked at dispatch: driver/CommandFiles.h). nullopt when the run can start, with
// `deriveSeconds` the time these took; else the exit status, the errors
// printed.
std::optional<int> prepareRun(const CommandLine &line, Session &session, const CommandIo &io,
                              const SimulationOptions &options, double &deriveSeconds);

} // namespace mech::driver
