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

// This build of mech: its version and the size and modification time of
// the file its code is in (the executable, or the Python module), so that
// a rebuilt mech never reuses what another build cached.
std::string buildIdentity();

} // namespace mech::jit
