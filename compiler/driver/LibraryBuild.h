// `mech build`: a model compiled to a shared library with a C ABI (or to a
// relocatable object), plus its header. The kernels are the JIT's IR emitted
// as position-independent code; the library runtime (DOPRI5, projection,
// argument checks) is linked in, and only the prefixed entry points are
// exported, so that libraries of several models load into one process.
#pragma once

#include "driver/Pipeline.h"

#include <string>

namespace mech::driver {

struct LibraryBuildOptions {
  std::string output; // libNAME.so, or NAME.o for the object alone
  std::string header; // the C header to write; "" for none
  std::string prefix = "mech";
  bool nativeCpu = false; // code for this machine's CPU instead of the generic one
  std::string command;    // how mech was invoked, for the header's comment
};

// Whether `prefix` can start C identifiers: [A-Za-z_][A-Za-z0-9_]*.
bool isValidPrefix(const std::string &prefix);

// Builds the library of a derived model. Errors of the model (an init that
// cannot be met) go to its diagnostics; errors of the tools (no C compiler
// driver to link with, an unwritable output) to `error`. Notes about the
// initial state go to `notes`.
bool buildLibrary(LoadedModel &loaded, const LibraryBuildOptions &options,
                  std::vector<std::string> &notes, std::string &error);

} // namespace mech::driver
