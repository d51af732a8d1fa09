// Kernels whose inputs follow a signal: each call reads the parameters with
// the inputs' entries replaced by their values at the call's t. The kernels
// themselves read inputs as parameters (sema::Param::input), so a model runs
// with its inputs driven without being compiled again.
#pragma once

#include "mechanics/Kernels.h"

#include <functional>
#include <memory>

namespace mech::mechanics {

// fill(t, x, p) writes the inputs' values at t into p (the whole parameter
// vector, `base->params` values). x is the state (q, q') of the call, for
// inputs that are functions of it (a controller's law given from Python);
// null where the call has none (the mass matrix, whose terms no input
// enters: inputs are forces).
using InputFill = std::function<void(double t, const double *x, double *p)>;

std::shared_ptr<Kernels> withInputs(std::shared_ptr<Kernels> base, InputFill fill);

} // namespace mech::mechanics
