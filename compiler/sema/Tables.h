// The numbers behind a table's interpolant (sema/Model.h Table), shared by
// its numeric value and the symbolic one the kernels compute
// (mechanics/TableLaws.h).
#pragma once

#include "sema/Model.h"

#include <vector>

namespace mech::sema {

// The slope at each row: the monotone cubic's (PCHIP, as SciPy's
// PchipInterpolator), or for a linear table each row's segment's (the last
// row the last segment's), which linear extrapolation continues.
std::vector<double> knotSlopes(const Table &table);

} // namespace mech::sema
