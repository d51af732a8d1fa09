// The midpoint variational integrator against answers from outside it: exact
// solutions (oscillators, free, damped and in a rotating frame), conservation
// laws (energy over 10^4 periods, angular momentum by the discrete Noether
// theorem, the double pendulum's energy over 1000 s), its order, the Newton
// fallback on a stiff spring, and its options and failures. Every system's
// momenta, forces, mass matrix and right-hand side are written by hand.
#include "runtime/Integrator.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

using namespace mech::runtime;

namespace {

// A mechanical system as the integrator sees it, with its energy T + V.
struct System {
  LagrangianForm lagrangian;
  RightHandSide rhs;
  std::function<double(const double *x)> energy;
};

struct Run {
  IntegrationResult result;
  std::vector<double> times;
  std::vector<std::vector<double>> states;
};

Run run(const System &system, std::vector<double> x0, const IntegratorOptions &options) {
  Run r;
  size_t n = x0.size();
  r.result = integrate(
      system.rhs, std::move(x0), options,
      [&](double t, const double *x) {
        r.times.push_back(t);
        r.states.emplace_back(x, x + n);
        return true;
      },
      &system.lagrangian);
  return r;
}

IntegratorOptions midpoint(double tEnd, double step, double dt) {
  IntegratorOptions o;
  o.method = Method::Midpoint;
  o.tEnd = tEnd;
  o.step = step;
  o.dt = dt;
  return o;
}

// The largest |E - E0| / |E0| over the samples in [from, to).
double energyError(const System &system, const Run &r, double from, double to) {
  double e0 = system.energy(r.states.front().data()), worst = 0;
  for (size_t k = 0; k < r.times.size(); ++k)
    if (r.times[k] >= from && r.times[k] < to)
      worst = std::max(worst, std::abs(system.energy(r.states[k].data()) - e0) / std::abs(e0));
  return worst;
}

// L = m q'^2/2 - k q^2/2 with the force Q = -c q' (c = 0: undamped).
System oscillator(double m, double k, double c) {
  System s;
  s.lagrangian.coordinates = 1;
  s.lagrangian.momentumAndForce = [=](double, const double *x, double *p, double *force) {
    p[0] = m * x[1];
    force[0] = -k * x[0] - c * x[1];
    return 0;
  };
  s.lagrangian.massMatrix = [=](double, const double *, double *M) {
    M[0] = m;
    return 0;
  };
  s.rhs = [=](double, const double *x, double *xdot) {
    xdot[0] = x[1];
    xdot[1] = (-k * x[0] - c * x[1]) / m;
    return 0;
  };
  s.energy = [=](const double *x) { return 0.5 * m * x[1] * x[1] + 0.5 * k * x[0] * x[0]; };
  return s;
}

// A particle of mass m in the field -k/r, in polar coordinates (r, theta):
// L = m (r'^2 + r^2 theta'^2)/2 + k/r. Theta is cyclic.
constexpr double kMass = 1, kStrength = 1;
System centralField() {
  System s;
  s.lagrangian.coordinates = 2;
  s.lagrangian.momentumAndForce = [](double, const double *x, double *p, double *force) {
    double r = x[0], dr = x[2], dtheta = x[3];
    p[0] = kMass * dr;
    p[1] = kMass * r * r * dtheta;
    force[0] = kMass * r * dtheta * dtheta - kStrength / (r * r);
    force[1] = 0;
    return 0;
  };
  s.lagrangian.massMatrix = [](double, const double *q, double *M) {
    M[0] = kMass;
    M[1] = M[2] = 0;
    M[3] = kMass * q[0] * q[0];
    return 0;
  };
  s.rhs = [](double, const double *x, double *xdot) {
    double r = x[0], dr = x[2], dtheta = x[3];
    xdot[0] = dr;
    xdot[1] = dtheta;
    xdot[2] = r * dtheta * dtheta - kStrength / (kMass * r * r);
    xdot[3] = -2 * dr * dtheta / r;
    return 0;
  };
  s.energy = [](const double *x) {
    double r = x[0];
    return 0.5 * kMass * (x[2] * x[2] + r * r * x[3] * x[3]) - kStrength / r;
  };
  return s;
}

// The double pendulum, angles from the downward vertical, x = (a, b, a', b'):
//   T = (m1 + m2) l1^2 a'^2/2 + m2 l2^2 b'^2/2 + m2 l1 l2 a' b' cos(a - b)
//   V = -(m1 + m2) g l1 cos a - m2 g l2 cos b
constexpr double m1 = 1, m2 = 1, l1 = 1, l2 = 1, g = 9.81;
System doublePendulum() {
  System s;
  s.lagrangian.coordinates = 2;
  s.lagrangian.momentumAndForce = [](double, const double *x, double *p, double *force) {
    double c = std::cos(x[0] - x[1]), sn = std::sin(x[0] - x[1]);
    double wa = x[2], wb = x[3];
    p[0] = (m1 + m2) * l1 * l1 * wa + m2 * l1 * l2 * c * wb;
    p[1] = m2 * l2 * l2 * wb + m2 * l1 * l2 * c * wa;
    force[0] = -m2 * l1 * l2 * wa * wb * sn - (m1 + m2) * g * l1 * std::sin(x[0]);
    force[1] = m2 * l1 * l2 * wa * wb * sn - m2 * g * l2 * std::sin(x[1]);
    return 0;
  };
  s.lagrangian.massMatrix = [](double, const double *q, double *M) {
    M[0] = (m1 + m2) * l1 * l1;
    M[1] = M[2] = m2 * l1 * l2 * std::cos(q[0] - q[1]);
    M[3] = m2 * l2 * l2;
    return 0;
  };
  // M q'' = dL/dq - (dM/dt) q'.
  s.rhs = [](double, const double *x, double *xdot) {
    double c = std::cos(x[0] - x[1]), sn = std::sin(x[0] - x[1]);
    double wa = x[2], wb = x[3];
    double a11 = (m1 + m2) * l1 * l1, a12 = m2 * l1 * l2 * c, a22 = m2 * l2 * l2;
    double fa = -m2 * l1 * l2 * sn * wb * wb - (m1 + m2) * g * l1 * std::sin(x[0]);
    double fb = m2 * l1 * l2 * sn * wa * wa - m2 * g * l2 * std::sin(x[1]);
    double det = a11 * a22 - a12 * a12;
    xdot[0] = wa;
    xdot[1] = wb;
    xdot[2] = (a22 * fa - a12 * fb) / det;
    xdot[3] = (a11 * fb - a12 * fa) / det;
    return 0;
  };
  s.energy = [](const double *x) {
    double wa = x[2], wb = x[3];
    double T = 0.5 * (m1 + m2) * l1 * l1 * wa * wa + 0.5 * m2 * l2 * l2 * wb * wb +
               m2 * l1 * l2 * wa * wb * std::cos(x[0] - x[1]);
    double V = -(m1 + m2) * g * l1 * std::cos(x[0]) - m2 * g * l2 * std::cos(x[1]);
    return T + V;
  };
  return s;
}

// An isotropic oscillator seen from a frame turning at w about the z axis:
// L = m |q' + w (-y, x)|^2/2 - k |q|^2/2. The momenta at rest, m w (-y, x),
// do not vanish, and the Coriolis force depends on q'.
constexpr double kTurn = 0.7, kSpring = 4;
System rotatingOscillator() {
  System s;
  s.lagrangian.coordinates = 2;
  s.lagrangian.momentumAndForce = [](double, const double *x, double *p, double *force) {
    double ux = x[2] - kTurn * x[1], uy = x[3] + kTurn * x[0]; // inertial velocity
    p[0] = kMass * ux;
    p[1] = kMass * uy;
    force[0] = kMass * kTurn * uy - kSpring * x[0];
    force[1] = -kMass * kTurn * ux - kSpring * x[1];
    return 0;
  };
  s.lagrangian.massMatrix = [](double, const double *, double *M) {
    M[0] = M[3] = kMass;
    M[1] = M[2] = 0;
    return 0;
  };
  s.rhs = [](double, const double *x, double *xdot) {
    double w2 = kTurn * kTurn - kSpring / kMass;
    xdot[0] = x[2];
    xdot[1] = x[3];
    xdot[2] = 2 * kTurn * x[3] + w2 * x[0];
    xdot[3] = -2 * kTurn * x[2] + w2 * x[1];
    return 0;
  };
  s.energy = [](const double *x) { // the Jacobi integral
    return 0.5 * kMass * (x[2] * x[2] + x[3] * x[3]) +
           0.5 * (kSpring - kMass * kTurn * kTurn) * (x[0] * x[0] + x[1] * x[1]);
  };
  return s;
}

} // namespace

TEST_CASE("midpoint: the harmonic oscillator keeps its energy over 10^4 periods",
          "[runtime][midpoint]") {
  // For L = T(q') - V(q) with constant M the method is the implicit midpoint
  // rule, which keeps quadratic invariants exactly: at the step points the
  // oscillator's energy changes only by rounding. 20 steps per period.
  const double m = 2, k = 8, omega = std::sqrt(k / m), period = 2 * M_PI / omega;
  System s = oscillator(m, k, 0);
  const double h = period / 20, tEnd = 1e4 * period;
  // 200 000 samples, so the energy is checked as they come rather than kept.
  const double e0 = 0.5 * k;
  double first = 0, last = 0, all = 0, qEnd = 0;
  IntegrationResult result = integrate(
      s.rhs, {1, 0}, midpoint(tEnd, h, h),
      [&](double t, const double *x) {
        double error = std::abs(s.energy(x) - e0) / e0;
        all = std::max(all, error);
        if (t < 100 * period)
          first = std::max(first, error);
        if (t >= 9900 * period)
          last = std::max(last, error);
        qEnd = x[0];
        return true;
      },
      &s.lagrangian);
  REQUIRE(result.outcome == Outcome::Finished);
  REQUIRE(result.stats.accepted == 200000);
  INFO("first 100 periods " << first << ", last 100 " << last << ", all " << all);
  CHECK(all < 1e-12);
  // Its phase lags by the known amount: h w_h = 2 atan(h w / 2).
  const double omegaH = 2 / h * std::atan(h * omega / 2);
  CHECK(qEnd == Approx(std::cos(omegaH * tEnd)).margin(1e-8));
}

TEST_CASE("midpoint: halving the step divides the error by about 4", "[runtime][midpoint]") {
  const double m = 2, k = 8, omega = std::sqrt(k / m);
  System s = oscillator(m, k, 0);
  auto error = [&](double h) {
    Run r = run(s, {1, 0}, midpoint(10, h, 0.5));
    REQUIRE(r.result.outcome == Outcome::Finished);
    return std::abs(r.states.back()[0] - std::cos(omega * 10));
  };
  double coarse = error(0.02), fine = error(0.01);
  INFO("error at h = 0.02: " << coarse << ", at 0.01: " << fine);
  // The phase error w^3 h^2 t / 12 ≈ 2.7e-3 at h = 0.02, t = 10.
  CHECK(coarse < 5e-3);
  CHECK(coarse / fine > 3.8);
  CHECK(coarse / fine < 4.2);
}

TEST_CASE("midpoint: the central field keeps angular momentum to rounding", "[runtime][midpoint]") {
  // An eccentric orbit (e = 0.44, period 15) for 1000 s, every step sampled.
  System s = centralField();
  const double h = 0.01;
  Run r = run(s, {1, 0, 0, 1.2}, midpoint(1000, h, h));
  REQUIRE(r.result.outcome == Outcome::Finished);
  auto angularMomentum = [](const std::vector<double> &x) { return kMass * x[0] * x[0] * x[3]; };
  const double l0 = angularMomentum(r.states.front());
  double drift = 0;
  for (const std::vector<double> &x : r.states)
    drift = std::max(drift, std::abs(angularMomentum(x) - l0) / l0);
  double first = energyError(s, r, 0, 100), last = energyError(s, r, 900, 1000);
  INFO("angular momentum drift " << drift << "; energy error first 100 s " << first
                                 << ", last 100 s " << last);
  CHECK(drift < 1e-12);
  CHECK(first < 1e-4);
  CHECK(last < 2 * first);
}

TEST_CASE("midpoint: the double pendulum keeps its energy for 1000 s", "[runtime][midpoint]") {
  System s = doublePendulum();
  Run r = run(s, {0.5, 1.0, 0, 0}, midpoint(1000, 0.01, 0.01));
  REQUIRE(r.result.outcome == Outcome::Finished);
  REQUIRE(r.result.stats.accepted == 100000);
  double first = energyError(s, r, 0, 100), last = energyError(s, r, 900, 1001);
  INFO("energy error first 100 s " << first << ", last 100 s " << last);
  CHECK(std::max(first, last) < 1e-3);
  CHECK(last < 2 * first);
}

TEST_CASE("midpoint: a damped oscillator's amplitude decays as exp(-c t / 2m)",
          "[runtime][midpoint]") {
  // x = e^{-gt} (A cos wd t + B sin wd t), g = c/2m: the amplitude
  // sqrt(x^2 + ((x' + g x)/wd)^2) is exactly e^{-gt} sqrt(A^2 + B^2).
  const double m = 1.5, k = 6, c = 0.9, gamma = c / (2 * m);
  const double wd = std::sqrt(k / m - gamma * gamma);
  System s = oscillator(m, k, c);
  auto worst = [&](double h) {
    Run r = run(s, {1, 0.5}, midpoint(10, h, 0.05));
    REQUIRE(r.result.outcome == Outcome::Finished);
    double a0 = std::hypot(1, (0.5 + gamma) / wd), error = 0;
    for (size_t j = 0; j < r.times.size(); ++j) {
      const std::vector<double> &x = r.states[j];
      double amplitude = std::hypot(x[0], (x[1] + gamma * x[0]) / wd);
      error = std::max(error, std::abs(amplitude / (a0 * std::exp(-gamma * r.times[j])) - 1));
    }
    return error;
  };
  double coarse = worst(0.02), fine = worst(0.01);
  INFO("amplitude error at h = 0.02: " << coarse << ", at 0.01: " << fine);
  CHECK(coarse < 5e-3);
  CHECK(coarse / fine > 3.5);
  CHECK(coarse / fine < 4.5);
}

TEST_CASE("midpoint: velocities follow from momenta with gyroscopic terms", "[runtime][midpoint]") {
  // In the inertial frame X(t) = X0 cos wt + (V0/w) sin wt; the turning frame
  // sees q = R(-kTurn t) X. V0 includes the frame's motion.
  const double w = std::sqrt(kSpring / kMass), q0[] = {1, 0.5}, v0[] = {0.2, -0.3};
  const double V0[] = {v0[0] - kTurn * q0[1], v0[1] + kTurn * q0[0]};
  System s = rotatingOscillator();
  auto worst = [&](double h) {
    Run r = run(s, {q0[0], q0[1], v0[0], v0[1]}, midpoint(5, h, 0.01));
    REQUIRE(r.result.outcome == Outcome::Finished);
    double error = 0;
    for (size_t j = 0; j < r.times.size(); ++j) {
      double t = r.times[j], co = std::cos(w * t), si = std::sin(w * t);
      double X = q0[0] * co + V0[0] / w * si, Y = q0[1] * co + V0[1] / w * si;
      double dX = -q0[0] * w * si + V0[0] * co, dY = -q0[1] * w * si + V0[1] * co;
      double ca = std::cos(kTurn * t), sa = std::sin(kTurn * t);
      // q = R(-at) X, q' = R(-at) (X' - a J X) with J X = (-Y, X).
      double x = ca * X + sa * Y, y = -sa * X + ca * Y;
      double ux = dX + kTurn * Y, uy = dY - kTurn * X;
      double dx = ca * ux + sa * uy, dy = -sa * ux + ca * uy;
      const std::vector<double> &got = r.states[j];
      error = std::max({error, std::abs(got[0] - x), std::abs(got[1] - y), std::abs(got[2] - dx),
                        std::abs(got[3] - dy)});
    }
    double e0 = s.energy(r.states.front().data());
    CHECK(std::abs(s.energy(r.states.back().data()) - e0) < 1e-3 * e0);
    return error;
  };
  // Samples every 0.01 lie between the steps: the interpolant must keep up.
  double coarse = worst(0.04), fine = worst(0.02);
  INFO("worst error at h = 0.04: " << coarse << ", at 0.02: " << fine);
  CHECK(coarse < 5e-2);
  CHECK(coarse / fine > 3.5);
  CHECK(coarse / fine < 4.5);
}

TEST_CASE("midpoint: a stiff spring is solved by the difference Jacobian", "[runtime][midpoint]") {
  // h w = 3: the simplified Newton iteration with M/h diverges, yet the step
  // equation has a solution, which the fallback finds; the energy stays
  // exact as for any step of the implicit midpoint rule.
  const double m = 1, k = 900;
  System s = oscillator(m, k, 0);
  Run r = run(s, {1, 0}, midpoint(10, 0.1, 0.1));
  INFO(r.result.message());
  REQUIRE(r.result.outcome == Outcome::Finished);
  CHECK(energyError(s, r, 0, 11) < 1e-12);
}

TEST_CASE("midpoint: samples interpolate between steps on the exact grid", "[runtime][midpoint]") {
  System s = oscillator(2, 8, 0);
  IntegratorOptions o = midpoint(1.005, 0.01, 0.1);
  o.t0 = 0.25;
  Run r = run(s, {1, 0}, o);
  REQUIRE(r.result.outcome == Outcome::Finished);
  REQUIRE(r.times.size() == 9);
  for (size_t k = 0; k + 1 < r.times.size(); ++k)
    CHECK(r.times[k] == 0.25 + static_cast<double>(k) * 0.1);
  CHECK(r.times.back() == 1.005);
  CHECK(r.result.stats.accepted == 76); // the last step shortened to 0.005

  // A last step of 5e-11 (just above the grid's merging distance) changes
  // the state by that much, not by the rounding of q1 - q0 over 5e-11.
  Run atOne = run(s, {1, 0}, midpoint(1, 0.01, 0.5));
  Run beyond = run(s, {1, 0}, midpoint(1 + 5e-11, 0.01, 0.5));
  REQUIRE(beyond.result.stats.accepted == 101);
  CHECK(std::abs(beyond.states.back()[0] - atOne.states.back()[0]) < 1e-9);
  CHECK(std::abs(beyond.states.back()[1] - atOne.states.back()[1]) < 1e-9);

  // Backwards, with samples inside the steps.
  o = midpoint(0, 0.01, 0.003);
  o.t0 = 1;
  Run back = run(s, {std::cos(2.0), -2 * std::sin(2.0)}, o);
  REQUIRE(back.result.outcome == Outcome::Finished);
  CHECK(back.times.back() == 0);
  for (size_t k = 0; k < back.times.size(); ++k)
    REQUIRE(back.states[k][0] == Approx(std::cos(2 * back.times[k])).margin(1e-4));
}

TEST_CASE("midpoint: every call into the model is counted", "[runtime][midpoint]") {
  System s = oscillator(2, 8, 0);
  long rhsCalls = 0, momentumCalls = 0, massCalls = 0;
  System counted = s;
  counted.rhs = [&](double t, const double *x, double *xdot) {
    ++rhsCalls;
    return s.rhs(t, x, xdot);
  };
  counted.lagrangian.momentumAndForce = [&](double t, const double *x, double *p, double *f) {
    ++momentumCalls;
    return s.lagrangian.momentumAndForce(t, x, p, f);
  };
  counted.lagrangian.massMatrix = [&](double t, const double *q, double *M) {
    ++massCalls;
    return s.lagrangian.massMatrix(t, q, M);
  };
  // Samples inside every step: F at each step point, t0 included.
  Run r = run(counted, {1, 0}, midpoint(1, 0.01, 0.005));
  REQUIRE(r.result.outcome == Outcome::Finished);
  CHECK(r.result.stats.rhsEvaluations == rhsCalls + momentumCalls + massCalls);
  CHECK(rhsCalls == 101);
  CHECK(massCalls == 101);
  // P and F at t0, then per step two or more Newton iterations and one call
  // for the velocity; a handful of iterations at h w = 0.02.
  CHECK(momentumCalls >= 1 + 100 * 3);
  CHECK(momentumCalls <= 1 + 100 * 7);

  // Samples only at step points need no F at all (binary fractions, so that
  // the two grids meet exactly).
  rhsCalls = 0;
  run(counted, {1, 0}, midpoint(1, 0.125, 0.25));
  CHECK(rhsCalls == 0);
}

TEST_CASE("midpoint: options it cannot run with are rejected", "[runtime][midpoint]") {
  System s = oscillator(1, 1, 0);
  auto none = [](double, const double *) { return true; };
  IntegratorOptions o = midpoint(1, 0.01, 0.1);
  CHECK_THROWS_AS(integrate(s.rhs, {1, 0}, o, none), std::invalid_argument);
  CHECK_THROWS_AS(integrate(s.rhs, {1, 0, 0}, o, none, &s.lagrangian), std::invalid_argument);
  LagrangianForm incomplete = s.lagrangian;
  incomplete.massMatrix = nullptr;
  CHECK_THROWS_AS(integrate(s.rhs, {1, 0}, o, none, &incomplete), std::invalid_argument);
  o.step = 0;
  CHECK_THROWS_AS(integrate(s.rhs, {1, 0}, o, none, &s.lagrangian), std::invalid_argument);
  // Tolerances mean nothing to a fixed step.
  o = midpoint(1, 0.01, 0.1);
  o.atol = 0;
  CHECK_NOTHROW(integrate(s.rhs, {1, 0}, o, none, &s.lagrangian));
  // The other methods ignore a Lagrangian.
  o.method = Method::Rk4;
  CHECK_NOTHROW(integrate(s.rhs, {1, 0}, o, none, &s.lagrangian));
}

TEST_CASE("midpoint: a mass matrix that is not positive definite stops the run",
          "[runtime][midpoint]") {
  // M turns indefinite after t = 0.5 (the momenta do not matter here).
  System s = doublePendulum();
  s.lagrangian.massMatrix = [](double t, const double *, double *M) {
    M[0] = 1;
    M[1] = M[2] = t > 0.5 ? 2 : 0;
    M[3] = 1;
    return 0;
  };
  Run r = run(s, {0.5, 1.0, 0, 0}, midpoint(2, 0.01, 0.1));
  INFO(r.result.message());
  CHECK(r.result.outcome == Outcome::RhsFailed);
  CHECK(r.result.rhsStatus == 1);
  CHECK(r.result.failureTime == Approx(0.51));
  CHECK(r.result.message().find("status 1 at t = 0.51") != std::string::npos);
  CHECK(r.times.back() == 0.5);

  // A status of the model's own is passed on.
  s = doublePendulum();
  s.lagrangian.momentumAndForce = [](double t, const double *, double *p, double *force) {
    p[0] = p[1] = force[0] = force[1] = 0;
    return t > 0.3 ? 7 : 0;
  };
  r = run(s, {0.5, 1.0, 0, 0}, midpoint(2, 0.01, 0.1));
  CHECK(r.result.outcome == Outcome::RhsFailed);
  CHECK(r.result.rhsStatus == 7);
  CHECK(r.result.failureTime > 0.3);
  CHECK(r.result.failureTime < 0.31);
}

TEST_CASE("midpoint: a step equation without a solution reports no convergence",
          "[runtime][midpoint]") {
  // P = tanh(q') is bounded, so once the force grows past 2/h no q1 solves
  // P(vm) - (h/2) F = p0. (Not a quadratic L, which this failure needs.)
  System s = oscillator(1, 1, 0);
  s.lagrangian.momentumAndForce = [](double t, const double *x, double *p, double *force) {
    p[0] = std::tanh(x[1]);
    force[0] = t > 0.3 ? 1000 : 0;
    return 0;
  };
  Run r = run(s, {0, 0}, midpoint(1, 0.01, 0.1));
  INFO(r.result.message());
  CHECK(r.result.outcome == Outcome::NoConvergence);
  CHECK(r.result.failureTime == Approx(0.3));
  CHECK(r.result.message().rfind("the implicit equations of the step did not converge at t = 0.3",
                                 0) == 0);

  IntegrationResult message;
  message.outcome = Outcome::NoConvergence;
  message.failureTime = 0.25;
  CHECK(message.message() == "the implicit equations of the step did not converge at t = 0.25");
}

TEST_CASE("midpoint: maxSteps, interruption and non-finite states", "[runtime][midpoint]") {
  System s = oscillator(1, 1, 0);
  IntegratorOptions o = midpoint(10, 0.01, 0.1);
  o.maxSteps = 10;
  Run r = run(s, {1, 0}, o);
  CHECK(r.result.outcome == Outcome::MaxSteps);
  CHECK(r.result.stats.accepted == 10);
  CHECK(r.result.failureTime == Approx(0.1));

  o = midpoint(10, 0.01, 0.1);
  std::vector<double> times;
  IntegrationResult interrupted = integrate(
      s.rhs, {1, 0}, o,
      [&](double t, const double *) {
        times.push_back(t);
        return times.size() < 4;
      },
      &s.lagrangian);
  CHECK(interrupted.outcome == Outcome::Interrupted);
  CHECK(interrupted.failureTime == 3 * 0.1);

  // A force that turns NaN stops the run at the first step that meets it.
  s.lagrangian.momentumAndForce = [](double t, const double *x, double *p, double *force) {
    p[0] = x[1];
    force[0] = t > 0.5 ? std::numeric_limits<double>::quiet_NaN() : -x[0];
    return 0;
  };
  r = run(s, {1, 0}, o);
  CHECK(r.result.outcome == Outcome::NonFinite);
  CHECK(r.result.failureTime > 0.5);
  CHECK(r.result.failureTime < 0.51);

  Run initial = run(s, {1, std::numeric_limits<double>::infinity()}, o);
  CHECK(initial.result.outcome == Outcome::NonFinite);
  CHECK(initial.result.failureComponent == 1);
}
