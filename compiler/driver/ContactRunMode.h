// A contact mode as one ContactRun uses it (driver/ContactRun.cpp and the
// files of its switches): the shared equations and kernels, and what holds
// this run's params.
#pragma once

#include "driver/ContactRun.h"

#include "mechanics/ConstraintProjection.h"
#include "mechanics/EventFunctions.h"
#include "mechanics/StateJacobian.h"

namespace mech::driver {

// A mode as this run uses it: the shared equations and kernels, and what
// holds this run's params (the projection, the events, the Jacobian).
struct ContactRun::Mode {
  const mechanics::Equations *eq = nullptr;
  mechanics::Kernels *kernels = nullptr;
  std::unique_ptr<mechanics::ConstraintProjector> projector;
  std::unique_ptr<mechanics::EventFunctions> events;
  std::unique_ptr<mechanics::StateJacobian> jacobian; // made for the implicit methods
  std::vector<int> slots; // per contact: its multiplier after the model's, or -1
};

} // namespace mech::driver
