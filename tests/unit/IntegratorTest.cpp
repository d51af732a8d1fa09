// The numeric integrators against exact solutions (oscillators, decay, a
// linear system through its matrix exponential), their orders of convergence,
// the dense output and the sample grid, every failure Outcome with its
// message, the evaluation counts, and the published tableaus' consistency.
#include "runtime/Integrator.h"
#include "runtime/Dop853Tableau.h"
#include "runtime/Dopri5Tableau.h"

#include "IntegratorRun.h"

#include <catch2/catch.hpp>

#include <Eigen/Core>
#include <unsupported/Eigen/MatrixFunctions>

#include <cmath>
#include <complex>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

using namespace mech::runtime;
using namespace mech::test;

namespace {

IntegratorOptions with(Method method, double tEnd, double rtol, double atol) {
  IntegratorOptions o;
  o.method = method;
  o.tEnd = tEnd;
  o.rtol = rtol;
  o.atol = atol;
  o.step = method == Method::Rk4 ? 0.001 : 0; // automatic first step
  return o;
}

const char *nameOf(Method method) {
  switch (method) {
  case Method::Dopri5:
    return "dopri5";
  case Method::Dop853:
    return "dop853";
  case Method::Rk4:
    return "rk4";
  case Method::Midpoint:
    return "midpoint";
  case Method::Radau:
    return "radau";
  case Method::Bdf:
    return "bdf";
  case Method::Auto:
    return "auto";
  }
  return "?";
}

// x'' = -w² x from x = 1, x' = 0: x = cos wt.
constexpr double kOmega = 2;
int oscillator(double, const double *x, double *xdot) {
  xdot[0] = x[1];
  xdot[1] = -kOmega * kOmega * x[0];
  return 0;
}
double oscillatorEnergy(const std::vector<double> &x) {
  return 0.5 * (x[1] * x[1] + kOmega * kOmega * x[0] * x[0]);
}

// |x(10) - cos(10 w)| for the oscillator.
double oscillatorError(const IntegratorOptions &options) {
  Run r = run(oscillator, {1, 0}, options);
  REQUIRE(r.result.outcome == Outcome::Finished);
  return std::abs(r.states.back()[0] - std::cos(kOmega * 10));
}

} // namespace

TEST_CASE("the harmonic oscillator keeps position and energy to 1e-8", "[runtime]") {
  for (Method method : {Method::Dopri5, Method::Dop853}) {
    INFO(nameOf(method));
    Run r = run(oscillator, {1, 0}, with(method, 10, 1e-10, 1e-12));
    REQUIRE(r.result.outcome == Outcome::Finished);
    REQUIRE(r.times.back() == 10);
    const std::vector<double> &x = r.states.back();
    CHECK(std::abs(x[0] - std::cos(kOmega * 10)) < 1e-8);
    CHECK(std::abs(x[1] + kOmega * std::sin(kOmega * 10)) < 1e-8);
    double e0 = oscillatorEnergy(r.states.front());
    CHECK(std::abs(oscillatorEnergy(x) - e0) / e0 < 1e-8);
  }
}

TEST_CASE("exponential decay matches exp(-kt) at every sample", "[runtime]") {
  auto decay = [](double, const double *x, double *xdot) {
    xdot[0] = -0.7 * x[0];
    return 0;
  };
  for (Method method : {Method::Dopri5, Method::Dop853, Method::Rk4}) {
    INFO(nameOf(method));
    Run r = run(decay, {2}, with(method, 5, 1e-10, 1e-12));
    REQUIRE(r.result.outcome == Outcome::Finished);
    REQUIRE(r.times.size() == 501);
    for (size_t k = 0; k < r.times.size(); ++k) {
      double exact = 2 * std::exp(-0.7 * r.times[k]);
      REQUIRE(std::abs(r.states[k][0] - exact) < 1e-9 * exact);
    }
  }
}

TEST_CASE("integration runs backwards when tEnd < t0", "[runtime]") {
  auto growth = [](double, const double *x, double *xdot) {
    xdot[0] = x[0];
    return 0;
  };
  for (Method method : {Method::Dopri5, Method::Dop853, Method::Rk4}) {
    INFO(nameOf(method));
    IntegratorOptions o = with(method, 0, 1e-10, 1e-12);
    o.t0 = 1;
    o.dt = 0.1;
    Run r = run(growth, {std::exp(1.0)}, o);
    REQUIRE(r.result.outcome == Outcome::Finished);
    REQUIRE(r.times.size() == 11);
    for (size_t k = 0; k + 1 < r.times.size(); ++k)
      CHECK(r.times[k] == 1 - static_cast<double>(k) * 0.1);
    CHECK(r.times.back() == 0);
    for (size_t k = 0; k < r.times.size(); ++k)
      CHECK(r.states[k][0] == Approx(std::exp(r.times[k])).epsilon(1e-9));
  }
}

TEST_CASE("a linear system follows its matrix exponential", "[runtime]") {
  // A rotation with damping coupled to a decaying mode: complex and real
  // eigenvalues, not a normal matrix.
  Eigen::Matrix3d A;
  A << -0.1, 2.0, 0.3, -2.0, -0.1, 0.0, 0.5, 0.0, -1.5;
  Eigen::Vector3d x0(1, -0.5, 2);
  auto linear = [&](double, const double *x, double *xdot) {
    Eigen::Map<Eigen::Vector3d> out(xdot);
    out = A * Eigen::Map<const Eigen::Vector3d>(x);
    return 0;
  };
  for (Method method : {Method::Dopri5, Method::Dop853, Method::Rk4}) {
    INFO(nameOf(method));
    IntegratorOptions o = with(method, 4, 1e-11, 1e-13);
    o.dt = 0.25;
    Run r = run(linear, {x0(0), x0(1), x0(2)}, o);
    REQUIRE(r.result.outcome == Outcome::Finished);
    for (size_t k = 0; k < r.times.size(); ++k) {
      Eigen::Matrix3d At = A * r.times[k];
      Eigen::Vector3d exact = At.exp() * x0;
      for (int i = 0; i < 3; ++i)
        REQUIRE(std::abs(r.states[k][static_cast<size_t>(i)] - exact(i)) < 1e-9);
    }
  }
}

TEST_CASE("a damped forced oscillator follows its exact solution", "[runtime]") {
  // x'' + 2 z w x' + w² x = F cos(W t), underdamped.
  const double w = 3, z = 0.1, F = 2, W = 1.7, x0 = 0.5, v0 = -1;
  auto forced = [&](double t, const double *x, double *xdot) {
    xdot[0] = x[1];
    xdot[1] = F * std::cos(W * t) - 2 * z * w * x[1] - w * w * x[0];
    return 0;
  };
  // Particular solution Re(G e^{iWt}); the homogeneous part fits x0, v0.
  const std::complex<double> G = F / std::complex<double>(w * w - W * W, 2 * z * w * W);
  const double wd = w * std::sqrt(1 - z * z);
  const double A = x0 - G.real();
  const double B = (v0 + W * G.imag() + z * w * A) / wd;
  auto exact = [&](double t) {
    std::complex<double> particular = G * std::exp(std::complex<double>(0, W * t));
    return particular.real() + std::exp(-z * w * t) * (A * std::cos(wd * t) + B * std::sin(wd * t));
  };
  for (Method method : {Method::Dopri5, Method::Dop853, Method::Rk4}) {
    INFO(nameOf(method));
    Run r = run(forced, {x0, v0}, with(method, 10, 1e-11, 1e-13));
    REQUIRE(r.result.outcome == Outcome::Finished);
    for (size_t k = 0; k < r.times.size(); ++k)
      REQUIRE(std::abs(r.states[k][0] - exact(r.times[k])) < 1e-8);
  }
}

TEST_CASE("halving the RK4 step divides the error by about 16", "[runtime]") {
  IntegratorOptions o = with(Method::Rk4, 10, 0, 0);
  o.step = 0.02;
  double coarse = oscillatorError(o);
  o.step = 0.01;
  double fine = oscillatorError(o);
  double ratio = coarse / fine;
  CHECK(ratio > 14);
  CHECK(ratio < 18);
}

TEST_CASE("DOPRI5's global error follows the tolerance", "[runtime]") {
  double loose = oscillatorError(with(Method::Dopri5, 10, 1e-6, 1e-8));
  double tight = oscillatorError(with(Method::Dopri5, 10, 1e-8, 1e-10));
  CHECK(tight > 0);
  CHECK(loose / tight >= 20);
}

TEST_CASE("DOP853 reaches 1e-12 on the oscillator", "[runtime]") {
  CHECK(oscillatorError(with(Method::Dop853, 10, 1e-14, 1e-16)) < 1e-12);
}

TEST_CASE("dense output samples lie between steps, on the exact grid and solution", "[runtime]") {
  for (Method method : {Method::Dopri5, Method::Dop853, Method::Rk4}) {
    INFO(nameOf(method));
    IntegratorOptions o = with(method, 10, 1e-10, 1e-12);
    o.step = method == Method::Rk4 ? 0.02 : 0;
    o.dt = 0.005;
    Run r = run(oscillator, {1, 0}, o);
    REQUIRE(r.result.outcome == Outcome::Finished);
    REQUIRE(r.times.size() == 2001);
    // Fewer than half as many steps as samples: most samples are interpolated.
    CHECK(r.result.stats.accepted < 1000);
    for (size_t k = 0; k + 1 < r.times.size(); ++k)
      REQUIRE(r.times[k] == 0 + static_cast<double>(k) * 0.005);
    CHECK(r.times.back() == 10);
    double tolerance = method == Method::Rk4 ? 1e-6 : 1e-8;
    for (size_t k = 0; k < r.times.size(); ++k) {
      double t = r.times[k];
      REQUIRE(std::abs(r.states[k][0] - std::cos(kOmega * t)) < tolerance);
      REQUIRE(std::abs(r.states[k][1] + kOmega * std::sin(kOmega * t)) < tolerance);
    }
  }
}

TEST_CASE("the sample grid ends exactly at tEnd", "[runtime]") {
  auto still = [](double, const double *, double *xdot) {
    xdot[0] = 0;
    return 0;
  };
  for (Method method : {Method::Dopri5, Method::Dop853, Method::Rk4}) {
    INFO(nameOf(method));
    IntegratorOptions o = with(method, 1.005, 1e-8, 1e-10);
    o.t0 = 0.25;
    o.dt = 0.1;
    Run r = run(still, {1}, o);
    REQUIRE(r.result.outcome == Outcome::Finished);
    // 0.25, 0.35, ..., 0.95, then 1.005.
    REQUIRE(r.times.size() == 9);
    for (size_t k = 0; k + 1 < r.times.size(); ++k)
      CHECK(r.times[k] == 0.25 + static_cast<double>(k) * 0.1);
    CHECK(r.times.back() == 1.005);

    // 3 * 0.3 rounds to 0.8999999999999999: that point is tEnd, not a
    // sample of its own just before it.
    o.t0 = 0;
    o.tEnd = 0.9;
    o.dt = 0.3;
    CHECK(run(still, {1}, o).times == std::vector<double>{0, 0.3, 0.6, 0.9});

    o.tEnd = o.t0 = 0.25;
    Run single = run(still, {1}, o);
    CHECK(single.result.outcome == Outcome::Finished);
    CHECK(single.times == std::vector<double>{0.25});
  }
}

TEST_CASE("sampling does not change the adaptive steps", "[runtime]") {
  for (Method method : {Method::Dopri5, Method::Dop853}) {
    INFO(nameOf(method));
    IntegratorOptions o = with(method, 10, 1e-9, 1e-11);
    o.dt = 0.001;
    Run dense = run(oscillator, {1, 0}, o);
    o.dt = 3.7;
    Run sparse = run(oscillator, {1, 0}, o);
    const IntegrationStats &d = dense.result.stats, &s = sparse.result.stats;
    CHECK(d.accepted == s.accepted);
    CHECK(d.rejected == s.rejected);
    CHECK(dense.states.back() == sparse.states.back());
    if (method == Method::Dopri5) {
      CHECK(d.rhsEvaluations == s.rhsEvaluations);
    } else {
      // DOP853 spends three evaluations on the dense output only in steps
      // with samples inside: here every step, there at most two (3.7, 7.4).
      CHECK(s.rhsEvaluations >= d.rhsEvaluations - 3 * d.accepted);
      CHECK(s.rhsEvaluations <= d.rhsEvaluations - 3 * (d.accepted - 2));
    }
  }
}

TEST_CASE("rhs evaluations are counted, FSAL included", "[runtime]") {
  for (Method method : {Method::Dopri5, Method::Dop853, Method::Rk4}) {
    INFO(nameOf(method));
    long calls = 0;
    auto counted = [&](double t, const double *x, double *xdot) {
      ++calls;
      return oscillator(t, x, xdot);
    };
    IntegratorOptions o = with(method, 10, 1e-8, 1e-10);
    o.step = method == Method::Rk4 ? 0.01 : 0.001; // no automatic first step
    o.dt = 0.0005;                                 // samples inside every step
    Run r = run(counted, {1, 0}, o);
    REQUIRE(r.result.outcome == Outcome::Finished);
    const IntegrationStats &s = r.result.stats;
    CHECK(s.rhsEvaluations == calls);
    long attempts = s.accepted + s.rejected;
    switch (method) {
    case Method::Dopri5:
      CHECK(s.rhsEvaluations == 1 + 6 * attempts);
      break;
    case Method::Dop853:
      CHECK(s.rhsEvaluations == 1 + 11 * attempts + 4 * s.accepted);
      break;
    case Method::Rk4:
      CHECK(s.accepted == 1000);
      CHECK(s.rejected == 0);
      CHECK(s.rhsEvaluations == 1 + 4 * s.accepted);
      break;
    case Method::Midpoint: // needs a Lagrangian form: not among the methods here
      FAIL("midpoint is tested in VariationalIntegratorTest");
      break;
    case Method::Radau: // needs a Jacobian: not among the methods here
      FAIL("radau is tested in RadauTest");
      break;
    case Method::Bdf: // needs a Jacobian: not among the methods here
      FAIL("bdf is tested in BdfTest");
      break;
    case Method::Auto: // needs a Jacobian: not among the methods here
      FAIL("auto is tested in AutoSwitchTest");
      break;
    }

    // The automatic first step costs one evaluation more.
    if (method != Method::Rk4) {
      calls = 0;
      o.step = 0;
      Run automatic = run(counted, {1, 0}, o);
      CHECK(automatic.result.stats.rhsEvaluations == calls);
      long perAttempt = method == Method::Dopri5 ? 6 : 11;
      long perAccepted = method == Method::Dopri5 ? 0 : 4;
      const IntegrationStats &a = automatic.result.stats;
      CHECK(a.rhsEvaluations ==
            2 + perAttempt * (a.accepted + a.rejected) + perAccepted * a.accepted);
    }
  }
}

TEST_CASE("a solution that blows up stops near the singularity", "[runtime]") {
  // x' = x² from x = 1: x = 1/(1 - t).
  auto square = [](double, const double *x, double *xdot) {
    xdot[0] = x[0] * x[0];
    return 0;
  };
  for (Method method : {Method::Dopri5, Method::Dop853}) {
    INFO(nameOf(method));
    Run r = run(square, {1}, with(method, 2, 1e-8, 1e-10));
    INFO(r.result.message());
    CHECK(
        (r.result.outcome == Outcome::NonFinite || r.result.outcome == Outcome::StepSizeUnderflow));
    CHECK(r.result.failureTime == Approx(1).margin(1e-6));
    // The samples up to the failure were delivered (the numerical solution
    // may outlive the exact one by a little).
    CHECK(r.times.back() <= r.result.failureTime);
    CHECK(r.times.back() + 0.01 > r.result.failureTime);
    CHECK(r.times[99] == 99 * 0.01);
    CHECK(r.states[99][0] == Approx(100).epsilon(1e-6));
  }
  Run rk4 = run(square, {1}, with(Method::Rk4, 2, 0, 0));
  INFO(rk4.result.message());
  CHECK(rk4.result.outcome == Outcome::NonFinite);
  CHECK(rk4.result.failureComponent == 0);
  CHECK(rk4.result.failureTime > 0.99);
  CHECK(rk4.result.failureTime < 1.1);
}

TEST_CASE("a failing right-hand side stops the run where it starts to fail", "[runtime]") {
  auto failsAfterHalf = [](double t, const double *x, double *xdot) {
    xdot[0] = -x[0];
    return t > 0.5 ? 1 : 0;
  };
  for (Method method : {Method::Dopri5, Method::Dop853, Method::Rk4}) {
    INFO(nameOf(method));
    Run r = run(failsAfterHalf, {1}, with(method, 2, 1e-8, 1e-10));
    INFO(r.result.message());
    CHECK(r.result.outcome == Outcome::RhsFailed);
    CHECK(r.result.rhsStatus == 1);
    CHECK(r.result.failureTime > 0.5);
    // The adaptive methods shrink the step down to the failure; RK4 reports
    // the first stage past it.
    CHECK(r.result.failureTime < (method == Method::Rk4 ? 0.5011 : 0.5 + 1e-12));
    CHECK(r.result.message().find("status 1 at t = 0.50") != std::string::npos);
    REQUIRE(!r.times.empty());
    CHECK(r.times.back() <= 0.5);
    CHECK(r.times.back() >= 0.49);
    // Bisecting towards the failure takes a bounded number of attempts.
    CHECK(r.result.stats.rejected < 200);
  }
}

TEST_CASE("a right-hand side failing at the initial state stops at once", "[runtime]") {
  auto singular = [](double, const double *, double *xdot) {
    xdot[0] = 0;
    return 1;
  };
  for (Method method : {Method::Dopri5, Method::Dop853, Method::Rk4}) {
    INFO(nameOf(method));
    IntegratorOptions o = with(method, 1, 1e-8, 1e-10);
    o.t0 = 0.3;
    Run r = run(singular, {1}, o);
    CHECK(r.result.outcome == Outcome::RhsFailed);
    CHECK(r.result.failureTime == 0.3);
    CHECK(r.result.stats.rhsEvaluations == 1);
    CHECK(r.times == std::vector<double>{0.3}); // the initial state is still a sample
  }
}

TEST_CASE("non-finite values are reported with their component and time", "[runtime]") {
  // Component 1's derivative turns NaN at t = 0.25.
  auto poisoned = [](double t, const double *, double *xdot) {
    xdot[0] = 1;
    xdot[1] = t >= 0.25 ? std::numeric_limits<double>::quiet_NaN() : 0;
    xdot[2] = 0;
    return 0;
  };
  for (Method method : {Method::Dopri5, Method::Dop853, Method::Rk4}) {
    INFO(nameOf(method));
    Run r = run(poisoned, {0, 0, 0}, with(method, 1, 1e-8, 1e-10));
    INFO(r.result.message());
    CHECK(r.result.outcome == Outcome::NonFinite);
    CHECK(r.result.failureComponent == 1);
    CHECK(r.result.failureTime >= 0.25);
    CHECK(r.result.failureTime < (method == Method::Rk4 ? 0.2511 : 0.25 + 1e-12));
    CHECK(r.result.message().rfind("non-finite value in component 1 at t = 0.25", 0) == 0);
  }

  Run initial = run(oscillator, {1, std::numeric_limits<double>::infinity()},
                    with(Method::Dopri5, 1, 1e-8, 1e-10));
  CHECK(initial.result.outcome == Outcome::NonFinite);
  CHECK(initial.result.failureComponent == 1);
  CHECK(initial.result.failureTime == 0);
  CHECK(initial.times.empty());
}

TEST_CASE("maxSteps bounds the attempted steps", "[runtime]") {
  for (Method method : {Method::Dopri5, Method::Dop853, Method::Rk4}) {
    INFO(nameOf(method));
    IntegratorOptions o = with(method, 10, 1e-8, 1e-10);
    o.maxSteps = 10;
    Run r = run(oscillator, {1, 0}, o);
    CHECK(r.result.outcome == Outcome::MaxSteps);
    CHECK(r.result.stats.accepted + r.result.stats.rejected == 10);
    CHECK(r.result.failureTime > 0);
    CHECK(r.result.failureTime < 10);
    CHECK(r.result.message().rfind("maximum number of steps (10) reached at t = ", 0) == 0);
  }
}

TEST_CASE("a sample callback returning false interrupts the run", "[runtime]") {
  for (Method method : {Method::Dopri5, Method::Dop853, Method::Rk4}) {
    INFO(nameOf(method));
    IntegratorOptions o = with(method, 10, 1e-8, 1e-10);
    o.dt = 0.1;
    std::vector<double> times;
    IntegrationResult result = integrate(oscillator, {1, 0}, o, [&](double t, const double *) {
      times.push_back(t);
      return times.size() < 4;
    });
    CHECK(result.outcome == Outcome::Interrupted);
    CHECK(result.failureTime == 3 * 0.1);
    CHECK(times.size() == 4);
    CHECK(result.message() == "interrupted at t = 0.30000000000000004");
  }
}

TEST_CASE("outcome messages", "[runtime]") {
  IntegrationResult r;
  CHECK(r.message() == "finished");
  r.outcome = Outcome::NonFinite;
  r.failureTime = 1.25;
  r.failureComponent = 3;
  CHECK(r.message() == "non-finite value in component 3 at t = 1.25");
  r.outcome = Outcome::StepSizeUnderflow;
  r.failureTime = 0.5;
  CHECK(r.message() == "step size underflow at t = 0.5");
  r.outcome = Outcome::RhsFailed;
  r.rhsStatus = 1;
  CHECK(r.message() == "the right-hand side failed with status 1 at t = 0.5");
  r.outcome = Outcome::MaxSteps;
  r.stats.accepted = 7;
  r.stats.rejected = 3;
  CHECK(r.message() == "maximum number of steps (10) reached at t = 0.5");
}

TEST_CASE("options no run can satisfy are rejected", "[runtime]") {
  auto bad = [](auto change) {
    IntegratorOptions o;
    change(o);
    return o;
  };
  auto none = [](double, const double *) { return true; };
  CHECK_THROWS_AS(integrate(oscillator, {1, 0}, bad([](auto &o) { o.dt = 0; }), none),
                  std::invalid_argument);
  CHECK_THROWS_AS(integrate(oscillator, {1, 0}, bad([](auto &o) { o.rtol = -1; }), none),
                  std::invalid_argument);
  CHECK_THROWS_AS(integrate(oscillator, {1, 0}, bad([](auto &o) { o.atol = 0; }), none),
                  std::invalid_argument);
  CHECK_NOTHROW(integrate(oscillator, {1, 0}, bad([](auto &o) { o.rtol = 0; }), none));
  CHECK_THROWS_AS(integrate(oscillator, {1, 0}, bad([](auto &o) {
                              o.method = Method::Rk4;
                              o.step = 0;
                            }),
                            none),
                  std::invalid_argument);
  CHECK_THROWS_AS(integrate(oscillator, {1, 0},
                            bad([](auto &o) { o.tEnd = std::numeric_limits<double>::infinity(); }),
                            none),
                  std::invalid_argument);
}

namespace {

// Σ_j row[j] c_j^power over the first `size` entries.
double moment(const double *row, const double *c, int size, int power) {
  double s = 0;
  for (int j = 0; j < size; ++j)
    s += row[j] * std::pow(c[j], power);
  return s;
}

} // namespace

TEST_CASE("the published tableaus are consistent", "[runtime]") {
  SECTION("dopri5") {
    using namespace dopri5;
    for (int i = 1; i < kStages; ++i)
      CHECK(moment(a[i], c, i, 0) == Approx(c[i]).margin(1e-15));
    // The fifth-order weights integrate polynomials of degree 4 exactly.
    for (int p = 0; p <= 4; ++p)
      CHECK(moment(a[6], c, 6, p) == Approx(1.0 / (p + 1)).margin(1e-15));
    // The fourth-order formula integrates degree 3 exactly too.
    for (int p = 0; p <= 3; ++p)
      CHECK(moment(e, c, kStages, p) == Approx(0).margin(1e-15));
  }
  SECTION("dop853") {
    using namespace dop853;
    for (int i = 1; i < kStages; ++i)
      CHECK(moment(a[i], c, i, 0) == Approx(c[i]).margin(1e-14));
    for (int p = 0; p <= 7; ++p)
      CHECK(moment(a[12], c, kStepStages, p) == Approx(1.0 / (p + 1)).margin(1e-14));
    for (int p = 0; p <= 4; ++p)
      CHECK(moment(e5, c, kStepStages, p) == Approx(0).margin(1e-14));
    for (int p = 0; p <= 2; ++p)
      CHECK(moment(e3.data(), c, kStepStages, p) == Approx(0).margin(1e-14));
  }
}
