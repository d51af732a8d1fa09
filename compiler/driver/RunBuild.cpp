// `mech build FILE -o libNAME.so [--header NAME.h] [--prefix NAME]
// [--cpu generic|native] [--set p=v ...]`: the model as a shared library
// with a C ABI (driver/LibraryBuild.h); `-o NAME.o` writes the object alone;
// `--fmu -o NAME.fmu` an FMI 2.0 FMU (driver/FmuBuild.h).
#include "driver/Commands.h"

#include "driver/FmuBuild.h"
#include "driver/LibraryBuild.h"
#include "driver/Session.h"

#include <ostream>

namespace mech::driver {

namespace {

bool endsWith(const std::string &text, const std::string &suffix) {
  return text.size() > suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The options checked before anything is derived or written.
std::optional<int> buildOptions(const CommandLine &line, const CommandIo &io,
                                LibraryBuildOptions &options) {
  options.command = "mech build";
  for (const std::string &word : line.words)
    options.command += " " + word;
  options.output = line.value("-o");
  options.header = line.value("--header");
  options.prefix = line.value("--prefix", options.prefix);
  options.nativeCpu = line.value("--cpu") == "native";
  options.fmu = line.has("--fmu");
  if (options.fmu) {
    if (options.output.empty() || !endsWith(options.output, ".fmu"))
      return io.usageError("build: --fmu writes an FMU: name it with -o NAME.fmu");
    if (line.has("--header") || line.has("--prefix"))
      return io.usageError("build: --header and --prefix are for libraries; an FMU's interface "
                           "is FMI 2.0's, named by the standard");
    return std::nullopt;
  }
  if (options.output.empty())
    return io.usageError("build: name the library with -o libNAME.so (or NAME.o for the object)");
  if (!endsWith(options.output, ".so") && !endsWith(options.output, ".o") &&
      options.output.find(".so.") == std::string::npos)
    return io.usageError(
        "build: -o names a shared library (libNAME.so) or an object (NAME.o), not '" +
        options.output + "'");
  if (!isValidPrefix(options.prefix))
    return io.usageError("build: --prefix '" + options.prefix +
                         "' cannot start C names (letters, digits and '_', not first a digit)");
  return std::nullopt;
}

} // namespace

int runBuild(const CommandLine &line, Session &session, const CommandIo &io) {
  LibraryBuildOptions options;
  if (auto status = buildOptions(line, io, options))
    return *status;
  if (!session.derive()) {
    session.printDiagnostics(io.err);
    return kExitModelError;
  }
  std::vector<std::string> notes;
  std::string error;
  bool built = options.fmu ? buildFmu(session.loaded(), options, notes, error)
                           : buildLibrary(session.loaded(), options, notes, error);
  session.printDiagnostics(io.err);
  for (const std::string &note : notes)
    io.err << "note: " << note << "\n";
  if (!built)
    return error.empty() ? kExitModelError : io.error(error);
  if (options.fmu) {
    io.err << "wrote " << options.output << " (FMI 2.0, Model Exchange and Co-Simulation)\n";
    return kExitOk;
  }
  io.err << "wrote " << options.output << (options.header.empty() ? "" : " and " + options.header)
         << "\n";
  return kExitOk;
}

} // namespace mech::driver
