// Facts about the code generator and the machine it targets, reported by
// `mech --version` and used to key compiled-code caches.
#pragma once

#include <string>

namespace mech::jit {

struct HostInfo {
  std::string llvmVersion; // 19.1.7
  std::string triple;      // x86_64-pc-linux-gnu
  std::string cpu;         // znver3
};

HostInfo hostInfo();

// The GNU build-id (the ELF note NT_GNU_BUILD_ID the linker writes) of the
// executable or shared object this code is in, as hex, read from the
// running object's own program headers; empty when it has none.
std::string gnuBuildId();

// This build of mech, so that a rebuilt mech never reuses what another
// build cached: its version and build-id, or without a build-id the size
// and modification time of the file its code is in (the executable, or
// the Python module).
std::string buildIdentity();

} // namespace mech::jit
