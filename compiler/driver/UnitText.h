// The unit a value is listed in where mech hands out SI values (a built
// library's header, an FMU's model description): one function, so that
// both name a quantity's unit the same way.
#pragma once

#include "sema/Dimension.h"
#include "sema/Model.h"

#include <optional>
#include <string>

namespace mech::driver {

// A declared unit as written when it is an SI unit (scale 1: N/m, rad),
// else the dimension in base units (g -> kg); "" when the value is
// dimensionless or unchecked.
std::string siUnitText(const std::optional<sema::DeclaredUnit> &declared, const sema::DimInfo &dim);

} // namespace mech::driver
