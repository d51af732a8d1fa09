// The Radau IIA integrator of order 5 against exact answers: its constants
// against the closed forms of Hairer & Wanner, stiff linear problems against
// their exact solutions, its order on a smooth problem at fixed steps, van der
// Pol against a reference computed elsewhere, its cost against DOPRI5 on a
// stiff problem, the reuse of Jacobians and decompositions, and failures.
#include "StiffOscillator.h"
#include "runtime/Integrator.h"
#include "runtime/Radau5.h"

#include "IntegratorRun.h"

#include <catch2/catch.hpp>

#include <Eigen/Core>
#include <Eigen/LU>

#include <algorithm>
#include <cmath>
#include <complex>
#include <iomanip>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

using namespace mech::runtime;
using namespace mech::test;

namespace {

IntegratorOptions radau(const Jacobian &jacobian, double tEnd, double rtol, double atol) {
  IntegratorOptions o;
  o.method = Method::Radau;
  o.jacobian = jacobian;
  o.tEnd = tEnd;
  o.rtol = rtol;
  o.atol = atol;
  o.step = 0; // automatic first step
  return o;
}

} // namespace

TEST_CASE("Radau IIA's derived constants match Hairer and Wanner's closed forms", "[radau]") {
  const Radau5Coefficients &k = radau5Coefficients();
  const double r6 = std::sqrt(6.0);
  CHECK(k.c[0] == Approx((4 - r6) / 10).epsilon(1e-15));
  CHECK(k.c[1] == Approx((4 + r6) / 10).epsilon(1e-15));
  CHECK(k.c[2] == 1);
  for (int i = 0; i < 3; ++i) // the nodes are the row sums
    CHECK(k.A.row(i).sum() == Approx(k.c[i]).epsilon(1e-15));
  // Stiffly accurate, and the weights (the last row) integrate polynomials
  // of degree 4 exactly: order 5.
  for (int p = 0; p <= 4; ++p) {
    double moment = 0;
    for (int j = 0; j < 3; ++j)
      moment += k.A(2, j) * std::pow(k.c[j], p);
    CHECK(moment == Approx(1.0 / (p + 1)).epsilon(1e-14));
  }

  // The eigenvalues of A⁻¹ (Solving ODEs II, IV.8), the inverses of A's:
  // γ = 1/u1 with u1 = (6 + 81^(1/3) - 9^(1/3))/30, and α + iβ = 1/(a - ib)
  // with a = (12 - 81^(1/3) + 9^(1/3))/60, b = √3 (81^(1/3) + 9^(1/3))/60.
  const double c81 = std::cbrt(81.0), c9 = std::cbrt(9.0);
  const std::complex<double> pair =
      1.0 / std::complex<double>((12 - c81 + c9) / 60, -std::sqrt(3.0) * (c81 + c9) / 60);
  CHECK(k.gamma == Approx(30 / (6 + c81 - c9)).epsilon(1e-14));
  CHECK(k.alpha == Approx(pair.real()).epsilon(1e-14));
  CHECK(k.beta == Approx(pair.imag()).epsilon(1e-14));
  Eigen::Matrix3d block;
  block << k.gamma, 0, 0, 0, k.alpha, -k.beta, 0, k.beta, k.alpha;
  const Eigen::Matrix3d transformed = k.Tinv * k.A.inverse() * k.T;
  CHECK((transformed - block).cwiseAbs().maxCoeff() < 1e-13);
  CHECK((k.Tinv * k.T - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff() < 1e-14);

  // The error estimate's weights, (-13 - 7√6)/3, (-13 + 7√6)/3, -1/3.
  CHECK(k.errorWeights[0] == Approx(-(13 + 7 * r6) / 3).epsilon(1e-13));
  CHECK(k.errorWeights[1] == Approx((-13 + 7 * r6) / 3).epsilon(1e-13));
  CHECK(k.errorWeights[2] == Approx(-1.0 / 3).epsilon(1e-13));
}

TEST_CASE("the stiff forced oscillator follows its exact solution to the tolerance", "[radau]") {
  const double rtol = 1e-6, atol = rtol * kAmplitude;
  Run r = run(forcedOscillator, {0, 0}, radau(forcedOscillatorJacobian, 10, rtol, atol));
  INFO(r.result.message());
  REQUIRE(r.result.outcome == Outcome::Finished);
  REQUIRE(r.times.size() == 1001);
  const double scale = atol + rtol * kAmplitude; // the tolerance at the amplitude
  double worstX = 0, worstV = 0;
  for (size_t k = 0; k < r.times.size(); ++k) {
    OscillatorState exact = forcedOscillatorExact(r.times[k]);
    worstX = std::max(worstX, std::abs(r.states[k][0] - exact.x));
    worstV = std::max(worstV, std::abs(r.states[k][1] - exact.v));
  }
  INFO("worst errors / tolerance: x " << worstX / scale << ", v " << worstV / scale);
  CHECK(worstX < scale);
  // The velocity is the nearly cancelling balance (F0 sin wt - k x)/c, and
  // the samples between steps come from the collocation polynomial, of
  // order 3 only; at the end of a step (t = 10) it is closer.
  CHECK(worstV < 10 * scale);
  OscillatorState end = forcedOscillatorExact(10);
  CHECK(std::abs(r.states.back()[0] - end.x) < scale);
  CHECK(std::abs(r.states.back()[1] - end.v) < scale);
}

TEST_CASE("Radau takes under 1% of DOPRI5's steps on the stiff oscillator", "[radau]") {
  const double rtol = 1e-6, atol = rtol * kAmplitude;
  IntegratorOptions o = radau(forcedOscillatorJacobian, 10, rtol, atol);
  o.dt = 1;
  IntegrationResult implicit = integrate(forcedOscillator, {0, 0}, o, nullptr);
  REQUIRE(implicit.outcome == Outcome::Finished);
  // DOPRI5 on a tenth of the interval: its stability region, not the
  // accuracy, holds its steps near 3/1e6.
  o.method = Method::Dopri5;
  o.tEnd = 1;
  IntegrationResult explicitRun = integrate(forcedOscillator, {0, 0}, o, nullptr);
  REQUIRE(explicitRun.outcome == Outcome::Finished);
  INFO("radau, 10 s: " << implicit.stats.accepted
                       << " steps; dopri5, 1 s: " << explicitRun.stats.accepted);
  CHECK(explicitRun.stats.accepted > 200000);
  CHECK(100 * implicit.stats.accepted < explicitRun.stats.accepted);
  CHECK(explicitRun.stats.jacobianEvaluations == 0);
  CHECK(explicitRun.stats.factorizations == 0);
}

TEST_CASE("Jacobians and decompositions are reused across steps", "[radau]") {
  long jacobianCalls = 0;
  auto counted = [&](double t, const double *x, double *J) {
    ++jacobianCalls;
    return forcedOscillatorJacobian(t, x, J);
  };
  const double rtol = 1e-8;
  Run r = run(forcedOscillator, {0, 0}, radau(counted, 10, rtol, rtol * kAmplitude));
  REQUIRE(r.result.outcome == Outcome::Finished);
  const IntegrationStats &s = r.result.stats;
  INFO("accepted " << s.accepted << ", rejected " << s.rejected << ", jacobians "
                   << s.jacobianEvaluations << ", factorizations " << s.factorizations);
  CHECK(s.jacobianEvaluations == jacobianCalls);
  // The problem is linear: Newton converges at once with the exact
  // Jacobian, which is then kept; only the first step and a rejection (the
  // Jacobian might be what failed) call for a new one.
  CHECK(s.jacobianEvaluations <= 1 + s.rejected);
  CHECK(10 * s.jacobianEvaluations < s.accepted);
  // A new step within 20% of the last keeps h and its decompositions.
  CHECK(s.factorizations >= s.jacobianEvaluations);
  CHECK(s.factorizations < s.accepted);
}

TEST_CASE("a stiff linear system follows its matrix exponential", "[radau]") {
  // A = P diag(-1, -1e6) P⁻¹ with P = [[1, 1], [1, 2]], P⁻¹ = [[2, -1], [-1, 1]]:
  // not symmetric. e^{At} = P diag(e^{-t}, e^{-1e6 t}) P⁻¹, so from x0 = (1, 0)
  // (P⁻¹ x0 = (2, -1)): x(t) = 2 e^{-t} (1, 1) - e^{-1e6 t} (1, 2).
  const double l1 = -1, l2 = -1e6;
  const double A[2][2] = {{2 * l1 - l2, l2 - l1}, {2 * l1 - 2 * l2, 2 * l2 - l1}};
  auto linear = [&](double, const double *x, double *xdot) {
    xdot[0] = A[0][0] * x[0] + A[0][1] * x[1];
    xdot[1] = A[1][0] * x[0] + A[1][1] * x[1];
    return 0;
  };
  auto jacobian = [&](double, const double *, double *J) {
    std::copy(&A[0][0], &A[0][0] + 4, J);
    return 0;
  };
  const double rtol = 1e-8, atol = 1e-10;
  IntegratorOptions o = radau(jacobian, 10, rtol, atol);
  o.dt = 0.001; // samples inside the initial layer too
  Run r = run(linear, {1, 0}, o);
  INFO(r.result.message());
  REQUIRE(r.result.outcome == Outcome::Finished);
  double worst = 0;
  for (size_t k = 0; k < r.times.size(); ++k) {
    const double t = r.times[k], slow = 2 * std::exp(l1 * t), fast = std::exp(l2 * t);
    const double exact[2] = {slow - fast, slow - 2 * fast};
    for (size_t i = 0; i < 2; ++i) {
      const double scale = atol + rtol * std::abs(exact[i]);
      worst = std::max(worst, std::abs(r.states[k][i] - exact[i]) / scale);
    }
  }
  INFO("worst error / tolerance " << worst << ", steps " << r.result.stats.accepted);
  CHECK(worst < 3);
  // An explicit method would need |h| < 3e-6 for stability: 3e6 steps.
  CHECK(r.result.stats.accepted < 1000);
}

TEST_CASE("Prothero-Robinson: x' = L (x - g) + g' relaxes onto g", "[radau]") {
  // With g = sin and L = -1e6, x = sin t + e^{Lt} (x0 - g(0)). The state at
  // the end of every step is checked, through the step projection: samples
  // between steps come from the collocation polynomial, which interpolates
  // g with an error O(h⁴) in g's own time scale, whereas the stiff damping
  // makes the steps' ends accurate far beyond that.
  const double L = -1e6;
  auto prothero = [&](double t, const double *x, double *xdot) {
    xdot[0] = L * (x[0] - std::sin(t)) + std::cos(t);
    return 0;
  };
  auto jacobian = [&](double, const double *, double *J) {
    J[0] = L;
    return 0;
  };
  for (double rtol : {1e-6, 1e-8, 1e-10}) {
    INFO("rtol " << rtol);
    const double atol = rtol / 100;
    IntegratorOptions o = radau(jacobian, 10, rtol, atol);
    double worst = 0;
    long steps = 0;
    o.project = [&](double t, double *x) {
      const double exact = std::sin(t) + std::exp(L * t);
      worst = std::max(worst, std::abs(x[0] - exact) / (atol + rtol * std::abs(exact)));
      ++steps;
      return true;
    };
    Run r = run(prothero, {1}, o);
    INFO(r.result.message());
    REQUIRE(r.result.outcome == Outcome::Finished);
    INFO("worst error / tolerance " << worst << ", steps " << r.result.stats.accepted);
    CHECK(steps == r.result.stats.accepted);
    CHECK(worst < 5);
  }
}

TEST_CASE("Radau IIA converges with order 5 at fixed steps", "[radau]") {
  // y' = 1 + y², y(0) = 0: y = tan t, smooth and not stiff on [0, 1].
  auto tangent = [](double, const double *y, double *ydot) {
    ydot[0] = 1 + y[0] * y[0];
    return 0;
  };
  auto jacobian = [](double, const double *y, double *J) {
    J[0] = 2 * y[0];
    return 0;
  };
  // Tight tolerances: they only bound the Newton iteration here.
  IntegratorOptions o = radau(jacobian, 1, 1e-14, 1e-14);
  o.fixedStep = true;
  o.dt = 1;
  auto error = [&](double h) {
    o.step = h;
    Run r = run(tangent, {0}, o);
    REQUIRE(r.result.outcome == Outcome::Finished);
    CHECK(r.result.stats.accepted == std::lround(1 / h));
    CHECK(r.result.stats.rejected == 0);
    return std::abs(r.states.back()[0] - std::tan(1.0));
  };
  const double coarse = error(0.1), fine = error(0.05), finer = error(0.025);
  INFO("errors " << coarse << ", " << fine << ", " << finer);
  CHECK(std::log2(coarse / fine) == Approx(5).margin(0.2));
  CHECK(std::log2(fine / finer) == Approx(5).margin(0.2));
}

TEST_CASE("van der Pol with mu = 1000 matches SciPy's Radau at t = 2", "[radau]") {
  // y1' = y2, y2' = mu ((1 - y1²) y2 - y1) from (2, 0): two relaxation jumps
  // (near t = 0.8 and 1.6) before t = 2.
  const double mu = 1e3;
  auto vanDerPol = [&](double, const double *y, double *ydot) {
    ydot[0] = y[1];
    ydot[1] = mu * ((1 - y[0] * y[0]) * y[1] - y[0]);
    return 0;
  };
  auto jacobian = [&](double, const double *y, double *J) {
    J[0] = 0;
    J[1] = 1;
    J[2] = mu * (-2 * y[0] * y[1] - 1);
    J[3] = mu * (1 - y[0] * y[0]);
    return 0;
  };
  // scipy.integrate.solve_ivp(f, (0, 2), [2, 0], method="Radau", rtol=1e-12,
  // atol=1e-12, jac=...) with SciPy 1.10.1, NumPy 1.24.2: 15824 steps. Its
  // BDF and LSODA at 1e-12 agree to 3e-11 in y1 and 3e-11 in y2.
  const double y1 = 1.7632345402034622, y2 = -0.8356886816777875;
  IntegratorOptions o = radau(jacobian, 2, 1e-8, 1e-8);
  o.dt = 2;
  Run r = run(vanDerPol, {2, 0}, o);
  INFO(r.result.message());
  REQUIRE(r.result.outcome == Outcome::Finished);
  const IntegrationStats &s = r.result.stats;
  INFO(std::setprecision(17) << "steps " << s.accepted << " (+" << s.rejected << " rejected), F "
                             << s.rhsEvaluations << ", Jacobians " << s.jacobianEvaluations
                             << ", decompositions " << s.factorizations << "; y = ("
                             << r.states.back()[0] << ", " << r.states.back()[1] << ")");
  // Within the tolerance (1e-8): the errors are 2e-11 and 1.2e-10.
  CHECK(std::abs(r.states.back()[0] - y1) < 1e-8);
  CHECK(std::abs(r.states.back()[1] - y2) < 1e-8);
  CHECK(s.accepted < 2500);
}

TEST_CASE("sampling does not change Radau's steps", "[radau]") {
  const double rtol = 1e-7;
  IntegratorOptions o = radau(forcedOscillatorJacobian, 10, rtol, rtol * kAmplitude);
  o.dt = 0.001;
  Run dense = run(forcedOscillator, {0, 0}, o);
  o.dt = 3.7;
  Run sparse = run(forcedOscillator, {0, 0}, o);
  const IntegrationStats &d = dense.result.stats, &s = sparse.result.stats;
  CHECK(d.accepted == s.accepted);
  CHECK(d.rejected == s.rejected);
  CHECK(d.rhsEvaluations == s.rhsEvaluations);
  CHECK(dense.states.back() == sparse.states.back());
}

TEST_CASE("Radau integrates backwards when tEnd < t0", "[radau]") {
  // x' = 1000 (x - cos t) - sin t has x = cos t; its other solutions leave
  // cos t forwards and so approach it backwards, fast: stiff for t falling.
  auto relaxing = [](double t, const double *x, double *xdot) {
    xdot[0] = 1000 * (x[0] - std::cos(t)) - std::sin(t);
    return 0;
  };
  auto jacobian = [](double, const double *, double *J) {
    J[0] = 1000;
    return 0;
  };
  IntegratorOptions o = radau(jacobian, 0, 1e-9, 1e-11);
  o.t0 = 1;
  o.dt = 0.1;
  Run r = run(relaxing, {std::cos(1.0) + 0.5}, o);
  REQUIRE(r.result.outcome == Outcome::Finished);
  REQUIRE(r.times.size() == 11);
  for (size_t k = 0; k + 1 < r.times.size(); ++k)
    CHECK(r.times[k] == 1 - static_cast<double>(k) * 0.1);
  CHECK(r.times.back() == 0);
  // x = cos t + 0.5 e^{1000 (t - 1)}; the initial layer is gone by t = 0.9.
  CHECK(r.states[1][0] == Approx(std::cos(0.9) + 0.5 * std::exp(-100.0)).epsilon(1e-8));
  CHECK(r.states.back()[0] == Approx(1).epsilon(1e-8));
}

TEST_CASE("Radau needs the Jacobian, and a positive step at fixed steps", "[radau]") {
  auto none = [](double, const double *) { return true; };
  IntegratorOptions o;
  o.method = Method::Radau;
  try {
    integrate(forcedOscillator, {0, 0}, o, none);
    FAIL("no exception");
  } catch (const std::invalid_argument &e) {
    CHECK(std::string(e.what()).find("radau needs the Jacobian") != std::string::npos);
  }
  o.jacobian = forcedOscillatorJacobian;
  o.fixedStep = true;
  o.step = 0;
  CHECK_THROWS_AS(integrate(forcedOscillator, {0, 0}, o, none), std::invalid_argument);
  o.atol = 0;
  o.fixedStep = false;
  CHECK_THROWS_AS(integrate(forcedOscillator, {0, 0}, o, none), std::invalid_argument);
}

TEST_CASE("a non-finite F is reported as NonFinite with its component and time", "[radau]") {
  // Component 1's derivative turns NaN at t = 0.25.
  auto poisoned = [](double t, const double *, double *xdot) {
    xdot[0] = 1;
    xdot[1] = t >= 0.25 ? std::numeric_limits<double>::quiet_NaN() : 0;
    xdot[2] = 0;
    return 0;
  };
  auto zero = [](double, const double *, double *J) {
    std::fill(J, J + 9, 0.0);
    return 0;
  };
  Run r = run(poisoned, {0, 0, 0}, radau(zero, 1, 1e-8, 1e-10));
  INFO(r.result.message());
  CHECK(r.result.outcome == Outcome::NonFinite);
  CHECK(r.result.failureComponent == 1);
  CHECK(r.result.failureTime >= 0.25);
  CHECK(r.result.failureTime < 0.25 + 1e-12);
  CHECK(r.result.message().rfind("non-finite value in component 1 at t = 0.25", 0) == 0);
  REQUIRE(!r.times.empty());
  CHECK(r.times.back() <= 0.25);
}

TEST_CASE("a failing right-hand side stops Radau where it starts to fail", "[radau]") {
  auto failsAfterHalf = [](double t, const double *x, double *xdot) {
    xdot[0] = -x[0];
    return t > 0.5 ? 1 : 0;
  };
  auto jacobian = [](double, const double *, double *J) {
    J[0] = -1;
    return 0;
  };
  Run r = run(failsAfterHalf, {1}, radau(jacobian, 2, 1e-8, 1e-10));
  INFO(r.result.message());
  CHECK(r.result.outcome == Outcome::RhsFailed);
  CHECK(r.result.rhsStatus == 1);
  CHECK(r.result.failureTime > 0.5);
  CHECK(r.result.failureTime < 0.5 + 1e-12);
  CHECK(r.result.stats.rejected < 200);
  REQUIRE(!r.times.empty());
  CHECK(r.times.back() <= 0.5);
  CHECK(r.times.back() >= 0.49);
}

TEST_CASE("a failing Jacobian is reported at once", "[radau]") {
  auto decay = [](double, const double *x, double *xdot) {
    xdot[0] = -x[0];
    xdot[1] = -2 * x[1];
    return 0;
  };
  auto failing = [](double, const double *, double *) { return 7; };
  IntegratorOptions o = radau(failing, 1, 1e-8, 1e-10);
  o.t0 = 0.5;
  Run r = run(decay, {1, 1}, o);
  CHECK(r.result.outcome == Outcome::RhsFailed);
  CHECK(r.result.rhsStatus == 7);
  CHECK(r.result.failureTime == 0.5);
  CHECK(r.result.stats.jacobianEvaluations == 1);

  // A NaN in row 1 (dF_1/dx_0) names component 1.
  auto poisoned = [](double, const double *, double *J) {
    J[0] = -1;
    J[1] = 0;
    J[2] = std::numeric_limits<double>::quiet_NaN();
    J[3] = -2;
    return 0;
  };
  o.jacobian = poisoned;
  Run nan = run(decay, {1, 1}, o);
  CHECK(nan.result.outcome == Outcome::NonFinite);
  CHECK(nan.result.failureComponent == 1);
  CHECK(nan.result.failureTime == 0.5);
}

TEST_CASE("maxSteps bounds Radau's attempted steps", "[radau]") {
  const double rtol = 1e-6;
  IntegratorOptions o = radau(forcedOscillatorJacobian, 10, rtol, rtol * kAmplitude);
  o.maxSteps = 10;
  Run r = run(forcedOscillator, {0, 0}, o);
  CHECK(r.result.outcome == Outcome::MaxSteps);
  CHECK(r.result.stats.accepted + r.result.stats.rejected == 10);
  CHECK(r.result.failureTime > 0);
  CHECK(r.result.failureTime < 10);
}
