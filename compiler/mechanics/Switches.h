// The switches of piecewise laws. A law written with if, min, max, clamp,
// abs or sign changes its formula where an argument g crosses 0; a run
// (driver/ContactRun.h) holds each such law on one branch over a segment
// of smooth motion, as Modelica does for `if` without noEvent, locates the
// crossing of g on the step's interpolant and restarts the integrator
// there on the other branch, so that no step straddles a kink or a jump.
#pragma once

#include "mechanics/Lagrange.h"

#include <unordered_map>
#include <vector>

namespace mech::mechanics {

// eq.switches: the g of the choices, abs and sign in the motion's
// equations (M, f, the constraints', contacts' and frictions' forms, the
// events' functions and resets) that change during a run, each once, at the
// call that wrote it (`written`, Lowering::piecewiseLocations). The
// arguments of eq.velocitySwitches stay with their chatter watch.
void findSwitches(Equations &eq, const std::unordered_map<const sym::Node *, Location> &written);

// A branch per switch: +1 while its g > 0, -1 while g <= 0.
using Branches = std::vector<signed char>;

// The equations with every switch held on its branch: select(g, a, b) is
// a or b, abs(g) is g or -g, sign(g) is 1 or -1, everywhere (smooth(...)
// keeps its own choices live).
Equations heldOnBranches(const Equations &eq, const Branches &branches);

// The event function of switch k in a segment (`s` from the held
// equations, so that the choices inside g are held too): g, except that g = 0 reads
// as negative, so that a run started exactly on a switch (g = 0, the
// second branch's side) is told when g turns positive.
sym::Expr switchEvent(const Equations::Switch &s);

} // namespace mech::mechanics
