// How large mech's caches may grow: each cache folder (the kernel cache and
// the derivation cache) is kept under a limit by removing its least
// recently used entries after a store, as ccache does. The limit is 1 GiB,
// or MECH_CACHE_SIZE: a whole number of bytes, or a number with a suffix
// K, M, G or T (powers of 1024; "500M", "1.5G"). A value that is not a
// size leaves the caches unused, with a warning that says why.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace mech::jit {

inline constexpr uint64_t kDefaultCacheSize = uint64_t(1) << 30;

// The bytes `text` names; nullopt when it is not a size.
std::optional<uint64_t> parseCacheSize(const std::string &text);

// The limit from MECH_CACHE_SIZE, or the default when it is unset; nullopt
// with `why` set when it is set to something else than a size.
std::optional<uint64_t> cacheSizeLimit(std::string &why);

// Removes the least recently modified regular files of the open folder
// `directoryFd` whose names end in ".o" (a loaded entry is touched), until
// those left take at most `limit` bytes. Errors only leave more behind.
void pruneCacheFolder(int directoryFd, uint64_t limit);

} // namespace mech::jit
