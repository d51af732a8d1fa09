// The cache's file handling: POSIX calls on the directory's descriptor, so
// that ownership, modes and file types are checked on the descriptor that is
// read (no window between check and use).
//
// An entry is one header line, "mech-object 2 " and the SHA-256 of the rest,
// then the rest: "key K\n", "signature N\n", N bytes of signature, "\n", and
// the object code.
#include "jit/ObjectCache.h"

#include "jit/CacheSize.h"
#include "support/InputFile.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/SHA256.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace mech::jit {

struct ObjectCache::Directory {
  int fd = -1;
  ~Directory() {
    if (fd >= 0)
      close(fd);
  }
};

namespace {

constexpr std::string_view kMagic = "mech-object 2 ";
constexpr size_t kHashHexLength = 64;

std::string octalMode(mode_t mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
  return text;
}

// Why a file or directory may not be trusted, or "" when it may: it must be
// the running user's and writable by no one else.
std::string untrusted(const struct stat &info) {
  if (info.st_uid != geteuid())
    return "is owned by uid " + std::to_string(info.st_uid) + ", not by the user (uid " +
           std::to_string(geteuid()) + ")";
  if ((info.st_mode & (S_IWGRP | S_IWOTH)) != 0)
    return "is writable by others (mode " + octalMode(info.st_mode) + ")";
  return "";
}

// Creates the missing directories of `path` (mode 0700); existing ones are
// left as they are. Only in a folder of the user's: a folder made in
// another user's (root running with a user's HOME, as sudo -E does) would
// be root's, mode 0700, and lock that user out of their own cache root.
// False with `foreign` set when the first missing folder's parent is not
// the user's, with errno set on other failures.
bool makeDirectories(const std::string &path, bool &foreign) {
  foreign = false;
  std::vector<std::string> missing;
  struct stat info;
  std::string existing = path;
  while (stat(existing.c_str(), &info) != 0) {
    if (errno != ENOENT)
      return false;
    missing.push_back(existing);
    size_t slash = existing.find_last_of('/');
    existing = slash == 0 ? "/" : existing.substr(0, slash);
    if (slash == std::string::npos)
      existing = ".";
  }
  if (!missing.empty() && info.st_uid != geteuid()) {
    foreign = true;
    return false;
  }
  for (auto folder = missing.rbegin(); folder != missing.rend(); ++folder)
    if (mkdir(folder->c_str(), 0700) != 0 && errno != EEXIST)
      return false;
  return true;
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

std::string entryBody(std::string_view key, std::string_view signature, std::string_view object) {
  std::string body = "key " + std::string(key) + "\nsignature " + std::to_string(signature.size()) +
                     "\n" + std::string(signature) + "\n";
  body += object;
  return body;
}

// Takes "PREFIX" and the rest of its line off the front of `text`; the
// line's text after PREFIX, or nullopt.
std::optional<std::string_view> takeLine(std::string_view &text, std::string_view prefix) {
  size_t end = text.find('\n');
  if (end == std::string_view::npos || text.substr(0, prefix.size()) != prefix)
    return std::nullopt;
  std::string_view value = text.substr(prefix.size(), end - prefix.size());
  text.remove_prefix(end + 1);
  return value;
}

// Checks a whole entry's text against the key and signature; the object,
// or nullopt with `why` set.
std::optional<std::string_view> parseEntry(std::string_view content, std::string_view key,
                                           std::string_view signature, std::string &why) {
  std::optional<std::string_view> hash = takeLine(content, kMagic);
  if (!hash || hash->size() != kHashHexLength || sha256Hex(content) != *hash) {
    why = "is corrupt (not an entry of this version, or its checksum does not match)";
    return std::nullopt;
  }
  std::optional<std::string_view> storedKey = takeLine(content, "key ");
  std::optional<std::string_view> length = takeLine(content, "signature ");
  size_t size = 0;
  if (!storedKey || !length ||
      std::from_chars(length->data(), length->data() + length->size(), size).ec != std::errc() ||
      size >= content.size() || content[size] != '\n') {
    why = "is corrupt (its header is malformed)";
    return std::nullopt;
  }
  if (*storedKey != key) {
    why = "holds the code stored under another key (copied or renamed)";
    return std::nullopt;
  }
  if (content.substr(0, size) != signature) {
    why = "was compiled for another model (its kernel signature differs)";
    return std::nullopt;
  }
  return content.substr(size + 1);
}

std::string randomSuffix() {
  static thread_local std::mt19937_64 generator{std::random_device{}()};
  return std::to_string(generator());
}

} // namespace

std::string sha256Hex(std::string_view text) {
  auto digest = llvm::SHA256::hash(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(text.data()), text.size()));
  return llvm::toHex(digest, /*LowerCase=*/true);
}

std::optional<ObjectCache> ObjectCache::openDefault(std::string &why, const std::string &name) {
  const char *xdg = std::getenv("XDG_CACHE_HOME");
  // The XDG specification: a relative path is invalid and must be ignored.
  if (xdg != nullptr && xdg[0] == '/')
    return open(std::string(xdg) + "/" + name, why);
  const char *home = std::getenv("HOME");
  if (home == nullptr || home[0] != '/') {
    why = "neither XDG_CACHE_HOME nor HOME is set to an absolute path";
    return std::nullopt;
  }
  return open(std::string(home) + "/.cache/" + name, why);
}

std::optional<ObjectCache> ObjectCache::open(const std::string &directory, std::string &why) {
  why.clear();
  std::optional<uint64_t> limit = cacheSizeLimit(why);
  if (!limit)
    return std::nullopt;
  bool foreign = false;
  if (!makeDirectories(directory, foreign)) {
    // Not ours to create: the run goes without the cache, quietly (why
    // stays empty), as it is no fault of the run's.
    if (!foreign)
      why = "cannot create '" + directory + "': " + std::strerror(errno);
    return std::nullopt;
  }
  auto handle = std::make_shared<Directory>();
  handle->fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  struct stat info;
  if (handle->fd < 0 || fstat(handle->fd, &info) != 0) {
    why = "'" + directory + "' is not a directory (or a symbolic link to one)";
    return std::nullopt;
  }
  if (std::string problem = untrusted(info); !problem.empty()) {
    why = "'" + directory + "' " + problem + "; it is not used";
    return std::nullopt;
  }
  return ObjectCache(directory, std::move(handle), *limit);
}

std::string ObjectCache::entryPath(const std::string &key) const {
  return directory_ + "/" + key + ".o";
}

CacheEntry ObjectCache::load(const std::string &key, std::string_view signature) const {
  CacheEntry entry;
  std::string name = key + ".o", path = entryPath(key);
  // Non-blocking, so that a FIFO put in an entry's place cannot hang the open.
  int fd = openat(handle_->fd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    if (errno == ENOENT)
      return entry;
    entry.state = CacheEntry::State::Refused;
    entry.why = "'" + path + "' " +
                (errno == ELOOP ? std::string("is a symbolic link")
                                : "cannot be opened: " + std::string(std::strerror(errno)));
    return entry;
  }
  struct stat info;
  std::string content, problem;
  if (fstat(fd, &info) != 0)
    problem = std::string("cannot be examined: ") + std::strerror(errno);
  else if (!S_ISREG(info.st_mode))
    problem = "is not a regular file";
  else
    problem = untrusted(info);
  if (!problem.empty()) {
    close(fd);
    entry.state = CacheEntry::State::Refused;
    entry.why = "'" + path + "' " + problem;
    return entry;
  }
  int code = 0;
  bool read = static_cast<size_t>(info.st_size) <= kMaxEntryBytes &&
              readDescriptor(fd, kMaxEntryBytes, content, code) && content.size() <= kMaxEntryBytes;
  // Used now: the pruning after a store removes the least recently used.
  (void)futimens(fd, nullptr);
  close(fd);
  entry.state = CacheEntry::State::Invalid;
  if (!read) {
    entry.why = "'" + path + "' cannot be read or is too large";
    return entry;
  }
  std::string why;
  std::optional<std::string_view> object = parseEntry(content, key, signature, why);
  if (!object) {
    entry.why = "'" + path + "' " + why;
    return entry;
  }
  entry.state = CacheEntry::State::Valid;
  entry.object = std::string(*object);
  return entry;
}

bool ObjectCache::store(const std::string &key, std::string_view signature, std::string_view object,
                        std::string &why) const {
  std::string temporary = ".entry-" + randomSuffix();
  int fd = openat(handle_->fd, temporary.c_str(),
                  O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    why = "cannot write in '" + directory_ + "': " + std::strerror(errno);
    return false;
  }
  std::string body = entryBody(key, signature, object);
  std::string header = std::string(kMagic) + sha256Hex(body) + "\n";
  bool written = writeAll(fd, header) && writeAll(fd, body);
  int savedErrno = errno;
  written = close(fd) == 0 && written;
  if (!written ||
      renameat(handle_->fd, temporary.c_str(), handle_->fd, (key + ".o").c_str()) != 0) {
    why = "cannot store '" + entryPath(key) + "': " + std::strerror(written ? errno : savedErrno);
    unlinkat(handle_->fd, temporary.c_str(), 0);
    return false;
  }
  pruneCacheFolder(handle_->fd, limit_);
  return true;
}

void ObjectCache::evict(const std::string &key) const {
  unlinkat(handle_->fd, (key + ".o").c_str(), 0);
}

} // namespace mech::jit
