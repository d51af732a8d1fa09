// The switches of piecewise laws in a run (mechanics/Switches.h): the
// branch each law is held on, decided by the sign of its g where a segment
// starts, and the restart where one g crossed 0. A law whose two branches
// each drive g back across 0 has no motion on either (a sliding mode): it
// would switch at every step, so a run of flips too close in time to be
// motion ends the run with an error at the law.
#include "driver/ContactRun.h"
#include "driver/ContactRunMode.h"

#include "support/NumberText.h"
#include "symbolic/Print.h"

#include <algorithm>
#include <cmath>

namespace mech::driver {

namespace {

// Flips of one switch closer together than this (relative to max(1, |t|))
// do not come from motion: at that rate the law chatters.
constexpr double kQuickFlipSpan = 1e-6;
constexpr long kMaxQuickFlips = 64;

} // namespace

void ContactRun::holdBranches(double t, const double *x) {
  if (branch_.empty())
    return;
  const double *g = contacts_.switchValues(t, x, filledParams(t, x));
  for (size_t k = 0; k < branch_.size(); ++k)
    branch_[k] = g[k] > 0 ? 1 : -1;
}

bool ContactRun::lawSwitched(size_t k, const Progress &at, std::string &error) {
  const std::vector<signed char> before = branch_;
  holdBranches(at.t, at.x.data());
  // The crossing is located on the side of the new branch; where g is 0
  // there, it changes branch all the same.
  if (branch_[k] == before[k])
    branch_[k] = static_cast<signed char>(-before[k]);
  for (size_t i = 0; i < branch_.size(); ++i) {
    if (branch_[i] == before[i])
      continue;
    if (report_.switchesPerLaw[i]++ == 0)
      report_.firstSwitch[i] = at.t;
    const double span = kQuickFlipSpan * std::max(1.0, std::abs(at.t));
    if (quickFlips_[i] == 0 || !(std::abs(at.t - quickSince_[i]) <= span)) {
      quickFlips_[i] = 1;
      quickSince_[i] = at.t;
    } else if (++quickFlips_[i] > kMaxQuickFlips) {
      chattering_ = i;
      error = "the piecewise law switches back and forth where " + sym::toMech(eq_.switches[i].g) +
              " = 0 (" + std::to_string(kMaxQuickFlips) + " times within " + shortestNumber(span) +
              " s): each branch drives it back across 0, so there is no " +
              "motion on either (a sliding mode). Write the law with a smooth transition, wrap " +
              "it in smooth(...) to integrate it without restarts, or model sticking with " +
              "`friction`";
      return false;
    }
  }
  return true;
}

} // namespace mech::driver
