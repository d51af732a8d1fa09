// Equilibria and their stability (`mech equilibria`). States of rest solve
// f(q, 0) = 0, or with holonomic constraints f + C^T lambda = 0, Phi = 0;
// Newton's method with the symbolic Jacobian runs from deterministic Halton
// start points in a box, and the solutions are merged (angles modulo 2 pi).
// A solution whose Jacobian stays singular along a coordinate axis, with f
// still zero away from it, is a continuous family: that coordinate is
// reported as arbitrary. Stability follows Lagrange-Dirichlet on the Hessian
// of W = V - T0 (reduced to the constraint tangent space, with the
// -lambda.Hessian(Phi) term) when it applies, and the eigenvalues of the
// linearized system otherwise; each result names the criterion used.
#pragma once

#include "mechanics/Linearization.h"
#include "mechanics/PositionalForces.h"
#include "support/Diagnostics.h"

#include <complex>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mech::mechanics {

// Coordinates with a known dimensionless dimension ([rad], [deg], [rev], [1])
// count as angles: their equilibria repeat every 2 pi.
std::vector<bool> angleCoordinates(const Equations &equations);

// Default search box: [-pi, pi] for angles, [-kDefaultHalfWidth,
// kDefaultHalfWidth] (SI units) for the others.
inline constexpr double kDefaultHalfWidth = 10;
struct Box {
  std::vector<double> lo, hi;
};
Box defaultBox(const Equations &equations);

struct Equilibrium {
  std::vector<double> q, lambda;
  std::vector<bool> arbitrary; // per coordinate: free along a family
  std::optional<bool> stable;  // nullopt: undetermined
  bool asymptotic = false;     // all eigenvalues of A in the left half-plane
  std::string criterion;
  std::vector<double> hessianEigenvalues; // of W (reduced), ascending
  // Small oscillations (stable equilibria). Without damping, gyroscopic or
  // circulatory forces: the normal modes, omega ascending, shapes in the
  // coordinates with the largest component +1. With them: one per complex
  // pair of A's eigenvalues (by |lambda|), omega = Im lambda (the damped
  // frequency), naturalFrequencies |lambda|, dampingRatios -Re/|lambda|, no
  // shapes (the modes are complex).
  std::vector<double> frequencies, naturalFrequencies, dampingRatios;
  Matrix modes;
  // Eigenvalues of A on the constraints' tangent space with the family's
  // arbitrary coordinates free (the system as it moves), by modulus; the
  // first familyZeros of them are zeros that belong to the family (its
  // coordinates drift or stay put), not to oscillations.
  std::vector<std::complex<double>> eigenvalues;
  size_t familyZeros = 0;
  std::vector<std::string> notes; // e.g. redundant constraints
};

struct EquilibriaOptions {
  Box box;
  double t = 0;
  // The state whose values the integrable velocity constraints keep (the
  // model's init): their constant. Empty: each keeps the start's.
  std::vector<double> reference;
  size_t maxStarts = 2048;
  // Asked between start points; true stops the search with what it found
  // and a warning (Ctrl-C in the REPL). Never asked when empty.
  std::function<bool()> cancelled;
};

// Reports (at `where`) and returns nullopt when the model cannot be asked:
// nonholonomic constraints.
std::optional<std::vector<Equilibrium>> findEquilibria(const Linearizer &linearizer,
                                                       const EquilibriaOptions &options,
                                                       Diagnostics &diagnostics,
                                                       Location where = {});

// Stability and small oscillations at an equilibrium (q, lambda), with the
// equations' positional forces as positionalForces() found them.
void classify(const Linearizer &linearizer, double t, Equilibrium &equilibrium,
              const PositionalForces &positional);

// Whether f depends on t for the search: L or the constraints (as the
// derivation decides), or the non-potential forces (a driving torque).
bool dependsOnTime(const Equations &equations);

} // namespace mech::mechanics
