// Native code for a model's kernels: LLVM IR emitted from the CSE'd kernel
// programs with IRBuilder, optimized at O2 and run by the ORC JIT. The same
// kernels as the interpreter (mechanics::Kernels), with mech_rhs solving
// M q'' = f itself (unrolled LDL^T for small systems, loops for large ones).
#pragma once

#include "mechanics/Kernels.h"

#include <memory>
#include <string>
#include <vector>

namespace mech::jit {

class ObjectCache;

// What compiled kernels are for, from the checked model: its name and the
// names whose order fixes the layout of every array a kernel reads or
// writes. Its text goes into a cache entry's header and into the object code
// itself (the constant mech_kernel_signature); both are compared with the
// model's before a kernel runs, so code compiled for another model never does.
struct KernelSignature {
  std::string model;
  std::vector<std::string> coordinates, params, constraints, outputs;
};

// Which kernels a module holds beyond the ones every simulation uses.
struct KernelSelection {
  bool momentumForce = false; // the variational integrator's
  bool jacobian = false;      // the implicit integrators' (needs KernelPrograms::addJacobian)
  // The constrained solve may call the runtime's envelope solve (KernelPrograms::
  // envelopePlan) in this process; a built library solves densely instead.
  bool hostSolves = true;
};

// Programs larger than this, in about LLVM instructions, are emitted as a
// chain of functions of about this size (EmitterSegments.cpp): LLVM's code
// generation takes time superlinear in the size of a function
// (bench/README.md).
inline constexpr size_t kSegmentInstructions = 4000;

struct CompileOptions {
  // Where compiled code is looked up first and stored after a miss.
  const ObjectCache *cache = nullptr;
  // Also compile momentumForce, which only the variational integrator calls;
  // without it that kernel returns kStatusKernelNotCompiled.
  bool momentumForce = false;
  // Also compile jacobianParts (the programs must have the Jacobian).
  bool jacobian = false;
  // Empty names (tests) leave only the counts and the layout to check.
  KernelSignature signature;
  // The key of the sources the programs were derived from
  // (driver/DerivationCache.h), when they are the model's own, and the
  // cache of the index from it to the key of their code: a warm run finds
  // its code through the index without generating IR (and still loads it
  // from `cache`, with all its checks). Empty or null: by IR only.
  std::string sourceKey;
  const ObjectCache *index = nullptr;
  // The size of the functions large programs are cut into (tests cut
  // small programs too).
  size_t segmentSize = kSegmentInstructions;
  // Only look the code up through the index: null, with `error` empty,
  // when it is not there (tiered execution then compiles it in the
  // background).
  bool indexOnly = false;
};

// What the cache did for one compilation.
struct CacheReport {
  // "off" (no cache), "hit", "miss" (compiled and stored), "miss, not
  // stored", or "miss, entry replaced" (a bad entry was there).
  std::string outcome = "off";
  std::string warning; // what was wrong with the entry or the store
};

// The signature's text with the layout of `programs`; empty with `error`
// set when the signature's counts are not the programs'.
std::string signatureText(const KernelSignature &signature,
                          const mechanics::KernelPrograms &programs, KernelSelection selection,
                          std::string &error);

// Null with `error` set when LLVM cannot compile for this host.
std::unique_ptr<mechanics::Kernels> compileKernels(const mechanics::KernelPrograms &programs,
                                                   std::string &error,
                                                   const CompileOptions &options = {},
                                                   CacheReport *report = nullptr);

// The optimized LLVM IR of the kernels, as text (`mech --dump=llvm`).
std::string kernelsIr(const mechanics::KernelPrograms &programs, std::string &error,
                      size_t segmentSize = kSegmentInstructions);

// Systems up to this size get a fully unrolled LDL^T in mech_rhs.
inline constexpr size_t kUnrolledSolveLimit = 24;

// The size of what LLVM is given for these kernels, in operations: the
// programs' instructions, one store per output (the n^2 entries of M among
// them, which the programs' instructions do not count when an entry is a
// shared value), and the multiply-adds of the unrolled LDL^T solve (about
// n^3/6 + n^2 for n up to kUnrolledSolveLimit; a larger solve is loops of a
// fixed size). LLVM's time grows faster than this count (bench/README.md),
// so the JIT budget is set against it, before anything is compiled.
size_t estimatedOperations(const mechanics::KernelPrograms &programs, KernelSelection selection);

} // namespace mech::jit
