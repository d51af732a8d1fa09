// The kernels of a model's switching programs (mechanics/SwitchPrograms.h)
// in a built library, next to the model's own: contacts(t, x, p, out),
// events_at(t, xs, p, out) and outputs_at(t, xs, p, out), whose state xs
// is (q, q', q'', lambda) (the solution of the contact mode in use, which
// the C runtime computes), and resets(t, x, p, out).
#pragma once

#include "mechanics/Kernels.h"
#include "mechanics/SwitchPrograms.h"

#include <llvm/IR/Module.h>

namespace mech::jit {

// Adds mech_contacts, mech_events_at, mech_outputs_at and mech_resets to
// `module`, with the kernels' signature.
void emitSwitchKernels(const mechanics::KernelPrograms &programs,
                       const mechanics::SwitchPrograms &switches, llvm::Module &module);

} // namespace mech::jit
