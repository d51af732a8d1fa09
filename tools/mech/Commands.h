// The subcommands of `mech`. Each returns the process exit code: 0 success,
// 1 errors in a model, 2 usage errors.
#pragma once

#include "sema/Compilation.h"

#include <optional>
#include <string>
#include <vector>

namespace mech::driver {
struct LoadedModel;
}

namespace mech::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitModelError = 1;
inline constexpr int kExitUsage = 2;

struct Invocation {
  std::string executable;
  std::vector<std::string> args; // after the subcommand
};

int runCheck(const Invocation &invocation);
int runFmt(const Invocation &invocation);
int runDump(const Invocation &invocation, const std::string &stage);
int runEquations(const Invocation &invocation);
int runEval(const Invocation &invocation);
int runSimulate(const Invocation &invocation);
int runConserved(const Invocation &invocation);  // ConservedCommand.cpp
int runEquilibria(const Invocation &invocation); // EquilibriaCommand.cpp
int runLinearize(const Invocation &invocation);  // EquilibriaCommand.cpp
int runSolve(const Invocation &invocation);      // SolveCommand.cpp
int runBuild(const Invocation &invocation);      // BuildCommand.cpp
int runRepl(const Invocation &invocation);       // ReplCommand.cpp

// The import search path: MECH_PATH, then the standard library.
sema::SearchPath searchPath(const Invocation &invocation);

// Options of the model commands: --set (repeatable), --at, --in, --for
// (repeatable), --time, --json, --latex.
struct ModelOptions {
  std::string file;
  std::vector<std::string> settings;
  std::string at, in, time;
  std::vector<std::string> fors;
  bool json = false, latex = false;
};

// Parses the options of `command`, accepting those in `allowed`; returns an
// exit code on usage errors.
std::optional<int> parseModelOptions(const std::string &command,
                                     const std::vector<std::string> &args,
                                     const std::vector<std::string> &allowed,
                                     ModelOptions &options);

// An argument read as an option: "--name=value" split at the first '=',
// otherwise the name alone (its value, if any, is the next argument).
struct OptionWord {
  std::string name, value;
  bool inlineValue = false;
};
OptionWord splitOption(const std::string &arg);

// Reports a usage error on stderr and returns kExitUsage.
int usageError(const std::string &message);

// A file a command reads or writes, and what names it ("-o", "the model file").
struct NamedPath {
  std::string what, path;
};

// A usage error when an output would overwrite the model file, one of its
// imports (known once `loaded` is) or another output: the same file by
// identity (support/OutputFile.h sameFile). Checked before anything is
// written; empty paths are outputs not asked for.
std::optional<int> checkOutputs(const std::string &command, const std::string &model,
                                const std::vector<NamedPath> &outputs,
                                const driver::LoadedModel *loaded = nullptr);

} // namespace mech::cli
