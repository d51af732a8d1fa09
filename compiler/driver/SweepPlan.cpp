// Reading --grid and --random (driver/SweepPlan.h), and the numbering of
// the runs with their random draws.
#include "driver/SweepPlan.h"

#include "sema/Values.h"
#include "support/ListItems.h"

#include <cmath>
#include <cstdlib>

namespace mech::driver {

namespace {

// SplitMix64 (Steele, Lea & Flood 2014): a stateless mix of 64 bits, so
// that the draw of (sample, axis, k) depends on nothing else.
uint64_t mix(uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// A uniform draw in (0, 1) for the seed, sample, axis and draw number.
double uniformDraw(uint64_t seed, size_t sample, size_t axis, int k) {
  uint64_t z = mix(seed ^ mix(sample * 4 + static_cast<uint64_t>(k)) ^ mix(~uint64_t(axis)));
  return (static_cast<double>(z >> 11) + 0.5) / 9007199254740992.0;
}

std::string trimmed(const std::string &text) {
  size_t first = text.find_first_not_of(" \t"), last = text.find_last_not_of(" \t");
  return first == std::string::npos ? "" : text.substr(first, last - first + 1);
}

// A count of points or samples: a whole number from 1 (1e3 accepted).
std::optional<size_t> parseCount(const std::string &text) {
  std::string t = trimmed(text);
  char *end = nullptr;
  double value = std::strtod(t.c_str(), &end);
  if (t.empty() || *end != '\0' || !(value >= 1) || value > double(kMaxSweepRuns) ||
      value != std::floor(value))
    return std::nullopt;
  return static_cast<size_t>(value);
}

// What an assignment of --grid or --random names, with its value's
// dimension checked; nullopt after reporting an error.
std::optional<SweepTarget> resolveTarget(LoadedModel &loaded, const sema::Assignment &value,
                                         const std::string &option) {
  const sema::CheckedModel &model = loaded.model();
  Diagnostics &diagnostics = loaded.diagnostics();
  const std::string written = value.name + std::string(static_cast<size_t>(value.primes), '\'');
  if (int coord = coordinateIndex(model, value.name); coord >= 0) {
    if (value.primes > 1) {
      diagnostics.error(value.location,
                        option + " sets positions and velocities, not '" + written + "'");
      return std::nullopt;
    }
    if (!checkValueDimension(diagnostics, value, coordinateDimension(model, coord, value.primes)))
      return std::nullopt;
    auto kind = value.primes == 0 ? SweepTarget::Kind::Position : SweepTarget::Kind::Velocity;
    return SweepTarget{kind, static_cast<size_t>(coord), written};
  }
  for (size_t i = 0; i < model.params.size(); ++i) {
    const sema::Param &param = model.params[i];
    if (param.name != value.name || value.primes != 0)
      continue;
    if (param.input) {
      diagnostics.error(value.location, "'" + param.name + "' is an input: " + option +
                                            " sweeps params and initial states");
      return std::nullopt;
    }
    if (param.structural) {
      diagnostics.error(value.location,
                        "param '" + param.name +
                            "' shapes the model (a range bound or an index): a sweep derives "
                            "the equations once, so run one sweep per value of it (--set " +
                            param.name + "=...)");
      return std::nullopt;
    }
    if (!checkValueDimension(diagnostics, value, param.dim))
      return std::nullopt;
    return SweepTarget{SweepTarget::Kind::Param, i, written};
  }
  std::string hint = familyMembers(model, value.name).empty()
                         ? ""
                         : " (name one member, as " + value.name + "[1])";
  diagnostics.error(value.location,
                    "'" + written + "' is not a param or a coordinate of " + model.name + hint);
  return std::nullopt;
}

// One value of an item: `name=` and the value's span kept, parsed as an
// assignment, its target resolved.
std::optional<std::pair<SweepTarget, double>>
parseValue(LoadedModel &loaded, const std::string &option, const std::string &text, size_t begin,
           size_t equals, size_t valueBegin, size_t valueEnd) {
  std::string kept = keepOnly(text, {{begin, equals + 1}, {valueBegin, valueEnd}});
  auto values = sema::parseAssignments(*loaded.compilation, option, kept, &loaded.model(), text);
  if (!values || values->size() != 1)
    return std::nullopt;
  std::optional<SweepTarget> target = resolveTarget(loaded, (*values)[0], option);
  if (!target)
    return std::nullopt;
  return std::make_pair(*target, (*values)[0].value);
}

// --grid's item `name = from..to:count`.
std::optional<int> parseGridItem(LoadedModel &loaded, const std::string &text, ListItem item,
                                 SweepPlan &plan, const CommandIo &io) {
  std::string part = text.substr(item.begin, item.end - item.begin);
  size_t equals = part.find('='), dots = part.find(".."), colon = part.rfind(':');
  if (equals == std::string::npos || dots == std::string::npos || colon == std::string::npos ||
      dots < equals || colon < dots)
    return io.usageError("sweep: --grid expects 'name = from..to:points', got '" + trimmed(part) +
                         "'");
  std::optional<size_t> count = parseCount(part.substr(colon + 1));
  if (!count)
    return io.usageError("sweep: --grid: the points after ':' must be a whole number from 1, "
                         "got '" +
                         trimmed(part.substr(colon + 1)) + "'");
  size_t b = item.begin;
  auto from = parseValue(loaded, "--grid", text, b, b + equals, b + equals + 1, b + dots);
  if (!from)
    return kExitModelError;
  auto to = parseValue(loaded, "--grid", text, b, b + equals, b + dots + 2, b + colon);
  if (!to)
    return kExitModelError;
  if (!std::isfinite(to->second - from->second))
    return io.usageError("sweep: --grid: the range of '" + from->first.name +
                         "' overflows (its width is not finite)");
  plan.grid.push_back({from->first, from->second, to->second, *count, {}});
  return std::nullopt;
}

// --random's item `name = normal(mean, sd):samples` or `uniform(a, b):samples`.
std::optional<int> parseRandomItem(LoadedModel &loaded, const std::string &text, ListItem item,
                                   SweepPlan &plan, size_t &samples, const CommandIo &io) {
  std::string part = text.substr(item.begin, item.end - item.begin);
  size_t equals = part.find('='), open = part.find('('), close = part.rfind(')');
  size_t colon = part.rfind(':');
  const std::string shape = "sweep: --random expects 'name = normal(mean, sd):samples' or "
                            "'name = uniform(low, high):samples', got '" +
                            trimmed(part) + "'";
  if (equals == std::string::npos || open == std::string::npos || close == std::string::npos ||
      colon == std::string::npos || !(equals < open && open < close && close < colon))
    return io.usageError(shape);
  std::string law = trimmed(part.substr(equals + 1, open - equals - 1));
  std::vector<ListItem> arguments = splitListItems(part.substr(open + 1, close - open - 1));
  if ((law != "normal" && law != "uniform") || arguments.size() != 2)
    return io.usageError(shape);
  std::optional<size_t> count = parseCount(part.substr(colon + 1));
  if (!count)
    return io.usageError("sweep: --random: the samples after ':' must be a whole number from 1, "
                         "got '" +
                         trimmed(part.substr(colon + 1)) + "'");
  if (samples != 0 && *count != samples)
    return io.usageError("sweep: --random: every name takes the same number of samples (" +
                         std::to_string(samples) + " and " + std::to_string(*count) + ")");
  samples = *count;
  size_t b = item.begin, args = b + open + 1;
  auto first = parseValue(loaded, "--random", text, b, b + equals, args + arguments[0].begin,
                          args + arguments[0].end);
  if (!first)
    return kExitModelError;
  auto second = parseValue(loaded, "--random", text, b, b + equals, args + arguments[1].begin,
                           args + arguments[1].end);
  if (!second)
    return kExitModelError;
  // Bounds whose width overflows (uniform(-1e308, 1e308)) or a spread
  // that does (normal(0, 1e308); Box-Muller's factor is at most 8.7 for
  // these draws) give infinite draws, which no run can use.
  double one = first->second, two = second->second;
  if (!std::isfinite(law == "uniform" ? two - one : std::abs(one) + 9 * two))
    return io.usageError("sweep: --random: " + law + "() of '" + first->first.name +
                         "' draws values that are not finite (its range overflows)");
  RandomAxis axis{first->first,
                  law == "normal" ? RandomAxis::Law::Normal : RandomAxis::Law::Uniform,
                  first->second, second->second};
  if (axis.law == RandomAxis::Law::Normal && !(axis.b > 0))
    return io.usageError("sweep: --random: the standard deviation of '" + axis.target.name +
                         "' must be > 0");
  if (axis.law == RandomAxis::Law::Uniform && !(axis.a < axis.b))
    return io.usageError("sweep: --random: uniform(low, high) of '" + axis.target.name +
                         "' needs low < high");
  plan.random.push_back(axis);
  return std::nullopt;
}

} // namespace

double GridAxis::value(size_t i) const {
  if (!points.empty())
    return points[i];
  if (count <= 1)
    return from;
  // Both ends exactly, whatever the rounding of the steps between.
  if (i + 1 == count)
    return to;
  return from + (to - from) * (static_cast<double>(i) / static_cast<double>(count - 1));
}

size_t SweepPlan::runs() const {
  size_t runs = samples;
  if (paired && !grid.empty())
    return runs * grid[0].count;
  for (const GridAxis &axis : grid)
    runs *= axis.count;
  return runs;
}

std::vector<SweepTarget> SweepPlan::targets() const {
  std::vector<SweepTarget> targets;
  for (const GridAxis &axis : grid)
    targets.push_back(axis.target);
  for (const RandomAxis &axis : random)
    targets.push_back(axis.target);
  return targets;
}

std::vector<std::string> SweepPlan::columnNames() const {
  std::vector<std::string> names;
  for (const SweepTarget &target : targets())
    names.push_back(target.name);
  return names;
}

void SweepPlan::values(size_t run, std::vector<double> &out) const {
  out.assign(grid.size() + random.size(), 0);
  size_t sample = run % samples, rest = run / samples;
  // The last grid axis varies fastest; paired axes all take one point.
  for (size_t j = grid.size(); j-- > 0;) {
    out[j] = grid[j].value(rest % grid[j].count);
    if (!paired)
      rest /= grid[j].count;
  }
  for (size_t j = 0; j < random.size(); ++j) {
    const RandomAxis &axis = random[j];
    double u = uniformDraw(seed, sample, j, 0);
    if (axis.law == RandomAxis::Law::Uniform) {
      out[grid.size() + j] = axis.a + (axis.b - axis.a) * u;
      continue;
    }
    // Box–Muller: one normal draw from two uniform ones.
    double v = uniformDraw(seed, sample, j, 1);
    out[grid.size() + j] = axis.a + axis.b * std::sqrt(-2 * std::log(u)) * std::cos(2 * M_PI * v);
  }
}

std::optional<int> parseSweepPlan(LoadedModel &loaded, const std::string &grid,
                                  const std::string &random, uint64_t seed, SweepPlan &plan,
                                  const CommandIo &io) {
  plan = SweepPlan{};
  plan.seed = seed;
  for (const ListItem &item : splitListItems(grid))
    if (trimmed(grid.substr(item.begin, item.end - item.begin)) != "")
      if (auto status = parseGridItem(loaded, grid, item, plan, io))
        return status;
  size_t samples = 0;
  for (const ListItem &item : splitListItems(random))
    if (trimmed(random.substr(item.begin, item.end - item.begin)) != "")
      if (auto status = parseRandomItem(loaded, random, item, plan, samples, io))
        return status;
  plan.samples = samples > 0 ? samples : 1;
  if (plan.grid.empty() && plan.random.empty())
    return io.usageError("sweep: --grid or --random must name what to sweep");
  std::vector<std::string> names = plan.columnNames();
  for (size_t i = 0; i < names.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (names[i] == names[j])
        return io.usageError("sweep: '" + names[i] + "' is swept twice");
  double runs = static_cast<double>(plan.samples);
  for (const GridAxis &axis : plan.grid)
    runs *= static_cast<double>(axis.count);
  if (runs > static_cast<double>(kMaxSweepRuns))
    return io.usageError("sweep: " + std::to_string(static_cast<long long>(runs)) +
                         " runs are more than one sweep may have (" +
                         std::to_string(kMaxSweepRuns) + ")");
  return std::nullopt;
}

} // namespace mech::driver
