// RK4 at a fixed step with Hermite sampling.
#include "runtime/Rk4Driver.h"

#include "runtime/Hermite.h"
#include "runtime/RungeKuttaStages.h"
#include "runtime/StepOutput.h"
#include "runtime/TimeGrid.h"

namespace mech::runtime {

namespace {

constexpr double kHalf[] = {0.5};
constexpr double kSecondHalf[] = {0, 0.5};
constexpr double kFull[] = {0, 0, 1};
constexpr double kWeights[] = {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6};

} // namespace

IntegrationResult integrateRk4(RhsEvaluator &f, const Eigen::VectorXd &x0,
                               const IntegratorOptions &options, const SampleCallback &sample) {
  IntegrationResult result;
  auto stop = [&](Failure failure) {
    result.stats.rhsEvaluations = f.evaluations();
    return resultOf(failure, result.stats);
  };

  StepOutput output(options, sample, x0.size());
  TimeGrid steps(options.t0, options.tEnd, options.step);
  steps.advance(); // t0 is where we are
  Eigen::VectorXd y = x0, yNew(x0.size()), stageState(x0.size());
  Failure ended;
  if (!output.begin(options.t0, y, ended))
    return stop(ended);
  if (steps.done())
    return stop({Outcome::Finished});

  // Columns: F at the step's start, the three inner stages, F at its end
  // (which starts the next step).
  RungeKuttaStages stages(x0.size(), 5);
  Eigen::MatrixXd &k = stages.k;
  if (!stages.evaluate(f, 0, options.t0, y))
    return stop(f.lastFailure());

  double t = options.t0;
  for (; !steps.done(); steps.advance()) {
    if (result.stats.accepted >= options.maxSteps)
      return stop({Outcome::MaxSteps, t});
    const double tNew = steps.next(), h = tNew - t;
    stages.combine(y, h, kHalf, stageState);
    if (!stages.evaluate(f, 1, t + h / 2, stageState))
      return stop(f.lastFailure());
    stages.combine(y, h, kSecondHalf, stageState);
    if (!stages.evaluate(f, 2, t + h / 2, stageState))
      return stop(f.lastFailure());
    stages.combine(y, h, kFull, stageState);
    if (!stages.evaluate(f, 3, tNew, stageState))
      return stop(f.lastFailure());
    stages.combine(y, h, kWeights, yNew);
    if (!f.checkFinite(tNew, yNew.data()) || !stages.evaluate(f, 4, tNew, yNew))
      return stop(f.lastFailure());
    ++result.stats.accepted;

    auto interpolate = [&](double ts, Eigen::VectorXd &out) {
      hermite((ts - t) / h, h, y, yNew, k.col(0), k.col(4), out);
    };
    if (!output.step(t, tNew, yNew, interpolate, ended))
      return stop(ended);
    if (options.project) {
      stageState = yNew;
      if (!options.project(tNew, yNew.data()))
        return stop({Outcome::RhsFailed, tNew});
      if (yNew != stageState && !stages.evaluate(f, 4, tNew, yNew))
        return stop(f.lastFailure());
    }
    if (options.stepped && !options.stepped(tNew, yNew.data()))
      return stop({Outcome::RhsFailed, tNew});
    y.swap(yNew);
    k.col(0) = k.col(4);
    t = tNew;
  }
  return stop({Outcome::Finished});
}

} // namespace mech::runtime
