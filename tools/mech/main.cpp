// The `mech` command line: argv parsed against the command table
// (driver/CommandTable.h), a Session made from the model file and --set
// values, and the library's command run on it. Nothing else happens here.
#include "driver/Commands.h"
#include "driver/Session.h"
#include "driver/Simulation.h"
#include "jit/HostInfo.h"
#include "jit/TieredKernels.h"
#include "support/Diagnostics.h"
#include "support/PendingFiles.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <new>

namespace mech::cli {
int runRepl(const driver::CommandLine &line, const sema::SearchPath &searchPath); // Repl.cpp
}

namespace {

using namespace mech::driver;

int help(const std::vector<std::string> &args, const CommandIo &io) {
  if (args.empty()) {
    io.out << usageText();
    return kExitOk;
  }
  std::string name = args[0] == "dump" ? "--dump" : args[0];
  const CommandSpec *spec = findCommand(name);
  if (spec == nullptr || args.size() > 2 || (args.size() == 2 && args[1] != "--markdown"))
    return io.usageError("help: unknown command '" + args[0] + "'");
  io.out << (args.size() == 2 ? optionsMarkdown(*spec) : commandHelp(*spec));
  return kExitOk;
}

int dispatch(const std::string &executable, std::vector<std::string> args) {
  CommandIo io{std::cout, std::cerr};
  if (args.empty()) {
    std::cerr << usageText();
    return kExitUsage;
  }
  std::string command = args[0];
  args.erase(args.begin());
  if (command == "--help" || command == "-h" || command == "help")
    return help(command == "help" ? args : std::vector<std::string>{}, io);
  if (command == "--version") {
    mech::jit::HostInfo host = mech::jit::hostInfo();
    std::cout << "mech " << MECH_VERSION << " (LLVM " << host.llvmVersion << ", " << host.triple
              << ", " << host.cpu << ")\n";
    if (std::string id = mech::jit::gnuBuildId(); !id.empty())
      std::cout << "build-id " << id << "\n";
    return kExitOk;
  }
  std::string stage;
  if (command.rfind("--dump=", 0) == 0) {
    stage = command.substr(7);
    command = "--dump";
    if (findStage(stage) == nullptr)
      return io.usageError("unknown dump stage '" + stage + "' (" + stageList() + ")");
  }
  const CommandSpec *spec = findCommand(command);
  if (spec == nullptr)
    return io.usageError("unknown command '" + command + "'");
  for (const std::string &arg : args)
    if (arg == "--help" || arg == "-h")
      return help({spec->name}, io);
  std::string error;
  std::optional<CommandLine> line = parseCommandLine(*spec, args, false, error);
  if (!line)
    return io.usageError(error);
  line->stage = stage;
  auto searchPath = mech::sema::SearchPath::fromEnvironment(executable);
  if (command == "repl")
    return mech::cli::runRepl(*line, searchPath);
  if (!isModelCommand(*line)) {
    if (line->has("--set"))
      return io.usageError("--dump=" + stage + ": --set applies to the " + stageList(true) +
                           " stages");
    return runFileCommand(*line, searchPath, io);
  }
  Session session(searchPath);
  session.loadFile(line->operands[0], line->values("--set"));
  return runModelCommand(*line, session, io);
}

// What a command printed must have reached standard output: a full disk
// or /dev/full is an error, not a silent loss. The reason is known when the
// last flush fails; a failure in the middle of the output leaves no errno.
int checkStandardOutput(int status) {
  errno = 0;
  bool failed = std::fflush(stdout) != 0;
  int reason = errno;
  std::cout.flush();
  if (!failed && !std::ferror(stdout) && std::cout)
    return status;
  std::cerr << "mech: error: cannot write standard output"
            << (failed && reason != 0 ? std::string(": ") + std::strerror(reason) : "") << "\n";
  return status == kExitOk ? kExitModelError : status;
}

} // namespace

int main(int argc, char **argv) {
  markProcessStart();
  // A signal that ends a command leaves none of its half-written outputs.
  mech::removePendingFilesOnSignals();
  try {
    int status =
        checkStandardOutput(dispatch(argv[0], std::vector<std::string>(argv + 1, argv + argc)));
    // A run that ended on the interpreter leaves its native code compiling
    // on another thread: LLVM's static state may not be destroyed under
    // it, and the result is not needed. Everything is written and flushed.
    if (mech::jit::backgroundCompilesRunning() > 0) {
      std::cerr.flush();
      std::_Exit(status);
    }
    return status;
  } catch (const mech::InternalError &error) {
    std::cerr << "mech: " << error.what() << "\n";
    return 3;
  } catch (const std::bad_alloc &) {
    std::cerr << "mech: error: out of memory\n";
    return 1;
  } catch (const std::exception &error) {
    // A failure no check anticipated: reported, never an abort.
    std::cerr << "mech: internal error: " << error.what() << "\n";
    return 3;
  }
}
