// `mech build --fmu`: a model as an FMI 2.0 FMU for Model Exchange and
// Co-Simulation (docs/library.md, "FMUs"): the library's object code and
// runtime with the FMI functions (runtime/library/Fmi2*.c) linked into
// binaries/linux64/ID.so, beside modelDescription.xml
// (driver/FmuDescription.h), in one zip archive.
#pragma once

#include "driver/LibraryBuild.h"

namespace mech::driver {

// Builds options.output (NAME.fmu). A model the FMU cannot hold (contacts,
// frictions) is refused with diagnostics at their declarations; tool
// errors go to `error`, notes about the initial state to `notes`.
bool buildFmu(LoadedModel &loaded, const LibraryBuildOptions &options,
              std::vector<std::string> &notes, std::string &error);

} // namespace mech::driver
