// Native code for a model's kernels: LLVM IR emitted from the CSE'd kernel
// programs with IRBuilder, optimized at O2 and run by the ORC JIT. The same
// kernels as the interpreter (mechanics::Kernels), with mech_rhs solving
// M q'' = f itself (unrolled LDL^T for small systems, loops for large ones).
#pragma once

#include "mechanics/Kernels.h"

#include <memory>
#include <string>

namespace mech::jit {

class ObjectCache;

struct CompileOptions {
  // Where compiled code is looked up first and stored after a miss.
  const ObjectCache *cache = nullptr;
  // Also compile momentumForce, which only the variational integrator calls;
  // without it that kernel returns kStatusKernelNotCompiled.
  bool momentumForce = false;
};

// Null with `error` set when LLVM cannot compile for this host. `cacheHit`
// says whether the code came from the cache.
std::unique_ptr<mechanics::Kernels> compileKernels(const mechanics::KernelPrograms &programs,
                                                   std::string &error,
                                                   const CompileOptions &options = {},
                                                   bool *cacheHit = nullptr);

// The optimized LLVM IR of the kernels, as text (`mech --dump=llvm`).
std::string kernelsIr(const mechanics::KernelPrograms &programs, std::string &error);

// Systems up to this size get a fully unrolled LDL^T in mech_rhs.
inline constexpr size_t kUnrolledSolveLimit = 24;

} // namespace mech::jit
