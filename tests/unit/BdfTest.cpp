// The variable-order BDF integrator against exact answers: stiff linear
// problems against their exact solutions, its cost against DOPRI5 on a stiff
// problem, the order of each formula at fixed steps, Robertson's kinetics
// and van der Pol against references computed elsewhere, the choice of
// higher orders at tight tolerances, the reuse of Jacobians and
// decompositions, and failures.
#include "runtime/Bdf.h"
#include "StiffOscillator.h"
#include "runtime/Integrator.h"
#include "runtime/RhsEvaluator.h"

#include "IntegratorRun.h"

#include <catch2/catch.hpp>

#include <Eigen/Core>

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

IntegratorOptions bdf(const Jacobian &jacobian, double tEnd, double rtol, double atol) {
  IntegratorOptions o;
  o.method = Method::Bdf;
  o.jacobian = jacobian;
  o.tEnd = tEnd;
  o.rtol = rtol;
  o.atol = atol;
  o.step = 0; // automatic first step
  return o;
}

std::string statsOf(const IntegrationStats &s) {
  return std::to_string(s.accepted) + " steps (+" + std::to_string(s.rejected) + " rejected), F " +
         std::to_string(s.rhsEvaluations) + ", Jacobians " + std::to_string(s.jacobianEvaluations) +
         ", decompositions " + std::to_string(s.factorizations);
}

// Robertson's chemical kinetics (Hairer & Wanner, Solving ODEs II, IV.1):
// three species with rate constants 0.04, 3e7 and 1e4, from (1, 0, 0).
int robertson(double, const double *y, double *ydot) {
  ydot[0] = -0.04 * y[0] + 1e4 * y[1] * y[2];
  ydot[1] = 0.04 * y[0] - 1e4 * y[1] * y[2] - 3e7 * y[1] * y[1];
  ydot[2] = 3e7 * y[1] * y[1];
  return 0;
}

int robertsonJacobian(double, const double *y, double *J) {
  const double rows[3][3] = {{-0.04, 1e4 * y[2], 1e4 * y[1]},
                             {0.04, -1e4 * y[2] - 6e7 * y[1], -1e4 * y[1]},
                             {0, 6e7 * y[1], 0}};
  std::copy(&rows[0][0], &rows[0][0] + 9, J);
  return 0;
}

} // namespace

TEST_CASE("the stiff forced oscillator follows its exact solution under BDF", "[bdf]") {
  const double rtol = 1e-6, atol = rtol * kAmplitude;
  Run r = run(forcedOscillator, {0, 0}, bdf(forcedOscillatorJacobian, 10, rtol, atol));
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
  INFO("worst errors / tolerance: x " << worstX / scale << ", v " << worstV / scale << "; "
                                      << statsOf(r.result.stats));
  CHECK(worstX < scale);
  // The velocity is the nearly cancelling balance (F0 sin wt - k x)/c: an
  // error in x reaches v multiplied by k/c = 1e3, which the error estimate,
  // filtered through the Newton matrix, sees.
  CHECK(worstV < 3 * scale);
  OscillatorState end = forcedOscillatorExact(10);
  CHECK(std::abs(r.states.back()[0] - end.x) < scale);
  CHECK(std::abs(r.states.back()[1] - end.v) < 3 * scale);
}

TEST_CASE("BDF takes under 1% of DOPRI5's steps on the stiff oscillator", "[bdf]") {
  const double rtol = 1e-6, atol = rtol * kAmplitude;
  IntegratorOptions o = bdf(forcedOscillatorJacobian, 10, rtol, atol);
  o.dt = 1;
  IntegrationResult implicit = integrate(forcedOscillator, {0, 0}, o, nullptr);
  REQUIRE(implicit.outcome == Outcome::Finished);
  o.method = Method::Radau;
  IntegrationResult radau = integrate(forcedOscillator, {0, 0}, o, nullptr);
  REQUIRE(radau.outcome == Outcome::Finished);
  // DOPRI5 on a tenth of the interval: its stability region, not the
  // accuracy, holds its steps near 3/1e6. Comparing BDF's 10 s with
  // DOPRI5's 1 s asks for 1% of DOPRI5's steps per second, and more.
  o.method = Method::Dopri5;
  o.tEnd = 1;
  IntegrationResult explicitRun = integrate(forcedOscillator, {0, 0}, o, nullptr);
  REQUIRE(explicitRun.outcome == Outcome::Finished);
  INFO("bdf, 10 s: " << statsOf(implicit.stats) << "; radau, 10 s: " << statsOf(radau.stats)
                     << "; dopri5, 1 s: " << explicitRun.stats.accepted);
  CHECK(explicitRun.stats.accepted > 200000);
  CHECK(100 * implicit.stats.accepted < explicitRun.stats.accepted);
  // About as many steps as Radau (242 and 241), at two evaluations of F
  // per step against Radau's five.
  CHECK(implicit.stats.accepted < 2 * radau.stats.accepted);
  CHECK(2 * implicit.stats.rhsEvaluations < radau.stats.rhsEvaluations);
}

TEST_CASE("BDF reuses Jacobians and decompositions across steps", "[bdf]") {
  long jacobianCalls = 0;
  auto counted = [&](double t, const double *x, double *J) {
    ++jacobianCalls;
    return forcedOscillatorJacobian(t, x, J);
  };
  const double rtol = 1e-8;
  Run r = run(forcedOscillator, {0, 0}, bdf(counted, 10, rtol, rtol * kAmplitude));
  REQUIRE(r.result.outcome == Outcome::Finished);
  const IntegrationStats &s = r.result.stats;
  INFO(statsOf(s));
  CHECK(s.jacobianEvaluations == jacobianCalls);
  // The problem is linear: with the exact Jacobian Newton converges at
  // once, whatever the state, so the first Jacobian serves the whole run.
  CHECK(s.jacobianEvaluations == 1);
  // A new decomposition follows a change of h or order only, which the
  // quasi-constant steps make rare.
  CHECK(4 * s.factorizations < s.accepted);
  // Two evaluations of F per step: the first correction, and the second,
  // which shows the iteration has converged.
  CHECK(s.rhsEvaluations <= 2 * (s.accepted + s.rejected) + 2);
}

TEST_CASE("a stiff linear system follows its matrix exponential under BDF", "[bdf]") {
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
  IntegratorOptions o = bdf(jacobian, 10, rtol, atol);
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
  INFO("worst error / tolerance " << worst << "; " << statsOf(r.result.stats));
  // The tolerance bounds each step's local error; on the slow mode, which
  // decays no faster than the solution, they add up: 17 times the tolerance
  // at t ≈ 4 (SciPy's BDF at the same tolerances: 16).
  CHECK(worst < 30);
  // An explicit method would need |h| < 3e-6 for stability: 3e6 steps.
  CHECK(r.result.stats.accepted < 1000);
}

TEST_CASE("Robertson's kinetics to t = 40 match SciPy", "[bdf]") {
  // scipy.integrate.solve_ivp(f, (0, 40), [1, 0, 0], method="Radau",
  // rtol=1e-12, atol=1e-14, jac=...) with SciPy 1.10.1, NumPy 1.24.2: 1573
  // steps. Radau at rtol=1e-13, atol=1e-18 agrees to 6e-13 in y1 and y3 and
  // to 3e-17 in y2; SciPy's BDF and LSODA at 1e-12 to 2e-11 and 6e-16.
  const double y1 = 0.7158270687199073, y2 = 9.185534764578332e-06, y3 = 0.28416374574532827;
  const double rtol = 1e-8, atol = 1e-12;
  IntegratorOptions o = bdf(robertsonJacobian, 40, rtol, atol);
  o.dt = 40;
  Run r = run(robertson, {1, 0, 0}, o);
  INFO(r.result.message());
  REQUIRE(r.result.outcome == Outcome::Finished);
  const std::vector<double> &y = r.states.back();
  INFO(std::setprecision(17) << statsOf(r.result.stats) << "; y = (" << y[0] << ", " << y[1] << ", "
                             << y[2] << ")");
  // The mass is conserved exactly by the formulas: the three derivatives
  // sum to zero, and so do the corrections.
  CHECK(std::abs(y[0] + y[1] + y[2] - 1) < 1e-14);
  // Within ten times the tolerance at each value: the global error
  // accumulates the local errors the tolerance bounds.
  CHECK(std::abs(y[0] - y1) < 10 * (atol + rtol * y1));
  CHECK(std::abs(y[1] - y2) < 10 * (atol + rtol * y2));
  CHECK(std::abs(y[2] - y3) < 10 * (atol + rtol * y3));
  CHECK(r.result.stats.accepted < 1000);
}

TEST_CASE("each BDF formula converges with its order at fixed steps", "[bdf]") {
  // y' = 1 + y², y(0) = 0: y = tan t, smooth and not stiff on [0, 1]. The
  // formula of order k starts from the exact values at 0, -h, ..., -k h (the
  // last one only feeds the predictor).
  RightHandSide tangent = [](double, const double *y, double *ydot) {
    ydot[0] = 1 + y[0] * y[0];
    return 0;
  };
  IntegratorOptions o = bdf(
      [](double, const double *y, double *J) {
        J[0] = 2 * y[0];
        return 0;
      },
      1, 1e-13, 1e-13); // tight: the tolerances bound only the Newton iteration
  o.dt = 1;
  for (int order = 1; order <= kBdfMaxOrder; ++order) {
    INFO("order " << order);
    auto error = [&](double h) {
      o.step = h;
      std::vector<Eigen::VectorXd> history;
      for (int j = 0; j <= order; ++j)
        history.push_back(Eigen::VectorXd::Constant(1, std::tan(-j * h)));
      RhsEvaluator rhs(tangent, 1);
      double end = 0;
      IntegrationResult result =
          integrateBdfFixedOrder(rhs, history, order, o, [&](double, const double *x) {
            end = x[0];
            return true;
          });
      REQUIRE(result.outcome == Outcome::Finished);
      CHECK(result.stats.accepted == std::lround(1 / h));
      CHECK(result.stats.rejected == 0);
      return std::abs(end - std::tan(1.0));
    };
    // The steps are small enough for the leading error term to dominate
    // tan's growing derivatives near 1, large enough for order 5's error
    // (2e-10 at the finest) to stay far above rounding.
    const double coarse = error(0.0125), fine = error(0.00625), finer = error(0.003125);
    INFO("errors " << coarse << ", " << fine << ", " << finer << "; observed orders "
                   << std::log2(coarse / fine) << ", " << std::log2(fine / finer));
    CHECK(std::log2(coarse / fine) == Approx(order).margin(0.2));
    CHECK(std::log2(fine / finer) == Approx(order).margin(0.2));
  }
}

TEST_CASE("fixed-order BDF checks its arguments", "[bdf]") {
  RightHandSide decay = [](double, const double *x, double *xdot) {
    xdot[0] = -x[0];
    return 0;
  };
  IntegratorOptions o = bdf(
      [](double, const double *, double *J) {
        J[0] = -1;
        return 0;
      },
      1, 1e-10, 1e-10);
  o.step = 0.1;
  RhsEvaluator rhs(decay, 1);
  const std::vector<Eigen::VectorXd> three(3, Eigen::VectorXd::Ones(1));
  auto none = [](double, const double *) { return true; };
  CHECK_NOTHROW(integrateBdfFixedOrder(rhs, three, 2, o, none));
  CHECK_THROWS_AS(integrateBdfFixedOrder(rhs, three, 3, o, none), std::invalid_argument);
  CHECK_THROWS_AS(integrateBdfFixedOrder(rhs, three, 0, o, none), std::invalid_argument);
  const std::vector<Eigen::VectorXd> ragged = {Eigen::VectorXd::Ones(1), Eigen::VectorXd::Ones(2)};
  CHECK_THROWS_AS(integrateBdfFixedOrder(rhs, ragged, 1, o, none), std::invalid_argument);
  o.step = 0;
  CHECK_THROWS_AS(integrateBdfFixedOrder(rhs, three, 2, o, none), std::invalid_argument);
}

TEST_CASE("van der Pol with mu = 1000 matches SciPy's Radau at t = 2 under BDF", "[bdf]") {
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
  // The reference of RadauTest: scipy.integrate.solve_ivp(f, (0, 2), [2, 0],
  // method="Radau", rtol=1e-12, atol=1e-12, jac=...) with SciPy 1.10.1,
  // NumPy 1.24.2; its BDF and LSODA at 1e-12 agree to 3e-11.
  const double y1 = 1.7632345402034622, y2 = -0.8356886816777875;
  // The local errors of the slow stretches shift the jumps in time, and the
  // state after them with the shift: at t = 2 the errors are 30-50 times the
  // tolerance (SciPy's BDF at 1e-8: 1.2e-7), and fall with it.
  // Radau takes 1634 and 5233 steps, each costing three times BDF's F.
  const struct {
    double tolerance;
    long steps;
  } cases[] = {{1e-8, 2500}, {1e-10, 6000}};
  for (auto [tolerance, steps] : cases) {
    INFO("rtol = atol = " << tolerance);
    IntegratorOptions o = bdf(jacobian, 2, tolerance, tolerance);
    o.dt = 2;
    Run r = run(vanDerPol, {2, 0}, o);
    INFO(r.result.message());
    REQUIRE(r.result.outcome == Outcome::Finished);
    const IntegrationStats &s = r.result.stats;
    INFO(std::setprecision(17) << statsOf(s) << "; y = (" << r.states.back()[0] << ", "
                               << r.states.back()[1] << ")");
    CHECK(std::abs(r.states.back()[0] - y1) < 100 * tolerance);
    CHECK(std::abs(r.states.back()[1] - y2) < 100 * tolerance);
    CHECK(s.accepted < steps);
    CHECK(s.jacobianEvaluations < s.accepted / 10);
  }
}

TEST_CASE("BDF climbs to high orders on smooth problems at tight tolerances", "[bdf]") {
  // x'' = -x from (1, 0): x = cos t. A method of order p needs steps
  // ∝ tol^(-1/(p+1)): from rtol 1e-6 to 1e-10, 1.5 times as many at order 5,
  // 100 times as many at order 1.
  auto oscillator = [](double, const double *x, double *xdot) {
    xdot[0] = x[1];
    xdot[1] = -x[0];
    return 0;
  };
  auto jacobian = [](double, const double *, double *J) {
    J[0] = 0;
    J[1] = 1;
    J[2] = -1;
    J[3] = 0;
    return 0;
  };
  IntegratorOptions o = bdf(jacobian, 20, 1e-6, 1e-8);
  o.dt = 20;
  Run loose = run(oscillator, {1, 0}, o);
  o.rtol = 1e-10;
  o.atol = 1e-12;
  Run tight = run(oscillator, {1, 0}, o);
  REQUIRE(loose.result.outcome == Outcome::Finished);
  REQUIRE(tight.result.outcome == Outcome::Finished);
  const double looseError = std::abs(loose.states.back()[0] - std::cos(20.0));
  const double tightError = std::abs(tight.states.back()[0] - std::cos(20.0));
  INFO("rtol 1e-6: " << statsOf(loose.result.stats) << ", error " << looseError
                     << "; 1e-10: " << statsOf(tight.result.stats) << ", error " << tightError);
  // 6.3 times as many at order 4, 10 at order 3.
  CHECK(tight.result.stats.accepted < 6 * loose.result.stats.accepted);
  // Over three periods the local errors add up to 20-80 times rtol (SciPy's
  // BDF: 22 and 109 times).
  CHECK(looseError < 100 * 1e-6);
  CHECK(tightError < 200 * 1e-10);
}

TEST_CASE("sampling does not change BDF's steps", "[bdf]") {
  const double rtol = 1e-7;
  IntegratorOptions o = bdf(forcedOscillatorJacobian, 10, rtol, rtol * kAmplitude);
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

TEST_CASE("BDF's samples between steps are as accurate as its steps' ends", "[bdf]") {
  // x' = -x + sin(10 t): x(t) = (sin 10t - 10 cos 10t)/101 + (1 + 10/101) e^{-t}.
  // The interpolating polynomial through the last k + 1 values is as
  // accurate as the formula of order k itself, so a sample's error should be
  // that of the steps around it, give or take a local error. The steps'
  // ends are seen through the projection, which leaves them alone.
  auto forced = [](double t, const double *x, double *xdot) {
    xdot[0] = -x[0] + std::sin(10 * t);
    return 0;
  };
  auto jacobian = [](double, const double *, double *J) {
    J[0] = -1;
    return 0;
  };
  auto exact = [](double t) {
    return (std::sin(10 * t) - 10 * std::cos(10 * t)) / 101 + (1 + 10.0 / 101) * std::exp(-t);
  };
  const double rtol = 1e-8, atol = 1e-10;
  IntegratorOptions o = bdf(jacobian, 5, rtol, atol);
  o.dt = 0.0013; // several samples in most steps
  std::vector<double> endTimes = {0}, endErrors = {0};
  o.project = [&](double t, double *x) {
    endTimes.push_back(t);
    endErrors.push_back(std::abs(x[0] - exact(t)));
    return true;
  };
  Run r = run(forced, {1}, o);
  REQUIRE(r.result.outcome == Outcome::Finished);
  REQUIRE(r.times.size() > 2 * endTimes.size());
  double worst = 0; // beyond the larger error at the ends of the sample's step
  size_t step = 1;
  for (size_t k = 0; k < r.times.size(); ++k) {
    const double t = r.times[k];
    while (endTimes[step] < t)
      ++step;
    const double around = std::max(endErrors[step - 1], endErrors[step]);
    const double excess = std::abs(r.states[k][0] - exact(t)) - around;
    worst = std::max(worst, excess / (atol + rtol * std::abs(exact(t))));
  }
  INFO("worst excess / tolerance " << worst << " over " << r.times.size() << " samples; "
                                   << statsOf(r.result.stats));
  CHECK(worst < 1);
}

TEST_CASE("BDF integrates backwards when tEnd < t0", "[bdf]") {
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
  IntegratorOptions o = bdf(jacobian, 0, 1e-9, 1e-11);
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

TEST_CASE("the step projection moves BDF's history with the state", "[bdf]") {
  // The circle x = (cos t, sin t) as x' = (-x2, x1), projected back onto
  // |x| = 1 after every step. The history follows the projected states, so
  // each step starts on the circle and drifts off it by no more than its
  // local error; samples (the last one too) come before the projection.
  auto rotation = [](double, const double *x, double *xdot) {
    xdot[0] = -x[1];
    xdot[1] = x[0];
    return 0;
  };
  auto jacobian = [](double, const double *, double *J) {
    J[0] = 0;
    J[1] = -1;
    J[2] = 1;
    J[3] = 0;
    return 0;
  };
  const double rtol = 1e-8;
  IntegratorOptions o = bdf(jacobian, 10, rtol, rtol / 100);
  o.dt = 10;
  long projections = 0;
  double worstDrift = 0;
  o.project = [&](double, double *x) {
    const double r = std::hypot(x[0], x[1]);
    worstDrift = std::max(worstDrift, std::abs(r - 1));
    x[0] /= r;
    x[1] /= r;
    ++projections;
    return true;
  };
  Run r = run(rotation, {1, 0}, o);
  REQUIRE(r.result.outcome == Outcome::Finished);
  INFO(statsOf(r.result.stats) << "; worst drift per step " << worstDrift);
  CHECK(projections == r.result.stats.accepted);
  CHECK(worstDrift < 3 * rtol);
  // The phase error is not projected away: it adds up as without projection.
  CHECK(std::abs(r.states.back()[0] - std::cos(10.0)) < 100 * rtol);
  CHECK(std::abs(r.states.back()[1] - std::sin(10.0)) < 100 * rtol);
}

TEST_CASE("BDF needs the Jacobian and has no fixed-step runs", "[bdf]") {
  auto none = [](double, const double *) { return true; };
  IntegratorOptions o;
  o.method = Method::Bdf;
  try {
    integrate(forcedOscillator, {0, 0}, o, none);
    FAIL("no exception");
  } catch (const std::invalid_argument &e) {
    CHECK(std::string(e.what()).find("bdf needs the Jacobian") != std::string::npos);
  }
  o.jacobian = forcedOscillatorJacobian;
  o.fixedStep = true;
  CHECK_THROWS_AS(integrate(forcedOscillator, {0, 0}, o, none), std::invalid_argument);
  o.fixedStep = false;
  o.atol = 0;
  CHECK_THROWS_AS(integrate(forcedOscillator, {0, 0}, o, none), std::invalid_argument);
}

TEST_CASE("a non-finite F is reported as NonFinite by BDF", "[bdf]") {
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
  Run r = run(poisoned, {0, 0, 0}, bdf(zero, 1, 1e-8, 1e-10));
  INFO(r.result.message());
  CHECK(r.result.outcome == Outcome::NonFinite);
  CHECK(r.result.failureComponent == 1);
  CHECK(r.result.failureTime >= 0.25);
  CHECK(r.result.failureTime < 0.25 + 1e-12);
  CHECK(r.result.message().rfind("non-finite value in component 1 at t = 0.25", 0) == 0);
  REQUIRE(!r.times.empty());
  CHECK(r.times.back() <= 0.25);
}

TEST_CASE("a failing right-hand side stops BDF where it starts to fail", "[bdf]") {
  auto failsAfterHalf = [](double t, const double *x, double *xdot) {
    xdot[0] = -x[0];
    return t > 0.5 ? 1 : 0;
  };
  auto jacobian = [](double, const double *, double *J) {
    J[0] = -1;
    return 0;
  };
  Run r = run(failsAfterHalf, {1}, bdf(jacobian, 2, 1e-8, 1e-10));
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

TEST_CASE("a failing Jacobian stops BDF at once", "[bdf]") {
  auto decay = [](double, const double *x, double *xdot) {
    xdot[0] = -x[0];
    xdot[1] = -2 * x[1];
    return 0;
  };
  auto failing = [](double, const double *, double *) { return 7; };
  IntegratorOptions o = bdf(failing, 1, 1e-8, 1e-10);
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

TEST_CASE("maxSteps bounds BDF's attempted steps", "[bdf]") {
  const double rtol = 1e-6;
  IntegratorOptions o = bdf(forcedOscillatorJacobian, 10, rtol, rtol * kAmplitude);
  o.maxSteps = 10;
  Run r = run(forcedOscillator, {0, 0}, o);
  CHECK(r.result.outcome == Outcome::MaxSteps);
  CHECK(r.result.stats.accepted + r.result.stats.rejected == 10);
  CHECK(r.result.failureTime > 0);
  CHECK(r.result.failureTime < 10);
}
