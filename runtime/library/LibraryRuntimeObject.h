// The library runtime (LibraryRuntime.c) as position-independent object
// code, compiled when mech is built and embedded in it: `mech build` links
// it into every library, so it needs no file of mech's installation.
#pragma once

#include <string_view>

namespace mech::runtime {

std::string_view libraryRuntimeObject();

// The FMI 2.0 functions (Fmi2*.c) as another such object: `mech build
// --fmu` links it beside the runtime.
std::string_view libraryFmuObject();

} // namespace mech::runtime
