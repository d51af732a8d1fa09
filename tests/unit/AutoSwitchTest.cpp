// --method auto against exact answers: the overdamped forced oscillator is
// switched to Radau with a note and integrated to its exact solution in a
// small fraction of DOPRI5's steps; a fast undamped oscillation that is
// excited is real motion, resolved by DOPRI5 with a warning and no switch;
// a non-stiff problem runs exactly as DOPRI5; and the fast part of
// spectra written out by hand is classified as it should be.
#include "runtime/AutoSwitch.h"
#include "runtime/Integrator.h"

#include "StiffOscillator.h"

#include "IntegratorRun.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

using namespace mech::runtime;
using namespace mech::test;

namespace {

IntegratorOptions options(Method method, const Jacobian &jacobian, double tEnd, double rtol,
                          double atol) {
  IntegratorOptions o;
  o.method = method;
  o.jacobian = jacobian;
  o.tEnd = tEnd;
  o.rtol = rtol;
  o.atol = atol;
  o.step = 0;
  return o;
}

// Two undamped oscillators, x1'' = -x1 and x2'' = -w² (x2 - x1/2) with
// w = 1e4, as (x1, x2, x1', x2'): x2 follows x1 where its own fast
// oscillation is not excited. From x1 = 1, x1' = 0 the motion is
// x1 = cos t, x2 = q cos t + A cos(w t) with q = w²/(2(w² - 1)) and A =
// x2(0) - q (x2'(0) = 0).
constexpr double kFast = 1e4;
constexpr double kFollow = kFast * kFast / (2 * (kFast * kFast - 1));
int twoOscillators(double, const double *x, double *xdot) {
  xdot[0] = x[2];
  xdot[1] = x[3];
  xdot[2] = -x[0];
  xdot[3] = -kFast * kFast * (x[1] - x[0] / 2);
  return 0;
}
int twoOscillatorsJacobian(double, const double *, double *J) {
  std::fill(J, J + 16, 0.0);
  J[0 * 4 + 2] = 1;
  J[1 * 4 + 3] = 1;
  J[2 * 4 + 0] = -1;
  J[3 * 4 + 0] = kFast * kFast / 2;
  J[3 * 4 + 1] = -kFast * kFast;
  return 0;
}

bool mentions(const std::vector<std::string> &texts, const std::string &part) {
  for (const std::string &text : texts)
    if (text.find(part) != std::string::npos)
      return true;
  return false;
}

} // namespace

TEST_CASE("auto switches the overdamped oscillator to radau and follows its exact solution") {
  const double rtol = 1e-6, atol = rtol * kAmplitude;
  Run a = run(forcedOscillator, {0, 0},
              options(Method::Auto, forcedOscillatorJacobian, 10, rtol, atol));
  REQUIRE(a.result.outcome == Outcome::Finished);
  REQUIRE(a.result.notes.size() == 1);
  CHECK(a.result.notes[0].rfind("switched from dopri5 to radau at t = ", 0) == 0);
  CHECK(a.result.warnings.empty());
  CHECK(a.result.stats.jacobianEvaluations > 0);
  double worst = 0;
  for (size_t k = 0; k < a.times.size(); ++k)
    worst = std::max(worst, std::abs(a.states[k][0] - forcedOscillatorExact(a.times[k]).x));
  INFO("worst error / tolerance " << worst / (atol + rtol * kAmplitude));
  CHECK(worst < atol + rtol * kAmplitude);
  // DOPRI5 takes about 3e5 steps for the first second alone.
  Run d = run(forcedOscillator, {0, 0},
              options(Method::Dopri5, forcedOscillatorJacobian, 1, rtol, atol));
  CHECK(a.result.stats.accepted < d.result.stats.accepted / 100);
}

TEST_CASE("auto resolves an excited fast oscillation with dopri5, and warns") {
  // x2 oscillates at 1e4 rad/s with amplitude 1e-3 about x1/2: real
  // motion that no implicit step may damp.
  Run a = run(twoOscillators, {1, kFollow + 1e-3, 0, 0},
              options(Method::Auto, twoOscillatorsJacobian, 2, 1e-8, 1e-12));
  REQUIRE(a.result.outcome == Outcome::Finished);
  CHECK(a.result.notes.empty());
  REQUIRE(a.result.warnings.size() == 1);
  CHECK(a.result.warnings[0].find("is excited and does not decay during the run") !=
        std::string::npos);
  CHECK(a.result.warnings[0].find("1.59e+03 Hz") != std::string::npos);
  CHECK(a.result.stats.jacobianEvaluations == 0);
  const std::vector<double> &end = a.states.back();
  CHECK(std::abs(end[0] - std::cos(2.0)) < 1e-7);
  // 3,183 fast periods: DOPRI5's global error grows with them.
  CHECK(std::abs(end[1] - kFollow * std::cos(2.0) - 1e-3 * std::cos(2e4)) < 1e-6);
}

TEST_CASE("auto switches when the fast oscillation is not excited, and says it is undamped") {
  // x2 starts where it follows x1, so its own oscillation is not excited:
  // DOPRI5 is held by stability alone, and damping it changes nothing.
  Run a = run(twoOscillators, {1, kFollow, 0, 0},
              options(Method::Auto, twoOscillatorsJacobian, 20, 1e-8, 1e-12));
  REQUIRE(a.result.outcome == Outcome::Finished);
  REQUIRE(a.result.notes.size() == 1);
  CHECK(mentions(a.result.notes, "switched from dopri5 to radau"));
  CHECK(mentions(a.result.notes, "does not decay, but its amplitude is below the tolerance"));
  CHECK(std::abs(a.states.back()[0] - std::cos(20.0)) < 1e-6);
  CHECK(std::abs(a.states.back()[1] - kFollow * std::cos(20.0)) < 1e-6);
}

TEST_CASE("auto on a non-stiff problem is dopri5, step for step") {
  auto pendulum = [](double, const double *x, double *xdot) {
    xdot[0] = x[1];
    xdot[1] = -std::sin(x[0]);
    return 0;
  };
  Jacobian jacobian = [](double, const double *x, double *J) {
    J[0] = 0, J[1] = 1, J[2] = -std::cos(x[0]), J[3] = 0;
    return 0;
  };
  Run a = run(pendulum, {1, 0}, options(Method::Auto, jacobian, 50, 1e-10, 1e-10));
  Run d = run(pendulum, {1, 0}, options(Method::Dopri5, jacobian, 50, 1e-10, 1e-10));
  CHECK(a.result.notes.empty());
  CHECK(a.result.warnings.empty());
  CHECK(a.result.stats.accepted == d.result.stats.accepted);
  CHECK(a.states.back() == d.states.back());
}

TEST_CASE("the fast modes of spectra written out by hand") {
  // Block diagonal: a slow pendulum (±i), then a fast block.
  auto spectrum = [](double a, double b, double c, double d) {
    std::vector<double> J(16, 0.0);
    J[0 * 4 + 1] = 1;
    J[1 * 4 + 0] = -1;
    J[2 * 4 + 2] = a, J[2 * 4 + 3] = b, J[3 * 4 + 2] = c, J[3 * 4 + 3] = d;
    return J;
  };
  // x'' + 2e3 x' + 1e10 x = 0: λ = -1e3 ± 1e5 i (lightly damped).
  std::vector<double> damped = spectrum(0, 1, -1e10, -2e3);
  FastModes m = fastModes(damped.data(), 4, 1.0);
  REQUIRE(m.any);
  CHECK(std::abs(m.fastest.real() + 1e3) < 1e-6);
  CHECK(std::abs(m.fastest.imag() - std::sqrt(1e10 - 1e6)) < 1e-3);
  CHECK(m.slowest == Approx(1.0));
  CHECK_FALSE(m.persistentOscillation); // e^{-2e3} over one second
  // Over a millisecond its energy keeps e^{-2}: still decays... and over
  // 0.1 ms it does not.
  CHECK_FALSE(fastModes(damped.data(), 4, 1e-3).persistentOscillation);
  CHECK(fastModes(damped.data(), 4, 1e-4).persistentOscillation);
  // Real fast roots: no oscillation at all.
  std::vector<double> overdamped = spectrum(-1e6, 0, 0, -2e6);
  m = fastModes(overdamped.data(), 4, 10);
  REQUIRE(m.any);
  CHECK(m.fastest == std::complex<double>(-2e6, 0));
  CHECK_FALSE(m.persistentOscillation);
  // No gap of 100: nothing is fast.
  std::vector<double> alike = spectrum(0, 1, -25, 0);
  CHECK_FALSE(fastModes(alike.data(), 4, 10).any);
}
