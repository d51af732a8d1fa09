// A file written whole or not at all. The bytes go to a temporary file in
// the destination's folder (so on the same filesystem), which is flushed to
// the disk, checked and renamed over the destination only when every write
// succeeded: a full disk or a failed command leaves neither a truncated
// output nor the temporary file, and a file that was there stays as it was.
// A destination that exists and is not a regular file (/dev/null, a pipe,
// a terminal) is written in place, as renaming over it would replace it.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <string_view>

namespace mech {

class OutputFile {
public:
  // `mode` (less the umask) is for a new file; one that was there keeps its own.
  explicit OutputFile(std::string path, unsigned mode = 0666);
  ~OutputFile(); // removes the temporary file unless committed
  OutputFile(const OutputFile &) = delete;
  OutputFile &operator=(const OutputFile &) = delete;

  // Creates the temporary file. False with `error` set to
  // "cannot write 'PATH': REASON" when it cannot be made (no such folder,
  // no permission, a folder in the way, a read-only file).
  bool open(std::string &error);
  // Where to write, after open.
  std::ostream &stream();
  // Writes out what is buffered and syncs it to the disk, leaving the
  // rename to commit: outputs that belong together are all flushed before
  // any is renamed. False with `error` set, and nothing left behind, when
  // any write failed.
  bool flush(std::string &error);
  // Flushes (unless done) and renames into place; false as flush.
  bool commit(std::string &error);
  // Removes the temporary file; the destination stays as it was.
  void discard();

  const std::string &path() const { return path_; }

private:
  struct Handle;
  std::string path_;   // as given, for messages
  std::string target_; // the file renamed over: path_ with its symbolic links followed
  std::string staging_;
  unsigned mode_;
  bool inPlace_ = false, flushed_ = false;
  int pendingSlot_ = -1; // staging_ on the list a signal cleans (support/PendingFiles.h)
  std::unique_ptr<Handle> handle_;
};

// Writes `bytes` to `path` through an OutputFile.
bool writeOutputFile(const std::string &path, std::string_view bytes, std::string &error);

// Whether an OutputFile could be made at `path` now (the temporary file is
// made and removed); `error` says why not.
bool canWriteOutputFile(const std::string &path, std::string &error);

// Whether two paths name one file: the same device and inode when both
// exist, otherwise the same absolute path once normalized (symbolic links
// in the folders followed).
bool sameFile(const std::string &a, const std::string &b);

} // namespace mech
