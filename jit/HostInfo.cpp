// Host facts from LLVM's support library.
#include "jit/HostInfo.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/TargetParser/Host.h>

namespace mech::jit {

HostInfo hostInfo() {
  HostInfo info;
  info.llvmVersion = LLVM_VERSION_STRING;
  info.triple = llvm::sys::getProcessTriple();
  info.cpu = llvm::sys::getHostCPUName().str();
  return info;
}

} // namespace mech::jit
