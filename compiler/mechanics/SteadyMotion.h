// Steady motions (`mech steady`): motions in which some coordinates turn at
// constant rates while the others stay put, and their stability.
//
// The turning coordinates R are the cyclic ones of a holonomic model (each at
// a given rate, or at the rate that gives a given momentum, or at rest), or
// those the user names for a model with velocity constraints (a coin rolling
// upright turns its spin). The other coordinates keep q' = 0, except the
// dependent ones whose speeds the velocity constraints fix (the contact
// point of the coin). A state is steady when every acceleration but the
// dependent ones' vanishes, the holonomic constraints hold and the given
// momenta are met: a Gauss-Newton search (minimum-norm steps, so that a
// family of solutions is left where it is found) runs from Halton start
// points in a box, and coordinates the conditions do not fix are reported as
// arbitrary.
//
// Stability: for a holonomic model the perturbations keep the momenta of the
// cyclic coordinates (Routh's reduction): A is restricted to dp = 0, exactly,
// from the mass matrix and A itself, which leaves M~ dr'' + G dr' + K_mu dr =
// 0 in the other coordinates, K_mu the Hessian of the amended potential
// V - T0 + 1/2 (p - b)^T I^-1 (p - b). K_mu positive definite decides
// "stable" (Routh) for a conservative model; otherwise the eigenvalues of the
// reduced linearization decide. With velocity constraints, the eigenvalues
// of A in independent coordinates and speeds without its structural zero
// states (ignorable coordinates) decide. A conservative reduced system is
// never called asymptotically stable: on the imaginary axis it is
// "linearly stable (neutral), nonlinear stability undecided".
#pragma once

#include "mechanics/Conservation.h"
#include "mechanics/Equilibria.h"
#include "mechanics/Evaluation.h"
#include "mechanics/Lagrange.h"
#include "mechanics/Linearization.h"

#include <complex>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mech::mechanics {

struct SteadyRequest {
  std::vector<size_t> turning;              // R, indices into q
  std::vector<std::optional<double>> rates; // per R: given, or nullopt
  std::vector<double> momenta;              // per R: the momentum when the rate is nullopt
  Box box;                                  // for the positions searched
  State base;                               // positions of R and of what is not searched; t
  size_t maxStarts = 64;
  std::function<bool()> cancelled;
};

// Per coordinate, what its position does: nothing that decides the motion
// depends on it (ignorable: not searched, its speed preferred as a
// dependent one), or only the constraints do (dynamicsFree: a heading).
struct PositionRoles {
  std::vector<bool> ignorable, dynamicsFree;
};

enum class SteadyVerdict { Stable, AsymptoticallyStable, Neutral, Unstable, Undetermined };

struct SteadyMotion {
  State state;
  // Per coordinate: its position is not fixed by the conditions (an
  // ignorable coordinate, one along a family, or a turning one).
  std::vector<bool> arbitrary;
  std::vector<size_t> dependentSpeeds;         // fixed by the velocity constraints
  std::vector<std::optional<double>> momentum; // per R, where it is conserved
  SteadyVerdict verdict = SteadyVerdict::Undetermined;
  std::string criterion;
  std::vector<double> amendedHessian; // eigenvalues of K_mu, ascending (Routh)
  std::vector<std::string> reducedStates;
  std::vector<std::complex<double>> eigenvalues; // of the reduced linearization
  std::vector<double> frequencies;               // of small oscillations about it, ascending
  std::vector<std::string> notes;
};

std::string verdictText(SteadyVerdict verdict);

class SteadyMotionFinder {
public:
  SteadyMotionFinder(const Equations &equations, std::vector<double> params);

  // The coordinates that may turn: for a holonomic model its cyclic ones
  // (empty when it has none), for one with velocity constraints every one.
  bool velocityConstraints() const { return velocityConstraints_; }
  const std::vector<size_t> &cyclic() const { return cyclic_; }
  // Per coordinate: its position enters nothing that decides the motion
  // (M, f, Q^nc, the constraints), so it is not searched.
  const std::vector<bool> &ignorable() const { return roles_.ignorable; }
  // Why coordinate j may not turn ("" when it may), for the message.
  std::string whyNotTurning(size_t j) const;

  // The steady motions in the request's box, classified. Fails (nullopt,
  // `error` set) only on a request it cannot serve.
  std::optional<std::vector<SteadyMotion>> find(const SteadyRequest &request, std::string &error);

private:
  const Equations &equations_;
  std::vector<double> params_;
  bool velocityConstraints_ = false;
  std::vector<size_t> cyclic_;
  PositionRoles roles_;
  Linearizer linearizer_;                    // C and psi for the dependent speeds
  std::optional<Conservation> conservation_; // without velocity constraints
};

} // namespace mech::mechanics
