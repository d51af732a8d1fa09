// The implicit side of the C runtime of built libraries: its dense LU
// decompositions against Eigen's PartialPivLU, its Radau IIA constants
// against the CLI's (runtime/Radau5), the state Jacobian mechrt_jacobian
// against central differences of the rhs and a hand-derived matrix, and
// mechrt_simulate_with's Radau against the overdamped oscillator's exact
// solution, the CLI's Radau on the same kernels, and a DOPRI5 run of the
// Cartesian pendulum at a tight tolerance. The models are hand-written C
// kernels with Jacobian parts derived by hand (below).
#include "LibraryRows.h"
#include "LibraryRuntimeProbe.h"
#include "StiffOscillator.h"

#include "runtime/Integrator.h"
#include "runtime/Radau5.h"

#include <catch2/catch.hpp>

#include <Eigen/LU>

#include <cmath>
#include <complex>
#include <cstddef>
#include <random>
#include <vector>

using namespace mech::runtime;
using namespace mech::test;

namespace {

long calls = 0; // of the right-hand sides below

// ---- The overdamped forced oscillator (StiffOscillator.h) -----------------
// r = f - M q'' with f = F0 sin(w t) - c v - k x: dr/dq = -k, dr/dq' = -c.

int oscillatorRhs(double t, const double *x, const double *, double *out) {
  ++calls;
  return forcedOscillator(t, x, out);
}

int oscillatorParts(double, const double *, const double *, double *out) {
  out[0] = kMass;
  out[1] = -kStiffness;
  out[2] = -kDamping;
  return 0;
}

// The same with the force an input: p = (u), u(t) = sin(w t) set by the
// caller's function.
int drivenRhs(double, const double *x, const double *p, double *out) {
  ++calls;
  out[0] = x[1];
  out[1] = (kForce * p[0] - kDamping * x[1] - kStiffness * x[0]) / kMass;
  return 0;
}

void sineInput(double t, double *u, void *) {
  u[0] = std::sin(kFrequency * t);
}

mechrt_model oscillatorModel() {
  mechrt_model model{};
  model.nq = 1;
  model.rhs = oscillatorRhs;
  model.jacobian_parts = oscillatorParts;
  return model;
}

// ---- The pendulum in Cartesian coordinates --------------------------------
// p = (m, g, l); L = m/2 (x'² + y'²) - m g y; Phi = (x² + y² - l²)/2, so
// C = [x, y] and gamma = -(x'² + y'²). From m x'' = x lambda,
// m y'' = -m g + y lambda and C q'' = gamma:
// lambda = m (g y - x'² - y'²) / (x² + y²).
// The residual r = (f + C^T lambda - M q'', gamma - C q'') has
// dr/dq = [[lambda, 0], [0, lambda], [-x'', -y'']] and
// dr/dq' = [[0, 0], [0, 0], [-2 x', -2 y']] (q'' and lambda held).

double pendulumLambda(const double *x, const double *p) {
  return p[0] * (p[1] * x[1] - x[2] * x[2] - x[3] * x[3]) / (x[0] * x[0] + x[1] * x[1]);
}

int pendulumRhs(double, const double *x, const double *p, double *out) {
  ++calls;
  const double lambda = pendulumLambda(x, p);
  out[0] = x[2];
  out[1] = x[3];
  out[2] = x[0] * lambda / p[0];
  out[3] = -p[1] + x[1] * lambda / p[0];
  return 0;
}

int pendulumConstraints(double, const double *x, const double *p, double *out) {
  out[0] = (x[0] * x[0] + x[1] * x[1] - p[2] * p[2]) / 2;
  out[1] = x[0] * x[2] + x[1] * x[3];
  out[2] = x[0];
  out[3] = x[1];
  return 0;
}

int pendulumMultipliers(double, const double *x, const double *p, double *out) {
  out[0] = pendulumLambda(x, p);
  return 0;
}

int pendulumMass(double, const double *, const double *p, double *out) {
  out[0] = out[3] = p[0];
  out[1] = out[2] = 0;
  return 0;
}

int pendulumParts(double t, const double *x, const double *p, double *out) {
  double xdot[4];
  pendulumRhs(t, x, p, xdot);
  --calls;
  const double lambda = pendulumLambda(x, p);
  const double parts[] = {p[0],   0,    0, p[0],                          // M
                          x[0],   x[1],                                   // C
                          lambda, 0,    0, lambda, -xdot[2],  -xdot[3],   // dr/dq
                          0,      0,    0, 0,      -2 * x[2], -2 * x[3]}; // dr/dq'
  std::copy(std::begin(parts), std::end(parts), out);
  return 0;
}

const unsigned char kHolonomic[] = {1};

mechrt_model pendulumModel() {
  mechrt_model model{};
  model.nq = 2;
  model.np = 3;
  model.nc = 1;
  model.rhs = pendulumRhs;
  model.constraints = pendulumConstraints;
  model.multipliers = pendulumMultipliers;
  model.holonomic = kHolonomic;
  model.mass_matrix = pendulumMass;
  model.jacobian_parts = pendulumParts;
  return model;
}

// ---- Runs -------------------------------------------------------------------

mechrt_sim_options withMethod(int method) {
  mechrt_sim_options options{};
  options.size = sizeof options;
  options.method = method;
  return options;
}

} // namespace

TEST_CASE("library runtime: the dense LU decomposition is Eigen's partial-pivoting LU",
          "[library][linear-algebra]") {
  std::mt19937 random(20261205);
  std::uniform_real_distribution<double> uniform(-1, 1);
  for (long n : {1L, 2L, 3L, 5L, 8L, 13L, 21L}) {
    CAPTURE(n);
    Eigen::MatrixXd A(n, n);
    Eigen::VectorXd b(n);
    for (long i = 0; i < n; ++i) {
      b(i) = uniform(random);
      for (long j = 0; j < n; ++j)
        A(i, j) = uniform(random);
    }
    Eigen::PartialPivLU<Eigen::MatrixXd> eigen(A);
    const Eigen::VectorXd expected = eigen.solve(b);
    using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    RowMajor lu = A;
    std::vector<long> pivots(static_cast<size_t>(n));
    REQUIRE(mechrt_lu_factor(lu.data(), n, pivots.data()) == 1);
    // The same pivots give the same factors, up to rounding.
    CHECK((lu - eigen.matrixLU()).cwiseAbs().maxCoeff() <=
          1e-12 * eigen.matrixLU().cwiseAbs().maxCoeff());
    Eigen::VectorXd x = b;
    mechrt_lu_solve(lu.data(), n, pivots.data(), x.data());
    CHECK((x - expected).norm() <= 1e-11 * expected.norm());

    Eigen::MatrixXcd Z(n, n);
    Eigen::VectorXcd c(n);
    for (long i = 0; i < n; ++i) {
      c(i) = {uniform(random), uniform(random)};
      for (long j = 0; j < n; ++j)
        Z(i, j) = {uniform(random), uniform(random)};
    }
    const Eigen::VectorXcd complexExpected = Z.partialPivLu().solve(c);
    Eigen::Matrix<std::complex<double>, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> zlu = Z;
    REQUIRE(probe_lu_factor_complex(reinterpret_cast<double *>(zlu.data()), n, pivots.data()) == 1);
    Eigen::VectorXcd y = c;
    probe_lu_solve_complex(reinterpret_cast<double *>(zlu.data()), n, pivots.data(),
                           reinterpret_cast<double *>(y.data()));
    CHECK((y - complexExpected).norm() <= 1e-11 * complexExpected.norm());
  }
}

TEST_CASE("library runtime: the dense LU decomposition says when a matrix is singular",
          "[library][linear-algebra]") {
  long pivots[3];
  double dependent[] = {1, 2, 3, 2, 4, 6, 0, 1, 1}; // row 2 = 2 row 1
  CHECK(mechrt_lu_factor(dependent, 3, pivots) == 0);
  double zero[] = {0, 0, 0, 0};
  CHECK(mechrt_lu_factor(zero, 2, pivots) == 0);
  double notFinite[] = {1, 0, 0, NAN};
  CHECK(mechrt_lu_factor(notFinite, 2, pivots) == 0);
  // A tiny but regular matrix is regular: the test is relative.
  double tiny[] = {1e-200, 0, 0, 2e-200};
  CHECK(mechrt_lu_factor(tiny, 2, pivots) == 1);
}

TEST_CASE("library runtime: Radau's constants are the CLI's", "[library][radau]") {
  double c[3], T[9], Tinv[9], eigenvalues[3], weights[3];
  probe_radau_coefficients(c, T, Tinv, eigenvalues, weights);
  const Radau5Coefficients &k = radau5Coefficients();
  for (int i = 0; i < 3; ++i) {
    CHECK(c[i] == Approx(k.c[i]).epsilon(1e-15));
    CHECK(weights[i] == Approx(k.errorWeights[i]).epsilon(1e-12));
    for (int j = 0; j < 3; ++j) {
      CHECK(T[3 * i + j] == Approx(k.T(i, j)).margin(1e-13));
      CHECK(Tinv[3 * i + j] == Approx(k.Tinv(i, j)).margin(1e-12));
    }
  }
  // Hairer & Wanner's values of the eigenvalues of A^-1.
  CHECK(eigenvalues[0] == Approx(3.637834252744496).epsilon(1e-14));
  CHECK(eigenvalues[1] == Approx(2.681082873627752).epsilon(1e-14));
  CHECK(eigenvalues[2] == Approx(3.050430199247411).epsilon(1e-14));
}

TEST_CASE("library runtime: mechrt_jacobian is dF/dx", "[library][jacobian]") {
  SECTION("the oscillator's, by hand") {
    mechrt_model model = oscillatorModel();
    const double x[] = {1e-9, -2e-6};
    double J[4];
    REQUIRE(mechrt_jacobian(&model, 0.3, x, nullptr, J) == MECHRT_OK);
    CHECK(J[0] == 0);
    CHECK(J[1] == 1);
    CHECK(J[2] == -kStiffness / kMass);
    CHECK(J[3] == -kDamping / kMass);
  }
  SECTION("the Cartesian pendulum's, against central differences of the rhs") {
    mechrt_model model = pendulumModel();
    const double p[] = {1.3, 9.81, 0.7};
    std::mt19937 random(7);
    std::uniform_real_distribution<double> uniform(-1, 1);
    for (int trial = 0; trial < 20; ++trial) {
      double x[4];
      for (double &v : x)
        v = uniform(random);
      x[0] += 1.5; // away from the origin, where lambda is singular
      double J[16];
      REQUIRE(mechrt_jacobian(&model, 0, x, p, J) == MECHRT_OK);
      for (int c = 0; c < 4; ++c) {
        double plus[4], minus[4], fPlus[4], fMinus[4];
        std::copy(x, x + 4, plus);
        std::copy(x, x + 4, minus);
        const double h = 1e-6;
        plus[c] += h;
        minus[c] -= h;
        pendulumRhs(0, plus, p, fPlus);
        pendulumRhs(0, minus, p, fMinus);
        for (int r = 0; r < 4; ++r)
          CHECK(J[r * 4 + c] == Approx((fPlus[r] - fMinus[r]) / (2 * h)).margin(1e-6));
      }
    }
  }
  SECTION("its failures") {
    mechrt_model massless = oscillatorModel();
    massless.jacobian_parts = [](double, const double *, const double *, double *out) {
      out[0] = 0; // M = 0: the first-kind matrix is singular
      out[1] = out[2] = -1;
      return 0;
    };
    const double y[] = {0, 0};
    double K[4];
    CHECK(mechrt_jacobian(&massless, 0, y, nullptr, K) == MECHRT_SINGULAR_MASS_MATRIX);
    mechrt_model model = pendulumModel();
    const double x[] = {0.7, 0, 0, 1};
    double J[16];
    const double q[] = {1, 9.81, 0.7}, bad[] = {NAN, 0, 0, 0};
    CHECK(mechrt_jacobian(&model, 0, bad, q, J) == MECHRT_NON_FINITE);
    CHECK(mechrt_jacobian(&model, 0, x, q, nullptr) == MECHRT_NULL_POINTER);
    CHECK(mechrt_jacobian(&model, 0, x, nullptr, J) == MECHRT_NULL_POINTER);
  }
}

TEST_CASE("library runtime: Radau runs the stiff oscillator to its exact solution in few steps",
          "[library][radau]") {
  mechrt_model model = oscillatorModel();
  const double tEnd = 2, dt = 0.01, rtol = 1e-6, atol = rtol * kAmplitude;
  int status = -1;
  calls = 0;
  LibraryRows radau = libraryRun(model, nullptr, {0, 0}, tEnd, dt, rtol, atol,
                                 withMethod(MECHRT_METHOD_RADAU), status);
  REQUIRE(status == MECHRT_OK);
  const long radauCalls = calls;
  REQUIRE(radau.times.size() == 201);
  double worst = 0;
  for (size_t k = 0; k < radau.times.size(); ++k)
    worst = std::max(worst, std::abs(radau.states[k][0] - forcedOscillatorExact(radau.times[k]).x));
  CHECK(worst <= 10 * rtol * kAmplitude);
  calls = 0;
  libraryRun(model, nullptr, {0, 0}, tEnd, dt, rtol, atol, withMethod(MECHRT_METHOD_DOPRI5),
             status);
  REQUIRE(status == MECHRT_OK);
  CHECK(radauCalls * 100 < calls);
}

TEST_CASE("library runtime: Radau takes the CLI's steps", "[library][radau]") {
  mechrt_model model = oscillatorModel();
  const double tEnd = 2, dt = 0.05, rtol = 1e-6, atol = rtol * kAmplitude;
  int status = -1;
  LibraryRows c = libraryRun(model, nullptr, {0, 0}, tEnd, dt, rtol, atol,
                             withMethod(MECHRT_METHOD_RADAU), status);
  REQUIRE(status == MECHRT_OK);
  IntegratorOptions o;
  o.method = Method::Radau;
  o.tEnd = tEnd;
  o.dt = dt;
  o.rtol = rtol;
  o.atol = atol;
  o.step = 0.001; // mech simulate's default --step: the C runtime's first step
  o.jacobian = forcedOscillatorJacobian;
  std::vector<std::vector<double>> cpp;
  IntegrationResult result = integrate(forcedOscillator, {0, 0}, o, [&](double, const double *x) {
    cpp.emplace_back(x, x + 2);
    return true;
  });
  REQUIRE(result.outcome == Outcome::Finished);
  REQUIRE(cpp.size() == c.states.size());
  for (size_t k = 0; k < cpp.size(); ++k)
    CHECK(c.states[k][0] == Approx(cpp[k][0]).margin(1e-6 * rtol * kAmplitude));
}

TEST_CASE("library runtime: Radau reads the inputs from the caller's function",
          "[library][radau]") {
  mechrt_model model = oscillatorModel();
  model.rhs = drivenRhs;
  model.np = 1;
  model.nu = 1;
  const double u0 = 0;
  mechrt_sim_options options = withMethod(MECHRT_METHOD_RADAU);
  options.inputs = sineInput;
  int status = -1;
  LibraryRows driven = libraryRun(model, &u0, {0, 0}, 1, 0.1, 1e-6, 1e-15, options, status);
  REQUIRE(status == MECHRT_OK);
  LibraryRows builtIn = libraryRun(oscillatorModel(), nullptr, {0, 0}, 1, 0.1, 1e-6, 1e-15,
                                   withMethod(MECHRT_METHOD_RADAU), status);
  REQUIRE(driven.states.size() == builtIn.states.size());
  for (size_t k = 0; k < driven.states.size(); ++k)
    CHECK(driven.states[k][0] == Approx(builtIn.states[k][0]).margin(1e-20));
}

TEST_CASE("library runtime: Radau keeps the Cartesian pendulum on its circle", "[library][radau]") {
  mechrt_model model = pendulumModel();
  const double p[] = {1.3, 9.81, 0.7};
  const std::vector<double> x0 = {0.7 * std::sin(1.0), -0.7 * std::cos(1.0), 0, 0};
  int status = -1;
  LibraryRows radau =
      libraryRun(model, p, x0, 3, 0.1, 1e-10, 1e-12, withMethod(MECHRT_METHOD_RADAU), status);
  REQUIRE(status == MECHRT_OK);
  LibraryRows reference =
      libraryRun(model, p, x0, 3, 0.1, 1e-13, 1e-14, withMethod(MECHRT_METHOD_DOPRI5), status);
  REQUIRE(status == MECHRT_OK);
  REQUIRE(radau.states.size() == reference.states.size());
  for (size_t k = 0; k < radau.states.size(); ++k) {
    const double *x = radau.states[k].data();
    // Samples between steps are the interpolant's, not projected: on the
    // constraint to the tolerance.
    CHECK(std::abs(x[0] * x[0] + x[1] * x[1] - p[2] * p[2]) <= 1e-9);
    CHECK(std::abs(x[0] * x[2] + x[1] * x[3]) <= 1e-9);
    CHECK(std::atan2(x[0], -x[1]) ==
          Approx(std::atan2(reference.states[k][0], -reference.states[k][1])).margin(1e-7));
  }
}

TEST_CASE("library runtime: the method field of the options is checked", "[library][radau]") {
  mechrt_model model = oscillatorModel();
  const double x0[] = {0, 0};
  double out[64];
  size_t rows = 0;
  mechrt_sim_options options = withMethod(2);
  CHECK(mechrt_simulate_with(&model, x0, nullptr, 1, 0.5, 1e-6, 1e-12, &options, out, 8, &rows) ==
        MECHRT_INVALID_ARGUMENT);
  options = withMethod(-1);
  CHECK(mechrt_simulate_with(&model, x0, nullptr, 1, 0.5, 1e-6, 1e-12, &options, out, 8, &rows) ==
        MECHRT_INVALID_ARGUMENT);
  // A model without the Jacobian's kernel cannot run Radau.
  model.jacobian_parts = nullptr;
  options = withMethod(MECHRT_METHOD_RADAU);
  CHECK(mechrt_simulate_with(&model, x0, nullptr, 1, 0.5, 1e-6, 1e-12, &options, out, 8, &rows) ==
        MECHRT_INVALID_ARGUMENT);
  // A struct of the size before the method field runs DOPRI5.
  options.size = MECHRT_SIM_OPTIONS_INPUTS_SIZE;
  CHECK(mechrt_simulate_with(&model, x0, nullptr, 1, 0.5, 1e-6, 1e-12, &options, out, 8, &rows) ==
        MECHRT_OK);
  CHECK(rows == 3);
}
