// Q^nc + dD/dq' checked symbolically: no velocity, time or multiplier, and
// every pair of cross derivatives equal by the exact zero test.
#include "mechanics/PositionalForces.h"

#include "symbolic/Diff.h"
#include "symbolic/ZeroTest.h"

namespace mech::mechanics {

PositionalForces positionalForces(const Equations &eq) {
  PositionalForces result;
  size_t n = eq.coordinates.size();
  sym::Context &context = eq.T.context();
  std::vector<sym::Differentiator> byQ;
  std::vector<sym::Expr> rest(n);
  for (size_t k = 0; k < n; ++k) {
    auto c = context.coordinate(eq.coordinates[k], static_cast<int>(k));
    byQ.push_back(sym::partial(c.q));
    // Q^nc holds -dD/dq', which Lagrange-Dirichlet treats on its own.
    rest[k] = eq.Qnc[k] + sym::partial(c.qd)(eq.D);
  }
  std::vector<bool> zero = sym::areIdenticallyZero(rest);
  std::string names;
  for (size_t k = 0; k < n; ++k) {
    if (zero[k])
      continue;
    if (rest[k].has(sym::kHasVelocity | sym::kHasAcceleration | sym::kHasTime |
                    sym::kHasMultiplier))
      return result;
    names += (names.empty() ? "" : ", ") + eq.coordinates[k];
  }
  if (names.empty())
    return result;
  std::vector<sym::Expr> asymmetry;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j)
      asymmetry.push_back(byQ[j](rest[i]) - byQ[i](rest[j]));
  for (bool symmetric : sym::areIdenticallyZero(asymmetry))
    if (!symmetric)
      return result; // circulatory: the eigenvalues of A decide
  result.conservative = true;
  result.note = "the forces on " + names +
                " depend on the coordinates only and have a symmetric Jacobian: near the "
                "equilibrium they are the gradient of a potential (a line integral, not "
                "necessarily periodic in an angle), which W includes";
  return result;
}

} // namespace mech::mechanics
