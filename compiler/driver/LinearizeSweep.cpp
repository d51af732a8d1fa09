// The pieces of linearize's sweep (driver/LinearizeSweep.h); the command
// itself is in RunLinearizeSweep.cpp.
#include "driver/LinearizeSweep.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace mech::driver {

namespace {

std::string trimmed(const std::string &text) {
  size_t first = text.find_first_not_of(" \t");
  if (first == std::string::npos)
    return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

bool number(const std::string &text, double &value) {
  std::string t = trimmed(text);
  char *end = nullptr;
  value = std::strtod(t.c_str(), &end);
  return !t.empty() && end == t.c_str() + t.size() && std::isfinite(value);
}

} // namespace

std::optional<SweepSpec> parseSweep(const std::string &text, std::string &error) {
  SweepSpec spec;
  size_t equals = text.find('='), dots = text.find("..");
  if (equals == std::string::npos || dots == std::string::npos || dots < equals) {
    error = "--sweep: expected NAME=LO..HI[:N], as in \"v=0..10:201\", found '" + text + "'";
    return std::nullopt;
  }
  spec.name = trimmed(text.substr(0, equals));
  std::string rest = text.substr(dots + 2);
  size_t colon = rest.find(':');
  std::string hi = rest.substr(0, colon);
  if (size_t bracket = hi.find('['); bracket != std::string::npos) {
    size_t close = hi.find(']', bracket);
    if (close == std::string::npos || !trimmed(hi.substr(close + 1)).empty()) {
      error = "--sweep: a unit is written [UNIT] after the upper end, as in \"v=0..10 [m/s]\"";
      return std::nullopt;
    }
    spec.unit = trimmed(hi.substr(bracket + 1, close - bracket - 1));
    hi = hi.substr(0, bracket);
  }
  double count = 101;
  bool ok = !spec.name.empty() && number(text.substr(equals + 1, dots - equals - 1), spec.lo) &&
            number(hi, spec.hi) &&
            (colon == std::string::npos || number(rest.substr(colon + 1), count));
  if (!ok || spec.hi <= spec.lo || count < 2 || count > 100000 || count != std::floor(count)) {
    error = "--sweep: expected NAME=LO..HI[:N] with numbers LO < HI and 2 <= N <= 100000, found '" +
            text + "'";
    return std::nullopt;
  }
  spec.count = static_cast<size_t>(count);
  return spec;
}

std::optional<mechanics::IndependentChoice> independentChoice(LoadedModel &loaded,
                                                              const std::string &text) {
  mechanics::IndependentChoice choice;
  if (!trimmed(text).empty() && loaded.equations().constraints.empty()) {
    loaded.diagnostics().error({}, "--independent: " + loaded.model().name +
                                       " has no constraints: every coordinate and velocity is "
                                       "independent");
    return std::nullopt;
  }
  std::stringstream items(text);
  for (std::string item; std::getline(items, item, ',');) {
    item = trimmed(item);
    if (item.empty())
      continue;
    bool speed = item.back() == '\'';
    std::string name = speed ? item.substr(0, item.size() - 1) : item;
    int index = coordinateIndex(loaded.model(), name);
    std::vector<size_t> &list = speed ? choice.speeds : choice.coordinates;
    if (index < 0 || std::count(list.begin(), list.end(), static_cast<size_t>(index))) {
      loaded.diagnostics().error(
          {}, "--independent: '" + item + "' " +
                  (index < 0 ? "is not a coordinate of " + loaded.model().name : "is given twice"));
      return std::nullopt;
    }
    list.push_back(static_cast<size_t>(index));
  }
  return choice;
}

} // namespace mech::driver
