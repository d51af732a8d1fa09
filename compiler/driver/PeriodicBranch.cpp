// The continuation of a periodic motion in a param (driver/PeriodicOrbit.h):
// each value's fixed point corrected by Newton from a secant predictor
// through the two before it; where the largest multiplier's modulus crosses
// 1 between neighbours, the crossing bisected to 1e-8 relative.
#include "driver/PeriodicOrbit.h"

#include "driver/AnalysisText.h"
#include "driver/Interrupt.h"

#include <algorithm>
#include <cmath>

namespace mech::driver {

namespace {

constexpr double kBisectionTolerance = 1e-8;

// The orbit at param value v from `guess`; nullopt with `error`.
std::optional<PeriodicOrbit> orbitAt(ReturnMap &map, PeriodicRequest request,
                                     const std::vector<double> &guess, double v,
                                     const std::function<std::vector<double>(double)> &paramsAt,
                                     std::string &error) {
  map.setParams(paramsAt(v));
  request.guess = guess;
  return findPeriodicOrbit(map, request, error);
}

// Whether a multiplier lies outside the unit circle (beyond the band that
// rounding may put one there that belongs on it).
bool unstable(const PeriodicOrbit &orbit) {
  return largestModulus(orbit) > 1 + 1e-6;
}

std::vector<double> blend(const std::vector<double> &a, const std::vector<double> &b, double s) {
  std::vector<double> out(a.size());
  for (size_t i = 0; i < a.size(); ++i)
    out[i] = a[i] + s * (b[i] - a[i]);
  return out;
}

// Bisects the change of stability between (va, a) and (vb, b).
std::optional<BranchChange>
locateChange(ReturnMap &map, const PeriodicRequest &request, double va, const PeriodicOrbit &a,
             double vb, const PeriodicOrbit &b,
             const std::function<std::vector<double>(double)> &paramsAt) {
  const bool unstableA = unstable(a);
  // Where the stable side's multipliers lie inside the circle (not on it,
  // as a conservative map's do), the modulus itself decides the side: no
  // band's bias in the located value.
  const double stableModulus = largestModulus(unstableA ? b : a);
  auto outsideAt = [&](const PeriodicOrbit &o) {
    return stableModulus < 1 - 1e-6 ? largestModulus(o) > 1 : unstable(o);
  };
  PeriodicOrbit left = a, right = b;
  double lo = va, hi = vb;
  while (std::abs(hi - lo) > kBisectionTolerance * std::max({std::abs(lo), std::abs(hi), 1e-300})) {
    double mid = lo + (hi - lo) / 2;
    std::string error;
    auto orbit = orbitAt(map, request, blend(left.start, right.start, 0.5), mid, paramsAt, error);
    if (!orbit)
      return std::nullopt;
    if (outsideAt(*orbit) == unstableA)
      lo = mid, left = std::move(*orbit);
    else
      hi = mid, right = std::move(*orbit);
  }
  BranchChange change;
  change.at = lo + (hi - lo) / 2;
  change.losesStability = !unstableA;
  // The multiplier that crossed: the unstable side's largest.
  const PeriodicOrbit &outside = unstableA ? left : right;
  change.multiplier = outside.multipliers.front();
  bool complexPair = std::abs(change.multiplier.imag()) > 1e-6 * std::abs(change.multiplier);
  change.kind = complexPair                    ? "Neimark-Sacker"
                : change.multiplier.real() < 0 ? "period doubling"
                                               : "through +1";
  return change;
}

// Bisects the end of a branch found at `found` (orbit `last`) and lost at
// `lost`: the last value whose motion Newton's method still finds from
// the nearest one found.
void locateEnd(ReturnMap &map, const PeriodicRequest &request, double found, PeriodicOrbit last,
               double lost, const std::function<std::vector<double>(double)> &paramsAt,
               Branch &branch) {
  double lo = found, hi = lost;
  while (std::abs(hi - lo) > kBisectionTolerance * std::max({std::abs(lo), std::abs(hi), 1e-300})) {
    if (interruptRequested())
      return;
    double mid = lo + (hi - lo) / 2;
    std::string error;
    auto orbit = orbitAt(map, request, last.start, mid, paramsAt, error);
    if (orbit)
      lo = mid, last = std::move(*orbit);
    else
      hi = mid;
  }
  branch.endsAt = lo;
  auto nearest =
      std::min_element(last.multipliers.begin(), last.multipliers.end(),
                       [](auto a, auto b) { return std::abs(a - 1.0) < std::abs(b - 1.0); });
  if (nearest != last.multipliers.end())
    branch.endMultiplier = *nearest;
  branch.endOrbit = std::move(last);
}

} // namespace

Branch continueBranch(ReturnMap &map, PeriodicRequest request,
                      const std::function<std::vector<double>(double)> &paramsAt,
                      const std::vector<double> &values) {
  Branch branch;
  std::vector<double> guess = request.guess;
  for (size_t k = 0; k < values.size(); ++k) {
    const double v = values[k];
    if (interruptRequested()) {
      branch.interruptedAt = v;
      break;
    }
    const size_t found = branch.orbits.size();
    if (found >= 2) {
      // The secant through the last two fixed points.
      double s =
          (v - branch.values[found - 1]) / (branch.values[found - 1] - branch.values[found - 2]);
      guess = blend(branch.orbits[found - 2].start, branch.orbits[found - 1].start, 1 + s);
    } else if (found == 1) {
      guess = branch.orbits[0].start;
    }
    std::string error;
    auto orbit = orbitAt(map, request, guess, v, paramsAt, error);
    if (!orbit && found >= 2) // the predictor overshot: correct from the last point
      orbit = orbitAt(map, request, branch.orbits[found - 1].start, v, paramsAt, error);
    if (!orbit && interruptRequested())
      branch.interruptedAt = v;
    else if (!orbit)
      branch.lost = "at " + analysis_text::number(v) + ": " + error;
    if (!orbit)
      break;
    branch.values.push_back(v);
    branch.orbits.push_back(std::move(*orbit));
  }
  if (!branch.lost.empty() && !branch.orbits.empty() && branch.values.size() < values.size())
    locateEnd(map, request, branch.values.back(), branch.orbits.back(),
              values[branch.values.size()], paramsAt, branch);
  for (size_t k = 1; k < branch.orbits.size() && !branch.interruptedAt; ++k) {
    if (unstable(branch.orbits[k - 1]) == unstable(branch.orbits[k]))
      continue;
    if (auto change = locateChange(map, request, branch.values[k - 1], branch.orbits[k - 1],
                                   branch.values[k], branch.orbits[k], paramsAt))
      branch.changes.push_back(*change);
  }
  return branch;
}

} // namespace mech::driver
