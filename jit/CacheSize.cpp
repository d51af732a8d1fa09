// Reading the limit, and pruning a folder to it (jit/CacheSize.h). The
// folder is read through its open descriptor, as the cache reads it
// (jit/ObjectCache.cpp): entries are examined and removed by name within
// it, never through a path that a link could redirect.
#include "jit/CacheSize.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <dirent.h>
#include <fcntl.h>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace mech::jit {

std::optional<uint64_t> parseCacheSize(const std::string &text) {
  std::string_view rest = text;
  size_t digits = 0;
  while (digits < rest.size() && (std::isdigit(static_cast<unsigned char>(rest[digits])) ||
                                  (rest[digits] == '.' && digits > 0)))
    ++digits;
  if (digits == 0 || std::count(rest.begin(), rest.begin() + digits, '.') > 1 ||
      rest[digits - 1] == '.')
    return std::nullopt;
  double number = std::strtod(std::string(rest.substr(0, digits)).c_str(), nullptr);
  rest.remove_prefix(digits);
  double scale = 1;
  if (!rest.empty()) {
    const std::string_view suffixes = "KMGT";
    size_t power =
        suffixes.find(static_cast<char>(std::toupper(static_cast<unsigned char>(rest[0]))));
    if (power == std::string_view::npos)
      return std::nullopt;
    scale = std::pow(1024.0, double(power + 1));
    rest.remove_prefix(1);
    if (rest == "iB" || rest == "B")
      rest = {};
  }
  double bytes = number * scale;
  if (!rest.empty() || !(bytes < 1.8e19))
    return std::nullopt;
  return static_cast<uint64_t>(bytes);
}

std::optional<uint64_t> cacheSizeLimit(std::string &why) {
  const char *text = std::getenv("MECH_CACHE_SIZE");
  if (text == nullptr || text[0] == '\0')
    return kDefaultCacheSize;
  std::optional<uint64_t> limit = parseCacheSize(text);
  if (!limit)
    why = "MECH_CACHE_SIZE='" + std::string(text) +
          "' is not a size (bytes, or a number with K, M, G or T: 500M, 2G)";
  return limit;
}

void pruneCacheFolder(int directoryFd, uint64_t limit) {
  int listed = dup(directoryFd);
  DIR *folder = listed >= 0 ? fdopendir(listed) : nullptr;
  if (folder == nullptr) {
    if (listed >= 0)
      close(listed);
    return;
  }
  struct Entry {
    struct timespec modified;
    uint64_t bytes;
    std::string name;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  rewinddir(folder); // the duplicate shares its position with the cache's descriptor
  while (const struct dirent *item = readdir(folder)) {
    std::string_view name = item->d_name;
    struct stat info;
    if (name.size() < 3 || name.substr(name.size() - 2) != ".o" ||
        fstatat(directoryFd, item->d_name, &info, AT_SYMLINK_NOFOLLOW) != 0 ||
        !S_ISREG(info.st_mode) || info.st_uid != geteuid())
      continue;
    entries.push_back({info.st_mtim, uint64_t(info.st_size), std::string(name)});
    total += uint64_t(info.st_size);
  }
  closedir(folder);
  if (total <= limit)
    return;
  std::sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) {
    return a.modified.tv_sec != b.modified.tv_sec ? a.modified.tv_sec < b.modified.tv_sec
                                                  : a.modified.tv_nsec < b.modified.tv_nsec;
  });
  for (const Entry &entry : entries) {
    if (total <= limit)
      break;
    if (unlinkat(directoryFd, entry.name.c_str(), 0) == 0)
      total -= entry.bytes;
  }
}

} // namespace mech::jit
