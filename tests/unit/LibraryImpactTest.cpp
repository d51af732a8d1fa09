// The impact law of the C runtime of built libraries
// (runtime/library/LibraryImpact.c) against impacts worked out by hand: a
// ball on a floor, on a moving floor, Newton's cradle, a rigid pair on a
// floor (a bilateral constraint), twelve balls at once, contacts with the
// same row, which answer is taken when there are several, the tolerance on
// the impulses, the rank threshold of the KKT solve, and the statuses of the
// failures. Then against the C++ runtime/ImpactLaw, of which it is the
// port, on random well-posed impacts.
#include "runtime/library/LibraryImpact.h"
#include "runtime/ImpactLaw.h"

#include <catch2/catch.hpp>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace mech::runtime;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The problem as vectors: m = a.size() bilateral rows, k = b.size() contacts.
struct Impact {
  long n = 0;
  std::vector<double> M, A, a, G, b, r, velocity;
};

struct Result {
  int status = -1;
  std::vector<double> velocity, impulse; // NaN where the solver wrote nothing
};

Result solve(const Impact &p) {
  mechrt_impact_problem problem;
  problem.n = p.n;
  problem.m = static_cast<long>(p.a.size());
  problem.k = static_cast<long>(p.b.size());
  problem.M = p.M.data();
  problem.A = p.A.data();
  problem.a = p.a.data();
  problem.G = p.G.data();
  problem.b = p.b.data();
  problem.r = p.r.data();
  problem.velocity = p.velocity.data();
  Result result;
  result.velocity.assign(static_cast<size_t>(p.n), kNaN);
  result.impulse.assign(p.b.size(), kNaN);
  result.status = mechrt_solve_impact(&problem, result.velocity.data(), result.impulse.data());
  return result;
}

// One ball of mass `mass` at `velocity` over a floor g = x (G = [1]).
Impact ball(double mass, double velocity, double least) {
  Impact p;
  p.n = 1;
  p.M = {mass};
  p.G = {1};
  p.b = {0};
  p.r = {least};
  p.velocity = {velocity};
  return p;
}

bool allNaN(const std::vector<double> &v) {
  return std::all_of(v.begin(), v.end(), [](double x) { return std::isnan(x); });
}

// A random well-posed impact: n <= 6 coordinates, M = B B^T + I/2 (SPD),
// m <= 2 bilateral rows and k <= 4 contacts with m + k <= n, entries in
// [-1, 1], and r = -e min(G v- + b, 0) with e in [0, 1], so that some
// contacts close and some do not.
Impact randomImpact(std::mt19937 &random) {
  std::uniform_real_distribution<double> uniform(-1, 1), restitution(0, 1);
  long n = std::uniform_int_distribution<long>(1, 6)(random);
  long m = std::uniform_int_distribution<long>(0, std::min(2L, n - 1))(random);
  long k = std::uniform_int_distribution<long>(0, std::min(4L, n - m))(random);
  auto fill = [&](std::vector<double> &v, long count) {
    v.resize(static_cast<size_t>(count));
    for (double &x : v)
      x = uniform(random);
  };
  Impact p;
  p.n = n;
  std::vector<double> B;
  fill(B, n * n);
  Eigen::Map<const RowMajor> b(B.data(), n, n);
  p.M.resize(static_cast<size_t>(n * n));
  Eigen::Map<RowMajor>(p.M.data(), n, n) = b * b.transpose() + 0.5 * RowMajor::Identity(n, n);
  fill(p.A, m * n);
  fill(p.a, m);
  fill(p.G, k * n);
  fill(p.b, k);
  fill(p.velocity, n);
  for (long i = 0; i < k; ++i) {
    double rate = p.b[static_cast<size_t>(i)];
    for (long j = 0; j < n; ++j)
      rate += p.G[static_cast<size_t>(i * n + j)] * p.velocity[static_cast<size_t>(j)];
    p.r.push_back(-restitution(random) * std::min(rate, 0.0));
  }
  return p;
}

// Whether the rows [A; G] are far from dependent (their Gram matrix's
// least eigenvalue at least 0.05): then the Delassus matrix is well
// conditioned and the answer does not hang on rounding, so that the port
// and the C++ agree to 1e-12 whatever the order of their operations.
bool wellConditioned(const Impact &p) {
  const long n = p.n, m = static_cast<long>(p.a.size()), k = static_cast<long>(p.b.size());
  if (m + k == 0)
    return true;
  RowMajor rows(m + k, n);
  if (m > 0)
    rows.topRows(m) = Eigen::Map<const RowMajor>(p.A.data(), m, n);
  if (k > 0)
    rows.bottomRows(k) = Eigen::Map<const RowMajor>(p.G.data(), k, n);
  Eigen::MatrixXd gram = rows * rows.transpose();
  return Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(gram).eigenvalues().minCoeff() >= 0.05;
}

// got = want to 1e-12 of the largest of want's magnitudes (at least 1).
void agree(const std::vector<double> &got, const std::vector<double> &want) {
  REQUIRE(got.size() == want.size());
  double scale = 1;
  for (double x : want)
    scale = std::max(scale, std::abs(x));
  for (size_t i = 0; i < want.size(); ++i)
    CHECK(std::abs(got[i] - want[i]) <= 1e-12 * scale);
}

} // namespace

TEST_CASE("library impact: a ball bounces off the floor with Newton's law", "[library][impact]") {
  // Mass 2 at -3, e = 1/2, r = 1.5: v+ = 1.5, and the impulse is the change
  // of momentum 2 (1.5 + 3) = 9.
  Result s = solve(ball(2, -3, 1.5));
  REQUIRE(s.status == MECHRT_IMPACT_SOLVED);
  CHECK(s.velocity[0] == Approx(1.5).margin(1e-14));
  CHECK(s.impulse[0] == Approx(9).margin(1e-14));
}

TEST_CASE("library impact: a ball bounces off a rising floor", "[library][impact]") {
  // The floor rises at 1: g = x - t, g' = v - 1 (b = -1). A unit mass at -1
  // closes at 2 and leaves at 2 with e = 1 (r = 2): v+ = 3, impulse 4.
  Impact p = ball(1, -1, 2);
  p.b = {-1};
  Result s = solve(p);
  REQUIRE(s.status == MECHRT_IMPACT_SOLVED);
  CHECK(s.velocity[0] == Approx(3).margin(1e-14));
  CHECK(s.impulse[0] == Approx(4).margin(1e-14));
}

TEST_CASE("library impact: Newton's cradle, touching balls at once", "[library][impact]") {
  // Three unit masses, gaps g1 = x2 - x1, g2 = x3 - x2, velocities (1, 0, 0),
  // e = 1: r1 = -e min(-1, 0) = 1, r2 = -e min(0, 0) = 0. With impulses L1,
  // L2, v+ = (1 - L1, L1 - L2, L2). No set of fewer contacts passes: none
  // leaves g1 closing at -1; {1} alone gives (0, 1, 0), g2 closing at -1;
  // {2} alone gives L2 = 0 and g1 closing. Both: 2 L1 - L2 - 1 = 1 and
  // 2 L2 - L1 = 0, so L1 = 4/3, L2 = 2/3 and v+ = (-1/3, 2/3, 2/3).
  Impact p;
  p.n = 3;
  p.M = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  p.G = {-1, 1, 0, 0, -1, 1};
  p.b = {0, 0};
  p.r = {1, 0};
  p.velocity = {1, 0, 0};
  Result s = solve(p);
  REQUIRE(s.status == MECHRT_IMPACT_SOLVED);
  CHECK(s.velocity[0] == Approx(-1.0 / 3).margin(1e-14));
  CHECK(s.velocity[1] == Approx(2.0 / 3).margin(1e-14));
  CHECK(s.velocity[2] == Approx(2.0 / 3).margin(1e-14));
  CHECK(s.impulse[0] == Approx(4.0 / 3).margin(1e-14));
  CHECK(s.impulse[1] == Approx(2.0 / 3).margin(1e-14));
}

TEST_CASE("library impact: a rigid pair stops on the floor", "[library][impact]") {
  // Two unit masses joined rigidly (A = [1, -1], a = 0) at (-1, -1); the
  // floor is under mass 1 only (G = [1, 0]), e = 0. v+ = (0, 0): the pair's
  // momentum -2 is taken by the floor's impulse, 2.
  Impact p;
  p.n = 2;
  p.M = {1, 0, 0, 1};
  p.A = {1, -1};
  p.a = {0};
  p.G = {1, 0};
  p.b = {0};
  p.r = {0};
  p.velocity = {-1, -1};
  Result s = solve(p);
  REQUIRE(s.status == MECHRT_IMPACT_SOLVED);
  CHECK(s.velocity[0] == Approx(0).margin(1e-14));
  CHECK(s.velocity[1] == Approx(0).margin(1e-14));
  CHECK(s.impulse[0] == Approx(2).margin(1e-14));
}

TEST_CASE("library impact: twelve balls, each on its floor, all push", "[library][impact]") {
  // Ball i of mass i + 1 at -1 with e_i = i/11: v+_i = e_i, impulse
  // (i + 1)(1 + e_i). Only the last of the 4096 sets, all twelve, passes.
  Impact p;
  p.n = 12;
  p.M.assign(144, 0);
  p.G.assign(144, 0);
  for (long i = 0; i < 12; ++i) {
    p.M[static_cast<size_t>(13 * i)] = static_cast<double>(i + 1);
    p.G[static_cast<size_t>(13 * i)] = 1;
    p.b.push_back(0);
    p.r.push_back(static_cast<double>(i) / 11);
    p.velocity.push_back(-1);
  }
  Result s = solve(p);
  REQUIRE(s.status == MECHRT_IMPACT_SOLVED);
  for (size_t i = 0; i < 12; ++i) {
    double e = static_cast<double>(i) / 11;
    CHECK(s.velocity[i] == Approx(e).margin(1e-14));
    CHECK(s.impulse[i] == Approx(static_cast<double>(i + 1) * (1 + e)).margin(1e-13));
  }
}

// A unit mass at -2 on two floors g = x (n = 1, G = [1; 1]) with the
// least rates r1, r2.
static Impact twoFloors(double r1, double r2) {
  Impact p;
  p.n = 1;
  p.M = {1};
  p.G = {1, 1};
  p.b = {0, 0};
  p.r = {r1, r2};
  p.velocity = {-2};
  return p;
}

TEST_CASE("library impact: two contacts with the same row", "[library][impact]") {
  // A unit mass at -2 on two floors g = x (n = 1, G = [1; 1]): the set of
  // both is singular, but a set of one is tried first. With r = (1, 1/2):
  // {} leaves both closing; {1} gives v+ = 1, impulse 3, and contact 2
  // separates at 1 >= 1/2, so it is the answer and contact 2 gets nothing.
  Impact p = twoFloors(1, 0.5);
  Result s = solve(p);
  REQUIRE(s.status == MECHRT_IMPACT_SOLVED);
  CHECK(s.velocity[0] == Approx(1).margin(1e-14));
  CHECK(s.impulse[0] == Approx(3).margin(1e-14));
  CHECK(s.impulse[1] == 0);
  // With r = (1/2, 1): {1} gives v+ = 1/2, contact 2 closing at -1/2 below
  // its least rate 1; {2} gives v+ = 1, impulse 3, and contact 1 is apart.
  p.r = {0.5, 1};
  s = solve(p);
  REQUIRE(s.status == MECHRT_IMPACT_SOLVED);
  CHECK(s.velocity[0] == Approx(1).margin(1e-14));
  CHECK(s.impulse[0] == 0);
  CHECK(s.impulse[1] == Approx(3).margin(1e-14));
  // At -100 with r = (50, 50 + 5e-8): {1} gives v+ = 50, impulse 150, and
  // contact 2 at w = -5e-8, which is apart at the rates' scale
  // max(1, 100 + 100, 100 + 5e-8, 0) = 200 (tolerance 2e-7).
  p.velocity = {-100};
  p.r = {50, 50 + 5e-8};
  s = solve(p);
  REQUIRE(s.status == MECHRT_IMPACT_SOLVED);
  CHECK(s.velocity[0] == Approx(50).margin(1e-13));
  CHECK(s.impulse[0] == Approx(150).margin(1e-13));
  CHECK(s.impulse[1] == 0);
}

TEST_CASE("library impact: of several answers, the first set in the C++'s order",
          "[library][impact]") {
  // Two floors with the same row and r = (1, 1): {1} and {2} both pass, and
  // {1} comes first in binary order: the impulse (3, 0), not (0, 3).
  Impact p = twoFloors(1, 1);
  Result s = solve(p);
  REQUIRE(s.status == MECHRT_IMPACT_SOLVED);
  CHECK(s.velocity[0] == Approx(1).margin(1e-14));
  CHECK(s.impulse[0] == Approx(3).margin(1e-14));
  CHECK(s.impulse[1] == 0);
  // A negative mass -1 at rest with r = -1 (an LCP that is not a P-matrix
  // one): {} passes (w = 0 - (-1) = 1), and so would {1} (v+ = -1 from
  // -v+ - L = 0, so L = 1). The smaller set comes first: v+ = 0, no impulse.
  s = solve(ball(-1, 0, -1));
  REQUIRE(s.status == MECHRT_IMPACT_SOLVED);
  CHECK(s.velocity[0] == 0);
  CHECK(s.impulse[0] == 0);
}

TEST_CASE("library impact: a pull within the tolerance is no impulse", "[library][impact]") {
  // Ball 1 of mass 10 at -1 on its floor with r = 1: L1 = 10 (1 + 1) = 20.
  // Ball 2 of mass -1 at rest on its floor with r = 1e-8. {} and {2} leave
  // contact 1 closing; {1} leaves contact 2 at w = -1e-8, below -1e-9 of
  // the rates' scale (1 + 1e-8). Both: v+ = (1, 1e-8), L2 = -1 (1e-8 - 0) =
  // -1e-8, within -1e-9 of the impulses' sum (20 + 1e-8): accepted, and
  // written as 0.
  Impact p;
  p.n = 2;
  p.M = {10, 0, 0, -1};
  p.G = {1, 0, 0, 1};
  p.b = {0, 0};
  p.r = {1, 1e-8};
  p.velocity = {-1, 0};
  Result s = solve(p);
  REQUIRE(s.status == MECHRT_IMPACT_SOLVED);
  CHECK(s.velocity[0] == Approx(1).margin(1e-14));
  CHECK(s.velocity[1] == Approx(1e-8).epsilon(1e-12));
  CHECK(s.impulse[0] == Approx(20).margin(1e-13));
  CHECK(s.impulse[1] == 0);
}

TEST_CASE("library impact: a pivot below 1e-12 of the largest is zero", "[library][impact]") {
  // A unit mass at -1, r = 1, on a contact of row G = [g]: {} leaves it
  // closing; {1} is [1, -g; g, 0], pivots 1 and g^2. For g = 1e-5 (1e-10)
  // it is solved: v+ = r/g = 1e5, impulse (v+ + 1)/g.
  Impact p = ball(1, -1, 1);
  p.G = {1e-5};
  Result s = solve(p);
  REQUIRE(s.status == MECHRT_IMPACT_SOLVED);
  CHECK(s.velocity[0] == Approx(1e5).epsilon(1e-12));
  CHECK(s.impulse[0] == Approx((1e5 + 1) / 1e-5).epsilon(1e-12));
  // For g = 1e-7 (1e-14, which the partial-pivoting LU's test at n eps,
  // LibraryDenseLu.c, would take) it is singular, and {} was solvable but
  // failed: no solution, and nothing written.
  p.G = {1e-7};
  s = solve(p);
  CHECK(s.status == MECHRT_IMPACT_NO_SOLUTION);
  CHECK(allNaN(s.velocity));
  CHECK(allNaN(s.impulse));
}

TEST_CASE("library impact: the statuses of the failures", "[library][impact]") {
  // A zero mass matrix and no contacts: the one set, {}, is [0].
  Impact zero = ball(0, -1, 0);
  zero.G.clear();
  zero.b.clear();
  zero.r.clear();
  Result s = solve(zero);
  CHECK(s.status == MECHRT_IMPACT_SINGULAR);
  CHECK(allNaN(s.velocity));
  // A negative mass -1 at rest, r = 1: {} leaves the contact closing at -1;
  // {1} gives v+ = 1 from -v+ - L = 0, so L = -1, a pull.
  s = solve(ball(-1, 0, 1));
  CHECK(s.status == MECHRT_IMPACT_NO_SOLUTION);
  CHECK(allNaN(s.velocity));
  CHECK(allNaN(s.impulse));
  // Thirteen contacts.
  Impact p = ball(1, -1, 0);
  for (int i = 0; i < MECHRT_MAX_IMPACT_CONTACTS; ++i) {
    p.G.push_back(1);
    p.b.push_back(0);
    p.r.push_back(0);
  }
  REQUIRE(p.b.size() == 13);
  CHECK(solve(p).status == MECHRT_IMPACT_TOO_MANY_CONTACTS);
}

TEST_CASE("library impact: the velocity may be written over v-", "[library][impact]") {
  // The ball of the first test, its v+ written into its v-.
  Impact p = ball(2, -3, 1.5);
  mechrt_impact_problem problem = {};
  problem.n = 1;
  problem.k = 1;
  problem.M = p.M.data();
  problem.G = p.G.data();
  problem.b = p.b.data();
  problem.r = p.r.data();
  problem.velocity = p.velocity.data();
  double impulse = kNaN;
  REQUIRE(mechrt_solve_impact(&problem, p.velocity.data(), &impulse) == MECHRT_IMPACT_SOLVED);
  CHECK(p.velocity[0] == Approx(1.5).margin(1e-14));
  CHECK(impulse == Approx(9).margin(1e-14));
}

TEST_CASE("library impact: the port agrees with the C++ impact law", "[library][impact]") {
  // Random well-posed impacts (randomImpact): the same status, and the same
  // velocities and impulses to 1e-12 of their scale.
  std::mt19937 random(20261207);
  int drawn = 0;
  for (int trial = 0; trial < 200; ++trial) {
    Impact p;
    do {
      p = randomImpact(random);
      ++drawn;
    } while (!wellConditioned(p));
    ImpactProblem q;
    q.n = static_cast<size_t>(p.n);
    q.M = p.M;
    q.A = p.A;
    q.a = p.a;
    q.G = p.G;
    q.b = p.b;
    q.r = p.r;
    q.velocity = p.velocity;
    ImpactSolution expected = solveImpact(q);
    Result s = solve(p);
    INFO("trial " << trial << ": n = " << p.n << ", m = " << p.a.size() << ", k = " << p.b.size());
    REQUIRE(expected.status == ImpactStatus::Solved);
    REQUIRE(s.status == MECHRT_IMPACT_SOLVED);
    agree(s.velocity, expected.velocity);
    agree(s.impulse, expected.impulse);
  }
  // The condition rejects few: the test is of typical impacts.
  CHECK(drawn < 300);
}
