// The switches of piecewise laws in a run (mechanics/Switches.h): the
// branch each law is held on, decided by the sign of its g where a segment
// starts, and the restart where one g crossed 0. A law whose two branches
// each drive g back across 0 has no motion on either (a sliding mode): it
// would switch at every step, so a run of flips too close in time to be
// motion ends the run with an error at the law.
#include "driver/ContactRun.h"
#include "driver/ContactRunMode.h"

#include "support/NumberText.h"
#include "symbolic/Piecewise.h"
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

// "y = 0" for switch k (y rather than -y), after "7:15, " with `at`.
std::string ContactRun::switchPlace(size_t k, bool at) const {
  const mechanics::Equations::Switch &s = eq_.switches[k];
  std::string where = sym::toMech(sym::upright(s.g)) + " = 0";
  if (!at)
    return where;
  return std::to_string(s.location.line) + ":" + std::to_string(s.location.column) + ", where " +
         where;
}

void ContactRun::holdBranches(double t, const double *x) {
  if (branch_.empty())
    return;
  const double *g = contacts_.switchValues(t, x, filledParams(t, x));
  std::vector<size_t> onSwitch;
  for (size_t k = 0; k < branch_.size(); ++k) {
    branch_[k] = g[k] > 0 ? 1 : -1;
    if (g[k] == 0)
      onSwitch.push_back(k);
  }
  if (!onSwitch.empty())
    holdBranchesAhead(t, x, onSwitch);
}

// A start exactly on switches (g = 0, a run from rest on a table's row):
// each takes the branch of the side its g moves to, seen a moment ahead
// along the motion (two Euler steps, so that a g whose rate is 0 there,
// a position at rest, shows the sign of its second derivative).
void ContactRun::holdBranchesAhead(double t, const double *x, const std::vector<size_t> &onSwitch) {
  const size_t size = 2 * eq_.coordinates.size();
  const double step = 1e-6 * std::max(1.0, std::abs(t));
  std::vector<double> ahead(x, x + size), rate(size);
  for (int i = 0; i < 2; ++i) {
    if (kernels_.rhs(t + i * step, ahead.data(), params_.data(), rate.data()) != 0)
      return; // the branches stay those of g <= 0
    for (size_t j = 0; j < size; ++j)
      ahead[j] += step * rate[j];
  }
  const double *g =
      contacts_.switchValues(t + 2 * step, ahead.data(), filledParams(t + 2 * step, ahead.data()));
  for (size_t k : onSwitch)
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
    if (hooks_.switched)
      hooks_.switched(i, at.t, at.x.data());
    const double span = kQuickFlipSpan * std::max(1.0, std::abs(at.t));
    if (quickFlips_[i] == 0 || !(std::abs(at.t - quickSince_[i]) <= span)) {
      quickFlips_[i] = 1;
      quickSince_[i] = at.t;
    } else if (++quickFlips_[i] > kMaxQuickFlips) {
      chattering_ = i;
      error = "the piecewise law switches back and forth where " + switchPlace(i, false) + " (" +
              std::to_string(kMaxQuickFlips) + " times within " + formatNumber(span, 3) +
              " s): each branch drives it back across 0, so there is no motion on either (a " +
              "sliding mode: write the law with a smooth transition, wrap it in smooth(...), or " +
              "model sticking with `friction`)";
      return false;
    }
  }
  return true;
}

} // namespace mech::driver
