// Where a uniform grid meets its end point.
#include "runtime/TimeGrid.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace mech::runtime {

namespace {

// Beyond this many intervals k·d no longer holds every integer k exactly.
constexpr double kMaxIntervals = 1e15;

} // namespace

bool TimeGrid::fits(double t0, double tEnd, double spacing) {
  return spacing > 0 && std::isfinite(spacing) && std::abs(tEnd - t0) / spacing <= kMaxIntervals;
}

TimeGrid::TimeGrid(double t0, double tEnd, double spacing)
    : t0_(t0), tEnd_(tEnd), spacing_(spacing), direction_(tEnd >= t0 ? 1.0 : -1.0) {
  if (!(spacing > 0) || !std::isfinite(spacing))
    throw std::invalid_argument("the grid spacing must be positive");
  double intervals = std::abs(tEnd - t0) / spacing;
  if (!(intervals <= kMaxIntervals))
    throw std::invalid_argument("the spacing is too small for the time span");
  if (t0 == tEnd)
    return;
  // A point closer to tEnd than this is tEnd itself, up to rounding: sampling
  // both would give two nearly equal times at the end.
  double slack = std::max(1e-9 * spacing, 8 * std::numeric_limits<double>::epsilon() *
                                              std::max(std::abs(t0), std::abs(tEnd)));
  auto reachesEnd = [&](long k) { return direction_ * (point(k) - tEnd) >= -slack; };
  // last_ is the first index that reaches the end; t0 itself never does.
  long k = std::max(1L, static_cast<long>(intervals));
  while (!reachesEnd(k))
    ++k;
  while (k > 1 && reachesEnd(k - 1))
    --k;
  last_ = k;
}

void TimeGrid::skipThrough(double t) {
  if (done())
    return;
  // Near the point, then exactly: k d is computed as the walk computes it.
  double ahead = direction_ * (t - t0_) / spacing_;
  if (ahead > 1) {
    auto k = static_cast<long>(std::min(ahead, static_cast<double>(last_))) - 1;
    k_ = std::max(k_, k);
  }
  while (dueBy(t))
    advance();
}

} // namespace mech::runtime
