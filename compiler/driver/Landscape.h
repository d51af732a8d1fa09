// The picture of `mech equilibria --plot`: the potential V over the search
// box of a model of one or two free coordinates, with the states of rest
// found marked (one coordinate: V against it, the stable and unstable
// states as dots; two: V as a heat map).
#pragma once

#include "driver/Pipeline.h"
#include "mechanics/Equilibria.h"

#include <string>
#include <vector>

namespace mech::driver {

// Empty when the model can be drawn so; else why not (a usage error).
std::string landscapeProblem(const LoadedModel &loaded);

// The SVG, V evaluated at time t with the params as they are.
std::string landscapeSvg(const LoadedModel &loaded, const mechanics::Box &box, double t,
                         const std::vector<mechanics::Equilibrium> &found);

} // namespace mech::driver
