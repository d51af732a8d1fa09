// The cache's file handling: POSIX calls, so that ownership and modes are
// checked on the descriptor that is read (no window between check and use).
#include "jit/ObjectCache.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/SHA256.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace mech::jit {

namespace {

constexpr std::string_view kMagic = "mech-object 1 ";
constexpr size_t kHashHexLength = 64;

bool ownedAndPrivate(const struct stat &info) {
  return info.st_uid == geteuid() && (info.st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

// Creates `path` (and its missing parents, mode 0700) as a directory.
bool makeDirectories(const std::string &path) {
  for (size_t slash = path.find('/', 1); slash != std::string::npos;
       slash = path.find('/', slash + 1))
    if (mkdir(path.substr(0, slash).c_str(), 0700) != 0 && errno != EEXIST)
      return false;
  return mkdir(path.c_str(), 0700) == 0 || errno == EEXIST;
}

bool readAll(int fd, std::string &out) {
  char buffer[1 << 16];
  for (;;) {
    ssize_t got = read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0)
      return false;
    if (got == 0)
      return true;
    out.append(buffer, static_cast<size_t>(got));
  }
}

bool writeAll(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t put = write(fd, data.data(), data.size());
    if (put < 0 && errno == EINTR)
      continue;
    if (put <= 0)
      return false;
    data.remove_prefix(static_cast<size_t>(put));
  }
  return true;
}

} // namespace

std::string sha256Hex(std::string_view text) {
  auto digest = llvm::SHA256::hash(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(text.data()), text.size()));
  return llvm::toHex(digest, /*LowerCase=*/true);
}

std::optional<ObjectCache> ObjectCache::openDefault(std::string &why) {
  const char *xdg = std::getenv("XDG_CACHE_HOME");
  // The XDG specification: a relative path is invalid and must be ignored.
  if (xdg != nullptr && xdg[0] == '/')
    return open(std::string(xdg) + "/mech", why);
  const char *home = std::getenv("HOME");
  if (home == nullptr || home[0] != '/') {
    why = "neither XDG_CACHE_HOME nor HOME is set to an absolute path";
    return std::nullopt;
  }
  return open(std::string(home) + "/.cache/mech", why);
}

std::optional<ObjectCache> ObjectCache::open(const std::string &directory, std::string &why) {
  if (!makeDirectories(directory)) {
    why = "cannot create '" + directory + "': " + std::strerror(errno);
    return std::nullopt;
  }
  struct stat info;
  if (lstat(directory.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
    why = "'" + directory + "' is not a directory";
    return std::nullopt;
  }
  if (info.st_uid != geteuid()) {
    why = "'" + directory + "' is not owned by the user";
    return std::nullopt;
  }
  if ((info.st_mode & 0777) != 0700 && chmod(directory.c_str(), 0700) != 0) {
    why = "cannot make '" + directory + "' private: " + std::strerror(errno);
    return std::nullopt;
  }
  return ObjectCache(directory);
}

std::string ObjectCache::entryPath(const std::string &key) const {
  return directory_ + "/" + key + ".o";
}

std::optional<std::string> ObjectCache::load(const std::string &key) const {
  int fd = ::open(entryPath(key).c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return std::nullopt;
  struct stat info;
  std::string content;
  bool usable = fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && ownedAndPrivate(info) &&
                readAll(fd, content);
  close(fd);
  if (!usable || content.size() < kMagic.size() + kHashHexLength + 1 ||
      content.compare(0, kMagic.size(), kMagic) != 0 ||
      content[kMagic.size() + kHashHexLength] != '\n')
    return std::nullopt;
  std::string_view hash(content.data() + kMagic.size(), kHashHexLength);
  std::string_view object(content);
  object.remove_prefix(kMagic.size() + kHashHexLength + 1);
  if (sha256Hex(object) != hash)
    return std::nullopt;
  return std::string(object);
}

bool ObjectCache::store(const std::string &key, std::string_view object) const {
  std::string temporary = directory_ + "/.entry-XXXXXX";
  int fd = mkstemp(temporary.data()); // mode 0600
  if (fd < 0)
    return false;
  std::string header = std::string(kMagic) + sha256Hex(object) + "\n";
  bool written = writeAll(fd, header) && writeAll(fd, object);
  written = close(fd) == 0 && written;
  if (!written || rename(temporary.c_str(), entryPath(key).c_str()) != 0) {
    unlink(temporary.c_str());
    return false;
  }
  return true;
}

} // namespace mech::jit
