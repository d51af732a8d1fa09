// SI unit names of values (UnitText.h).
#include "driver/UnitText.h"

namespace mech::driver {

std::string siUnitText(const std::optional<sema::DeclaredUnit> &declared,
                       const sema::DimInfo &dim) {
  // The values are SI, so a declared unit of another scale (g, deg, km/h)
  // would misname them; its dimension names them instead.
  if (declared && declared->scale == 1 && declared->text != "1")
    return declared->text;
  if (!dim.isKnown() || dim.dimension.isDimensionless())
    return "";
  return dim.dimension.toString();
}

} // namespace mech::driver
