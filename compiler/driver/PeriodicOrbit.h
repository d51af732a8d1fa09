// Periodic motions as fixed points of a return map (driver/PeriodicMap.h):
// Newton's method on P(x) - x = 0 with dP/dx from the variational
// equations, the Floquet multipliers (the eigenvalues of dP/dx, the
// structural ones dropped) and the stability they decide; and their
// continuation in a param, with the values where stability changes
// located by bisection. A conservative model's periodic motions come in
// families (a multiplier 1, so Newton's matrix is singular): the request
// picks a member by its energy or by one state component held fixed.
#pragma once

#include "driver/PeriodicMap.h"

#include <complex>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mech::driver {

struct PeriodicRequest {
  std::vector<double> guess; // the state at the start of a period
  // A family's member: its energy T + V, or the state component (q, then
  // q') held at the guess's value.
  std::optional<double> energy;
  std::optional<size_t> fixed;
  double tolerance = 1e-10; // |P(x) - x| <= tolerance max(1, |x|)
  int maxIterations = 40;
};

enum class OrbitVerdict { Stable, LinearlyStable, Unstable, Undetermined };
std::string verdictText(OrbitVerdict verdict);

struct PeriodicOrbit {
  std::vector<double> start; // the fixed point: the state at the start of a period
  ReturnMapValue map;        // P at it: the state before the section's resets, the period
  // The Floquet multipliers left when the structural ones are dropped, by
  // modulus, largest first; what was dropped and why.
  std::vector<std::complex<double>> multipliers;
  std::vector<std::string> dropped;
  OrbitVerdict verdict = OrbitVerdict::Undetermined;
  std::string criterion;
  int iterations = 0;
  double residual = 0; // |P(x) - x| / max(1, |x|) at the fixed point
  double energy = 0;   // T + V at the start
  bool family = false; // a member of a family (energy or a component fixed)
};

// Newton's method from the request's guess; nullopt with `error` when the
// motion does not come back, Newton's method stalls, or the request does
// not fit the model (a family without --energy or --fix, or one of them
// for an isolated orbit).
std::optional<PeriodicOrbit> findPeriodicOrbit(ReturnMap &map, const PeriodicRequest &request,
                                               std::string &error);

// The largest modulus among the multipliers (0 for none).
double largestModulus(const PeriodicOrbit &orbit);

// A continuation in a param: `paramsAt(v)` gives the model's param values
// with the swept one at v.
struct BranchChange {
  double at = 0;
  bool losesStability = true; // as the param grows
  // How: "period doubling" (a real multiplier through -1), "through +1"
  // (a real one through +1: a fold, pitchfork or transcritical, or a
  // conservative pair meeting there), "Neimark-Sacker" (a complex pair).
  std::string kind;
  std::complex<double> multiplier;
};

struct Branch {
  std::vector<double> values;
  std::vector<PeriodicOrbit> orbits;
  std::vector<BranchChange> changes;
  std::string lost; // why the branch was not followed to the end ("" when it was)
  // Where a lost branch ends, bisected to 1e-8 relative between the last
  // value found and the first not: the last motion found there, and its
  // multiplier nearest +1 (a fold: the motion meets another and both end).
  std::optional<double> endsAt;
  std::optional<PeriodicOrbit> endOrbit;
  std::complex<double> endMultiplier;
  std::optional<double> interruptedAt; // the value where Ctrl-C (in the REPL) stopped it
};

// Leaves the map (and whatever paramsAt changes) at the last value tried:
// the caller restores them.
Branch continueBranch(ReturnMap &map, PeriodicRequest request,
                      const std::function<std::vector<double>(double)> &paramsAt,
                      const std::vector<double> &values);

} // namespace mech::driver
