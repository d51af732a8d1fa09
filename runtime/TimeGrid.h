// A uniform grid of times t0, t0 ± d, t0 ± 2d, ... that always ends exactly at
// tEnd, even when (tEnd - t0)/d is not an integer. The output samples and
// RK4's fixed steps both walk one. Points are computed as t0 ± k·d, never
// accumulated, so they are bit for bit the times a caller computes that way.
#pragma once

namespace mech::runtime {

class TimeGrid {
public:
  // Throws std::invalid_argument when the spacing is not positive or the
  // grid would have more than 1e15 points (beyond that k·d loses integers).
  TimeGrid(double t0, double tEnd, double spacing);

  // Whether the constructor accepts these arguments: callers check options
  // with it up front, to report a usage error instead of catching.
  static bool fits(double t0, double tEnd, double spacing);

  // Moves past every point at or before t in the direction of travel.
  void skipThrough(double t);

  bool done() const { return k_ > last_; }
  // The current point; only meaningful while !done().
  double next() const { return k_ < last_ ? point(k_) : tEnd_; }
  void advance() { ++k_; }
  // Whether the current point lies at or before t in the direction of travel.
  bool dueBy(double t) const { return !done() && direction_ * (next() - t) <= 0; }
  double direction() const { return direction_; }

private:
  double point(long k) const { return t0_ + direction_ * (static_cast<double>(k) * spacing_); }

  double t0_, tEnd_, spacing_, direction_;
  long k_ = 0;
  long last_ = 0; // the index whose point is replaced by tEnd
};

} // namespace mech::runtime
