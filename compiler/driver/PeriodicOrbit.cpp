// Newton's method on a return map, the Floquet multipliers and the verdict
// (driver/PeriodicOrbit.h).
#include "driver/PeriodicOrbit.h"

#include "driver/AnalysisText.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>

namespace mech::driver {

namespace {

using analysis_text::number;

// How far from the unit circle a multiplier must be to decide stability:
// the multipliers come from an integration at 1e-12, so 1e-6 is far above
// their error, and far below any margin that matters.
constexpr double kCircleBand = 1e-6;
// A family's multiplier 1 (and an energy kept over a period) within this.
constexpr double kFamilyBand = 1e-5;
constexpr double kEnergyKept = 1e-8;

double infNorm(const std::vector<double> &v) {
  double m = 0;
  for (double x : v)
    m = std::max(m, std::abs(x));
  return m;
}

// |P(x) - x| / max(1, |x|), with the constraints' and the family's
// conditions.
struct Residual {
  std::vector<double> values;         // P(x) - x, the constraints' residuals, the family's rows
  std::vector<double> constraintRows; // d/dx of the constraints' residuals, N per row
  double size = 0;
};

struct Newton {
  ReturnMap &map;
  const PeriodicRequest &request;
  std::string &error;
  size_t N;

  Residual residual(const std::vector<double> &x, const ReturnMapValue &v) {
    Residual r;
    for (size_t i = 0; i < N; ++i)
      r.values.push_back(v.x[i] - x[i]);
    double scale = std::max(1.0, infNorm(x));
    r.size = infNorm(r.values) / scale;
    std::vector<double> constraints;
    map.constraintRows(x, constraints, r.constraintRows);
    r.values.insert(r.values.end(), constraints.begin(), constraints.end());
    r.size = std::max(r.size, infNorm(constraints) / scale);
    if (request.energy) {
      double e = map.energy(x.data()) - *request.energy;
      double s = std::max(map.energyScale(x.data()), 1e-300);
      r.values.push_back(e);
      r.size = std::max(r.size, std::abs(e) / s);
    }
    if (request.fixed) {
      double e = x[*request.fixed] - request.guess[*request.fixed];
      r.values.push_back(e);
      r.size = std::max(r.size, std::abs(e) / scale);
    }
    return r;
  }

  // The Newton step: least squares on [dP/dx - I; constraint rows; family
  // rows] d = -r.
  std::vector<double> step(const std::vector<double> &x, const ReturnMapValue &v,
                           const Residual &r) {
    const size_t rows = r.values.size();
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(static_cast<long>(rows), static_cast<long>(N));
    for (size_t i = 0; i < N; ++i)
      for (size_t j = 0; j < N; ++j)
        A(static_cast<long>(i), static_cast<long>(j)) = v.jacobian[i * N + j] - (i == j ? 1 : 0);
    long row = static_cast<long>(N);
    for (size_t k = 0; k * N < r.constraintRows.size(); ++k, ++row)
      for (size_t j = 0; j < N; ++j)
        A(row, static_cast<long>(j)) = r.constraintRows[k * N + j];
    if (request.energy) {
      std::vector<double> probe = x;
      for (size_t j = 0; j < N; ++j) {
        double h = 1e-7 * std::max(1.0, std::abs(x[j]));
        probe[j] = x[j] + h;
        double plus = map.energy(probe.data());
        probe[j] = x[j] - h;
        double minus = map.energy(probe.data());
        probe[j] = x[j];
        A(row, static_cast<long>(j)) = (plus - minus) / (2 * h);
      }
      ++row;
    }
    if (request.fixed)
      A(row, static_cast<long>(*request.fixed)) = 1;
    Eigen::VectorXd b(static_cast<long>(rows));
    for (size_t i = 0; i < rows; ++i)
      b(static_cast<long>(i)) = -r.values[i];
    Eigen::VectorXd d = A.colPivHouseholderQr().solve(b);
    return {d.data(), d.data() + N};
  }

  // Newton's step from x, halved until the residual falls; false (with
  // `why` the last failure of the map) when no step down to 1/1024 does.
  bool backtrack(std::vector<double> &x, std::optional<ReturnMapValue> &value, Residual &r,
                 std::string &why) {
    std::vector<double> d = step(x, *value, r);
    for (double lambda = 1; lambda >= 1.0 / 1024; lambda /= 2) {
      std::vector<double> trial = x;
      for (size_t i = 0; i < N; ++i)
        trial[i] += lambda * d[i];
      std::optional<ReturnMapValue> v = map(trial, true, why);
      if (!v)
        continue;
      Residual rt = residual(trial, *v);
      if (rt.size < r.size) {
        x = std::move(trial), value = std::move(v), r = std::move(rt);
        return true;
      }
    }
    return false;
  }
};

// The eigenvalues of dP/dx on the constraints' tangent space (the null
// space of `rows`, k x N; all of it without constraints), largest modulus
// first. Off that space a constrained model's motion drifts without
// growing or shrinking, which would add multipliers 1 of no meaning.
std::vector<std::complex<double>> eigenvalues(const std::vector<double> &jacobian, size_t N,
                                              const std::vector<double> &rows) {
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const auto n = static_cast<long>(N);
  Eigen::MatrixXd P = Eigen::Map<const RowMajor>(jacobian.data(), n, n);
  if (!rows.empty()) {
    const auto k = static_cast<long>(rows.size() / N);
    Eigen::MatrixXd G = Eigen::Map<const RowMajor>(rows.data(), k, n);
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(G, Eigen::ComputeFullV);
    svd.setThreshold(1e-10);
    const long tangent = static_cast<long>(N) - svd.rank();
    Eigen::MatrixXd B = svd.matrixV().rightCols(tangent);
    P = B.transpose() * P * B;
  }
  Eigen::EigenSolver<Eigen::MatrixXd> solver(P, false);
  std::vector<std::complex<double>> mu;
  for (long i = 0; i < solver.eigenvalues().size(); ++i)
    mu.push_back(solver.eigenvalues()(i));
  std::stable_sort(mu.begin(), mu.end(), [](auto a, auto b) { return std::abs(a) > std::abs(b); });
  return mu;
}

// Removes the multiplier nearest `value` from `mu`, returning it.
std::complex<double> dropNearest(std::vector<std::complex<double>> &mu, double value) {
  auto nearest = std::min_element(mu.begin(), mu.end(), [&](auto a, auto b) {
    return std::abs(a - value) < std::abs(b - value);
  });
  std::complex<double> z = *nearest;
  mu.erase(nearest);
  return z;
}

// Drops the structural multipliers: with a section the 0 along the orbit,
// for a family the 1 along it (an error when there is none).
bool dropStructural(PeriodicOrbit &orbit, bool section, const PeriodicRequest &request,
                    std::string &error) {
  if (section) {
    auto z = dropNearest(orbit.multipliers, 0);
    orbit.dropped.push_back(analysis_text::complexNumber(z) +
                            " (along the orbit: the section fixes the phase)");
  }
  if (orbit.family) {
    auto z = dropNearest(orbit.multipliers, 1);
    if (std::abs(z - 1.0) > kFamilyBand) {
      error = "no multiplier 1 at the periodic motion found (the nearest is " +
              analysis_text::complexNumber(z) + "), so it belongs to no family: leave out " +
              (request.energy ? "--energy" : "--fix");
      return false;
    }
    orbit.dropped.push_back(analysis_text::complexNumber(z) +
                            " (along the family of periodic motions)");
  }
  return true;
}

void decide(PeriodicOrbit &orbit) {
  const std::vector<std::complex<double>> &mu = orbit.multipliers;
  if (mu.empty()) {
    orbit.verdict = OrbitVerdict::LinearlyStable;
    orbit.criterion = "no multiplier besides the family's: the motions near it on the family are "
                      "periodic too (orbitally stable)";
    return;
  }
  std::complex<double> top = mu.front();
  double largest = std::abs(top);
  if (largest < 1 - kCircleBand) {
    orbit.verdict = OrbitVerdict::Stable;
    orbit.criterion =
        "every multiplier lies inside the unit circle (largest modulus " + number(largest) + ")";
  } else if (largest > 1 + kCircleBand) {
    orbit.verdict = OrbitVerdict::Unstable;
    orbit.criterion =
        "a multiplier lies outside the unit circle: " + analysis_text::complexNumber(top) +
        " (modulus " + number(largest) + ")";
  } else if (std::abs(top.imag()) > kCircleBand) {
    orbit.verdict = OrbitVerdict::LinearlyStable;
    orbit.criterion = std::string("the largest multipliers are a complex pair on the unit circle "
                                  "(modulus 1 to 1e-6)") +
                      (mu.size() > 2 ? ", the others inside it" : "") +
                      ": stable to linear order (elliptic); the nonlinear terms decide beyond it";
  } else {
    orbit.verdict = OrbitVerdict::Undetermined;
    orbit.criterion = "a multiplier lies at " + std::string(top.real() > 0 ? "+1" : "-1") +
                      " (to 1e-6): a bifurcation point, where the linearization does not decide";
  }
}

// The family's options against the model: --energy or --fix exactly when
// its motions keep T + V (its own equations do, and so do the jumps on the
// way from the guess). False with `error`.
bool checkFamily(ReturnMap &map, const PeriodicRequest &request, const ReturnMapValue &atGuess,
                 std::string &error) {
  bool kept = map.conservativeFlow() && atGuess.energyJump <= kEnergyKept;
  bool member = request.energy || request.fixed;
  if (kept && !member && map.setup().section) {
    error = "the model's motions keep their energy T + V (no forces beyond the potential's, and "
            "the jumps on the way keep it to 1e-8), so its periodic motions come in families "
            "(a multiplier 1 and a singular Newton matrix): pick one by its energy with --energy "
            "E, or hold a coordinate or velocity at its guess's value with --fix NAME";
    return false;
  }
  if (member && !kept) {
    error = std::string(request.energy ? "--energy" : "--fix") +
            " picks a member of a family of periodic motions, but the model's motions change "
            "their energy T + V (" +
            (map.conservativeFlow() ? "at the jumps on the way"
                                    : "by forces beyond the potential's, or through t") +
            "): its periodic motions are isolated, so leave it out";
    return false;
  }
  return true;
}

} // namespace

std::string verdictText(OrbitVerdict verdict) {
  switch (verdict) {
  case OrbitVerdict::Stable:
    return "stable";
  case OrbitVerdict::LinearlyStable:
    return "linearly stable";
  case OrbitVerdict::Unstable:
    return "unstable";
  default:
    return "undetermined";
  }
}

double largestModulus(const PeriodicOrbit &orbit) {
  return orbit.multipliers.empty() ? 0 : std::abs(orbit.multipliers.front());
}

std::optional<PeriodicOrbit> findPeriodicOrbit(ReturnMap &map, const PeriodicRequest &request,
                                               std::string &error) {
  const size_t N = map.dimension();
  Newton newton{map, request, error, N};
  std::vector<double> x = request.guess;
  std::optional<ReturnMapValue> value = map(x, true, error);
  if (!value) {
    error = "from the guess: " + error;
    return std::nullopt;
  }
  if (!checkFamily(map, request, *value, error))
    return std::nullopt;
  Residual r = newton.residual(x, *value);
  int iteration = 0;
  for (; r.size > request.tolerance; ++iteration) {
    if (iteration == request.maxIterations) {
      error = "Newton's method did not converge in " + std::to_string(iteration) +
              " iterations (|P(x) - x| = " + number(r.size) + "): try a guess nearer the motion";
      return std::nullopt;
    }
    std::string why;
    if (!newton.backtrack(x, value, r, why)) {
      // The integration's own error bounds how small the residual gets.
      if (r.size <= 1e3 * request.tolerance)
        break;
      error = "Newton's method stalls at |P(x) - x| = " + number(r.size) + " after " +
              std::to_string(iteration) + " iterations" + (why.empty() ? "" : " (" + why + ")") +
              ": no periodic motion near the guess";
      return std::nullopt;
    }
  }
  if (std::string rest = map.setup().section ? map.restingAt(x) : ""; !rest.empty()) {
    error = "Newton's method converged to " + rest +
            ", whose returns to the section are no periodic motion: start from a guess on one";
    return std::nullopt;
  }
  PeriodicOrbit orbit;
  orbit.start = x;
  orbit.iterations = iteration;
  orbit.residual = r.size;
  orbit.energy = map.energy(x.data());
  orbit.family = request.energy || request.fixed;
  orbit.multipliers = eigenvalues(value->jacobian, N, r.constraintRows);
  orbit.map = std::move(*value);
  if (!dropStructural(orbit, map.setup().section.has_value(), request, error))
    return std::nullopt;
  decide(orbit);
  return orbit;
}

} // namespace mech::driver
