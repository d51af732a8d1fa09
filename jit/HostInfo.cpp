// Host facts from LLVM's support library.
#include "jit/HostInfo.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/TargetParser/Host.h>

#include <dlfcn.h>
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

std::string buildIdentity() {
  std::string identity = "mech " MECH_VERSION;
  // The file this function's code is in: the mech executable, or the
  // Python package's module, which /proc/self/exe (python3) would not name.
  Dl_info self{};
  const char *file = "/proc/self/exe";
  // (A shared object is named by its absolute path; the executable may be
  // named as it was started, so it is read through /proc.)
  if (dladdr(reinterpret_cast<void *>(&buildIdentity), &self) != 0 && self.dli_fname &&
      self.dli_fname[0] == '/')
    file = self.dli_fname;
  struct stat info;
  if (stat(file, &info) == 0)
    identity += "; " + std::to_string(info.st_size) + " bytes; modified " +
                std::to_string(info.st_mtim.tv_sec) + "." + std::to_string(info.st_mtim.tv_nsec);
  return identity;
}

} // namespace mech::jit
