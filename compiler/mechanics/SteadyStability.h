// The stability of a steady motion (mechanics/SteadyMotion.h describes the
// criteria): Routh's reduction at fixed momenta for a model without
// constraints, the eigenvalues of the linearization without its structural
// zero states otherwise.
#pragma once

#include "mechanics/Lagrange.h"
#include "mechanics/Linearization.h"
#include "mechanics/StateMatrices.h"
#include "mechanics/SteadyMotion.h"

#include <optional>
#include <vector>

namespace mech::mechanics {

class SteadyStability {
public:
  // `routh`: the turning coordinates are cyclic and their momenta conserved.
  SteadyStability(const Equations &equations, const std::vector<double> &params,
                  const Linearizer &linearizer, std::vector<size_t> turning, bool routh);

  // Fills the verdict, its criterion, the eigenvalues and frequencies.
  void classify(SteadyMotion &motion);

private:
  void reduceByRouth(SteadyMotion &motion);
  void dropStructuralZeros(SteadyMotion &motion);
  // The verdict from the eigenvalues of the reduced linearization.
  void decideByEigenvalues(SteadyMotion &motion, const std::string &context);

  const Equations &equations_;
  std::vector<double> params_;
  std::vector<size_t> turning_;
  bool holonomic_, routh_;
  const Linearizer &linearizer_;          // the finder's: M, K, D for Routh's reduction
  std::optional<StateMatrices> matrices_; // with constraints: A in independent coordinates
};

} // namespace mech::mechanics
