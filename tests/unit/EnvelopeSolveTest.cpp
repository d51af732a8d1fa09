// runtime/EnvelopeSolve against the first-kind equations solved as one
// linear system, [M, -C^T; C, 0] (q'', lambda) = (f, gamma), by Eigen's
// full-pivoting LU: banded systems given in a scrambled order, coordinates
// without inertia, a constraint given twice, and the plans it refuses.
#include "runtime/EnvelopeSolve.h"
#include "runtime/DenseSolve.h"

#include <Eigen/Dense>
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

using namespace mech::runtime;

namespace {

// A banded system in a natural order, then scrambled: M tridiagonal and
// positive definite (but for the coordinates `massless`, which have no
// inertia), row r of C on the natural coordinates 2r, 2r + 1, 2r + 2.
struct Problem {
  size_t n, m;
  std::vector<double> Mf; // M, f, C, gamma, as the dynamics program lays them out
  std::vector<bool> nonzeroM, nonzeroC;

  double *M() { return Mf.data(); }
  double *f() { return M() + n * n; }
  double *C() { return f() + n; }
  double *gamma() { return C() + m * n; }
};

Problem banded(size_t n, size_t m, const std::vector<size_t> &massless, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> value(-1, 1);
  std::vector<size_t> scrambled(n);
  std::iota(scrambled.begin(), scrambled.end(), 0);
  std::shuffle(scrambled.begin(), scrambled.end(), random);
  Problem p{n, m, std::vector<double>(n * n + n + m * n + m, 0.0), {}, {}};
  auto inertia = [&](size_t k) {
    return std::find(massless.begin(), massless.end(), k) == massless.end();
  };
  for (size_t k = 0; k < n; ++k) {
    size_t a = scrambled[k];
    p.M()[a * n + a] = inertia(k) ? 3 + value(random) : 0;
    if (k + 1 < n && inertia(k) && inertia(k + 1)) {
      size_t b = scrambled[k + 1];
      p.M()[a * n + b] = p.M()[b * n + a] = 0.5 * value(random);
    }
    p.f()[a] = 5 * value(random);
  }
  for (size_t r = 0; r < m; ++r) {
    for (size_t k = 2 * r; k <= 2 * r + 2 && k < n; ++k)
      p.C()[r * n + scrambled[k]] = 1 + value(random);
    p.gamma()[r] = value(random);
  }
  for (size_t i = 0; i < n * n; ++i)
    p.nonzeroM.push_back(p.Mf[i] != 0);
  for (size_t i = 0; i < m * n; ++i)
    p.nonzeroC.push_back(p.C()[i] != 0);
  return p;
}

// q'' and lambda from the whole system by full-pivoting LU.
Eigen::VectorXd solveWhole(Problem &p) {
  const long n = static_cast<long>(p.n), m = static_cast<long>(p.m);
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(n + m, n + m);
  Eigen::VectorXd b(n + m);
  for (long i = 0; i < n; ++i) {
    for (long j = 0; j < n; ++j)
      K(i, j) = p.M()[i * n + j];
    b(i) = p.f()[i];
  }
  for (long r = 0; r < m; ++r) {
    for (long j = 0; j < n; ++j) {
      K(n + r, j) = p.C()[r * n + j];
      K(j, n + r) = -p.C()[r * n + j];
    }
    b(n + r) = p.gamma()[r];
  }
  return K.fullPivLu().solve(b);
}

void requireClose(const std::vector<double> &a, const Eigen::VectorXd &b, long offset) {
  double scale = b.segment(offset, static_cast<long>(a.size())).cwiseAbs().maxCoeff();
  for (size_t i = 0; i < a.size(); ++i)
    CHECK(std::abs(a[i] - b(offset + static_cast<long>(i))) <= 1e-11 * scale);
}

} // namespace

TEST_CASE("envelope solve: a banded system in a scrambled order, against the whole system") {
  Problem p = banded(41, 20, {}, 7);
  std::vector<int32_t> plan = planEnvelopeSolve(p.n, p.m, p.nonzeroM, p.nonzeroC);
  REQUIRE_FALSE(plan.empty());
  // Reverse Cuthill-McKee finds the band: M + s C^T C couples each natural
  // coordinate with the two after it, so at most 3 entries per row.
  CHECK(envelopeEntries(plan.data()) <= 3 * p.n);
  std::vector<double> qdd(p.n), lambda(p.m);
  std::vector<double> before = p.Mf;
  REQUIRE(solveConstrainedEnvelope(plan.data(), p.Mf.data(), qdd.data(), lambda.data()) ==
          kSolveOk);
  CHECK(p.Mf == before); // the dynamics are read, not overwritten
  Eigen::VectorXd whole = solveWhole(p);
  requireClose(qdd, whole, 0);
  requireClose(lambda, whole, static_cast<long>(p.n));
}

TEST_CASE("envelope solve: coordinates without inertia that the constraints hold") {
  // Natural coordinates 1, 5 and 9 have no inertia: M + s C^T C is definite
  // because rows 0, 2 and 4 of C move them.
  Problem p = banded(30, 14, {1, 5, 9}, 11);
  std::vector<int32_t> plan = planEnvelopeSolve(p.n, p.m, p.nonzeroM, p.nonzeroC);
  REQUIRE_FALSE(plan.empty());
  std::vector<double> qdd(p.n), lambda(p.m);
  REQUIRE(solveConstrainedEnvelope(plan.data(), p.Mf.data(), qdd.data(), lambda.data()) ==
          kSolveOk);
  Eigen::VectorXd whole = solveWhole(p);
  requireClose(qdd, whole, 0);
  requireClose(lambda, whole, static_cast<long>(p.n));
  // Without constraints on the last coordinates (natural 29, no inertia
  // there either) the system has no solution: singular, as the dense solve says.
  Problem loose = banded(30, 14, {1, 5, 9, 29}, 11);
  plan = planEnvelopeSolve(loose.n, loose.m, loose.nonzeroM, loose.nonzeroC);
  REQUIRE_FALSE(plan.empty());
  CHECK(solveConstrainedEnvelope(plan.data(), loose.Mf.data(), qdd.data(), lambda.data()) ==
        kSolveSingular);
}

TEST_CASE("envelope solve: a constraint given twice moves as once, with the same reaction") {
  Problem once = banded(25, 10, {}, 3);
  Eigen::VectorXd whole = solveWhole(once);
  // The same rows and row 4 again at the end.
  Problem twice = once;
  twice.m = 11;
  twice.Mf.resize(once.n * once.n + once.n);
  twice.Mf.insert(twice.Mf.end(), once.C(), once.C() + once.m * once.n);
  twice.Mf.insert(twice.Mf.end(), once.C() + 4 * once.n, once.C() + 5 * once.n);
  twice.Mf.insert(twice.Mf.end(), once.gamma(), once.gamma() + once.m);
  twice.Mf.push_back(once.gamma()[4]);
  twice.nonzeroC = once.nonzeroC;
  twice.nonzeroC.insert(twice.nonzeroC.end(), once.nonzeroC.begin() + 4 * 25,
                        once.nonzeroC.begin() + 5 * 25);
  std::vector<int32_t> plan = planEnvelopeSolve(twice.n, twice.m, twice.nonzeroM, twice.nonzeroC);
  REQUIRE_FALSE(plan.empty());
  std::vector<double> qdd(twice.n), lambda(twice.m);
  REQUIRE(solveConstrainedEnvelope(plan.data(), twice.Mf.data(), qdd.data(), lambda.data()) ==
          kSolveOk);
  requireClose(qdd, whole, 0);
  // The reaction C^T lambda is unique; lambda splits row 4's between its copies.
  std::vector<double> reaction(twice.n, 0.0);
  Eigen::VectorXd expected = Eigen::VectorXd::Zero(static_cast<long>(once.n));
  for (size_t r = 0; r < twice.m; ++r)
    for (size_t j = 0; j < twice.n; ++j)
      reaction[j] += twice.C()[r * twice.n + j] * lambda[r];
  for (size_t r = 0; r < once.m; ++r)
    for (size_t j = 0; j < once.n; ++j)
      expected(static_cast<long>(j)) +=
          once.C()[r * once.n + j] * whole(static_cast<long>(once.n + r));
  requireClose(reaction, expected, 0);
}

TEST_CASE("envelope solve: no plan for few coordinates or a full mass matrix") {
  Problem small = banded(kEnvelopeSolveFrom - 1, 3, {}, 5);
  CHECK(planEnvelopeSolve(small.n, small.m, small.nonzeroM, small.nonzeroC).empty());
  CHECK(planEnvelopeSolve(small.n, 0, small.nonzeroM, {}).empty());
  // A chain in absolute angles: every entry of M is a function of the angles.
  const size_t n = 30, m = 2;
  std::vector<bool> full(n * n, true), rows(m * n, false);
  rows[0] = rows[n + 1] = true;
  CHECK(planEnvelopeSolve(n, m, full, rows).empty());
}
