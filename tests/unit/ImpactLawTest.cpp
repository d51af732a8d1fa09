// runtime/ImpactLaw against impacts worked out by hand.
#include "runtime/ImpactLaw.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

using namespace mech::runtime;

namespace {

// Three equal unit masses on a line, gaps a = x2 - x1 and b = x3 - x2.
ImpactProblem cradle(std::vector<double> velocity, double e) {
  ImpactProblem p;
  p.n = 3;
  p.M = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  p.G = {-1, 1, 0, 0, -1, 1};
  p.b = {0, 0};
  p.velocity = velocity;
  double a = velocity[1] - velocity[0], b = velocity[2] - velocity[1];
  p.r = {-e * std::min(a, 0.0), -e * std::min(b, 0.0)};
  return p;
}

} // namespace

TEST_CASE("impact law: two bodies by momentum and Newton's law") {
  // m1 = 1 at 2, m2 = 3 at -1, e = 1/2: v1 = (-1 - 4.5)/4, v2 = (-1 + 1.5)/4,
  // impulse m2 (v2 - u2) = 3.375 on the gap x2 - x1.
  ImpactProblem p;
  p.n = 2;
  p.M = {1, 0, 0, 3};
  p.G = {-1, 1};
  p.b = {0};
  p.velocity = {2, -1};
  p.r = {0.5 * 3};
  ImpactSolution s = solveImpact(p);
  REQUIRE(s.status == ImpactStatus::Solved);
  CHECK(s.velocity[0] == Approx(-1.375).margin(1e-14));
  CHECK(s.velocity[1] == Approx(0.125).margin(1e-14));
  CHECK(s.impulse[0] == Approx(3.375).margin(1e-14));
}

TEST_CASE("impact law: Newton's cradle, touching balls at once") {
  // Both contacts pushing: 2A - B = 2v, 2B - A = 0, so A = 4v/3, B = 2v/3
  // and the velocities (-v/3, 2v/3, 2v/3).
  ImpactSolution s = solveImpact(cradle({1, 0, 0}, 1));
  REQUIRE(s.status == ImpactStatus::Solved);
  CHECK(s.velocity[0] == Approx(-1.0 / 3).margin(1e-14));
  CHECK(s.velocity[1] == Approx(2.0 / 3).margin(1e-14));
  CHECK(s.velocity[2] == Approx(2.0 / 3).margin(1e-14));
  CHECK(s.impulse[0] == Approx(4.0 / 3).margin(1e-14));
  CHECK(s.impulse[1] == Approx(2.0 / 3).margin(1e-14));
}

TEST_CASE("impact law: a contact that would pull stays out of the impact") {
  // Ball 3 already leaves at 2: only contact a pushes, an exchange of
  // velocities between balls 1 and 2 (e = 1), and b gets no impulse.
  ImpactSolution s = solveImpact(cradle({1, 0, 2}, 1));
  REQUIRE(s.status == ImpactStatus::Solved);
  CHECK(s.velocity[0] == Approx(0).margin(1e-14));
  CHECK(s.velocity[1] == Approx(1).margin(1e-14));
  CHECK(s.velocity[2] == Approx(2).margin(1e-14));
  CHECK(s.impulse[1] == 0);
}

TEST_CASE("impact law: a bilateral constraint keeps its velocity") {
  // A unit mass at (x, y) on a rail y = x (A = [-1, 1], a = 0) falling
  // onto the floor y >= 0 at (0, -1), e = 0: along the rail the velocity
  // is (s, s); the floor's impulse stops the motion, v+ = (0, 0).
  ImpactProblem p;
  p.n = 2;
  p.M = {1, 0, 0, 1};
  p.A = {-1, 1};
  p.a = {0};
  p.G = {0, 1};
  p.b = {0};
  p.velocity = {-1, -1};
  p.r = {0};
  ImpactSolution s = solveImpact(p);
  REQUIRE(s.status == ImpactStatus::Solved);
  CHECK(s.velocity[0] == Approx(0).margin(1e-14));
  CHECK(s.velocity[1] == Approx(0).margin(1e-14));
  // v+ = v- + A^T mu + G^T L with 2 mu + L = 0 and -1 + mu + L = 0: L = 2
  // and mu = -1; the floor's (0, 2) and the rail's (1, -1) take (1, 1).
  CHECK(s.impulse[0] == Approx(2).margin(1e-14));
  CHECK(s.reaction[0] == Approx(-1).margin(1e-14));
}

TEST_CASE("impact law: more contacts than it solves for") {
  ImpactProblem p;
  p.n = 1;
  p.M = {1};
  p.velocity = {-1};
  for (size_t i = 0; i <= kMaxImpactContacts; ++i) {
    p.G.push_back(1);
    p.b.push_back(0);
    p.r.push_back(0);
  }
  CHECK(solveImpact(p).status == ImpactStatus::TooManyContacts);
}
