// A folder only this process uses, in the system's temporary directory
// (TMPDIR), removed with everything in it when the object goes.
#pragma once

#include <filesystem>
#include <string>

namespace mech {

class TemporaryFolder {
public:
  // `prefix` starts the folder's name (mech-build-XXXXXX); path() is empty
  // when the folder could not be made.
  explicit TemporaryFolder(const std::string &prefix);
  ~TemporaryFolder();
  TemporaryFolder(const TemporaryFolder &) = delete;
  TemporaryFolder &operator=(const TemporaryFolder &) = delete;

  const std::filesystem::path &path() const { return path_; }

private:
  std::filesystem::path path_;
};

} // namespace mech
