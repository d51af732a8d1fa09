// Each switching kernel stores one program's values at its arguments.
#include "jit/SwitchKernels.h"

#include "jit/Emitter.h"
#include "mechanics/Evaluation.h"

namespace mech::jit {

namespace {

// Stores `program` at (t, x, p) into out; with `solved`, x holds q'' and
// the multipliers after (q, q'), else those read as 0.
void programKernel(Emitter &e, const mechanics::InputLayout &layout, const char *name,
                   const sym::Program &program, bool solved) {
  llvm::Function *f = e.kernel(name);
  llvm::Value *t = f->getArg(0), *x = f->getArg(1), *p = f->getArg(2);
  const size_t n = layout.coordinates;
  auto input = [&](uint32_t index) -> llvm::Value * {
    if (index < layout.params)
      return e.load(p, index);
    if (index == layout.time())
      return t;
    // q, q', q'' in turn, then the multipliers after t.
    size_t k = index < layout.time() ? index - layout.params : 3 * n + index - layout.multiplier(0);
    return k < 2 * n || solved ? e.load(x, k) : e.constant(0);
  };
  e.emitOutputs(program, input, f->getArg(3));
  e.ret(e.builder().getInt32(0));
}

} // namespace

void emitSwitchKernels(const mechanics::KernelPrograms &programs,
                       const mechanics::SwitchPrograms &switches, llvm::Module &module) {
  Emitter e(module.getContext(), module);
  const mechanics::InputLayout layout{programs.params, programs.coordinates, programs.constraints};
  programKernel(e, layout, "mech_contacts", switches.contact, false);
  programKernel(e, layout, "mech_frictions", switches.friction, false);
  programKernel(e, layout, "mech_events_at", switches.eventFunctions, true);
  programKernel(e, layout, "mech_outputs_at", programs.outputs, true);
  programKernel(e, layout, "mech_resets", switches.resets, false);
  if (switches.switches > 0)
    programKernel(e, layout, "mech_switch_values", switches.switchValues, false);
}

} // namespace mech::jit
