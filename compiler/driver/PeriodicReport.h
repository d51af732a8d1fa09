// What `mech periodic` prints: a periodic motion (its start, period,
// multipliers and verdict) and a branch of them against a param, as text
// and as JSON, and the branch's multipliers drawn against the param.
#pragma once

#include "driver/LinearizeSweep.h"
#include "driver/PeriodicOrbit.h"

#include <string>

namespace mech::driver {

// What a report names: the model, the map (section or period), the swept
// param ("" for one motion).
struct PeriodicTitle {
  const mechanics::Equations &eq;
  ReturnMapSetup setup;
  std::string parameter;
  std::string periodText; // --period as given, when it follows the swept param
};

std::string orbitText(const PeriodicTitle &title, const PeriodicOrbit &orbit);
std::string orbitJson(const PeriodicTitle &title, const PeriodicOrbit &orbit);
std::string branchText(const PeriodicTitle &title, const Branch &branch);
std::string branchJson(const PeriodicTitle &title, const Branch &branch);
// The multipliers' moduli against the param, with the unit circle's 1.
std::string branchPlot(const PeriodicTitle &title, const SweepSpec &spec, const Branch &branch);

} // namespace mech::driver
