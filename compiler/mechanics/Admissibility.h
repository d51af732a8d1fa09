// Whether the param values `mech solve` found can belong to a real
// mechanism. Signed lengths, angles and most params take any value, but a
// mass or moment of inertia of a particle or body cannot be negative, nor
// can the stiffness of a spring, and the kinetic energy cannot be negative
// for any velocity (a positive definite mass matrix). A solution that
// breaks one of these answers a question about no mechanism at all: the
// configuration is an equilibrium for no admissible value.
#pragma once

#include "mechanics/Lowering.h"
#include "mechanics/Statics.h"
#include "sema/Model.h"

#include <string>
#include <vector>

namespace mech::mechanics {

struct ImpossibleValue {
  // The unknowns (indices into the problem's unknowns) the quantity
  // depends on.
  std::vector<size_t> unknowns;
  // "the mass of particle 'P'", "the stiffness of the spring", or "the
  // kinetic energy" (then `direction` holds the velocity along which it is
  // negative and `value` is unused).
  std::string what;
  double value = 0;
  sema::DimInfo dim;
  std::string direction;
  Location location; // where the quantity is declared
};

// The quantities that the solution makes impossible, at the problem's
// configuration (at rest). The kinetic energy is blamed on the unknowns
// only when the model's own values keep it non-negative.
std::vector<ImpossibleValue> impossibleValues(const sema::CheckedModel &model,
                                              const Equations &equations, Lowering &lowering,
                                              const StaticsProblem &problem,
                                              const StaticsSolution &solution);

} // namespace mech::mechanics
