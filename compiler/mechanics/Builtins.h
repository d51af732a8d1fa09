// The value of a built-in function on symbolic arguments: the one
// implementation behind the lowering of a model (mechanics/Lowering) and the
// REPL's calculator. The arguments have shapes sema::builtinShape accepts.
#pragma once

#include "mechanics/Lowering.h"
#include "sema/Model.h"

#include <vector>

namespace mech::mechanics {

Tensor applyBuiltin(sym::Context &context, sema::Builtin builtin, const std::vector<Tensor> &args);

} // namespace mech::mechanics
