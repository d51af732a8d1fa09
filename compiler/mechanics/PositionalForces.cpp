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
  for (size_t k = 0; k < n; ++k)
    if (!zero[k]) {
      result.present = true;
      names += (names.empty() ? "" : ", ") + eq.coordinates[k];
      if (rest[k].has(sym::kHasVelocity | sym::kHasAcceleration | sym::kHasTime |
                      sym::kHasMultiplier)) {
        result.note = "the non-potential force on " + eq.coordinates[k] +
                      " depends on velocities or t: the Lagrange-Dirichlet test does not apply";
        return result;
      }
    }
  if (!result.present)
    return result;
  std::vector<sym::Expr> asymmetry;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j)
      asymmetry.push_back(byQ[j](rest[i]) - byQ[i](rest[j]));
  std::vector<bool> symmetric = sym::areIdenticallyZero(asymmetry);
  for (size_t i = 0, k = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j, ++k)
      if (!symmetric[k]) {
        result.note = "the non-potential forces are circulatory (dQ_" + eq.coordinates[i] + "/d" +
                      eq.coordinates[j] + " differs from dQ_" + eq.coordinates[j] + "/d" +
                      eq.coordinates[i] + "): no potential, the eigenvalues of A decide";
        return result;
      }
  result.conservative = true;
  result.note = "the forces on " + names +
                " depend on the coordinates only and have a symmetric Jacobian: near the "
                "equilibrium they are the gradient of a potential (a line integral, not "
                "necessarily periodic in an angle), which W includes";
  return result;
}

} // namespace mech::mechanics
