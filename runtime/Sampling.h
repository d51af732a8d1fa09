// Handing the output samples that fall within a step to the caller's
// callback: the end state itself for a sample at the step's end, an
// interpolated state for one inside it.
#pragma once

#include "runtime/Integrator.h"
#include "runtime/TimeGrid.h"

#include <Eigen/Core>

namespace mech::runtime {

// Delivers every sample of `grid` due by tNew, the end of the step just taken,
// whose end state is xNew; interpolate(t, out) fills `scratch` for the others.
// Returns false, with grid.next() at the refused sample, when the callback
// asks to stop.
template <class Interpolate>
bool deliverSamples(TimeGrid &grid, double tNew, const Eigen::VectorXd &xNew,
                    Interpolate &&interpolate, Eigen::VectorXd &scratch,
                    const SampleCallback &sample) {
  while (grid.dueBy(tNew)) {
    double t = grid.next();
    if (!sample) {
      grid.advance();
      continue;
    }
    const double *x = xNew.data();
    if (t != tNew) {
      interpolate(t, scratch);
      x = scratch.data();
    }
    if (!sample(t, x))
      return false;
    grid.advance();
  }
  return true;
}

} // namespace mech::runtime
