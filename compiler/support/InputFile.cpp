// readInputFile with POSIX calls: open non-blocking (so that opening a FIFO
// does not wait for a writer), fstat the descriptor that was opened (no
// race with a rename), then read to the end with every error reported.
#include "support/InputFile.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace mech {

namespace {

std::string reason(const std::string &what, const std::string &path, int code) {
  return what + " '" + path + "': " + std::strerror(code);
}

std::string megabytes(size_t bytes) {
  return bytes >= (1u << 20) ? std::to_string(bytes >> 20) + " MiB"
                             : std::to_string(bytes) + " bytes";
}

} // namespace

// Files under /proc report a size of 0, so the size from fstat is only a
// first check: the read itself stops past the limit.
bool readDescriptor(int fd, size_t maxSize, std::string &text, int &code) {
  char chunk[1 << 16];
  for (;;) {
    ssize_t got = ::read(fd, chunk, sizeof chunk);
    if (got < 0) {
      if (errno == EINTR)
        continue;
      code = errno;
      return false;
    }
    if (got == 0)
      return true;
    text.append(chunk, static_cast<size_t>(got));
    if (text.size() > maxSize)
      return true;
  }
}

std::optional<std::string> readInputFile(const std::string &path, size_t maxSize,
                                         std::string &error) {
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    error = reason("cannot open", path, errno);
    return std::nullopt;
  }
  struct stat info;
  std::optional<std::string> result;
  if (::fstat(fd, &info) != 0) {
    error = reason("cannot read", path, errno);
  } else if (S_ISDIR(info.st_mode)) {
    error = "'" + path + "' is a directory, not a file";
  } else if (!S_ISREG(info.st_mode)) {
    error = "'" + path + "' is not a regular file (a device, FIFO or socket is not read)";
  } else if (static_cast<unsigned long long>(info.st_size) > maxSize) {
    error = "'" + path + "' is larger than the limit of " + megabytes(maxSize);
  } else {
    std::string text;
    text.reserve(static_cast<size_t>(info.st_size));
    int code = 0;
    if (!readDescriptor(fd, maxSize, text, code))
      error = reason("cannot read", path, code);
    else if (text.size() > maxSize)
      error = "'" + path + "' is larger than the limit of " + megabytes(maxSize);
    else
      result = std::move(text);
  }
  ::close(fd);
  return result;
}

} // namespace mech
