// Kernels whose inputs follow a signal: each call reads the parameters with
// the inputs' entries replaced by their values at the call's t. The kernels
// themselves read inputs as parameters (sema::Param::input), so a model runs
// with its inputs driven without being compiled again.
#pragma once

#include "mechanics/Kernels.h"

#include <functional>
#include <memory>

namespace mech::mechanics {

// fill(t, p) writes the inputs' values at t into p (the whole parameter
// vector, `base->params` values).
using InputFill = std::function<void(double t, double *p)>;

std::shared_ptr<Kernels> withInputs(std::shared_ptr<Kernels> base, InputFill fill);

} // namespace mech::mechanics
