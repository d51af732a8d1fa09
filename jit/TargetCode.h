// From an LLVM module to machine code for one target machine: verification,
// the O2 pipeline, object emission. Shared by the JIT (host CPU) and by
// `mech build` (a position-independent object for a chosen CPU).
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace mech::jit {

// Registers the host's target with LLVM, once per process (thread-safe).
void initializeNativeTarget();

// False with `error` set ("internal compiler error: ...") when the IR is invalid.
bool verifyModule(llvm::Module &module, std::string &error);

// Modules of more LLVM instructions than this are optimized without the
// SLP vectorizer.
inline constexpr size_t kSlpVectorizerLimit = 2'000;

// Runs LLVM's O2 pipeline, tuned for `machine` (and by the module's size).
void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine);

// Optimizes, then emits an ELF object; empty with `error` set on failure.
std::string emitObjectCode(llvm::Module &module, llvm::TargetMachine &machine, std::string &error);

// A machine for code that goes into a shared library: the host's triple,
// position-independent, for the generic CPU of the architecture (x86-64:
// any x86-64 machine) or, with `native`, for this machine's CPU and features.
std::unique_ptr<llvm::TargetMachine> libraryTargetMachine(bool native, std::string &error);

} // namespace mech::jit
