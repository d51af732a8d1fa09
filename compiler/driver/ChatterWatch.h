// The watch a smooth run keeps on its forces that jump with a velocity
// (mechanics::Equations::velocitySwitches: sign(x') in a force): their
// arguments are event functions, and a switch crossing zero over and over
// in a short time, as sign(v) does where v sticks at 0, ends the run with
// an error that names it and points to `friction` instead of tens of
// thousands of steps.
#pragma once

#include "driver/StateProgram.h"
#include "mechanics/InputKernels.h"
#include "mechanics/Lagrange.h"

#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace mech::driver {

// It chatters: this many crossings within kChatterWindow max(1, |t|).
inline constexpr size_t kChatterCrossings = 20;
inline constexpr double kChatterWindow = 1e-6;

class ChatterWatch {
public:
  // With the run's params (kept by reference) and its inputs' values at t.
  ChatterWatch(const mechanics::Equations &equations, const std::vector<double> &params,
               mechanics::InputFill fill);

  size_t size() const { return recent_.size(); }
  // Each switch's argument at (t, x) into g.
  void evaluate(double t, const double *x, double *g);
  // Switch i crossed 0 at t.
  void crossed(size_t i, double t);
  // The switch that chatters, once one does.
  std::optional<size_t> chattering() const { return chattering_; }
  // What the error says of it: the force, where it crossed, the way out.
  std::string message(const mechanics::Equations &equations) const;

private:
  size_t coordinates_;
  const std::vector<double> &params_;
  mechanics::InputFill fill_;
  std::vector<double> filled_; // params_ with the inputs' values at t
  StateProgram arguments_;
  std::vector<std::deque<double>> recent_; // per switch: its last crossings' times
  std::optional<size_t> chattering_;
};

} // namespace mech::driver
