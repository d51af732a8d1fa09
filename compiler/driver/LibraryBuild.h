// `mech build`: a model compiled to a shared library with a C ABI (or to a
// relocatable object), plus its header. The kernels are the JIT's IR emitted
// as position-independent code; the library runtime (DOPRI5, projection,
// argument checks) is linked in, and only the prefixed entry points are
// exported, so that libraries of several models load into one process.
#pragma once

#include "driver/Pipeline.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace mech::driver {

struct LibraryBuildOptions {
  std::string output; // libNAME.so, or NAME.o for the object alone
  std::string header; // the C header to write; "" for none
  std::string prefix = "mech";
  bool nativeCpu = false; // code for this machine's CPU instead of the generic one
  std::string command;    // how mech was invoked, for the header's comment
  bool fmu = false;       // an FMI 2.0 FMU (driver/FmuBuild.h) instead of a library
};

// Whether `prefix` can start C identifiers: [A-Za-z_][A-Za-z0-9_]*.
bool isValidPrefix(const std::string &prefix);

// Builds the library of a derived model. Errors of the model (an init that
// cannot be met) go to its diagnostics; errors of the tools (no C compiler
// driver to link with, an unwritable output) to `error`. Notes about the
// initial state go to `notes`.
bool buildLibrary(LoadedModel &loaded, const LibraryBuildOptions &options,
                  std::vector<std::string> &notes, std::string &error);

// The steps a library shares with an FMU (driver/FmuBuild.cpp).
struct BuildStart {
  std::vector<double> params, x0; // the parameter values and the init, on the constraints
};
// The start state and the check of the kernels' size against the JIT
// budget; nullopt with the model's diagnostics or `error` set.
std::optional<BuildStart> buildStart(LoadedModel &loaded, std::vector<std::string> &notes,
                                     std::string &error);
// The model's object code: PREFIX_* entry points and the hidden
// mechrt_library_* accessors (`guid` returned by mechrt_library_guid).
std::string compileModelObject(LoadedModel &loaded, const BuildStart &start,
                               const std::string &prefix, bool nativeCpu, const std::string &guid,
                               std::string &error);
// Links `objects` into the shared object `staged` by the C compiler
// driver, exporting only the symbols matching `exported` (a version
// script's pattern); the tools' output goes to folder/log.
bool linkSharedObject(const std::filesystem::path &folder, const std::string &staged,
                      const std::vector<std::filesystem::path> &objects,
                      const std::string &exported, std::string &error);

} // namespace mech::driver
