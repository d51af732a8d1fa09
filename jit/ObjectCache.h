// The on-disk cache of compiled kernels: a second run of the same model on
// the same machine with the same build of mech loads the object code instead
// of optimizing and generating it again. Entries are keyed by a SHA-256 of
// everything that determines the code (the kernels' LLVM IR, which is a
// function of the derived equations; the LLVM version; the host CPU and its
// features; the build of mech).
//
// Loading object code is executing it, so the cache trusts nothing it did
// not check on the descriptor it reads:
// - the directory, $XDG_CACHE_HOME/mech or ~/.cache/mech, is created with
//   mode 0700, and only in a folder of the user's (the running uid); an
//   existing one must be the user's and writable by no one else, or it is
//   refused, never repaired;
// - an entry must be a regular file (opened non-blocking, never followed
//   through a link), the user's, writable by no one else;
// - its header holds the full key and the kernel signature (the model's
//   names, counts and layout), both compared with what the caller expects,
//   and a SHA-256 of the header and the object together.
// An entry that fails any check is reported and replaced by the next store.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace mech::jit {

// What `ObjectCache::load` found under a key.
struct CacheEntry {
  enum class State {
    Absent,  // no entry: a miss
    Valid,   // `object` holds the checked object code
    Refused, // not a regular file, not the user's, or writable by others
    Invalid, // unreadable, corrupt, another key's or another model's
  };
  State state = State::Absent;
  std::string object;
  std::string why; // for Refused and Invalid: what was wrong, with the path
};

class ObjectCache {
public:
  // The user's cache directory, created if missing (only in a folder of
  // the user's). Nullopt, with `why` set, when there is none that is safe
  // to use (no HOME, not owned by the user, writable by others, cannot be
  // created, MECH_CACHE_SIZE not a size); with `why` empty when the folder
  // to create it in is another user's (root with a user's HOME): then the
  // run goes without a cache and nothing need be said.
  // `name` is the folder in the cache directory: mech for compiled code,
  // mech-derivations for derived equations and the index from a model's
  // sources to its code (driver/DerivationCache.h).
  static std::optional<ObjectCache> openDefault(std::string &why, const std::string &name = "mech");
  // A cache in `directory` (tests), with the same checks.
  static std::optional<ObjectCache> open(const std::string &directory, std::string &why);

  // The entry stored under `key`, checked against the key and `signature`.
  CacheEntry load(const std::string &key, std::string_view signature) const;
  // Stores atomically (a private temporary file, then rename), replacing
  // whatever is there, then removes the least recently used entries while
  // the folder holds more than its limit (MECH_CACHE_SIZE,
  // jit/CacheSize.h). False with `why` set on any I/O error: a cache that
  // cannot be written only costs time.
  bool store(const std::string &key, std::string_view signature, std::string_view object,
             std::string &why) const;
  // Removes the entry under `key` (one whose code failed to load).
  void evict(const std::string &key) const;

  // The file that holds `key`'s entry.
  std::string entryPath(const std::string &key) const;
  const std::string &directory() const { return directory_; }

  // Entries larger than this are refused unread (no object code of a model
  // within the documented limits comes near it).
  static constexpr size_t kMaxEntryBytes = size_t(1) << 30;

private:
  struct Directory; // the open directory descriptor that entries are read through
  ObjectCache(std::string directory, std::shared_ptr<Directory> handle, uint64_t limit)
      : directory_(std::move(directory)), handle_(std::move(handle)), limit_(limit) {}
  std::string directory_;
  std::shared_ptr<Directory> handle_;
  uint64_t limit_; // the most bytes of entries kept (jit/CacheSize.h)
};

// Hex SHA-256 of `text`.
std::string sha256Hex(std::string_view text);

} // namespace mech::jit
