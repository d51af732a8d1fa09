// The search box of equilibria and steady motions (driver/SearchBox.h).
#include "driver/SearchBox.h"

#include "driver/Pipeline.h"
#include "sema/Values.h"

namespace mech::driver {

namespace {

// Splits at the commas outside parentheses and brackets.
std::vector<std::string> splitList(const std::string &text) {
  std::vector<std::string> items(1);
  int depth = 0;
  for (char c : text) {
    depth += (c == '(' || c == '[') - (c == ')' || c == ']');
    if (c == ',' && depth == 0)
      items.emplace_back();
    else
      items.back() += c;
  }
  return items;
}

// The coordinate that a range of --in bounds, with `low` and `high` its
// bounds as assignments; -1 after reporting a name that is no coordinate (a
// velocity included: the box is of positions) or a bound of the wrong
// dimension.
int rangeCoordinate(LoadedModel &loaded, const sema::Assignment &low,
                    const sema::Assignment &high) {
  const sema::CheckedModel &model = loaded.model();
  int found = coordinateIndex(model, low.name);
  if (found < 0) {
    loaded.diagnostics().error(low.location,
                               "'" + low.name + "' is not a coordinate of " + model.name);
    return -1;
  }
  if (low.primes != 0) {
    loaded.diagnostics().error(low.location, "--in takes coordinates, not velocities ('" +
                                                 low.name + std::string(low.primes, '\'') + "')");
    return -1;
  }
  sema::DimInfo dim = coordinateDimension(model, found, 0);
  bool lowOk = checkValueDimension(loaded.diagnostics(), low, dim);
  bool highOk = checkValueDimension(loaded.diagnostics(), high, dim);
  return lowOk && highOk ? found : -1;
}

} // namespace

// Applies --in "q = a..b, ..." to the box; nullopt on success, else the exit
// code (usage errors for the shape, model errors for the values).
std::optional<int> applySearchRange(LoadedModel &loaded, const std::string &command,
                                    const std::string &text, mechanics::Box &box,
                                    const CommandIo &io) {
  const sema::CheckedModel &model = loaded.model();
  for (const std::string &item : splitList(text)) {
    if (item.find_first_not_of(" \t") == std::string::npos)
      continue;
    size_t equals = item.find('='), dots = item.find("..");
    if (equals == std::string::npos || dots == std::string::npos || dots < equals)
      return io.usageError(command + ": --in expects 'q = low..high', got '" + item + "'");
    std::string name = item.substr(0, equals);
    std::string low = name + "=" + item.substr(equals + 1, dots - equals - 1);
    std::string high = name + "=" + item.substr(dots + 2);
    auto a = sema::parseAssignments(*loaded.compilation, "--in", low, &model);
    auto b = sema::parseAssignments(*loaded.compilation, "--in", high, &model);
    if (!a || !b || a->size() != 1 || b->size() != 1)
      return kExitModelError;
    int found = rangeCoordinate(loaded, (*a)[0], (*b)[0]);
    if (found < 0)
      return kExitModelError;
    double lo = (*a)[0].value, hi = (*b)[0].value;
    if (!(lo < hi))
      return io.usageError(command + ": --in range for '" + (*a)[0].name + "' is empty");
    box.lo[static_cast<size_t>(found)] = lo;
    box.hi[static_cast<size_t>(found)] = hi;
  }
  return std::nullopt;
}

} // namespace mech::driver
