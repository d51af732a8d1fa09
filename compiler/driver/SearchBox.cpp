// The search box of equilibria and steady motions (driver/SearchBox.h).
#include "driver/SearchBox.h"

#include "driver/Pipeline.h"
#include "sema/Values.h"
#include "support/ListItems.h"

namespace mech::driver {

namespace {

// The coordinates that a range of --in bounds (a family's name bounds each
// member), with `low` and `high` its bounds as assignments; empty after
// reporting a name that is no coordinate (a velocity included: the box is
// of positions) or a bound of the wrong dimension.
std::vector<int> rangeCoordinates(LoadedModel &loaded, const sema::Assignment &low,
                                  const sema::Assignment &high) {
  const sema::CheckedModel &model = loaded.model();
  int found = coordinateIndex(model, low.name);
  std::vector<int> targets = found >= 0 ? std::vector<int>{found} : familyMembers(model, low.name);
  if (targets.empty()) {
    loaded.diagnostics().error(low.location,
                               "'" + low.name + "' is not a coordinate of " + model.name);
    return {};
  }
  if (low.primes != 0) {
    loaded.diagnostics().error(low.location, "--in takes coordinates, not velocities ('" +
                                                 low.name + std::string(low.primes, '\'') + "')");
    return {};
  }
  sema::DimInfo dim = coordinateDimension(model, targets[0], 0);
  bool lowOk = checkValueDimension(loaded.diagnostics(), low, dim);
  bool highOk = checkValueDimension(loaded.diagnostics(), high, dim);
  return lowOk && highOk ? targets : std::vector<int>{};
}

struct Range {
  std::vector<int> coordinates;
  bool family = false;
  double lo = 0, hi = 0;
};

} // namespace

// Applies --in "q = a..b, ..." to the box; nullopt on success, else the exit
// code (usage errors for the shape, model errors for the values). A family's
// range applies to each member; a member's own range wins, wherever written.
std::optional<int> applySearchRange(LoadedModel &loaded, const std::string &command,
                                    const std::string &text, mechanics::Box &box,
                                    const CommandIo &io) {
  const sema::CheckedModel &model = loaded.model();
  std::vector<Range> ranges;
  for (const ListItem &item : splitListItems(text)) {
    std::string part = text.substr(item.begin, item.end - item.begin);
    if (part.find_first_not_of(" \t") == std::string::npos)
      continue;
    size_t equals = part.find('='), dots = part.find("..");
    if (equals == std::string::npos || dots == std::string::npos || dots < equals)
      return io.usageError(command + ": --in expects 'q = low..high', got '" + part + "'");
    size_t b = item.begin;
    std::string low = keepOnly(text, {{b, b + dots}});
    std::string high = keepOnly(text, {{b, b + equals + 1}, {b + dots + 2, item.end}});
    auto a = sema::parseAssignments(*loaded.compilation, "--in", low, &model, text);
    auto c = sema::parseAssignments(*loaded.compilation, "--in", high, &model, text);
    if (!a || !c || a->size() != 1 || c->size() != 1)
      return kExitModelError;
    Range range{rangeCoordinates(loaded, (*a)[0], (*c)[0]), false, (*a)[0].value, (*c)[0].value};
    if (range.coordinates.empty())
      return kExitModelError;
    if (!(range.lo < range.hi))
      return io.usageError(command + ": --in range for '" + (*a)[0].name + "' is empty");
    range.family = coordinateIndex(model, (*a)[0].name) < 0;
    ranges.push_back(range);
  }
  for (bool families : {true, false})
    for (const Range &range : ranges)
      for (int j = 0; range.family == families && j < static_cast<int>(range.coordinates.size());
           ++j) {
        box.lo[static_cast<size_t>(range.coordinates[static_cast<size_t>(j)])] = range.lo;
        box.hi[static_cast<size_t>(range.coordinates[static_cast<size_t>(j)])] = range.hi;
      }
  return std::nullopt;
}

} // namespace mech::driver
