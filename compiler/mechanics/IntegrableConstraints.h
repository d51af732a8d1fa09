// Velocity constraints that are time derivatives: a(q, t)·q' + b(q, t) = 0
// is d/dt Φ(q, t) = 0 when it is an exact form (∂a_i/∂q_j = ∂a_j/∂q_i and
// ∂a_i/∂t = ∂b/∂q_i), so it keeps Φ at its value at the start: a holonomic
// constraint Φ = Φ(q0, t0) in disguise, such as rolling along a line,
// s' == r*phi'. Forms that are exact only after multiplying by a factor are
// not recognised and stay nonholonomic.
#pragma once

#include "mechanics/Evaluation.h"
#include "mechanics/Lagrange.h"
#include "symbolic/Program.h"

#include <optional>
#include <string>
#include <vector>

namespace mech::mechanics {

// Whether the velocity constraint k is an exact form (decided by the
// symbolic zero test on its coefficients). False for holonomic constraints.
bool isExactForm(const Equations &eq, const Equations::Constraint &k);

// For constant coefficients, sum a_j q_j' + b = 0 with constant a_j and b,
// the function whose time derivative it is, sum a_j q_j + b t; nullopt for
// any other constraint (exact forms with varying coefficients are
// recognised, but their Φ is not integrated here).
std::optional<sym::Expr> integratedForm(const Equations &eq, const Equations::Constraint &k);

// Whether the velocity constraint has a part without velocities (b != 0):
// then rest does not satisfy it, except where b happens to vanish.
bool demandsMotion(const Equations &eq, const Equations::Constraint &k);

// What mech says of an integrable constraint: "'roll' integrates to
// x - R*phi = const (its value at the start)", or, when Φ is not written
// out, that it is an exact form.
std::string integrableNote(const Equations &eq, const Equations::Constraint &k);

// Phi(q, t) - Phi(q0, t) of the integrable constraints whose integral is
// not written out: the line integral of their coefficients a(q, t) along
// the segment from q0 to q (any path gives the same for an exact form), by
// Gauss-Legendre quadrature of 24 points, exact to the rounding for
// polynomials of degree 47 and converging geometrically for analytic a.
class LevelSets {
public:
  LevelSets(const Equations &equations, std::vector<double> params);
  bool empty() const { return rows_.empty(); }
  // One value per constraint of the model (0 for the others).
  std::vector<double> difference(const std::vector<double> &q, const std::vector<double> &q0,
                                 double t) const;

private:
  size_t n_ = 0, m_ = 0;
  std::vector<size_t> rows_; // the constraints integrated here
  std::vector<double> params_;
  InputLayout layout_;
  sym::Program coefficients_; // a_j of each row, row by row
};

} // namespace mech::mechanics
