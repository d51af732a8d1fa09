// The first-order matrix A at a state for either kind of model, and its
// structural zero modes (mechanics/StateMatrices.h).
#include "mechanics/StateMatrices.h"

#include <algorithm>
#include <cmath>

namespace mech::mechanics {

StateMatrices::StateMatrices(const Equations &equations, const std::vector<double> &params)
    : equations_(equations) {
  if (equations.constraints.empty())
    free_.emplace(equations, params);
  else
    constrained_.emplace(equations, params);
}

std::optional<StateMatrix> StateMatrices::at(const State &state, const std::vector<double> &params,
                                             const IndependentChoice &choice, std::string &why) {
  StateMatrix result;
  if (free_) {
    free_->setParams(params);
    LinearSample s = free_->at(state);
    result.A = stateMatrix(s.M, s.K, s.D);
    if (result.A.empty()) {
      why = "the mass matrix is singular";
      return std::nullopt;
    }
    result.names = stateNames(equations_, nullptr);
    return result;
  }
  constrained_->setParams(params);
  std::optional<ReducedLinearization> reduced = constrained_->at(state, choice, why);
  if (!reduced)
    return std::nullopt;
  result.A = reduced->A;
  result.names = stateNames(equations_, &*reduced);
  return result;
}

std::vector<std::string> stateNames(const Equations &eq, const ReducedLinearization *reduced) {
  std::vector<std::string> names;
  auto add = [&](size_t j, const char *prime) { names.push_back(eq.coordinates[j] + prime); };
  size_t n = eq.coordinates.size();
  for (size_t j = 0; j < (reduced ? reduced->coordinates.size() : n); ++j)
    add(reduced ? reduced->coordinates[j] : j, "");
  for (size_t j = 0; j < (reduced ? reduced->speeds.size() : n); ++j)
    add(reduced ? reduced->speeds[j] : j, "'");
  return names;
}

std::vector<bool> structuralZeroStates(const std::vector<Matrix> &samples) {
  size_t n = samples.empty() ? 0 : samples.front().size();
  std::vector<bool> dropped(n, false);
  // Zero to rounding: the entries come out of solves with the mass matrix,
  // so a structural zero can read 1e-17 of the largest entry.
  std::vector<double> noise;
  for (const Matrix &A : samples) {
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

std::vector<std::complex<double>> keptEigenvalues(const Matrix &A,
                                                  const std::vector<bool> &dropped) {
  std::vector<size_t> kept;
  for (size_t k = 0; k < A.size(); ++k)
    if (!dropped[k])
      kept.push_back(k);
  Matrix sub(kept.size(), std::vector<double>(kept.size()));
  for (size_t i = 0; i < kept.size(); ++i)
    for (size_t j = 0; j < kept.size(); ++j)
      sub[i][j] = A[kept[i]][kept[j]];
  std::vector<std::complex<double>> values = eigenvaluesOf(sub);
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

} // namespace mech::mechanics
