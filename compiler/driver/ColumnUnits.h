// The unit of each column of a simulation's samples, for the legends and
// axes of its plots.
#pragma once

#include "mechanics/Lagrange.h"
#include "sema/Model.h"

#include <string>
#include <vector>

namespace mech::driver {

// In csvColumns' order: a coordinate's declared unit (or its dimension in SI
// units), a velocity's per second, a multiplier's as mech's reports give
// it (N, N*m), an output's (N, J, W, else base units); "" for a
// dimensionless column or one the model leaves unchecked.
std::vector<std::string> columnUnits(const sema::CheckedModel &model,
                                     const mechanics::Equations &eq);

} // namespace mech::driver
