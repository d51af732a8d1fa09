// The programs a built library needs to switch a run's mode as `mech
// simulate` does (driver/ContactRun.h): the contacts' functions, the
// declared events' functions at a state whose accelerations and
// multipliers are given (those of the mode in use), the outputs likewise,
// and the events' resets. Compiled next to the model's kernels by
// jit/LibraryModule.cpp; the C runtime (runtime/library) does the rest.
#pragma once

#include "mechanics/Lagrange.h"
#include "symbolic/Program.h"

#include <vector>

namespace mech::mechanics {

struct SwitchPrograms {
  size_t contacts = 0, events = 0, frictions = 0;
  // Per contact: the gap, its rate, gamma (phi'' = C q'' - gamma), each for
  // all contacts in turn, then the rows C = dphi/dq (contacts * n), then
  // the restitutions: the layout of mechanics::ContactFunctions, plus e.
  sym::Program contact;
  // Per friction: the slip, the normal force, mu_s, mu_k and gamma (s' =
  // C q'' - gamma), each for all frictions in turn, then the rows C =
  // ds/dq' (frictions * n).
  sym::Program friction;
  // g of every declared event; may read q'' and the multipliers.
  sym::Program eventFunctions;
  // The values of every event's resets, event after event, computed from
  // the state before it; value j goes to x[resetTargets[j]].
  sym::Program resets;
  std::vector<long> resetOffsets; // events + 1 entries
  std::vector<long> resetTargets;
  std::vector<int> directions;       // per event: -1, 0 or 1
  std::vector<int> frictionContacts; // per friction: the contact of its normal force, or -1
  std::vector<unsigned char> stops;  // per event: the run (or the segment) ends there
  bool eventsReadSolution = false;   // some g reads q'' or a multiplier
  // A built library's piecewise laws (mechanics/Switches.h withBranchInputs):
  // g of each, as written, at (t, q, q', params).
  size_t switches = 0;
  sym::Program switchValues;

  static SwitchPrograms build(const Equations &equations, size_t params);
};

} // namespace mech::mechanics
