// The C runtime of built libraries (runtime/library/LibraryRuntime.c) against
// the C++ runtime on the same inputs, as the project rule asks ("the runtime
// of built libraries stays C; it keeps its own small routines, each tested
// against the C++ one"): one DOPRI5 step with its error norm and its dense
// output against runtime/Dopri5, the initial step against initialStep, the
// sample grid against TimeGrid, whole mechrt_simulate runs against
// runtime::integrate and closed forms, the projection onto constraints
// against its closed form and against runtime/DenseSolve, and the statuses of
// the error paths. The static C routines are reached through
// LibraryRuntimeProbe.c. The models are hand-written C kernels: a harmonic
// oscillator, a pendulum in its angle, a pendulum in Cartesian coordinates
// with its constraint, and a Cartesian double pendulum (two constraints).
#include "LibraryRows.h"
#include "LibraryRuntimeProbe.h"

#include "runtime/ConstraintProjection.h"
#include "runtime/DenseSolve.h"
#include "runtime/Dopri5.h"
#include "runtime/Integrator.h"
#include "runtime/RhsEvaluator.h"
#include "runtime/StepSizeController.h"
#include "runtime/TimeGrid.h"

#include <catch2/catch.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

using namespace mech::runtime;

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kG = 9.81;

// ---- Kernels ---------------------------------------------------------------

// The calls of the right-hand sides below: two runs that take the same steps
// (accepted and rejected) evaluate them equally often.
long rhsCalls = 0;

// x'' = -(k/m) x; p = (k, m).
int oscillatorRhs(double, const double *x, const double *p, double *out) {
  ++rhsCalls;
  out[0] = x[1];
  out[1] = -p[0] / p[1] * x[0];
  return 0;
}

// x'' = -(k/m) x + F for t >= t1, 0 before (a force switched on at t1):
// p = (k, m, F, t1). The steps that cross t1 are rejected until they are
// short, then grow again.
int kickedRhs(double t, const double *x, const double *p, double *out) {
  ++rhsCalls;
  out[0] = x[1];
  out[1] = -p[0] / p[1] * x[0] + (t >= p[3] ? p[2] : 0);
  return 0;
}

// th'' = -(g/l) sin th; p = (g, l).
int pendulumRhs(double, const double *x, const double *p, double *out) {
  ++rhsCalls;
  out[0] = x[1];
  out[1] = -p[0] / p[1] * std::sin(x[0]);
  return 0;
}

// A unit mass at (x, y) on a rod of length l: L = (x'^2 + y'^2)/2 - g y with
// Phi = x^2 + y^2 - l^2, C = (2x, 2y), psi = C q' = 2 x x' + 2 y y'. With the
// constraint force -C^T lambda, x'' = -2 lambda x and y'' = -g - 2 lambda y;
// psi' = 2 (x'^2 + y'^2) + 2 (x x'' + y y'') = 0 gives
// lambda = (x'^2 + y'^2 - g y) / (2 (x^2 + y^2)): x^2 + y^2 (= l^2 on the
// circle) keeps psi' = 0 off it too, as the equations of the first kind do
// (checked against solveConstrained below). x = (x, y, x', y'), p = (g, l).
double cartesianLambda(const double *x, const double *p) {
  return (x[2] * x[2] + x[3] * x[3] - p[0] * x[1]) / (2 * (x[0] * x[0] + x[1] * x[1]));
}
int cartesianRhs(double, const double *x, const double *p, double *out) {
  ++rhsCalls;
  double lambda = cartesianLambda(x, p);
  out[0] = x[2];
  out[1] = x[3];
  out[2] = -2 * lambda * x[0];
  out[3] = -p[0] - 2 * lambda * x[1];
  return 0;
}
// lambda, as the multipliers kernel of a built library gives it.
int cartesianMultipliers(double, const double *x, const double *p, double *out) {
  out[0] = cartesianLambda(x, p);
  return 0;
}
// The energy (x'^2 + y'^2) / 2 + g y and the radius, the model's outputs.
int cartesianOutputs(double, const double *x, const double *p, double *out) {
  out[0] = 0.5 * (x[2] * x[2] + x[3] * x[3]) + p[0] * x[1];
  out[1] = std::hypot(x[0], x[1]);
  return 0;
}
// Phi, psi, C (1x2).
int cartesianConstraints(double, const double *x, const double *p, double *out) {
  out[0] = x[0] * x[0] + x[1] * x[1] - p[1] * p[1];
  out[1] = 2 * x[0] * x[2] + 2 * x[1] * x[3];
  out[2] = 2 * x[0];
  out[3] = 2 * x[1];
  return 0;
}
// The same constraint given twice: C has two equal rows.
int duplicateConstraints(double, const double *x, const double *p, double *out) {
  double once[4];
  cartesianConstraints(0, x, p, once);
  const double twice[8] = {once[0], once[0], once[1], once[1], once[2], once[3], once[2], once[3]};
  std::copy(twice, twice + 8, out);
  return 0;
}
// Constraints that are NaN everywhere.
int nanConstraints(double, const double *, const double *, double *out) {
  for (int i = 0; i < 4; ++i)
    out[i] = std::nan("");
  return 0;
}

// Two unit masses, (x1, y1) on a rod of length l1 from the origin and
// (x2, y2) on a rod of length l2 from the first: Phi = (x1^2 + y1^2 - l1^2,
// (x2 - x1)^2 + (y2 - y1)^2 - l2^2), C = [[2x1, 2y1, 0, 0], [-2dx, -2dy, 2dx,
// 2dy]] with d = q2 - q1, psi = C q'. x = (q, q'), p = (l1, l2).
int doubleConstraints(double, const double *x, const double *p, double *out) {
  double dx = x[2] - x[0], dy = x[3] - x[1];
  const double C[8] = {2 * x[0], 2 * x[1], 0, 0, -2 * dx, -2 * dy, 2 * dx, 2 * dy};
  out[0] = x[0] * x[0] + x[1] * x[1] - p[0] * p[0];
  out[1] = dx * dx + dy * dy - p[1] * p[1];
  for (int i = 0; i < 2; ++i) {
    out[2 + i] = 0;
    for (int j = 0; j < 4; ++j)
      out[2 + i] += C[i * 4 + j] * x[4 + j];
  }
  std::copy(C, C + 8, out + 4);
  return 0;
}

mechrt_model modelOf(long nq, long np, mechrt_kernel rhs) {
  mechrt_model model{};
  model.nq = nq;
  model.np = np;
  model.rhs = rhs;
  return model;
}

mechrt_model cartesianModel(mechrt_kernel constraints = cartesianConstraints, long nc = 1,
                            const unsigned char *holonomic = nullptr) {
  mechrt_model model = modelOf(2, 2, cartesianRhs);
  model.nc = nc;
  model.constraints = constraints;
  model.holonomic = holonomic;
  return model;
}

RightHandSide rhsOf(mechrt_kernel kernel, const double *p) {
  return [kernel, p](double t, const double *x, double *xdot) { return kernel(t, x, p, xdot); };
}

double maxAbs(const double *v, size_t n) {
  double m = 0;
  for (size_t i = 0; i < n; ++i)
    m = std::max(m, std::abs(v[i]));
  return m;
}

// ---- The C++ side ----------------------------------------------------------

struct Step {
  std::vector<double> y1;
  double error = 0;
  std::vector<std::vector<double>> dense;
};

const std::vector<double> kThetas = {0, 0.25, 0.5, 0.8, 1};

Step cppStep(mechrt_kernel kernel, const double *p, double t, const std::vector<double> &y,
             double h, double rtol, double atol) {
  RightHandSide f = rhsOf(kernel, p);
  const long n = static_cast<long>(y.size());
  RhsEvaluator rhs(f, n);
  Dopri5 pair(rhs, Tolerances{rtol, atol});
  Step step;
  REQUIRE(pair.start(t, Eigen::Map<const Eigen::VectorXd>(y.data(), n)));
  REQUIRE(pair.attempt(t, h, step.error));
  REQUIRE(pair.accept(t, h, true));
  step.y1.assign(pair.state().data(), pair.state().data() + n);
  Eigen::VectorXd out(n);
  for (double theta : kThetas) {
    pair.interpolate(theta, out);
    step.dense.emplace_back(out.data(), out.data() + n);
  }
  return step;
}

Step cStep(const mechrt_model &model, const double *p, double t, const std::vector<double> &y,
           double h, double rtol, double atol) {
  const size_t n = y.size();
  Step step;
  step.y1.resize(n);
  std::vector<double> dense(kThetas.size() * n);
  REQUIRE(probe_dopri5_step(&model, p, t, y.data(), h, rtol, atol, step.y1.data(), &step.error,
                            kThetas.data(), static_cast<long>(kThetas.size()),
                            dense.data()) == MECHRT_OK);
  for (size_t i = 0; i < kThetas.size(); ++i)
    step.dense.emplace_back(dense.begin() + i * n, dense.begin() + (i + 1) * n);
  return step;
}

// Rows (t, x) of a run of runtime::integrate, DOPRI5 from mech simulate's
// first step, as mechrt_simulate's; with a projection, each row is put onto
// the constraints as mech simulate's samples are (and mechrt_simulate's).
struct Rows {
  Outcome outcome = Outcome::Finished;
  double failureTime = 0;
  std::vector<double> times;
  std::vector<std::vector<double>> states;
};

Rows cppRun(mechrt_kernel kernel, const double *p, std::vector<double> x0, double t0, double tEnd,
            double dt, double rtol, double atol, StepProjection project = {}) {
  IntegratorOptions o;
  o.method = Method::Dopri5;
  o.t0 = t0;
  o.tEnd = tEnd;
  o.dt = dt;
  o.rtol = rtol;
  o.atol = atol;
  o.step = 0.001; // mech simulate's default --step: the C runtime's first step
  o.project = std::move(project);
  Rows rows;
  const size_t n = x0.size();
  IntegrationResult result =
      integrate(rhsOf(kernel, p), std::move(x0), o, [&](double t, const double *x) {
        rows.times.push_back(t);
        rows.states.emplace_back(x, x + n);
        if (o.project && !o.project(t, rows.states.back().data()))
          rows.states.back().assign(x, x + n);
        return true;
      });
  rows.outcome = result.outcome;
  rows.failureTime = result.failureTime;
  return rows;
}

// Rows of mechrt_simulate_with from t0, split as cppRun's; `status` its status.
Rows cRun(const mechrt_model &model, const double *p, const std::vector<double> &x0, double t0,
          double tEnd, double dt, double rtol, double atol, int &status) {
  mechrt_sim_options options{sizeof(mechrt_sim_options), t0,      0, 0,       nullptr, nullptr,
                             MECHRT_METHOD_DOPRI5,       nullptr, 0, nullptr, nullptr};
  mech::test::LibraryRows lib =
      mech::test::libraryRun(model, p, x0, tEnd, dt, rtol, atol, options, status);
  Rows r;
  r.times = std::move(lib.times);
  r.states = std::move(lib.states);
  return r;
}

// The projection LibraryRuntime.c documents ("Gauss-Newton steps of least
// change, then q' onto psi = 0"), written over runtime/DenseSolve: a step of
// least change in the identity metric, dq = -C^T (C C^T)^-1 Phi, is the q''
// of solveConstrained with M = I, f = 0, gamma = -Phi; the velocity's,
// v - C^T (C C^T)^-1 psi, is its q'' with M = I, f = v, gamma = C v - psi.
// The stopping rule is the C runtime's: max |Phi| <= 1e-12 (1 + max |q|),
// at most 12 steps. Returns a DenseSolve status, or -1 without convergence.
int denseSolveProjection(mechrt_kernel constraints, const double *p, size_t n, size_t m, double t,
                         double *x) {
  std::vector<double> values(2 * m + m * n), identity(n * n), zero(n, 0.0), gamma(m), dq(n),
      lambda(m);
  auto setIdentity = [&] {
    std::fill(identity.begin(), identity.end(), 0.0);
    for (size_t i = 0; i < n; ++i)
      identity[i * n + i] = 1;
  };
  const double size = 1 + maxAbs(x, n);
  bool converged = false;
  for (int iteration = 0; iteration < 12 && !converged; ++iteration) {
    constraints(t, x, p, values.data());
    if (maxAbs(values.data(), m) <= 1e-12 * size) {
      converged = true;
      break;
    }
    for (size_t i = 0; i < m; ++i)
      gamma[i] = -values[i];
    setIdentity();
    if (int status = solveConstrained(n, m, identity.data(), zero.data(), values.data() + 2 * m,
                                      gamma.data(), dq.data(), lambda.data());
        status != kSolveOk)
      return status;
    for (size_t j = 0; j < n; ++j)
      x[j] += dq[j];
  }
  if (!converged)
    return -1;
  const double *C = values.data() + 2 * m;
  for (size_t i = 0; i < m; ++i) {
    gamma[i] = -values[m + i];
    for (size_t j = 0; j < n; ++j)
      gamma[i] += C[i * n + j] * x[n + j];
  }
  std::vector<double> v(x + n, x + 2 * n);
  setIdentity();
  int status =
      solveConstrained(n, m, identity.data(), v.data(), C, gamma.data(), x + n, lambda.data());
  return status;
}

} // namespace

TEST_CASE("library runtime: the hand-written Cartesian pendulum solves the equations of the "
          "first kind",
          "[library-runtime]") {
  // The kernel's accelerations against solveConstrained on M = I,
  // f = (0, -g), C = (2x, 2y), gamma = -C' q' = -2 (x'^2 + y'^2), at states
  // on and off the circle: M q'' = f + C^T mu, C q'' = gamma, so mu is the
  // kernel's -lambda. A well-conditioned 3x3 system: 1e-14 relative.
  const double p[2] = {kG, 1};
  for (std::vector<double> x :
       {std::vector<double>{0.6, -0.8, 1.2, 0.9}, std::vector<double>{0.6, -0.9, 0.5, 0.7},
        std::vector<double>{-0.3, 0.95, -2, -0.4}}) {
    CAPTURE(x[0], x[1], x[2], x[3]);
    double xdot[4];
    REQUIRE(cartesianRhs(0, x.data(), p, xdot) == 0);
    double M[4] = {1, 0, 0, 1}, f[2] = {0, -kG}, C[2] = {2 * x[0], 2 * x[1]},
           gamma[1] = {-2 * (x[2] * x[2] + x[3] * x[3])}, qdd[2], mu[1];
    REQUIRE(solveConstrained(2, 1, M, f, C, gamma, qdd, mu) == kSolveOk);
    CHECK(xdot[0] == x[2]);
    CHECK(xdot[1] == x[3]);
    CHECK(xdot[2] == Approx(qdd[0]).epsilon(1e-14).margin(1e-14));
    CHECK(xdot[3] == Approx(qdd[1]).epsilon(1e-14).margin(1e-14));
    CHECK(-cartesianLambda(x.data(), p) == Approx(mu[0]).epsilon(1e-14));
  }
}

// ---- One DOPRI5 step ---------------------------------------------------------

TEST_CASE("library runtime: one DOPRI5 step and its dense output match runtime Dopri5",
          "[library-runtime]") {
  const double oscillatorP[2] = {4, 1}, pendulumP[2] = {kG, 0.8}, cartesianP[2] = {kG, 1};
  const mechrt_model oscillator = modelOf(1, 2, oscillatorRhs);
  const mechrt_model pendulum = modelOf(1, 2, pendulumRhs);
  const mechrt_model cartesian = cartesianModel();
  struct Case {
    const char *name;
    const mechrt_model *model;
    const double *p;
    std::vector<double> y;
    double t, h, rtol, atol;
    bool accepted; // error <= 1: the case covers what its name says
  };
  const double th = 1.1;
  const std::vector<double> onCircle = {std::sin(th), -std::cos(th), 0.9 * std::cos(th),
                                        0.9 * std::sin(th)};
  const std::vector<Case> cases = {
      {"oscillator", &oscillator, oscillatorP, {1, 0}, 0, 0.02, 1e-8, 1e-10, true},
      {"oscillator rejected", &oscillator, oscillatorP, {0.3, -1.7}, 2.5, 0.6, 1e-6, 1e-8, false},
      {"pendulum", &pendulum, pendulumP, {2.5, 0.4}, 0.7, 0.02, 1e-8, 1e-10, true},
      {"pendulum rejected", &pendulum, pendulumP, {2.5, 0.4}, 0.7, 0.9, 1e-8, 1e-10, false},
      {"cartesian pendulum", &cartesian, cartesianP, onCircle, 0, 0.015, 1e-9, 1e-11, true},
      {"cartesian rejected", &cartesian, cartesianP, onCircle, 0, 0.08, 1e-9, 1e-11, false},
  };
  for (const Case &c : cases) {
    INFO(c.name);
    Step cpp = cppStep(c.model->rhs, c.p, c.t, c.y, c.h, c.rtol, c.atol);
    Step lib = cStep(*c.model, c.p, c.t, c.y, c.h, c.rtol, c.atol);
    // The end state: same tableau, the stages summed in another order
    // (y + h (a1 k1 + a2 k2 + ...) here, y + (h a1) k1 + (h a2) k2 + ... in
    // RungeKuttaStages), so the two differ by rounding only: a few ulps of
    // the largest term, |y_i| + |y1_i - y_i|. 1e-15 of that is 4.5 ulps.
    for (size_t i = 0; i < c.y.size(); ++i) {
      CAPTURE(i, lib.y1[i], cpp.y1[i]);
      double scale = std::abs(c.y[i]) + std::abs(cpp.y1[i] - c.y[i]);
      CHECK(std::abs(lib.y1[i] - cpp.y1[i]) <= 1e-15 * scale);
    }
    // The error norm h |sum e_j k_j| / (atol + rtol |y|) is a difference of
    // stages that cancels to O(h^5), so the rounding of the stages (a few
    // ulps of |y|, as above, times h |dF/dy| and sum |e_j| = 0.16) is
    // amplified by |y| / (atol + rtol |y|) <= 1 / rtol: about 1e-17 / rtol
    // for these steps, not 1e-15 relative. The bound 1e-15 / rtol is 100
    // times that; a wrong coefficient of e changes the norm by O(itself),
    // 0.1 or more here.
    CAPTURE(lib.error, cpp.error);
    CHECK((lib.error <= 1) == c.accepted);
    CHECK(std::abs(lib.error - cpp.error) <= 1e-15 / c.rtol);
    // The dense output: the same polynomial in theta from y, y1 and the
    // stages; the same rounding bound as the end state.
    for (size_t j = 0; j < kThetas.size(); ++j)
      for (size_t i = 0; i < c.y.size(); ++i) {
        CAPTURE(kThetas[j], i, lib.dense[j][i], cpp.dense[j][i]);
        double scale = std::abs(c.y[i]) + std::abs(cpp.y1[i] - c.y[i]);
        CHECK(std::abs(lib.dense[j][i] - cpp.dense[j][i]) <= 1e-15 * scale);
      }
    // theta = 0 is y exactly (r0 = y); theta = 1 is y + (y1 - y), y1 to one
    // rounding.
    for (size_t i = 0; i < c.y.size(); ++i) {
      CHECK(lib.dense.front()[i] == c.y[i]);
      CHECK(std::abs(lib.dense.back()[i] - lib.y1[i]) <= kEps * std::abs(lib.y1[i]));
    }
  }
}

TEST_CASE("library runtime: a DOPRI5 step of the oscillator is accurate to its order",
          "[library-runtime]") {
  // Independent of both implementations: one step of x'' = -4 x from (1, 0)
  // against (cos 2h, -2 sin 2h). The local error of a fifth-order step is
  // about (wh)^6 / 6! (the first omitted Taylor term) times a constant below
  // 1: for wh = 0.2, 9e-8; halving h divides it by about 2^6 = 64.
  const double p[2] = {4, 1};
  const mechrt_model model = modelOf(1, 2, oscillatorRhs);
  double previous = 0;
  for (double h : {0.1, 0.05}) {
    Step lib = cStep(model, p, 0, {1, 0}, h, 1e-8, 1e-10);
    double error =
        std::max(std::abs(lib.y1[0] - std::cos(2 * h)), std::abs(lib.y1[1] + 2 * std::sin(2 * h)));
    CAPTURE(h, error);
    CHECK(error <= std::pow(2 * h, 6) / 720);
    if (previous > 0) {
      CHECK(previous / error > 40);
      CHECK(previous / error < 90);
    }
    previous = error;
    // The dense output at theta = 0.5 is fourth order: within (wh)^5 / 5!.
    CHECK(std::abs(lib.dense[2][0] - std::cos(h)) <= std::pow(2 * h, 5) / 120);
  }
}

TEST_CASE("library runtime: the initial step matches runtime initialStep", "[library-runtime]") {
  // Hairer's HINIT in both, term by term the same operations: equal to a
  // few ulps (1e-15 relative); a different formula or order differs by O(1).
  const double oscillatorP[2] = {4, 1}, pendulumP[2] = {kG, 0.8};
  struct Case {
    mechrt_model model;
    const double *p;
    std::vector<double> y;
    double rtol, atol, hmax;
  };
  const std::vector<Case> cases = {
      {modelOf(1, 2, oscillatorRhs), oscillatorP, {1, 0}, 1e-8, 1e-10, 10},
      {modelOf(1, 2, oscillatorRhs), oscillatorP, {1, 0}, 1e-3, 1e-6, 10},
      {modelOf(1, 2, pendulumRhs), pendulumP, {2.5, 0.4}, 1e-6, 1e-9, 10},
      {modelOf(1, 2, pendulumRhs), pendulumP, {2.5, 0.4}, 1e-2, 1e-2, 0.05}, // hmax binds
      {modelOf(1, 2, oscillatorRhs), oscillatorP, {0, 0}, 1e-8, 1e-10, 10},  // at rest
  };
  for (const Case &c : cases) {
    CAPTURE(c.y[0], c.rtol, c.hmax);
    int status = -1;
    double lib = probe_initial_step(&c.model, c.p, 0, c.y.data(), c.rtol, c.atol, c.hmax, &status);
    REQUIRE(status == MECHRT_OK);
    RightHandSide f = rhsOf(c.model.rhs, c.p);
    RhsEvaluator rhs(f, 2);
    Eigen::VectorXd x0 = Eigen::Map<const Eigen::VectorXd>(c.y.data(), 2), f0(2);
    REQUIRE(rhs(0, x0.data(), f0.data()));
    double cpp = initialStep(rhs, 0, x0, f0, 5, Tolerances{c.rtol, c.atol}, c.hmax, 1);
    CAPTURE(lib, cpp);
    CHECK(lib > 0);
    CHECK(lib <= c.hmax);
    CHECK(lib == Approx(cpp).epsilon(1e-15));
  }
}

// ---- Whole runs ----------------------------------------------------------------

TEST_CASE("library runtime: the sample grid is the grid of runtime TimeGrid", "[library-runtime]") {
  // mechrt_simulate_with with max_rows = 0 says how many rows the grid has;
  // TimeGrid walks the grid of the CLI. Cases where (t_end - t0) / dt is an
  // integer only up to rounding (0.3 / 0.1 = 2.9999999999999996) or where
  // the last point falls within the slack of t_end.
  const double p[2] = {4, 1};
  const mechrt_model model = modelOf(1, 2, oscillatorRhs);
  const double x0[2] = {1, 0};
  struct Case {
    double t0, tEnd, dt;
  };
  for (Case c :
       {Case{0, 1, 0.1}, Case{0, 0.3, 0.1}, Case{0, 1, 0.3}, Case{2, 5, 0.1}, Case{0, 1e-3, 1},
        Case{0, 1 + 1e-12, 0.25}, Case{0.1, 0.7, 0.2}, Case{3, 3, 0.5}, Case{-1.5, 2.25, 0.125}}) {
    CAPTURE(c.t0, c.tEnd, c.dt);
    TimeGrid grid(c.t0, c.tEnd, c.dt);
    size_t points = 0;
    for (; !grid.done(); grid.advance())
      ++points;
    mechrt_sim_options options{sizeof(mechrt_sim_options), c.t0,    0, 0,       nullptr, nullptr,
                               MECHRT_METHOD_DOPRI5,       nullptr, 0, nullptr, nullptr};
    size_t rows = 0;
    CHECK(mechrt_simulate_with(&model, x0, p, c.tEnd, c.dt, 1e-8, 1e-10, &options, nullptr, 0,
                               &rows) == MECHRT_BUFFER_TOO_SMALL);
    CHECK(rows == points);
  }
}

TEST_CASE("library runtime: mechrt_simulate of the oscillator matches runtime integrate",
          "[library-runtime]") {
  // x'' = -4 x from (1, 0) over [0, 10]: x = cos 2t, x' = -2 sin 2t.
  const double p[2] = {4, 1};
  const mechrt_model model = modelOf(1, 2, oscillatorRhs);
  const std::vector<double> x0 = {1, 0};
  const double rtol = 1e-8, atol = 1e-10;
  for (double dt : {0.25, 0.3}) {
    CAPTURE(dt);
    // The public entry point, rows (t, q, q').
    size_t needed = 0;
    REQUIRE(mechrt_simulate(&model, x0.data(), p, 10, dt, rtol, atol, nullptr, 0, &needed) ==
            MECHRT_BUFFER_TOO_SMALL);
    std::vector<double> out(3 * needed);
    size_t rows = 0;
    rhsCalls = 0;
    REQUIRE(mechrt_simulate(&model, x0.data(), p, 10, dt, rtol, atol, out.data(), needed, &rows) ==
            MECHRT_OK);
    const long libCalls = rhsCalls;
    REQUIRE(rows == needed);
    rhsCalls = 0;
    Rows cpp = cppRun(oscillatorRhs, p, x0, 0, 10, dt, rtol, atol);
    REQUIRE(cpp.outcome == Outcome::Finished);
    // The same steps: as many evaluations (6 per attempted step, FSAL).
    CHECK(libCalls == rhsCalls);
    CHECK(libCalls > 100);
    REQUIRE(cpp.times.size() == rows);
    double worstExact = 0, worstCpp = 0;
    for (size_t k = 0; k < rows; ++k) {
      const double *row = &out[3 * k];
      // The times are t0 + k dt in both, computed the same way: equal.
      CHECK(row[0] == cpp.times[k]);
      double t = row[0];
      worstExact = std::max(
          {worstExact, std::abs(row[1] - std::cos(2 * t)), std::abs(row[2] + 2 * std::sin(2 * t))});
      worstCpp = std::max(
          {worstCpp, std::abs(row[1] - cpp.states[k][0]), std::abs(row[2] - cpp.states[k][1])});
    }
    CHECK(out[3 * (rows - 1)] == 10);
    // Against the closed form: DOPRI5's global error over 10 time units (3
    // periods) at rtol = 1e-8 is a few 1e-8 (the local errors of about
    // rtol |x| add up); 1e-6 leaves room but fails for a wrong stage or a
    // controller that ignores the tolerance.
    CAPTURE(worstExact, worstCpp);
    CHECK(worstExact <= 1e-6);
    // Against the C++ integrator: the same method and the same controller
    // (Hairer's PI with beta = 0.04, his initial step, the same stretch of
    // the last step and sampling by dense output), so the same steps (the
    // evaluation count above); the states differ by the rounding of the
    // stage sums only, accumulated over the run's few hundred steps: 5e-14
    // measured, 1e-12 allowed, four orders below the method's error. Another
    // step sequence moves the states by the difference of the global errors:
    // a controller with beta = 0.05 fails this.
    CHECK(worstCpp <= 1e-12);
  }
}

TEST_CASE("library runtime: rejected steps around a switched force match runtime integrate",
          "[library-runtime]") {
  // x'' = -4 x + 3 [t >= 1.3] from (1, 0): cos 2t, then about the new
  // equilibrium 0.75 with the same x and x' at 1.3:
  // x = 0.75 + (cos 2.6 - 0.75) cos 2s - sin 2.6 sin 2s, s = t - 1.3.
  const double p[4] = {4, 1, 3, 1.3};
  const mechrt_model model = modelOf(1, 4, kickedRhs);
  const std::vector<double> x0 = {1, 0};
  const double rtol = 1e-8, atol = 1e-10;
  int status = -1;
  rhsCalls = 0;
  Rows lib = cRun(model, p, x0, 0, 4, 0.1, rtol, atol, status);
  const long libCalls = rhsCalls;
  REQUIRE(status == MECHRT_OK);
  rhsCalls = 0;
  Rows cpp = cppRun(kickedRhs, p, x0, 0, 4, 0.1, rtol, atol);
  REQUIRE(cpp.outcome == Outcome::Finished);
  // The first steps (0.001, mech simulate's default first step) have error
  // norms of rounding (the oscillator's local error at h = 0.001 is below
  // 1e-16 of its terms, against atol = 1e-10), and C and Eigen round the
  // stages' sums differently: the step sizes then differ at about 1e-4
  // relative, and the steps that straddle the switch differ. Within 2% of
  // each other's evaluations, the rejections around the switch included.
  CHECK(std::abs(libCalls - rhsCalls) <= rhsCalls / 50);
  REQUIRE(lib.times.size() == cpp.times.size());
  double worstCpp = 0, worstExact = 0;
  for (size_t k = 0; k < lib.times.size(); ++k) {
    double t = lib.times[k], s = t - 1.3;
    double exact =
        t < 1.3 ? std::cos(2 * t)
                : 0.75 + (std::cos(2.6) - 0.75) * std::cos(2 * s) - std::sin(2.6) * std::sin(2 * s);
    worstExact = std::max(worstExact, std::abs(lib.states[k][0] - exact));
    worstCpp = std::max({worstCpp, std::abs(lib.states[k][0] - cpp.states[k][0]),
                         std::abs(lib.states[k][1] - cpp.states[k][1])});
  }
  CAPTURE(worstCpp, worstExact);
  // Between the two: the steps that straddle 1.3 apply the force over part
  // of their stages, so the state after them moves with their sizes by
  // about the jump 3 times the shift; with the sizes apart as above, the
  // two runs differ by their errors there (4.8e-8 measured), each within
  // the method's error (the straddling step meets the tolerance, the order
  // is lost there), well within 1e-6 of the exact solution.
  CHECK(worstCpp <= 1e-6);
  CHECK(worstExact <= 1e-6);
}

TEST_CASE("library runtime: a last step just short of t_end is stretched as runtime integrate "
          "stretches it",
          "[library-runtime]") {
  // t_end at 1.005 times the first step (0.001, mech simulate's default
  // --step): 1.01 h reaches beyond t_end, so both stretch the first step to
  // t_end and finish in one step: F at x0, 6 stages. (The Cartesian
  // pendulum drifts from its circle by less than the projection's 1e-12 in
  // so short a step: whether the last-bit correction of q' evaluates F
  // afresh is rounding, and the projection is tested below.)
  const double p[2] = {kG, 0.8};
  const mechrt_model model = modelOf(1, 2, pendulumRhs);
  const std::vector<double> x0 = {2.5, 0.4};
  const double rtol = 1e-6, atol = 1e-9, tEnd = 1.005 * 0.001;
  int status = -1;
  rhsCalls = 0;
  Rows lib = cRun(model, p, x0, 0, tEnd, 1, rtol, atol, status);
  const long libCalls = rhsCalls;
  REQUIRE(status == MECHRT_OK);
  rhsCalls = 0;
  Rows cpp = cppRun(pendulumRhs, p, x0, 0, tEnd, 1, rtol, atol);
  REQUIRE(cpp.outcome == Outcome::Finished);
  CHECK(rhsCalls == 7);
  CHECK(libCalls == 7);
  REQUIRE(lib.times.size() == 2);
  REQUIRE(cpp.times.size() == 2);
  CHECK(lib.times[1] == tEnd);
  for (size_t i = 0; i < x0.size(); ++i)
    CHECK(std::abs(lib.states[1][i] - cpp.states[1][i]) <= 1e-15 * (1 + std::abs(x0[i])));
}

TEST_CASE("library runtime: mechrt_simulate of the pendulum matches runtime integrate from t0",
          "[library-runtime]") {
  // A nonlinear pendulum (th0 = 2.5 rad, near the top) from t0 = 1.5 to 9.5:
  // the C runtime against runtime::integrate, and both against the energy
  // th'^2 / 2 - (g / l) cos th, which the exact solution keeps.
  const double p[2] = {kG, 0.8};
  const mechrt_model model = modelOf(1, 2, pendulumRhs);
  const std::vector<double> x0 = {2.5, 0.4};
  const double rtol = 1e-9, atol = 1e-11;
  int status = -1;
  rhsCalls = 0;
  Rows lib = cRun(model, p, x0, 1.5, 9.5, 0.1, rtol, atol, status);
  const long libCalls = rhsCalls;
  REQUIRE(status == MECHRT_OK);
  rhsCalls = 0;
  Rows cpp = cppRun(pendulumRhs, p, x0, 1.5, 9.5, 0.1, rtol, atol);
  REQUIRE(cpp.outcome == Outcome::Finished);
  CHECK(libCalls == rhsCalls); // the same steps
  REQUIRE(lib.times.size() == cpp.times.size());
  REQUIRE(lib.times.size() == 81);
  auto energy = [&](const std::vector<double> &x) {
    return 0.5 * x[1] * x[1] - p[0] / p[1] * std::cos(x[0]);
  };
  const double e0 = energy(x0);
  double worstCpp = 0, worstEnergy = 0;
  for (size_t k = 0; k < lib.times.size(); ++k) {
    CHECK(lib.times[k] == cpp.times[k]);
    worstCpp = std::max({worstCpp, std::abs(lib.states[k][0] - cpp.states[k][0]),
                         std::abs(lib.states[k][1] - cpp.states[k][1])});
    worstEnergy = std::max(worstEnergy, std::abs(energy(lib.states[k]) - e0));
  }
  CAPTURE(worstCpp, worstEnergy);
  // Same method and controller, as for the oscillator: rounding only.
  CHECK(worstCpp <= 1e-12);
  // The energy (|e0| about 10, |th'| up to 7) drifts by the accumulated
  // local errors, a few rtol per unit time relative to the state: 1e-6.
  CHECK(worstEnergy <= 1e-6);
}

TEST_CASE("library runtime: the Cartesian pendulum with projection matches runtime integrate "
          "and the angle pendulum",
          "[library-runtime]") {
  const double p[2] = {kG, 1}, angleP[2] = {kG, 1};
  const mechrt_model model = cartesianModel();
  const double th0 = 1.2, omega0 = 0.5;
  // Off the circle on purpose (radius 1.02, a radial velocity 0.1 besides
  // the tangential omega0): the run starts by projecting, as mechrt_simulate
  // documents, onto th0 and omega0.
  const std::vector<double> x0 = {1.02 * std::sin(th0), -1.02 * std::cos(th0),
                                  omega0 * std::cos(th0) + 0.1 * std::sin(th0),
                                  omega0 * std::sin(th0) - 0.1 * std::cos(th0)};
  const double rtol = 1e-9, atol = 1e-11;
  int status = -1;
  Rows lib = cRun(model, p, x0, 0, 5, 0.05, rtol, atol, status);
  REQUIRE(status == MECHRT_OK);

  // The C++ integrator with the projection written over DenseSolve, the
  // start projected first (integrate itself does not).
  std::vector<double> start = x0;
  REQUIRE(denseSolveProjection(cartesianConstraints, p, 2, 1, 0, start.data()) == kSolveOk);
  Rows cpp = cppRun(cartesianRhs, p, start, 0, 5, 0.05, rtol, atol, [&](double t, double *x) {
    return denseSolveProjection(cartesianConstraints, p, 2, 1, t, x) == kSolveOk;
  });
  REQUIRE(cpp.outcome == Outcome::Finished);
  // The evaluations are not compared here, unlike for the unconstrained
  // runs: F is evaluated afresh after a projection that changed the state,
  // and whether the last-bit correction of q' changes anything is a matter
  // of rounding (the two runs differ by one evaluation in about 2800). And
  // the first step's error norm (about 1e-3) carries the amplified rounding
  // of the stages (see the one-step test), so the step sizes agree to about
  // 1e-6 only; the states are insensitive to that.
  REQUIRE(lib.times.size() == cpp.times.size());
  REQUIRE(lib.times.size() == 101);

  // The pendulum in its angle, from the projected start (the projection
  // keeps the direction of q, so th0, and the tangential velocity omega0),
  // at a tolerance 1e-3 tighter: th(t) is then the reference.
  Rows angle = cppRun(pendulumRhs, angleP, {th0, omega0}, 0, 5, 0.05, 1e-12, 1e-14);
  REQUIRE(angle.outcome == Outcome::Finished);
  REQUIRE(angle.times.size() == lib.times.size());

  double worstCpp = 0, worstAngle = 0, worstPhi = 0;
  for (size_t k = 0; k < lib.times.size(); ++k) {
    const std::vector<double> &x = lib.states[k];
    CHECK(lib.times[k] == cpp.times[k]);
    for (size_t i = 0; i < 4; ++i)
      worstCpp = std::max(worstCpp, std::abs(x[i] - cpp.states[k][i]));
    double th = angle.states[k][0], w = angle.states[k][1];
    const double exact[4] = {std::sin(th), -std::cos(th), w * std::cos(th), w * std::sin(th)};
    for (size_t i = 0; i < 4; ++i)
      worstAngle = std::max(worstAngle, std::abs(x[i] - exact[i]));
    double values[4];
    cartesianConstraints(0, x.data(), p, values);
    worstPhi = std::max({worstPhi, std::abs(values[0]), std::abs(values[1])});
  }
  CAPTURE(worstCpp, worstAngle, worstPhi);
  // Same method, same controller, same projection algorithm: the states
  // agree to rounding, amplified a little by the projections (each is exact
  // to 1e-12 of the state's size, and both stop by that rule): 1e-11.
  CHECK(worstCpp <= 1e-11);
  // Against the angle pendulum: DOPRI5's global error at rtol = 1e-9 over 5
  // time units (about 2.5 periods; |q'| up to 4), a few 1e-9: 1e-7.
  CHECK(worstAngle <= 1e-7);
  // The rows are put onto the constraints (a row inside a step comes from
  // the dense output, within one step's local error of them): to the
  // projection's 1e-12 of the state's size.
  CHECK(worstPhi <= 1e-11);
}

TEST_CASE("library runtime: mechrt_simulate_with writes the multipliers and the outputs of "
          "each row",
          "[library-runtime]") {
  // The Cartesian pendulum from t0 = 2 with rows (t, q, q', lambda, energy,
  // radius). lambda and the outputs are those of the kernels at the row's
  // state (bit for bit: the same kernels on the same doubles); the energy
  // is conserved by the exact solution (to a few rtol of |E| = 4 here, 1e-6
  // allowing the run's accumulation), the radius stays 1 to the drift
  // within a step (1e-7, as in the run above).
  const double p[2] = {kG, 1};
  mechrt_model model = cartesianModel();
  model.nout = 2;
  model.multipliers = cartesianMultipliers;
  model.outputs = cartesianOutputs;
  const double th = 0.9;
  const double x0[4] = {std::sin(th), -std::cos(th), 1.5 * std::cos(th), 1.5 * std::sin(th)};
  mechrt_sim_options options{sizeof(mechrt_sim_options), 2,       1, 1,       nullptr, nullptr,
                             MECHRT_METHOD_DOPRI5,       nullptr, 0, nullptr, nullptr};
  const size_t width = 1 + 4 + 1 + 2;
  std::vector<double> out(width * 31);
  size_t rows = 0;
  REQUIRE(mechrt_simulate_with(&model, x0, p, 5, 0.1, 1e-9, 1e-11, &options, out.data(), 31,
                               &rows) == MECHRT_OK);
  REQUIRE(rows == 31);
  double start[2];
  cartesianOutputs(0, x0, p, start);
  const double e0 = start[0];
  double worstEnergy = 0;
  for (size_t k = 0; k < rows; ++k) {
    const double *row = &out[k * width];
    CHECK(row[0] == (k < 30 ? 2 + static_cast<double>(k) * 0.1 : 5));
    CHECK(row[5] == cartesianLambda(row + 1, p));
    double outputs[2];
    cartesianOutputs(0, row + 1, p, outputs);
    CHECK(row[6] == outputs[0]);
    CHECK(row[7] == outputs[1]);
    CHECK(std::abs(row[7] - 1) <= 1e-7);
    worstEnergy = std::max(worstEnergy, std::abs(row[6] - e0));
  }
  CAPTURE(worstEnergy);
  CHECK(worstEnergy <= 1e-6);
  // Options of a size the library does not know are refused.
  options.size = MECHRT_SIM_OPTIONS_MIN_SIZE - 1;
  CHECK(mechrt_simulate_with(&model, x0, p, 5, 0.1, 1e-9, 1e-11, &options, out.data(), 31, &rows) ==
        MECHRT_INVALID_ARGUMENT);
  CHECK(rows == 0);
}

// ---- The projection ------------------------------------------------------------

TEST_CASE("library runtime: the projection onto the circle is the nearest point and the "
          "tangential velocity",
          "[library-runtime]") {
  const double p[2] = {kG, 1};
  const mechrt_model model = cartesianModel();
  for (std::vector<double> x0 :
       {std::vector<double>{0.6, -0.9, 0.5, 0.7}, std::vector<double>{0.01, 0.3, -2, 1},
        std::vector<double>{-1.8, -2.4, 0.3, -0.2}}) {
    CAPTURE(x0[0], x0[1]);
    std::vector<double> x = x0;
    REQUIRE(probe_project(&model, p, 0, x.data()) == MECHRT_OK);
    double values[4];
    cartesianConstraints(0, x.data(), p, values);
    // On the constraints: the C runtime stops Gauss-Newton at
    // |Phi| <= 1e-12 (1 + max |q|) and solves psi = 0 exactly up to rounding.
    CAPTURE(values[0], values[1]);
    CHECK(std::abs(values[0]) <= 1e-12 * (1 + maxAbs(x0.data(), 2)));
    CHECK(std::abs(values[1]) <= 1e-12);
    // The position: a least-change step from q is q - C^T (C C^T)^-1 Phi =
    // q (1 - (|q|^2 - l^2) / (2 |q|^2)), along q, with the radius going to
    // (r^2 + l^2) / (2 r): Heron's iteration for l, converging to l
    // quadratically. So Gauss-Newton ends at the nearest point l q / |q|:
    // the direction is kept up to the rounding of each step (1e-15 over
    // the few steps), the radius within the stopping rule's
    // |Phi| / (r + l) <= 1e-12.
    double r0 = std::hypot(x0[0], x0[1]);
    const double nearest[2] = {x0[0] / r0, x0[1] / r0};
    CHECK(std::abs(x[0] - nearest[0]) <= 1e-12);
    CHECK(std::abs(x[1] - nearest[1]) <= 1e-12);
    CHECK(std::abs(std::atan2(x[1], x[0]) - std::atan2(x0[1], x0[0])) <= 1e-15);
    // The velocity: least change onto psi = C v = 0 at the projected q is
    // v - C^T (C C^T)^-1 C v = v - (v . n) n, n = q / |q|: the radial part
    // removed. Rounding only: 1e-15 of |v|.
    double r = std::hypot(x[0], x[1]), n0 = x[0] / r, n1 = x[1] / r;
    double radial = x0[2] * n0 + x0[3] * n1;
    double vmax = maxAbs(x0.data() + 2, 2);
    CHECK(std::abs(x[2] - (x0[2] - radial * n0)) <= 1e-15 * vmax * 4);
    CHECK(std::abs(x[3] - (x0[3] - radial * n1)) <= 1e-15 * vmax * 4);
    // ... and solveConstrained with M = I, f = v, gamma = 0 on the same C
    // gives it too, by another algorithm (M + s C^T C, a Schur complement):
    // 1e-14 of |v| (the conditioning of C C^T is 1).
    double M[4] = {1, 0, 0, 1}, qdd[2], lambda[1], gamma[1] = {0};
    REQUIRE(solveConstrained(2, 1, M, x0.data() + 2, values + 2, gamma, qdd, lambda) == kSolveOk);
    CHECK(std::abs(x[2] - qdd[0]) <= 1e-14 * vmax);
    CHECK(std::abs(x[3] - qdd[1]) <= 1e-14 * vmax);
  }
}

TEST_CASE("library runtime: a nonholonomic row moves only the velocity", "[library-runtime]") {
  // With the flag of the circle's row cleared, Phi is not a constraint on q:
  // q stays as it is, bit for bit, and q' loses its component along C at
  // that q.
  const double p[2] = {kG, 1};
  const unsigned char holonomic[1] = {0};
  const mechrt_model model = cartesianModel(cartesianConstraints, 1, holonomic);
  std::vector<double> x = {0.6, -0.9, 0.5, 0.7};
  REQUIRE(probe_project(&model, p, 0, x.data()) == MECHRT_OK);
  CHECK(x[0] == 0.6);
  CHECK(x[1] == -0.9);
  double r = std::hypot(0.6, -0.9), n0 = 0.6 / r, n1 = -0.9 / r;
  double radial = 0.5 * n0 + 0.7 * n1;
  CHECK(std::abs(x[2] - (0.5 - radial * n0)) <= 4e-15);
  CHECK(std::abs(x[3] - (0.7 - radial * n1)) <= 4e-15);
}

namespace {

// A rolling disk written by hand: q = (s, phi), M = diag(m, J) with
// p = (m, J, r), and the rolling condition s' = r phi' as a (velocity)
// constraint, with a holonomic companion s - r phi = 0 when asked.
int diskMass(double, const double *, const double *p, double *M) {
  M[0] = p[0], M[1] = 0, M[2] = 0, M[3] = p[1];
  return 0;
}
int diskConstraints(double, const double *x, const double *p, double *out) {
  out[0] = x[0] - p[2] * x[1];
  out[1] = x[2] - p[2] * x[3];
  out[2] = 1;
  out[3] = -p[2];
  return 0;
}

// The same system for the C++ projection (runtime/ConstraintProjection).
struct DiskSystem : mech::runtime::ConstrainedSystem {
  const double *p;
  bool holonomicRow;
  size_t coordinates() const override { return 2; }
  size_t constraintCount() const override { return 1; }
  bool holonomic(size_t) const override { return holonomicRow; }
  void constraints(double t, const double *x, double *out) override {
    diskConstraints(t, x, p, out);
    if (!holonomicRow)
      out[0] = 0;
  }
  void massMatrix(double t, const double *x, double *M) override { diskMass(t, x, p, M); }
  void forcing(double, const double *, double *f) override { f[0] = f[1] = 0; }
};

} // namespace

TEST_CASE("library runtime: the projection takes the least change in the metric of M, as the "
          "CLI's does",
          "[library-runtime]") {
  const double p[3] = {2, 0.25, 0.5}; // m, J, r
  for (unsigned char holonomic : {0, 1}) {
    const unsigned char flags[1] = {holonomic};
    mechrt_model model = modelOf(2, 3, nullptr);
    model.nc = 1;
    model.constraints = diskConstraints;
    model.holonomic = flags;
    model.mass_matrix = diskMass;
    std::vector<double> c = {0.3, 0.1, 1, 0};
    REQUIRE(probe_project(&model, p, 0, c.data()) == MECHRT_OK);
    DiskSystem system;
    system.p = p;
    system.holonomicRow = holonomic != 0;
    mech::runtime::ConstraintProjector projector(system);
    std::vector<double> cpp = {0.3, 0.1, 1, 0};
    REQUIRE(projector.projectPositions(0, cpp.data()).ok);
    REQUIRE(projector.projectVelocities(0, cpp.data()).ok);
    for (size_t j = 0; j < 4; ++j)
      CHECK(std::abs(c[j] - cpp[j]) <= 1e-14);
    // By hand: the least m ds^2 + J dphi^2 with ds - r dphi = -1 from
    // (s', phi') = (1, 0): s' = 1 - (1/m)/(1/m + r^2/J) = 2/3, phi' = 4/3.
    CHECK(std::abs(c[2] - 2.0 / 3) <= 1e-15);
    CHECK(std::abs(c[3] - 4.0 / 3) <= 1e-15);
    if (holonomic) // s - r phi = 0.25 moves s by 1/3 of it and phi by 2/3 / r.
      CHECK(std::abs(c[0] - (0.3 - 0.25 / 3)) <= 1e-15);
  }
}

TEST_CASE("library runtime: the projection of the double pendulum matches one over DenseSolve",
          "[library-runtime]") {
  // Two constraints, a Gram matrix C C^T with off-diagonal terms: the C
  // runtime's Gauss-Newton (Cholesky of C C^T) against the same iteration
  // over solveConstrained, from the same state off both circles.
  const double p[2] = {1, 0.7};
  mechrt_model model = modelOf(4, 2, nullptr);
  model.nc = 2;
  model.constraints = doubleConstraints;
  const std::vector<double> x0 = {0.5, -0.95, 1.3, -1.2, 0.4, 0.2, -0.3, 0.9};
  std::vector<double> lib = x0, cpp = x0;
  REQUIRE(probe_project(&model, p, 0, lib.data()) == MECHRT_OK);
  REQUIRE(denseSolveProjection(doubleConstraints, p, 4, 2, 0, cpp.data()) == kSolveOk);
  double values[2 + 2 + 8];
  doubleConstraints(0, lib.data(), p, values);
  CAPTURE(values[0], values[1], values[2], values[3]);
  const double size = 1 + maxAbs(x0.data(), 4);
  CHECK(std::abs(values[0]) <= 1e-12 * size);
  CHECK(std::abs(values[1]) <= 1e-12 * size);
  CHECK(std::abs(values[2]) <= 1e-12);
  CHECK(std::abs(values[3]) <= 1e-12);
  // The same iteration, with solves that differ by rounding: Gauss-Newton
  // converges quadratically, so both end within the stopping rule's
  // 1e-12 (1 + max |q|) of the same point, on the same side; the velocity
  // is one linear solve from there.
  for (size_t i = 0; i < 8; ++i) {
    CAPTURE(i, lib[i], cpp[i]);
    CHECK(std::abs(lib[i] - cpp[i]) <= 1e-12 * size);
  }
  // And the projection moved the state: not the identity.
  CHECK(std::abs(lib[0] - x0[0]) > 1e-3);
}

TEST_CASE("library runtime: least_change solves the Gram system as solveLdlt does",
          "[library-runtime]") {
  // A 3x5 Jacobian of full rank, all rows and then rows 0 and 2 only: the
  // multipliers y of (C_S C_S^T) y = r_S and the changed v, against
  // solveLdlt on the same Gram matrix. Cholesky and LDL^T of a matrix of
  // condition about 30: equal to 1e-14 relative.
  const long n = 5, m = 3;
  const std::vector<double> C = {1.0, 2.0,  -0.5, 0.3,  0.0, //
                                 0.2, -1.0, 1.5,  0.0,  0.8, //
                                 0.7, 0.4,  0.9,  -1.2, 0.5};
  const std::vector<double> r = {0.3, -1.1, 0.6}, v0 = {0.1, 0.2, 0.3, 0.4, 0.5};
  const unsigned char some[3] = {1, 0, 1};
  for (const unsigned char *rows : {static_cast<const unsigned char *>(nullptr), some}) {
    std::vector<long> index;
    for (long i = 0; i < m; ++i)
      if (!rows || rows[i])
        index.push_back(i);
    const size_t k = index.size();
    CAPTURE(k);
    std::vector<double> v = v0, y(m, 0.0);
    REQUIRE(probe_least_change(n, m, C.data(), rows, r.data(), v.data(), y.data()) == MECHRT_OK);
    std::vector<double> G(k * k), b(k);
    for (size_t a = 0; a < k; ++a) {
      b[a] = r[index[a]];
      for (size_t c = 0; c < k; ++c) {
        G[a * k + c] = 0;
        for (long j = 0; j < n; ++j)
          G[a * k + c] += C[index[a] * n + j] * C[index[c] * n + j];
      }
    }
    REQUIRE(solveLdlt(k, G.data(), b.data()) == kSolveOk);
    for (size_t a = 0; a < k; ++a)
      CHECK(y[a] == Approx(b[a]).epsilon(1e-14));
    for (long j = 0; j < n; ++j) {
      double expected = v0[j];
      for (size_t a = 0; a < k; ++a)
        expected -= C[index[a] * n + j] * b[a];
      CHECK(v[j] == Approx(expected).epsilon(1e-14).margin(1e-14));
    }
    // The point of least change: C_S v_new = C_S v - r_S.
    for (size_t a = 0; a < k; ++a) {
      double before = 0, after = 0;
      for (long j = 0; j < n; ++j) {
        before += C[index[a] * n + j] * v0[j];
        after += C[index[a] * n + j] * v[j];
      }
      CHECK(after == Approx(before - r[index[a]]).margin(1e-14));
    }
  }
}

TEST_CASE("library runtime: least_change solves nearly dependent rows and drops dependent ones",
          "[library-runtime]") {
  // Rows (1, 0) and (cos a, sin a): the second pivot of C C^T is sin^2 a.
  // Well above the regularization (sin^2 a = 1e-4) least_change agrees
  // with solveLdlt on C C^T; below 1e-10 (1e-14) the second row depends on
  // the first and gets 0: r = (1, 1) is met by y = (1, 0), v = -(1, 0).
  for (double pivot : {1e-4, 1e-14}) {
    CAPTURE(pivot);
    double s = std::sqrt(pivot), c = std::sqrt(1 - pivot);
    const double C[4] = {1, 0, c, s}, r[2] = {1, 1};
    double v[2] = {0, 0}, y[2];
    REQUIRE(probe_least_change(2, 2, C, nullptr, r, v, y) == MECHRT_OK);
    if (pivot > 1e-10) {
      double G[4] = {1, c, c, c * c + s * s}, b[2] = {1, 1};
      REQUIRE(solveLdlt(2, G, b) == kSolveOk);
      CHECK(y[0] == Approx(b[0]).epsilon(1e-12));
      CHECK(y[1] == Approx(b[1]).epsilon(1e-12));
    } else {
      CHECK(y[0] == Approx(1).epsilon(1e-12));
      CHECK(y[1] == 0);
      CHECK(v[0] == Approx(-1).epsilon(1e-12));
      CHECK(std::abs(v[1]) < 1e-12);
    }
  }
}

TEST_CASE("library runtime: a duplicate constraint row is solved as one", "[library-runtime]") {
  // C = [[2x, 2y], [2x, 2y]]: C C^T is singular, the rows agree. The C
  // runtime solves them as solveConstrained does: least_change gives the
  // single row's change, v - C_1^T r_1 / |C_1|^2, with the multipliers
  // y = (r_1 / |C_1|^2, 0) (the second of two equal rows is dependent); the
  // projection puts a state on the circle; a whole run keeps it there
  // (radius 1 and its energy).
  const double p[2] = {kG, 1};
  const mechrt_model model = cartesianModel(duplicateConstraints, 2);
  const double C[4] = {1.2, -1.8, 1.2, -1.8}, r[2] = {0.1, 0.1};
  double v[2] = {0.5, 0.7}, y[2];
  REQUIRE(probe_least_change(2, 2, C, nullptr, r, v, y) == MECHRT_OK);
  CHECK(v[0] == Approx(0.5 - 1.2 * 0.1 / 4.68).epsilon(1e-12));
  CHECK(v[1] == Approx(0.7 + 1.8 * 0.1 / 4.68).epsilon(1e-12));
  CHECK(y[0] == Approx(0.1 / 4.68).epsilon(1e-12));
  CHECK(y[1] == 0);
  double M[4] = {1, 0, 0, 1}, gamma[2] = {0, 0}, qdd[2], lambda[2];
  CHECK(solveConstrained(2, 2, M, v, C, gamma, qdd, lambda) == kSolveOk);
  double G[4] = {4.68, 4.68, 4.68, 4.68}, b[2] = {0.1, 0.1};
  CHECK(solveLdlt(2, G, b) == kSolveSingular);
  std::vector<double> x = {0.6, -0.9, 0.5, 0.7};
  REQUIRE(probe_project(&model, p, 0, x.data()) == MECHRT_OK);
  CHECK(std::hypot(x[0], x[1]) == Approx(1).epsilon(1e-12));
  CHECK(std::abs(x[0] * x[2] + x[1] * x[3]) < 1e-12);
  std::vector<double> out(5 * 5); // rows (t, x, y, x', y')
  size_t rows = 99;
  REQUIRE(mechrt_simulate(&model, x.data(), p, 1, 0.25, 1e-10, 1e-12, out.data(), 5, &rows) ==
          MECHRT_OK);
  REQUIRE(rows == 5);
  const double energy = 0.5 * (x[2] * x[2] + x[3] * x[3]) + kG * x[1];
  for (size_t i = 0; i < rows; ++i) {
    const double *row = out.data() + 5 * i + 1;
    CHECK(std::hypot(row[0], row[1]) == Approx(1).epsilon(1e-10));
    CHECK(0.5 * (row[2] * row[2] + row[3] * row[3]) + kG * row[1] == Approx(energy).epsilon(1e-8));
  }
}

// ---- Error paths -----------------------------------------------------------------

namespace {

int callCount = 0;
int nanRhs(double, const double *, const double *, double *out) {
  ++callCount;
  out[0] = 1;
  out[1] = std::nan("");
  return 0;
}
// Finite up to t = 0.52, infinite after.
int nanLaterRhs(double t, const double *x, const double *p, double *out) {
  oscillatorRhs(t, x, p, out);
  if (t > 0.52)
    out[1] = std::numeric_limits<double>::infinity();
  return 0;
}
int failingRhs(double, const double *, const double *, double *) {
  return 1;
}
// Writes nothing: for calls that ask for no results.
int noResults(double, const double *, const double *, double *) {
  return 0;
}

} // namespace

TEST_CASE("library runtime: non-finite values give MECHRT_NON_FINITE", "[library-runtime]") {
  const double p[2] = {4, 1};
  const double x[2] = {1, 0};
  double out[2];
  SECTION("mechrt_call checks the results") {
    mechrt_model model = modelOf(1, 2, nanRhs);
    callCount = 0;
    CHECK(mechrt_call(&model, nanRhs, 0, x, 2, p, out, 2) == MECHRT_NON_FINITE);
    CHECK(callCount == 1);
    // ... and the inputs, before calling the kernel.
    const double bad[2] = {1, std::nan("")};
    const double badP[2] = {4, std::numeric_limits<double>::infinity()};
    mechrt_model good = modelOf(1, 2, oscillatorRhs);
    CHECK(mechrt_call(&good, oscillatorRhs, 0, bad, 2, p, out, 2) == MECHRT_NON_FINITE);
    CHECK(mechrt_call(&good, oscillatorRhs, std::nan(""), x, 2, p, out, 2) == MECHRT_NON_FINITE);
    CHECK(mechrt_call(&good, oscillatorRhs, 0, x, 2, badP, out, 2) == MECHRT_NON_FINITE);
    CHECK(mechrt_call(&good, oscillatorRhs, 0, x, 2, p, out, 2) == MECHRT_OK);
    CHECK(out[1] == -4);
    // A kernel's own status passes through.
    CHECK(mechrt_call(&good, failingRhs, 0, x, 2, p, out, 2) == MECHRT_SINGULAR_MASS_MATRIX);
  }
  SECTION("the constraints and the projection") {
    const mechrt_model model = cartesianModel(nanConstraints);
    double state[4] = {0.6, -0.8, 0, 0}, residuals[2], jacobian[2];
    CHECK(mechrt_constraints(&model, 0, state, p, residuals, jacobian) == MECHRT_NON_FINITE);
    CHECK(probe_project(&model, p, 0, state) == MECHRT_NON_FINITE);
  }
  SECTION("mechrt_simulate at the start: the first row only") {
    mechrt_model model = modelOf(1, 2, nanRhs);
    std::vector<double> rows(3 * 11);
    size_t count = 99;
    CHECK(mechrt_simulate(&model, x, p, 1, 0.1, 1e-8, 1e-10, rows.data(), 11, &count) ==
          MECHRT_NON_FINITE);
    // runtime::integrate delivers the first sample and stops there too.
    Rows cpp = cppRun(nanRhs, p, {1, 0}, 0, 1, 0.1, 1e-8, 1e-10);
    CHECK(cpp.outcome == Outcome::NonFinite);
    CHECK(count == cpp.times.size());
    CHECK(count == 1);
    // A non-finite start is refused before any row.
    const double bad[2] = {std::nan(""), 0};
    CHECK(mechrt_simulate(&model, bad, p, 1, 0.1, 1e-8, 1e-10, rows.data(), 11, &count) ==
          MECHRT_NON_FINITE);
    CHECK(count == 0);
  }
  SECTION("mechrt_simulate where the right-hand side starts to fail") {
    // Infinite for t > 0.52: the steps shrink towards 0.52 until they
    // underflow; the status says why (non-finite), not just that the step
    // failed. The rows before are written: those at 0, 0.1, ..., 0.5, as
    // runtime::integrate delivers them before its NonFinite outcome near
    // 0.52 (located to 1e-14 relative, the underflow bound).
    mechrt_model model = modelOf(1, 2, nanLaterRhs);
    std::vector<double> rows(3 * 11);
    size_t count = 0;
    CHECK(mechrt_simulate(&model, x, p, 1, 0.1, 1e-8, 1e-10, rows.data(), 11, &count) ==
          MECHRT_NON_FINITE);
    Rows cpp = cppRun(nanLaterRhs, p, {1, 0}, 0, 1, 0.1, 1e-8, 1e-10);
    CHECK(cpp.outcome == Outcome::NonFinite);
    CHECK(cpp.failureTime == Approx(0.52).epsilon(1e-12));
    CHECK(count == cpp.times.size());
    CHECK(count == 6);
    for (size_t k = 0; k < count && k < cpp.times.size(); ++k) {
      CHECK(rows[3 * k] == cpp.times[k]);
      CHECK(std::abs(rows[3 * k + 1] - std::cos(2 * rows[3 * k])) <= 1e-7);
    }
  }
}

TEST_CASE("library runtime: null pointers give MECHRT_NULL_POINTER", "[library-runtime]") {
  const double p[2] = {kG, 1};
  const mechrt_model model = cartesianModel();
  const mechrt_model noParameters = modelOf(1, 0, oscillatorRhs);
  const double x[4] = {0.6, -0.8, 0, 0};
  double out[8], residuals[2], jacobian[2];
  CHECK(mechrt_call(&model, cartesianRhs, 0, nullptr, 4, p, out, 4) == MECHRT_NULL_POINTER);
  CHECK(mechrt_call(&model, cartesianRhs, 0, x, 4, nullptr, out, 4) == MECHRT_NULL_POINTER);
  CHECK(mechrt_call(&model, cartesianRhs, 0, x, 4, p, nullptr, 4) == MECHRT_NULL_POINTER);
  // p may be NULL when np = 0, out when no result is asked for.
  CHECK(mechrt_call(&noParameters, failingRhs, 0, x, 2, nullptr, out, 2) ==
        MECHRT_SINGULAR_MASS_MATRIX);
  CHECK(mechrt_call(&model, noResults, 0, x, 4, p, nullptr, 0) == MECHRT_OK);
  CHECK(mechrt_constraints(&model, 0, nullptr, p, residuals, jacobian) == MECHRT_NULL_POINTER);
  CHECK(mechrt_constraints(&model, 0, x, nullptr, residuals, jacobian) == MECHRT_NULL_POINTER);
  CHECK(mechrt_constraints(&model, 0, x, p, nullptr, jacobian) == MECHRT_NULL_POINTER);
  CHECK(mechrt_constraints(&model, 0, x, p, residuals, nullptr) == MECHRT_NULL_POINTER);
  REQUIRE(mechrt_constraints(&model, 0, x, p, residuals, jacobian) == MECHRT_OK);
  CHECK(residuals[0] == Approx(0).margin(1e-15));
  CHECK(jacobian[0] == 1.2);
  CHECK(jacobian[1] == -1.6);

  size_t rows = 7;
  CHECK(mechrt_simulate(&model, x, p, 1, 0.5, 1e-8, 1e-10, out, 2, nullptr) == MECHRT_NULL_POINTER);
  CHECK(mechrt_simulate(&model, nullptr, p, 1, 0.5, 1e-8, 1e-10, out, 2, &rows) ==
        MECHRT_NULL_POINTER);
  CHECK(rows == 0);
  CHECK(mechrt_simulate(&model, x, nullptr, 1, 0.5, 1e-8, 1e-10, out, 2, &rows) ==
        MECHRT_NULL_POINTER);
  // out is checked after the size: enough rows but no buffer.
  CHECK(mechrt_simulate(&model, x, p, 1, 0.5, 1e-8, 1e-10, nullptr, 3, &rows) ==
        MECHRT_NULL_POINTER);
  CHECK(mechrt_simulate_with(&model, x, p, 1, 0.5, 1e-8, 1e-10, nullptr, out, 2, &rows) ==
        MECHRT_NULL_POINTER);
}
