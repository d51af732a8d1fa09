// Host facts from LLVM's support library.
#include "jit/HostInfo.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/TargetParser/Host.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <sys/stat.h>

namespace mech::jit {

HostInfo hostInfo() {
  HostInfo info;
  info.llvmVersion = LLVM_VERSION_STRING;
  info.triple = llvm::sys::getProcessTriple();
  info.cpu = llvm::sys::getHostCPUName().str();
  return info;
}

} // namespace mech::jit

namespace mech::jit {

namespace {

// The GNU build-id of the loaded object (the executable or a shared
// object) whose segments hold `address`, as hex; empty when it has none.
struct BuildIdSearch {
  uintptr_t address = 0;
  std::string id;
};

std::string noteBuildId(const char *notes, size_t size, size_t align) {
  size_t at = 0;
  auto padded = [align](size_t n) { return (n + align - 1) / align * align; };
  while (at + sizeof(ElfW(Nhdr)) <= size) {
    ElfW(Nhdr) note;
    std::memcpy(&note, notes + at, sizeof note);
    size_t name = at + sizeof note, desc = name + padded(note.n_namesz);
    if (desc > size || note.n_descsz > size - desc)
      break;
    if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
        std::memcmp(notes + name, "GNU", 4) == 0 && note.n_descsz > 0) {
      std::string hex;
      for (size_t i = 0; i < note.n_descsz; ++i) {
        char byte[3];
        std::snprintf(byte, sizeof byte, "%02x", static_cast<unsigned char>(notes[desc + i]));
        hex += byte;
      }
      return hex;
    }
    at = desc + padded(note.n_descsz);
  }
  return "";
}

int findBuildId(struct dl_phdr_info *info, size_t, void *data) {
  auto *search = static_cast<BuildIdSearch *>(data);
  bool holds = false;
  for (ElfW(Half) i = 0; i < info->dlpi_phnum && !holds; ++i) {
    const ElfW(Phdr) &segment = info->dlpi_phdr[i];
    uintptr_t start = info->dlpi_addr + segment.p_vaddr;
    holds = segment.p_type == PT_LOAD && search->address >= start &&
            search->address - start < segment.p_memsz;
  }
  if (!holds)
    return 0;
  for (ElfW(Half) i = 0; i < info->dlpi_phnum && search->id.empty(); ++i) {
    const ElfW(Phdr) &segment = info->dlpi_phdr[i];
    if (segment.p_type == PT_NOTE)
      search->id = noteBuildId(reinterpret_cast<const char *>(info->dlpi_addr + segment.p_vaddr),
                               segment.p_memsz, std::max<size_t>(4, segment.p_align));
  }
  return 1; // the object was found: stop
}

// The version, size and modification time of the file this code is in:
// what tells builds apart when the linker wrote no build-id.
std::string fileIdentity() {
  std::string identity;
  // The file this function's code is in: the mech executable, or the
  // Python package's module, which /proc/self/exe (python3) would not name.
  Dl_info self{};
  const char *file = "/proc/self/exe";
  // (A shared object is named by its absolute path; the executable may be
  // named as it was started, so it is read through /proc.)
  if (dladdr(reinterpret_cast<void *>(&fileIdentity), &self) != 0 && self.dli_fname &&
      self.dli_fname[0] == '/')
    file = self.dli_fname;
  struct stat info;
  if (stat(file, &info) == 0)
    identity += "; " + std::to_string(info.st_size) + " bytes; modified " +
                std::to_string(info.st_mtim.tv_sec) + "." + std::to_string(info.st_mtim.tv_nsec);
  return identity;
}

} // namespace

std::string gnuBuildId() {
  BuildIdSearch search;
  search.address = reinterpret_cast<uintptr_t>(&findBuildId);
  dl_iterate_phdr(findBuildId, &search);
  return search.id;
}

std::string buildIdentity() {
  // The build-id the linker computed from the linked code (--build-id, set
  // in CMakeLists.txt): two builds share it only when their code is the
  // same, whatever their files' dates. Read once: every cache key of the
  // process uses it.
  static const std::string identity = [] {
    std::string id = gnuBuildId();
    return id.empty() ? "mech " MECH_VERSION + fileIdentity()
                      : "mech " MECH_VERSION "; build-id " + id;
  }();
  return identity;
}

} // namespace mech::jit
