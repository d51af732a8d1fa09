// The event functions g = lhs - rhs of a model's events, evaluated at a
// state for the integrators' event location (runtime::EventOptions). They
// run on the interpreter: each is evaluated a few times per step, not per
// stage, and a small program interpreted costs less than compiling it. The
// accelerations and multipliers are solved for only when some g uses them.
#pragma once

#include "mechanics/Evaluation.h"
#include "mechanics/InputKernels.h"
#include "mechanics/Kernels.h"
#include "mechanics/Lagrange.h"
#include "symbolic/Program.h"

#include <vector>

namespace mech::mechanics {

class EventFunctions {
public:
  // `kernels` and `params` must outlive this; `fill`, when given, writes
  // the inputs' values at t into the parameters (mechanics/InputKernels.h).
  EventFunctions(const Equations &equations, Kernels &kernels, const std::vector<double> &params,
                 InputFill fill = {});

  size_t size() const { return count_; }
  // g_i(t, x) for every event; the kernels' status when solving for q'' or
  // the multipliers failed.
  int operator()(double t, const double *x, double *g);

private:
  Kernels &kernels_;
  const std::vector<double> &params_;
  InputFill fill_;
  InputLayout layout_;
  sym::Program program_;
  size_t count_ = 0;
  bool needsAccelerations_ = false, needsMultipliers_ = false;
  std::vector<double> inputs_, scratch_, xdot_;
};

} // namespace mech::mechanics
