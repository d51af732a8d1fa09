// The switches of piecewise laws. A law written with if, min, max, clamp,
// abs or sign changes its formula where an argument g crosses 0; a run
// (driver/ContactRun.h) holds each such law on one branch over a segment
// of smooth motion, as Modelica does for `if` without noEvent, locates the
// crossing of g on the step's interpolant and restarts the integrator
// there on the other branch, so that no step straddles a kink or a jump.
#pragma once

#include "mechanics/Evaluation.h"
#include "mechanics/Lagrange.h"

#include <string>
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

// The equations of a built library (jit/LibraryModule.h), whose runtime
// holds the branches itself: every choice, abs and sign of switch k reads
// its branch from the parameter `branch[k+1]` (index params + k) instead of
// from g_k: select(g, a, b) is select(branch, a, b), abs(g) is
// select(branch, g, -g), sign(g) is select(branch, 1, select(-branch, -1,
// 0)). With branch = g they are the laws as written; with +-1, held.
Equations withBranchInputs(const Equations &eq, size_t params);

// The event function of a switch held on `branch` in a segment (`s` from
// the held equations, so that the choices inside g are held too): g,
// except that g = 0 reads as on the branch's side, so that a segment that
// starts exactly on the switch is told when g leaves that side.
sym::Expr switchEvent(const Equations::Switch &s, int branch);

// A note per switch whose g is 0 at `state` (to rounding): an analysis
// there (linearize, the Jacobian) sees the branch in force at g = 0, the
// second one, and the other side may differ ("the state is on the switch
// of the piecewise law at 6:21, where y = 0: ...").
std::vector<std::string> onSwitchNotes(const Equations &eq, const std::vector<double> &params,
                                       const State &state);

} // namespace mech::mechanics
