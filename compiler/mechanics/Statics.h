// Statics by virtual work (`mech solve`): the values of chosen params that
// make a given configuration q* an equilibrium. At rest (q' = 0) the
// configuration balances when the generalized forces vanish, f(q*, 0; P) = 0,
// or, with constraints, when f + C^T lambda = 0 for some multipliers: the
// part of f in the null space of C (the directions the constraints allow,
// i.e. the virtual displacements) vanishes, and lambda is the support
// reaction. The unknowns enter f nonlinearly in general, so the equations
// are solved by Gauss-Newton with the Jacobian df/dP derived symbolically;
// counts that differ are handled by least squares.
#pragma once

#include "mechanics/Evaluation.h"
#include "mechanics/Lagrange.h"
#include "support/Diagnostics.h"

#include <optional>
#include <string>
#include <vector>

namespace mech::mechanics {

struct StaticsProblem {
  std::vector<double> params;   // values of all params (the unknowns' start values)
  std::vector<size_t> unknowns; // indices into params
  State state;                  // q*, t (velocities are ignored: at rest)
};

struct StaticsSolution {
  enum class Determined { Exactly, Under, Over };
  std::vector<double> values; // per unknown
  std::vector<double> lambda; // per constraint: the static reactions
  // The generalized reaction C^T lambda, per coordinate.
  std::vector<double> reaction;
  // |N^T f|: the part of the generalized force the constraints cannot take.
  double residual = 0;
  // f + C^T lambda per coordinate (f without constraints): what is left
  // unbalanced on each coordinate's equilibrium condition.
  std::vector<double> imbalance;
  // The size of the forces involved, against which the residual is judged.
  double forceScale = 0;
  bool balanced = false; // residual ~ 0
  Determined determined = Determined::Exactly;
  size_t equations = 0; // n - m equilibrium conditions
  size_t rank = 0;      // independent conditions on the unknowns
  // Unit vectors in the space of the unknowns along which the equilibrium
  // does not change (under-determined only).
  std::vector<std::vector<double>> freeDirections;
  // Unknowns (indices into the problem's unknowns) that do not act on the
  // balance at q*: under-determined, and left at their given values.
  std::vector<size_t> inert;
  int iterations = 0;
  bool converged = false;
  double constraintResidual = 0; // max |Phi| of the holonomic constraints at q*
  // A note when the constraints are redundant at q* (only C^T lambda is
  // determined; lambda is the least-norm split), else "".
  std::string redundantNote;
};

const char *determinedName(StaticsSolution::Determined determined);

// Solves the problem; `paramSymbols` are the lowering's param symbols (by
// param index). Reports at `where` and returns nullopt when the question
// cannot be asked: an unknown that shapes a constraint, a configuration off
// the constraints, redundant constraints.
std::optional<StaticsSolution> solveStatics(const Equations &equations,
                                            const std::vector<sym::Expr> &paramSymbols,
                                            const std::vector<std::string> &paramNames,
                                            const StaticsProblem &problem, Diagnostics &diagnostics,
                                            Location where = {});

} // namespace mech::mechanics
