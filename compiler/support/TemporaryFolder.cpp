// mkdtemp makes the folder with mode 0700 and a name no other process has.
#include "support/TemporaryFolder.h"

#include <cstdlib>

namespace mech {

TemporaryFolder::TemporaryFolder(const std::string &prefix) {
  std::error_code error;
  std::filesystem::path base = std::filesystem::temp_directory_path(error);
  if (error)
    base = "/tmp";
  std::string pattern = (base / (prefix + "-XXXXXX")).string();
  if (mkdtemp(pattern.data()) != nullptr)
    path_ = pattern;
}

TemporaryFolder::~TemporaryFolder() {
  std::error_code ignored;
  if (!path_.empty())
    std::filesystem::remove_all(path_, ignored);
}

} // namespace mech
