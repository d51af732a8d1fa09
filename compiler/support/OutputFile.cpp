// The temporary file is ".NAME.tmp-XXXXXXXX" beside the destination, made
// with O_EXCL (so never another process's file) and the mode less the
// umask, as a plain open would make the destination; a destination that
// was there lends it its permissions. Writes go through a small buffer that
// keeps the first errno, so that the message names the real reason.
#include "support/OutputFile.h"

#include "support/PendingFiles.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <random>
#include <streambuf>
#include <sys/stat.h>
#include <unistd.h>

namespace mech {

namespace fs = std::filesystem;

namespace {

// A stream buffer over a file descriptor that remembers why a write failed.
class DescriptorBuffer : public std::streambuf {
public:
  explicit DescriptorBuffer(int fd) : fd_(fd) { setp(buffer_, buffer_ + sizeof buffer_); }

  int error() const { return error_; }

  // Writes what is buffered; after a failure the rest is dropped.
  bool drain() {
    for (char *from = pbase(); from < pptr() && error_ == 0;) {
      ssize_t written = ::write(fd_, from, static_cast<size_t>(pptr() - from));
      if (written > 0)
        from += written;
      else if (written == 0)
        error_ = EIO;
      else if (errno != EINTR)
        error_ = errno;
    }
    setp(buffer_, buffer_ + sizeof buffer_);
    return error_ == 0;
  }

protected:
  int_type overflow(int_type c) override {
    if (!drain())
      return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() ? 0 : -1; }

private:
  int fd_;
  int error_ = 0;
  char buffer_[1 << 16];
};

std::string randomSuffix() {
  static std::random_device device;
  static const char digits[] = "0123456789abcdef";
  std::string suffix;
  for (unsigned value = device(), i = 0; i < 8; ++i, value >>= 4)
    suffix += digits[value & 15];
  return suffix;
}

// The file that writing to `path` replaces: its symbolic links followed,
// a dangling one too (its target is then the file made), as many as the
// kernel follows.
std::string followLinks(const std::string &path) {
  fs::path current = path;
  for (int link = 0; link < 40; ++link) {
    std::error_code error;
    if (!fs::is_symlink(fs::symlink_status(current, error)))
      break;
    fs::path next = fs::read_symlink(current, error);
    if (error)
      break;
    current = next.is_absolute() ? next : current.parent_path() / next;
  }
  return current.string();
}

std::string cannotWrite(const std::string &path, int error) {
  return "cannot write '" + path + "': " + std::strerror(error);
}

} // namespace

struct OutputFile::Handle {
  explicit Handle(int descriptor) : fd(descriptor), buffer(descriptor), stream(&buffer) {}
  int fd;
  DescriptorBuffer buffer;
  std::ostream stream;
};

OutputFile::OutputFile(std::string path, unsigned mode)
    : path_(std::move(path)), target_(path_), mode_(mode) {}

OutputFile::~OutputFile() {
  discard();
}

bool OutputFile::open(std::string &error) {
  struct stat info;
  target_ = followLinks(path_);
  bool exists = stat(target_.c_str(), &info) == 0;
  if (exists && S_ISDIR(info.st_mode)) {
    error = cannotWrite(path_, EISDIR);
    return false;
  }
  if (exists && !S_ISREG(info.st_mode)) {
    inPlace_ = true;
    int fd = ::open(target_.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
      error = cannotWrite(path_, errno);
      return false;
    }
    handle_ = std::make_unique<Handle>(fd);
    return true;
  }
  // A read-only file is not replaced behind its owner's back.
  if (exists && access(target_.c_str(), W_OK) != 0) {
    error = cannotWrite(path_, errno);
    return false;
  }
  fs::path target(target_);
  fs::path folder = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    staging_ = (folder / ("." + target.filename().string() + ".tmp-" + randomSuffix())).string();
    fd = ::open(staging_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_);
    if (fd < 0 && errno != EEXIST)
      break;
  }
  if (fd < 0) {
    error = cannotWrite(path_, errno);
    staging_.clear();
    return false;
  }
  pendingSlot_ = listPendingFile(staging_.c_str());
  if (exists)
    (void)fchmod(fd, info.st_mode & 07777);
  handle_ = std::make_unique<Handle>(fd);
  return true;
}

std::ostream &OutputFile::stream() {
  return handle_->stream;
}

bool OutputFile::flush(std::string &error) {
  if (!handle_) {
    error = cannotWrite(path_, EBADF);
    return false;
  }
  handle_->stream.flush();
  int failure = handle_->buffer.drain() ? 0 : handle_->buffer.error();
  if (failure == 0 && !handle_->stream)
    failure = EIO;
  if (failure == 0 && !inPlace_ && fsync(handle_->fd) != 0)
    failure = errno;
  if (close(handle_->fd) != 0 && failure == 0)
    failure = errno;
  handle_->fd = -1;
  if (failure != 0) {
    error = cannotWrite(path_, failure);
    discard();
    return false;
  }
  flushed_ = true;
  return true;
}

bool OutputFile::commit(std::string &error) {
  if (!flushed_ && !flush(error))
    return false;
  if (!inPlace_ && rename(staging_.c_str(), target_.c_str()) != 0) {
    error = cannotWrite(path_, errno);
    discard();
    return false;
  }
  staging_.clear();
  unlistPendingFile(pendingSlot_);
  pendingSlot_ = -1;
  handle_.reset();
  return true;
}

void OutputFile::discard() {
  if (handle_ && handle_->fd >= 0)
    close(handle_->fd);
  handle_.reset();
  if (!staging_.empty())
    unlink(staging_.c_str());
  staging_.clear();
  unlistPendingFile(pendingSlot_);
  pendingSlot_ = -1;
}

bool writeOutputFile(const std::string &path, std::string_view bytes, std::string &error) {
  OutputFile file(path);
  if (!file.open(error))
    return false;
  file.stream().write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return file.commit(error);
}

bool canWriteOutputFile(const std::string &path, std::string &error) {
  // Opening a pipe would wait for its reader, and closing it end its input.
  struct stat info;
  if (stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode) && !S_ISDIR(info.st_mode)) {
    bool ok = access(path.c_str(), W_OK) == 0;
    if (!ok)
      error = cannotWrite(path, errno);
    return ok;
  }
  OutputFile file(path);
  return file.open(error);
}

bool sameFile(const std::string &a, const std::string &b) {
  struct stat first, second;
  if (stat(a.c_str(), &first) == 0 && stat(b.c_str(), &second) == 0)
    return first.st_dev == second.st_dev && first.st_ino == second.st_ino;
  std::error_code ignored;
  return fs::weakly_canonical(fs::absolute(a, ignored), ignored) ==
         fs::weakly_canonical(fs::absolute(b, ignored), ignored);
}

} // namespace mech
