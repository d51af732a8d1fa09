// The LLVM module of a model's kernels, with the plain C ABI over double
// arrays (x = (q, q') throughout): mech_mass_matrix, mech_forcing, mech_rhs
// (which solves M q'' = f, or the first-kind equations, itself),
// mech_multipliers, mech_constraints, mech_energy, mech_outputs and, on
// request, mech_momentum_force and mech_jacobian_parts. The largest program, M, f, C and gamma, is
// emitted once, in an internal function the kernels call.
#pragma once

#include "jit/CompiledModel.h"
#include "mechanics/Kernels.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <memory>

namespace mech::jit {

// Programs larger than segmentSize are cut into functions of that size.
std::unique_ptr<llvm::Module> emitModule(const mechanics::KernelPrograms &programs,
                                         llvm::LLVMContext &context, KernelSelection selection,
                                         size_t segmentSize = kSegmentInstructions);

} // namespace mech::jit
