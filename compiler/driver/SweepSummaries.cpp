// Reading --summary and reducing a run's samples (driver/SweepSummaries.h).
#include "driver/SweepSummaries.h"

#include "support/ListItems.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>

namespace mech::driver {

namespace {

using Reducer = SummarySpec::Reducer;
using Comparison = SummarySpec::Comparison;

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

const std::map<std::string, Reducer> &reducersByName() {
  static const std::map<std::string, Reducer> reducers = {
      {"at_end", Reducer::AtEnd},
      {"max", Reducer::Max},
      {"min", Reducer::Min},
      {"mean", Reducer::Mean},
      {"any", Reducer::Any},
      {"all", Reducer::All},
      {"first_time", Reducer::FirstTime},
      {"energy_drift", Reducer::EnergyDrift},
      {"constraint_drift", Reducer::ConstraintDrift},
      {"status", Reducer::Status},
      {"impacts", Reducer::Impacts},
      {"rest_time", Reducer::RestTime},
      {"lift_time", Reducer::LiftTime},
      {"sticks", Reducer::Sticks},
      {"slips", Reducer::Slips},
      {"stuck_time", Reducer::StuckTime}};
  return reducers;
}

bool takesCondition(Reducer r) {
  return r == Reducer::Any || r == Reducer::All || r == Reducer::FirstTime;
}

bool takesValue(Reducer r) {
  return r == Reducer::AtEnd || r == Reducer::Max || r == Reducer::Min || r == Reducer::Mean;
}

bool takesContact(Reducer r) {
  return r == Reducer::Impacts || r == Reducer::RestTime || r == Reducer::LiftTime ||
         r == Reducer::Sticks || r == Reducer::Slips || r == Reducer::StuckTime;
}

bool isNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// [begin, end) without the blanks at either end.
std::pair<size_t, size_t> trim(const std::string &text, size_t begin, size_t end) {
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin])))
    ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1])))
    --end;
  return {begin, end};
}

// A name at the start of [begin, end) followed by `=` (not `==`): the
// column's name, and where the summary itself begins.
std::optional<std::pair<std::string, size_t>> columnName(const std::string &text, size_t begin,
                                                         size_t end) {
  size_t i = begin;
  while (i < end && isNameChar(text[i]))
    ++i;
  if (i == begin || std::isdigit(static_cast<unsigned char>(text[begin])))
    return std::nullopt;
  size_t name = i;
  while (i < end && std::isspace(static_cast<unsigned char>(text[i])))
    ++i;
  if (i >= end || text[i] != '=' || (i + 1 < end && text[i + 1] == '='))
    return std::nullopt;
  return std::make_pair(text.substr(begin, name - begin), i + 1);
}

// The comparison at parenthesis depth 0 of [begin, end): its position,
// length and kind; npos when there is none.
struct Found {
  size_t at = std::string::npos, length = 0;
  Comparison comparison = Comparison::Greater;
  bool equality = false; // == or !=: not a condition a run can watch
  int count = 0;
};

Found findComparison(const std::string &text, size_t begin, size_t end) {
  Found found;
  int depth = 0;
  for (size_t i = begin; i < end; ++i) {
    char c = text[i];
    depth += (c == '(' || c == '[') - (c == ')' || c == ']');
    if (depth != 0)
      continue;
    bool equals = i + 1 < end && text[i + 1] == '=';
    if ((c == '=' || c == '!') && equals) {
      found.equality = true;
      ++found.count;
      ++i;
    } else if (c == '<' || c == '>') {
      found.at = i;
      found.length = equals ? 2 : 1;
      found.comparison = c == '>' ? (equals ? Comparison::GreaterEqual : Comparison::Greater)
                                  : (equals ? Comparison::LessEqual : Comparison::Less);
      ++found.count;
      i += equals;
    }
  }
  return found;
}

// One summary of the option, in [begin, end) of `text`.
std::optional<int> parseSummary(const std::string &text, size_t begin, size_t end, size_t number,
                                std::vector<SummarySpec> &summaries,
                                std::vector<sema::Addition> &additions, const CommandIo &io) {
  std::tie(begin, end) = trim(text, begin, end);
  SummarySpec spec;
  if (auto named = columnName(text, begin, end)) {
    spec.name = named->first;
    std::tie(begin, end) = trim(text, named->second, end);
  }
  const std::string item = text.substr(begin, end - begin);
  if (spec.name.empty())
    spec.name = item;
  size_t open = item.find('(');
  std::string reducer = item.substr(0, open == std::string::npos ? item.size() : open);
  reducer = item.substr(0, trim(item, 0, reducer.size()).second);
  auto known = reducersByName().find(reducer);
  const std::string list = "at_end, max, min, mean, any, all, first_time, energy_drift, "
                           "constraint_drift, status, impacts, rest_time, lift_time, sticks, "
                           "slips or stuck_time";
  if (known == reducersByName().end())
    return io.usageError("sweep: --summary: '" + item + "' is not one of " + list +
                         (item.empty() ? "" : " (write e.g. max(" + item + "))"));
  spec.reducer = known->second;
  if (takesContact(spec.reducer)) {
    size_t close = item.rfind(')');
    auto [from, to] = open == std::string::npos || close == std::string::npos || close < open
                          ? std::pair<size_t, size_t>{0, 0}
                          : trim(item, open + 1, close);
    if (from == to || close + 1 != item.size())
      return io.usageError("sweep: --summary: " + reducer + " needs a " +
                           (spec.ofFriction() ? "friction" : "contact") +
                           "'s name in parentheses, got '" + item + "'");
    spec.contact = item.substr(from, to - from);
    summaries.push_back(spec);
    return std::nullopt;
  }
  bool needsArgument = takesCondition(spec.reducer) || takesValue(spec.reducer);
  if (!needsArgument) {
    if (open != std::string::npos)
      return io.usageError("sweep: --summary: " + reducer + " takes no argument, got '" + item +
                           "'");
    summaries.push_back(spec);
    return std::nullopt;
  }
  if (open == std::string::npos || item.back() != ')')
    return io.usageError("sweep: --summary: " + reducer +
                         " needs an argument in parentheses, "
                         "got '" +
                         item + "'");
  size_t argBegin = begin + open + 1, argEnd = end - 1;
  if (trim(text, argBegin, argEnd).first == trim(text, argBegin, argEnd).second)
    return io.usageError("sweep: --summary: " + reducer + "() needs an argument");
  Found found = findComparison(text, argBegin, argEnd);
  if (found.equality)
    return io.usageError("sweep: --summary: '" + item +
                         "': a condition compares with >, >=, < or <= (== holds only at "
                         "instants the samples miss)");
  if (takesValue(spec.reducer) && found.count > 0)
    return io.usageError("sweep: --summary: " + reducer + " takes a value, not a condition ('" +
                         item + "')");
  if (takesCondition(spec.reducer) && found.count != 1)
    return io.usageError("sweep: --summary: " + reducer +
                         " takes one condition a > b, a >= b, "
                         "a < b or a <= b, got '" +
                         item + "'");
  spec.output = "#summary" + std::to_string(number);
  sema::Addition addition;
  addition.output = spec.output;
  addition.source = "--summary";
  if (takesCondition(spec.reducer)) {
    spec.comparison = found.comparison;
    addition.text = keepOnly(text, {{argBegin, found.at}});
    addition.minus = keepOnly(text, {{found.at + found.length, argEnd}});
  } else {
    addition.text = keepOnly(text, {{argBegin, argEnd}});
  }
  summaries.push_back(spec);
  additions.push_back(addition);
  return std::nullopt;
}

bool holds(Comparison comparison, double difference) {
  switch (comparison) {
  case Comparison::Greater:
    return difference > 0;
  case Comparison::GreaterEqual:
    return difference >= 0;
  case Comparison::Less:
    return difference < 0;
  case Comparison::LessEqual:
    return difference <= 0;
  }
  return false;
}

} // namespace

std::optional<int> parseSummaries(const std::string &text, std::vector<SummarySpec> &summaries,
                                  std::vector<sema::Addition> &additions, const CommandIo &io) {
  size_t number = 0;
  for (const ListItem &item : splitListItems(text)) {
    auto span = trim(text, item.begin, item.end);
    if (span.first == span.second)
      continue;
    if (auto status = parseSummary(text, item.begin, item.end, ++number, summaries, additions, io))
      return status;
  }
  if (summaries.empty())
    return io.usageError("sweep: --summary names no summary");
  for (size_t i = 0; i < summaries.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (summaries[i].name == summaries[j].name)
        return io.usageError("sweep: --summary: two summaries are named '" + summaries[i].name +
                             "'");
  return std::nullopt;
}

std::optional<int> checkSummaryNames(const std::vector<SummarySpec> &summaries,
                                     const std::vector<std::string> &swept, const CommandIo &io) {
  for (const SummarySpec &summary : summaries) {
    const std::string &name = summary.name;
    if (std::find(swept.begin(), swept.end(), name) != swept.end())
      return io.usageError("sweep: --summary: '" + name +
                           "' is also a swept name (a column of its own): name the summary "
                           "otherwise (other = ...)");
    bool statusColumn = name == "status" && summary.reducer != Reducer::Status;
    if (statusColumn || name == "message")
      return io.usageError("sweep: --summary: '" + name +
                           "' is the name of a built-in column of the result: name the summary "
                           "otherwise (other = ...)");
  }
  return std::nullopt;
}

std::string notNumberMessage(const std::vector<SummarySpec> &summaries,
                             const std::vector<double> &values) {
  std::string names;
  for (size_t i = 0; i < summaries.size() && i < values.size(); ++i) {
    Reducer r = summaries[i].reducer;
    if (std::isnan(values[i]) && r != Reducer::FirstTime && r != Reducer::Status &&
        r != Reducer::RestTime && r != Reducer::LiftTime)
      names += (names.empty() ? "" : ", ") + summaries[i].name;
  }
  return names.empty() ? "" : "not a number (NaN among the samples): " + names;
}

SummaryAccumulator::SummaryAccumulator(const std::vector<SummarySpec> &summaries,
                                       std::vector<size_t> outputs)
    : summaries_(summaries), outputs_(std::move(outputs)), value_(summaries.size(), kNan),
      last_(summaries.size(), 0) {
  for (size_t i = 0; i < summaries.size(); ++i) {
    Reducer r = summaries[i].reducer;
    if (r == Reducer::Any)
      value_[i] = 0;
    else if (r == Reducer::All)
      value_[i] = 1;
    else if (r == Reducer::Mean)
      value_[i] = 0; // the integral so far
  }
}

void SummaryAccumulator::sample(double t, const double *outputs) {
  for (size_t i = 0; i < summaries_.size(); ++i) {
    const SummarySpec &s = summaries_[i];
    if (s.output.empty())
      continue;
    double v = outputs[outputs_[i]];
    double &acc = value_[i];
    switch (s.reducer) {
    case Reducer::AtEnd:
      acc = v;
      break;
    case Reducer::Max:
      acc = samples_ == 0 || v > acc || std::isnan(v) ? v : acc;
      break;
    case Reducer::Min:
      acc = samples_ == 0 || v < acc || std::isnan(v) ? v : acc;
      break;
    case Reducer::Mean: // the trapezoidal rule over the samples
      if (samples_ > 0)
        acc += (t - lastT_) * (v + last_[i]) / 2;
      last_[i] = v;
      break;
    case Reducer::Any:
      acc = acc > 0 || holds(s.comparison, v) ? 1 : 0;
      break;
    case Reducer::All:
      acc = acc > 0 && holds(s.comparison, v) ? 1 : 0;
      break;
    case Reducer::FirstTime:
      if (std::isnan(acc) && holds(s.comparison, v))
        acc = t;
      break;
    default:
      break;
    }
  }
  if (samples_ == 0)
    firstT_ = t;
  lastT_ = t;
  ++samples_;
}

std::vector<double> SummaryAccumulator::values(double energyDrift, double constraintDrift) const {
  std::vector<double> values = value_;
  for (size_t i = 0; i < summaries_.size(); ++i)
    switch (summaries_[i].reducer) {
    case Reducer::Mean: // the time average; the one value when the run has one sample
      values[i] = lastT_ > firstT_ ? value_[i] / (lastT_ - firstT_) : last_[i];
      break;
    case Reducer::EnergyDrift:
      values[i] = energyDrift;
      break;
    case Reducer::ConstraintDrift:
      values[i] = constraintDrift;
      break;
    default:
      break;
    }
  return values;
}

} // namespace mech::driver
