// The entry point: checks the options, picks the method, and words outcomes.
#include "runtime/Integrator.h"

#include "runtime/AdaptiveDriver.h"
#include "runtime/AutoSwitch.h"
#include "runtime/Bdf.h"
#include "runtime/Dop853.h"
#include "runtime/Dopri5.h"
#include "runtime/Radau5.h"
#include "runtime/RhsEvaluator.h"
#include "runtime/Rk4Driver.h"
#include "runtime/VariationalMidpoint.h"

#include <cmath>
#include <stdexcept>

namespace mech::runtime {

namespace {

void validate(const IntegratorOptions &o, long dimension, const LagrangianForm *lagrangian) {
  auto require = [](bool condition, const char *what) {
    if (!condition)
      throw std::invalid_argument(std::string("integrator options: ") + what);
  };
  require(std::isfinite(o.t0) && std::isfinite(o.tEnd), "t0 and tEnd must be finite");
  require(o.dt > 0 && std::isfinite(o.dt), "dt must be positive");
  require(std::isfinite(o.step) && o.step >= 0, "step must not be negative");
  if (o.method == Method::Rk4) {
    require(o.step > 0, "RK4 needs a positive step");
  } else if (o.method == Method::Midpoint) {
    require(o.step > 0, "the midpoint method needs a positive step");
    require(lagrangian && lagrangian->momentumAndForce && lagrangian->massMatrix,
            "the midpoint method needs the momenta, forces and mass matrix of the Lagrangian");
    require(lagrangian->coordinates >= 0 && 2 * lagrangian->coordinates == dimension,
            "the midpoint method needs a state of the coordinates and their velocities");
  } else {
    require(std::isfinite(o.rtol) && o.rtol >= 0, "rtol must not be negative");
    // A component at zero has no relative scale.
    require(std::isfinite(o.atol) && o.atol > 0, "atol must be positive");
  }
  if (o.method == Method::Radau) {
    require(static_cast<bool>(o.jacobian),
            "method radau needs the Jacobian of the right-hand side");
    require(!o.fixedStep || o.step > 0, "a fixed-step radau run needs a positive step");
  }
  if (o.algebraicFrom >= 0) {
    require(o.method == Method::Radau, "only method radau integrates a DAE");
    require(o.algebraicFrom <= dimension, "the DAE has more differential components than x");
    require(!o.project, "a DAE keeps its constraints itself: no projection");
    require(o.auxiliaryFrom < 0 ||
                (o.auxiliaryFrom >= o.algebraicFrom && o.auxiliaryFrom <= dimension),
            "the auxiliary components are algebraic ones");
  }
  if (o.method == Method::Auto)
    require(static_cast<bool>(o.jacobian), "method auto needs the Jacobian of the right-hand side");
  if (o.method == Method::Bdf) {
    require(static_cast<bool>(o.jacobian), "method bdf needs the Jacobian of the right-hand side");
    require(!o.fixedStep, "method bdf has no fixed-step runs (a fixed order needs past values)");
  }
}

} // namespace

std::string IntegrationResult::message() const {
  std::string at = " at t = " + formatTime(failureTime);
  switch (outcome) {
  case Outcome::Finished:
    return "finished";
  case Outcome::StepSizeUnderflow:
    return "step size underflow" + at;
  case Outcome::NonFinite:
    if (failureComponent < 0)
      return "non-finite value" + at;
    return "non-finite value in component " + std::to_string(failureComponent) + at;
  case Outcome::RhsFailed:
    return "the right-hand side failed with status " + std::to_string(rhsStatus) + at;
  case Outcome::MaxSteps:
    return "maximum number of steps (" + std::to_string(stats.accepted + stats.rejected) +
           ") reached" + at;
  case Outcome::Interrupted:
    return "interrupted" + at;
  case Outcome::NoConvergence:
    return "the implicit equations of the step did not converge" + at;
  case Outcome::Stopped:
    return "stopped by event " + std::to_string(event) + at;
  }
  return "unknown outcome";
}

IntegrationResult integrate(const RightHandSide &f, std::vector<double> x0,
                            const IntegratorOptions &options, const SampleCallback &sample,
                            const LagrangianForm *lagrangian) {
  const long n = static_cast<long>(x0.size());
  validate(options, n, lagrangian);
  if (int component = firstNonFinite(x0.data(), n); component >= 0) {
    IntegrationResult result;
    result.outcome = Outcome::NonFinite;
    result.failureTime = options.t0;
    result.failureComponent = component;
    return result;
  }
  const Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(x0.data(), n);
  RhsEvaluator rhs(f, n);
  const Tolerances tolerances{options.rtol, options.atol};
  // The methods that can continue one another share the output from t0.
  StepOutput output(options, sample, n);
  const bool shared = options.method == Method::Dopri5 || options.method == Method::Dop853 ||
                      options.method == Method::Radau || options.method == Method::Auto;
  if (Failure ended; shared && !output.begin(options.t0, x, ended))
    return resultOf(ended, {});
  switch (options.method) {
  case Method::Dopri5: {
    Dopri5 pair(rhs, tolerances);
    return integrateAdaptive(pair, x, options, output);
  }
  case Method::Dop853: {
    Dop853 pair(rhs, tolerances);
    return integrateAdaptive(pair, x, options, output);
  }
  case Method::Auto:
    return integrateAuto(rhs, x, options, output);
  case Method::Rk4:
    return integrateRk4(rhs, x, options, sample);
  case Method::Midpoint:
    return integrateMidpoint(rhs, *lagrangian, x, options, sample);
  case Method::Radau:
    return integrateRadau(rhs, x, options, output);
  case Method::Bdf:
    return integrateBdf(rhs, x, options, sample);
  }
  throw std::invalid_argument("integrator options: unknown method");
}

} // namespace mech::runtime
