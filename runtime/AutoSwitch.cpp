// The automatic switch from DOPRI5 to Radau IIA.
#include "runtime/AutoSwitch.h"

#include "runtime/AdaptiveDriver.h"
#include "runtime/Dopri5.h"
#include "runtime/Radau5.h"

#include <Eigen/Eigenvalues>

#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>

namespace mech::runtime {

namespace {

// DOPRI5's stability region reaches about 3.3 along the negative real axis;
// Hairer's DOPRI5 calls a step stability-limited past 3.25, and the problem
// stiff after 15 such steps (6 others in between start the count again).
constexpr double kStabilityEdge = 3.25;
constexpr int kStiffSteps = 15, kNonstiffReset = 6;
// A long explicit run, headed for more than kLongRun further steps at its
// present step size, has the spectrum of dF/dx at its state looked at every
// kCheckEvery steps: Hairer's test misses steps held short by a decaying
// fast mode well inside the stability region (a critically damped spring
// holds DOPRI5 near h·|λ| = 1), and the spectrum says whether a fast
// oscillation is real motion.
constexpr long kCheckEvery = 200;
constexpr double kLongRun = 1000;
// The steps are held by a fast decaying mode when they span this much of
// its time constant, h·|λ| (the slow motion alone would allow steps
// kFastGap times longer).
constexpr double kHeldByFastMode = 0.5;
// The steps resolve an oscillation when h·|λ| is above this (1/20 of a
// radian per step or more): it is then what holds them short.
constexpr double kResolved = 0.05;
// ... and is excited when h·|λ| stays below this, well inside the stability
// region: accuracy, not stability, then holds the steps.
constexpr double kExcitedBelow = 2;

std::string threeDigits(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", value);
  return buffer;
}

// "λ = -1e+06 1/s" or "λ = -0.5 ± 4.47e+04i 1/s (7.12e+03 Hz)".
std::string describe(std::complex<double> lambda) {
  std::string text = "λ = " + threeDigits(lambda.real());
  if (lambda.imag() == 0)
    return text + " 1/s";
  return text + " ± " + threeDigits(std::abs(lambda.imag())) + "i 1/s (" +
         threeDigits(std::abs(lambda.imag()) / (2 * std::numbers::pi)) + " Hz)";
}

class AutoMonitor final : public StiffnessMonitor {
public:
  AutoMonitor(const IntegratorOptions &options, long n) : o_(options), n_(n), J_(n * n) {}

  bool switchAfter(double t, double h, const Eigen::VectorXd &x, double hRho) override {
    ++steps_;
    if (hRho > kStabilityEdge) {
      nonstiff_ = 0;
      if (++stiff_ >= kStiffSteps)
        return decide(t, x,
                      "for " + std::to_string(kStiffSteps) +
                          " steps the step size was held by stability, not accuracy (h·ρ ≈ " +
                          threeDigits(hRho) + ")");
    } else if (++nonstiff_ >= kNonstiffReset) {
      stiff_ = 0;
    }
    if (steps_ % kCheckEvery == 0 && std::abs(o_.tEnd - t) > kLongRun * std::abs(h))
      return inspect(t, h, x);
    return false;
  }

  bool switched() const { return switched_; }
  double switchTime() const { return switchTime_; }
  const Eigen::VectorXd &switchState() const { return switchState_; }
  std::vector<std::string> notes, warnings;

private:
  std::optional<FastModes> modesAt(double t, const Eigen::VectorXd &x) {
    if (o_.jacobian(t, x.data(), J_.data()) != 0)
      return std::nullopt;
    return fastModes(J_.data(), n_, std::abs(o_.tEnd - t));
  }

  // Stiff: switch, saying why and what the fast motion is.
  bool decide(double t, const Eigen::VectorXd &x, const std::string &why) {
    stiff_ = 0;
    std::optional<FastModes> modes = modesAt(t, x);
    std::string note = "switched from dopri5 to radau at t = " + formatTime(t) + ": " + why;
    if (modes && modes->any) {
      note += "; the fastest mode of dF/dx there: " + describe(modes->fastest);
      if (modes->persistentOscillation)
        note += "; the oscillation " + describe(*modes->persistentOscillation) +
                " does not decay, but its amplitude is below the tolerance (else it would "
                "have held the steps by accuracy), and radau damps it";
    }
    notes.push_back(note);
    switched_ = true;
    switchTime_ = t;
    switchState_ = x;
    return true;
  }

  // A long explicit run: a fast oscillation that persists and holds the
  // steps short is real motion: say so, once, and go on resolving it.
  // Otherwise steps held short by a fast mode that decays are stiffness.
  bool inspect(double t, double h, const Eigen::VectorXd &x) {
    std::optional<FastModes> modes = modesAt(t, x);
    if (!modes || !modes->any)
      return false;
    if (modes->persistentOscillation) {
      // Resolved, and not at the edge of stability (where its amplitude is
      // below the tolerance and Hairer's test will switch): excited.
      const double hLambda = std::abs(*modes->persistentOscillation) * std::abs(h);
      if (!warned_ && hLambda >= kResolved && hLambda < kExcitedBelow)
        warn(t, h, *modes->persistentOscillation);
      return false;
    }
    if (std::abs(modes->fastest) * std::abs(h) < kHeldByFastMode)
      return false;
    return decide(t, x,
                  "the steps were held short by a fast mode that decays (h·|λ| ≈ " +
                      threeDigits(std::abs(modes->fastest) * std::abs(h)) + ", " +
                      threeDigits(std::abs(modes->fastest) / modes->slowest) +
                      " times the slowest mode's |λ|)");
  }

  void warn(double t, double h, std::complex<double> lambda) {
    warned_ = true;
    warnings.push_back(
        "at t = " + formatTime(t) + " a fast oscillation, " + describe(lambda) +
        " of dF/dx, is excited and does not decay during the run: it is real "
        "motion, which an implicit method would damp away, so --method auto keeps dopri5 to "
        "resolve it (about " +
        threeDigits(std::abs(o_.tEnd - t) / std::abs(h)) +
        " more steps at the present step size); if the oscillation is of no interest, damp "
        "it in the model or accept its loss with --method radau");
  }

  const IntegratorOptions &o_;
  long n_;
  std::vector<double> J_;
  long steps_ = 0;
  int stiff_ = 0, nonstiff_ = 0;
  bool warned_ = false, switched_ = false;
  double switchTime_ = 0;
  Eigen::VectorXd switchState_;
};

} // namespace

FastModes fastModes(const double *J, long n, double span) {
  FastModes modes;
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Eigen::Map<const RowMajor> A(J, n, n);
  if (n == 0 || !A.allFinite())
    return modes;
  Eigen::EigenSolver<Eigen::MatrixXd> solver(Eigen::MatrixXd(A), /*computeEigenvectors=*/false);
  if (solver.info() != Eigen::Success)
    return modes;
  const Eigen::VectorXcd values = solver.eigenvalues();
  const double largest = values.cwiseAbs().maxCoeff();
  if (!(largest > 0))
    return modes;
  // Below this a magnitude is a zero that rounding left (a cyclic
  // coordinate's eigenvalue).
  const double zero = 1e-9 * largest;
  modes.slowest = std::numeric_limits<double>::infinity();
  for (const std::complex<double> &lambda : values)
    if (std::abs(lambda) > zero)
      modes.slowest = std::min(modes.slowest, std::abs(lambda));
  double leastDecay = std::numeric_limits<double>::infinity();
  for (const std::complex<double> &lambda : values) {
    if (std::abs(lambda) < FastModes::kFastGap * modes.slowest || lambda.imag() < 0)
      continue;
    if (!modes.any || std::abs(lambda) > std::abs(modes.fastest))
      modes.fastest = lambda;
    modes.any = true;
    const double decay = std::max(0.0, -lambda.real());
    if (lambda.imag() > 0 && 2 * decay * span < 1 && decay < leastDecay) {
      leastDecay = decay;
      modes.persistentOscillation = lambda;
    }
  }
  return modes;
}

IntegrationResult integrateAuto(RhsEvaluator &rhs, const Eigen::VectorXd &x0,
                                const IntegratorOptions &options, StepOutput &output) {
  AutoMonitor monitor(options, rhs.dimension());
  Dopri5 pair(rhs, {options.rtol, options.atol});
  IntegrationResult result = integrateAdaptive(pair, x0, options, output, &monitor);
  if (monitor.switched()) {
    IntegratorOptions rest = options;
    rest.t0 = monitor.switchTime();
    rest.step = 0; // Radau chooses its own first step
    rest.maxSteps = std::max(1L, options.maxSteps - result.stats.accepted - result.stats.rejected);
    const IntegrationStats explicitPart = result.stats;
    result = integrateRadau(rhs, monitor.switchState(), rest, output);
    result.stats.accepted += explicitPart.accepted;
    result.stats.rejected += explicitPart.rejected;
  }
  result.notes = monitor.notes;
  result.warnings = monitor.warnings;
  return result;
}

} // namespace mech::runtime
