// A minimal writer of ZIP archives, for the FMUs `mech build --fmu` makes
// (an FMU is a ZIP file). It writes the whole archive to memory, files only
// (readers make the folders a path names), each entry deflated when that is
// smaller, else stored. The bytes depend on the entries alone (a fixed
// timestamp), so that the same build gives the same archive.
#pragma once

#include <string>
#include <vector>

namespace mech {

struct ZipEntry {
  std::string name;        // the path in the archive, '/' between folders
  std::string bytes;       // the file's contents
  bool executable = false; // Unix mode 0755 instead of 0644
};

// The archive of `entries`, in their order, into `archive`. False, with the
// reason in `error`, when it would need ZIP64 (an entry or the archive of
// 4 GiB or more, 65535 entries or more), or a name is empty, longer than
// 65535 bytes or given twice.
bool zipArchive(const std::vector<ZipEntry> &entries, std::string &archive, std::string &error);

} // namespace mech
