// First integrals decided symbolically from the derived equations (`mech
// conserved`, and the drift lines of `mech simulate`'s summary):
//   - cyclic coordinates: q_j absent from L (dL/dq_j simplifies to 0),
//     Q_j^nc = 0 and a zero column j in every constraint's C; each conserves
//     its momentum p_j = dL/dq_j';
//   - the energy (Jacobi) integral h = sum q_j' dL/dq_j' - L = T2 - T0 + V,
//     conserved when L has no explicit t, Q^nc does no work (sum Q_j^nc q_j'
//     simplifies to 0) and the constraint forces do no work (no constraint
//     has a velocity-free part in psi, i.e. none moves with t); h = T + V
//     when T1 = T0 = 0.
// The decisions are only as strong as the simplifier: an identity it cannot
// see makes a quantity missed, never wrongly claimed.
#pragma once

#include "mechanics/Evaluation.h"
#include "mechanics/Lagrange.h"
#include "symbolic/Program.h"

#include <string>
#include <vector>

namespace mech::mechanics {

struct CyclicCoordinate {
  size_t index = 0;
  std::string coordinate;
  sym::Expr momentum; // dL/dq_j', simplified for printing
};

struct Conservation {
  std::vector<CyclicCoordinate> cyclic;
  // For every coordinate that is not cyclic, why not (for a student to read).
  std::vector<std::pair<std::string, std::string>> notCyclic;
  sym::Expr energyIntegral;                  // T2 - T0 + V simplified; null when there is none
  std::vector<std::string> noEnergyIntegral; // why there is none
  bool energyIsTPlusV = false;               // an energy integral with T1 = T0 = 0
  sym::Expr T2, T1, T0;                      // simplified
};

// Decides the cyclic coordinates and the energy integral of `equations`
// (as derived; they need not be simplified). `forReading` simplifies the
// expressions for printing and lets the simplifier decide first; without it
// (a simulation's summary) the decisions are numeric (random points) and
// nothing is simplified, which keeps large models fast.
Conservation findConserved(const Equations &equations, bool forReading = true);

// The conserved quantities by name: p_<coordinate> for each cyclic
// coordinate, then h for the energy integral.
struct ConservedQuantity {
  std::string name;
  sym::Expr value;
};
std::vector<ConservedQuantity> conservedQuantities(const Conservation &conservation);

// Numeric values of the conserved quantities at a state x = (q, q'), with a
// scale per quantity: the sum of the magnitudes of its additive terms
// (expanded, unless the quantity is too large to expand), the size against
// which a drift is judged when the value itself passes near 0.
class ConservedEvaluator {
public:
  ConservedEvaluator(const Equations &equations, const Conservation &conservation,
                     std::vector<double> params);

  const std::vector<std::string> &names() const { return names_; }
  size_t size() const { return names_.size(); }
  // Writes size() values and size() scales.
  void evaluate(double t, const double *x, double *values, double *scales);

private:
  std::vector<std::string> names_;
  std::vector<size_t> termCounts_; // per quantity, the number of its additive terms
  InputLayout layout_;
  sym::Program program_; // the values, then every additive term of each quantity
  std::vector<double> inputs_, outputs_, scratch_;
};

} // namespace mech::mechanics
