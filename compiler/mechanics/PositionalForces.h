// Non-conservative forces that are conservative after all: a generalized
// force (less the dissipation's -dD/dq') that depends on the coordinates
// only, with a symmetric Jacobian dQ_i/dq_j = dQ_j/dq_i, is near any
// configuration the gradient of a potential (its line integral), so the
// Lagrange-Dirichlet theorem applies to W minus that potential. A constant
// torque tau is the gradient of tau*theta: not periodic in theta, which a
// local analysis does not need.
#pragma once

#include "mechanics/Lagrange.h"

#include <string>

namespace mech::mechanics {

struct PositionalForces {
  bool conservative = false; // present, positional and with a symmetric Jacobian
  std::string note;          // with conservative: the forces named, and why
};

PositionalForces positionalForces(const Equations &equations);

} // namespace mech::mechanics
