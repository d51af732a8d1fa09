// The Jacobian dF/dx of a model's first-order system x' = F(t, x), x = (q, q'),
// F = (q', q''(t, q, q')), as the implicit integrators need it: exact, from
// the symbolic derivatives of the equations (Kernels::jacobianParts), never
// from finite differences. q'' is defined implicitly by the first-kind
// equations r = (f + C^T lambda - M q'', gamma - C q'') = 0, so
// [M, -C^T; C, 0] [dq''/dx; dlambda/dx] = dr/dx with q'' and lambda held.
#pragma once

#include "mechanics/Kernels.h"

#include <vector>

namespace mech::mechanics {

class StateJacobian {
public:
  explicit StateJacobian(Kernels &kernels);

  // J (2n x 2n, row-major) at (t, x) with params p. kStatusOk, the kernel's
  // status, or kStatusSingularMassMatrix when the first-kind matrix cannot
  // be solved with.
  int operator()(double t, const double *x, const double *p, double *J);

private:
  Kernels &kernels_;
  size_t n_, m_;
  std::vector<double> parts_;
};

} // namespace mech::mechanics
