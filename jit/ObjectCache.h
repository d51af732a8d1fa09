// The on-disk cache of compiled kernels: a second run of the same model on
// the same machine with the same build of mech loads the object code instead
// of optimizing and generating it again. Entries are keyed by a SHA-256 of
// everything that determines the code (the kernels' LLVM IR, which is a
// function of the derived equations; the LLVM version; the host CPU and its
// features; the build of mech) and carry a SHA-256 of their own content.
//
// The cache directory, $XDG_CACHE_HOME/mech or ~/.cache/mech, is created with
// mode 0700. Loading object code is executing it, so an entry is used only
// when it is a regular file owned by the user, writable by no one else, in a
// directory owned by the user, and its content matches its hash; anything
// else is ignored (and replaced on the next store).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace mech::jit {

class ObjectCache {
public:
  // The user's cache directory, created if missing. Nullopt, with `why` set,
  // when there is none that is safe to use (no HOME, not owned by the user,
  // cannot be created).
  static std::optional<ObjectCache> openDefault(std::string &why);
  // A cache in `directory` (tests), with the same checks.
  static std::optional<ObjectCache> open(const std::string &directory, std::string &why);

  // The verified object code stored under `key`, or nullopt.
  std::optional<std::string> load(const std::string &key) const;
  // Stores atomically (a private temporary file, then rename). False on any
  // I/O error: a cache that cannot be written only costs time.
  bool store(const std::string &key, std::string_view object) const;

  // The file that holds `key`'s entry.
  std::string entryPath(const std::string &key) const;
  const std::string &directory() const { return directory_; }

private:
  explicit ObjectCache(std::string directory) : directory_(std::move(directory)) {}
  std::string directory_;
};

// Hex SHA-256 of `text`.
std::string sha256Hex(std::string_view text);

} // namespace mech::jit
