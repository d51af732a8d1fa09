// A rigid body's inertia about its centre of mass, from the inertia the
// model gives: as written, or shifted from a point P fixed in the body by
// the parallel-axis theorem, I_c = I_P − m(|d|²E − d dᵀ) with d = Rᵀ(P − r)
// the point's offset from the centre in body axes (J_c = J_P − m|d|² in the
// plane).
#pragma once

#include "mechanics/Lowering.h"
#include "sema/Model.h"
#include "support/Diagnostics.h"

#include <optional>

namespace mech::mechanics {

// The centroidal inertia (a scalar, or a 3x3 tensor in body axes). With
// `diagnostics`, a point that is not fixed in the body (d depends on the
// coordinates or t) is a located error and the result nullopt; without,
// the check is assumed done.
std::optional<Tensor> centroidalInertia(Lowering &lower, const sema::Body &body,
                                        Diagnostics *diagnostics = nullptr);

} // namespace mech::mechanics
