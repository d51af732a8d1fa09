// The adaptive step loop, after the driver of Hairer's DOPRI5 and DOP853.
#include "runtime/AdaptiveDriver.h"

#include "runtime/StepOutput.h"

#include <cmath>

namespace mech::runtime {

namespace {

// A step shorter than this relative to t no longer moves t reliably.
constexpr double kUnderflow = 1e-14;

} // namespace

IntegrationResult integrateAdaptive(EmbeddedPair &pair, const Eigen::VectorXd &x0,
                                    const IntegratorOptions &options, StepOutput &output,
                                    StiffnessMonitor *monitor) {
  RhsEvaluator &f = pair.rhs();
  IntegrationStats stats;
  auto stop = [&](Failure failure) {
    stats.rhsEvaluations = f.evaluations();
    return resultOf(failure, stats);
  };

  const double direction = output.direction();
  const double hmax = std::abs(options.tEnd - options.t0);
  Eigen::VectorXd projected(x0.size());
  Failure ended;
  if (hmax == 0)
    return stop({Outcome::Finished});
  if (!pair.start(options.t0, x0))
    return stop(f.lastFailure());

  const Tolerances tolerances{options.rtol, options.atol};
  double h = options.step > 0 ? direction * std::min(options.step, hmax)
                              : initialStep(f, options.t0, x0, pair.derivative(), pair.order(),
                                            tolerances, hmax, direction);
  StepSizeController controller(pair.controllerSettings());
  double t = options.t0;
  bool lastAttemptFailed = false; // whether the last rejection came from a failure
  Failure lastFailure;

  for (;;) {
    if (stats.accepted + stats.rejected >= options.maxSteps)
      return stop({Outcome::MaxSteps, t});
    if (std::abs(h) < kUnderflow * std::abs(t) || t + h == t)
      return stop(lastAttemptFailed ? lastFailure : Failure{Outcome::StepSizeUnderflow, t});
    // Stretch a step that would stop just short of the end, as DOPRI5 does.
    bool last = direction * (t + 1.01 * h - options.tEnd) > 0;
    if (last)
      h = options.tEnd - t;

    double error = 0;
    bool evaluated = pair.attempt(t, h, error);
    // Read before accept() moves the stages on.
    const double hRho = monitor && evaluated ? pair.stiffnessProduct(h) : 0;
    if (evaluated && !(error <= 1)) { // NaN too
      ++stats.rejected;
      lastAttemptFailed = false;
      h = controller.afterReject(h, error);
      continue;
    }
    // Samples inside the step and events need the dense output, which may
    // cost more evaluations (DOP853's three), so it is only prepared for them.
    const double tNew = last ? options.tEnd : t + h;
    if (!evaluated || !pair.accept(t, h, output.needsInterpolant(tNew))) {
      ++stats.rejected;
      lastAttemptFailed = true;
      lastFailure = f.lastFailure();
      h = controller.afterFailure(h);
      continue;
    }
    ++stats.accepted;
    lastAttemptFailed = false;

    auto interpolate = [&](double ts, Eigen::VectorXd &out) {
      pair.interpolate((ts - t) / h, out);
    };
    if (!output.step(t, tNew, pair.state(), interpolate, ended))
      return stop(ended);
    if (options.project) {
      // The projected state starts the next step, with F evaluated afresh.
      projected = pair.state();
      if (!options.project(tNew, projected.data()))
        return stop({Outcome::RhsFailed, tNew});
      if (projected != pair.state() && !pair.start(tNew, projected))
        return stop(f.lastFailure());
    }
    if (options.stepped && !options.stepped(tNew, pair.state().data()))
      return stop({Outcome::RhsFailed, tNew});
    if (last || (monitor && monitor->switchAfter(tNew, h, pair.state(), hRho)))
      return stop({Outcome::Finished});
    h = controller.afterAccept(h, error, hmax);
    t = tNew;
  }
}

} // namespace mech::runtime
