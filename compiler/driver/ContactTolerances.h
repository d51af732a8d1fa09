// The tolerances of a run with contacts (driver/ContactRun.h), in the SI
// units of the quantities (docs/language.md "contact"): a contact touches
// at a gap of at most kTouchingGap; at the start it rests when its rate is
// within kRestingRate and the motion presses it; after an impact it rests
// when its next bounce would rise less than kTouchingGap or last less than
// kShortestFlight max(1, |t|), which ends a Zeno sequence of bounces (its
// rest reported at their accumulation time).
#pragma once

namespace mech::driver {

inline constexpr double kTouchingGap = 1e-9;
inline constexpr double kRestingRate = 1e-9;
inline constexpr double kShortestFlight = 1e-10;
// Switches at one instant beyond this are an accumulation the run cannot
// resolve (a contact resting and lifting off at once, say).
inline constexpr long kMaxSwitchesAtOneTime = 1000;

} // namespace mech::driver
