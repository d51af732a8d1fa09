// Kane's (or Maggi's) equations of a constrained model, symbolically: the
// equations of motion in the independent speeds only, with the multipliers
// gone (`mech equations --minimal`).
//
// The velocity constraints are A(q,t) q' + a(q,t) = 0 (holonomic ones once
// differentiated: psi = C q' + dPhi/dt). Split q' into the independent
// speeds u and the dependent ones v: A_v v + A_u u + a = 0, so that
// v = -A_v^-1 (A_u u + a) (the kinematic equations) and q' = B u + b. The
// columns of B are the directions the constraints allow, on which the
// equations of the first kind project without their reactions (B^T C^T =
// 0): B^T (M q'' - f) = 0 with q'' = B u' + (d/dt B) u + d/dt b and q'
// replaced by B u + b, i.e. M_r u' = f_r with M_r = B^T M B and
// f_r = B^T (f - M (B' u + b')), everything in q, u and t.
#pragma once

#include "mechanics/Evaluation.h"
#include "mechanics/Lagrange.h"
#include "mechanics/Linearization.h"
#include "symbolic/SharedTerms.h"

#include <optional>
#include <vector>

namespace mech::mechanics {

struct MinimalEquations {
  // Indices into q of the independent speeds u and the dependent ones v.
  std::vector<size_t> independent, dependent;
  // Per dependent speed, its expression of q, u and t.
  std::vector<sym::Expr> kinematics;
  // The elimination's pivots that are not constants: the kinematic
  // equations (and so M_r, f_r) hold where none of them is zero.
  std::vector<sym::Expr> regularWhere;
  // M_r (independent x independent, symmetric, full) and f_r.
  std::vector<std::vector<sym::Expr>> Mr;
  std::vector<sym::Expr> fr;
  // The symbols of u' (the accelerations of the independent speeds).
  std::vector<sym::Expr> accelerations;
  // Per independent speed, M_r u' written out (the left-hand sides); in
  // display form, empty when M_r needed named subexpressions (then the
  // report writes M_r[a, b]*u_b'' instead).
  std::vector<sym::Expr> lhs;
  // Display only (readableMinimal): the named subexpressions x1, x2, ...
  // of large expressions, in dependency order.
  std::vector<sym::NamedSubexpression> where;
};

// The constraint Jacobian C (constraints x coordinates) at a state: what
// the choice of the dependent speeds pivots on.
Matrix constraintJacobianAt(const Equations &equations, const std::vector<double> &params,
                            const State &state);

// The minimal equations with the speeds `dependent` (one per constraint)
// dependent; `jacobian` is C at the state the choice was made at, which
// the elimination keeps its pivots regular at. Nullopt when the dependent
// block of C is singular there.
std::optional<MinimalEquations> minimalEquations(const Equations &equations,
                                                 const std::vector<size_t> &dependent,
                                                 const Matrix &jacobian);

// The same in display form (symbolic/Readable.h, with the size guard of
// symbolic/SharedTerms.h), as `simplified` is for Equations.
MinimalEquations readableMinimal(const MinimalEquations &minimal);

} // namespace mech::mechanics
