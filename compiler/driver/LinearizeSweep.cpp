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

StateMatrices::StateMatrices(const mechanics::Equations &equations,
                             const std::vector<double> &params)
    : equations_(equations) {
  if (equations.constraints.empty())
    free_.emplace(equations, params);
  else
    constrained_.emplace(equations, params);
}

std::optional<StateMatrix> StateMatrices::at(const mechanics::State &state,
                                             const std::vector<double> &params,
                                             const mechanics::IndependentChoice &choice,
                                             std::string &why) {
  StateMatrix result;
  if (free_) {
    free_->setParams(params);
    mechanics::LinearSample s = free_->at(state);
    result.A = mechanics::stateMatrix(s.M, s.K, s.D);
    if (result.A.empty()) {
      why = "the mass matrix is singular";
      return std::nullopt;
    }
    result.names = stateNames(equations_, nullptr);
    return result;
  }
  constrained_->setParams(params);
  std::optional<mechanics::ReducedLinearization> reduced = constrained_->at(state, choice, why);
  if (!reduced)
    return std::nullopt;
  result.A = reduced->A;
  result.names = stateNames(equations_, &*reduced);
  return result;
}

std::vector<std::string> stateNames(const mechanics::Equations &eq,
                                    const mechanics::ReducedLinearization *reduced) {
  std::vector<std::string> names;
  auto add = [&](size_t j, const char *prime) { names.push_back(eq.coordinates[j] + prime); };
  size_t n = eq.coordinates.size();
  for (size_t j = 0; j < (reduced ? reduced->coordinates.size() : n); ++j)
    add(reduced ? reduced->coordinates[j] : j, "");
  for (size_t j = 0; j < (reduced ? reduced->speeds.size() : n); ++j)
    add(reduced ? reduced->speeds[j] : j, "'");
  return names;
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

std::vector<bool> structuralZeroStates(const std::vector<mechanics::Matrix> &samples) {
  size_t n = samples.empty() ? 0 : samples.front().size();
  std::vector<bool> dropped(n, false);
  // Zero to rounding: the entries come out of solves with the mass matrix,
  // so a structural zero can read 1e-17 of the largest entry.
  std::vector<double> noise;
  for (const mechanics::Matrix &A : samples) {
    double largest = 0;
    for (const auto &row : A)
      for (double v : row)
        largest = std::max(largest, std::abs(v));
    noise.push_back(1e-13 * largest);
  }
  // A state dropped can leave another's column or row zero among the rest
  // (the heading once the lateral position is gone): repeat until none.
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t k = 0; k < n; ++k) {
      if (dropped[k])
        continue;
      bool column = true, row = true;
      for (size_t i = 0; i < samples.size(); ++i)
        for (size_t j = 0; j < n; ++j)
          if (!dropped[j]) {
            column = column && std::abs(samples[i][j][k]) <= noise[i];
            row = row && std::abs(samples[i][k][j]) <= noise[i];
          }
      if (column || row)
        dropped[k] = changed = true;
    }
  }
  return dropped;
}

std::vector<std::complex<double>> keptEigenvalues(const mechanics::Matrix &A,
                                                  const std::vector<bool> &dropped) {
  std::vector<size_t> kept;
  for (size_t k = 0; k < A.size(); ++k)
    if (!dropped[k])
      kept.push_back(k);
  mechanics::Matrix sub(kept.size(), std::vector<double>(kept.size()));
  for (size_t i = 0; i < kept.size(); ++i)
    for (size_t j = 0; j < kept.size(); ++j)
      sub[i][j] = A[kept[i]][kept[j]];
  std::vector<std::complex<double>> values = mechanics::eigenvaluesOf(sub);
  // By real part, largest first; real parts equal to rounding (a neutral
  // system's) by imaginary part, so that the order does not flicker.
  auto real = [](std::complex<double> z) {
    return std::abs(z.real()) <= 1e-12 * (1 + std::abs(z)) ? 0.0 : z.real();
  };
  std::sort(values.begin(), values.end(), [&](auto x, auto y) {
    return real(x) != real(y) ? real(x) > real(y) : x.imag() > y.imag();
  });
  return values;
}

} // namespace mech::driver
