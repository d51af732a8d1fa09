// What mech says instead of printing an impossible or non-finite answer:
// the mass-matrix faults (mechanics::describeMassMatrixFault), the naming of
// non-finite values (mechanics::NonFiniteValues) and the admissibility of
// solved params (mechanics::impossibleValues). Expected values are worked
// out by hand in the comments.
#include "MechanicsTestSupport.h"

#include "mechanics/Admissibility.h"
#include "mechanics/Kernels.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

using namespace mech;

namespace {

const std::vector<std::string> kXY = {"x", "y"};

} // namespace

TEST_CASE("a mass matrix that overflows is not finite, not 'no inertia'", "[admissibility]") {
  double inf = std::numeric_limits<double>::infinity();
  std::vector<double> M = {inf, 0, 0, 1};
  std::string text = mechanics::describeMassMatrixFault(M.data(), nullptr, 0, kXY, "here");
  CHECK(text == "the mass matrix is not finite here (M[x,x] = inf)");
  // The finite row of y is not 'without inertia' against an infinite one.
  CHECK(mechanics::coordinatesWithoutInertia(M.data(), kXY).empty());
}

TEST_CASE("a negative kinetic energy is named by a velocity", "[admissibility]") {
  // M = [[1, 2], [2, 1]]: eigenvalues 3 and -1, the latter along (1, -1).
  std::vector<double> M = {1, 2, 2, 1};
  CHECK(mechanics::negativeEnergyDirection(M.data(), nullptr, 0, kXY) == "x' = 1, y' = -1");
  CHECK(mechanics::describeMassMatrixFault(M.data(), nullptr, 0, kXY, "here") ==
        "the mass matrix is not positive definite here: the kinetic energy is negative for "
        "x' = 1, y' = -1");
  // With the constraint x = y only (1, 1) is allowed: T = 3 > 0 there.
  std::vector<double> C = {1, -1};
  CHECK(mechanics::negativeEnergyDirection(M.data(), C.data(), 1, kXY).empty());
  // A positive definite M has no such direction.
  std::vector<double> good = {2, 1, 1, 2};
  CHECK(mechanics::negativeEnergyDirection(good.data(), nullptr, 0, kXY).empty());
}

TEST_CASE("non-finite values are named, the first few shown", "[admissibility]") {
  mechanics::NonFiniteValues bad;
  bad.check("T", 1.0);
  CHECK(bad.empty());
  bad.check("V", std::nan(""));
  bad.check("f", kXY, {-std::numeric_limits<double>::infinity(), 0.0});
  CHECK(bad.text() == "V = nan, f[x] = -inf");
  for (int i = 0; i < 4; ++i)
    bad.check("Q", std::nan(""));
  CHECK(bad.text() == "V = nan, f[x] = -inf, Q = nan, Q = nan and 2 more");
}

TEST_CASE("solved params that no mechanism has", "[admissibility]") {
  // A bead on a spring (rest 1 m) held at y = -0.5 under gravity: at rest
  // -m g - k (|y| - 1) sign(y) = 0, so k = -2 m g = -1.962 N/m.
  auto dm = test::derive(R"(
model Hanging {
  param m = 0.1 [kg], k = 10 [N/m], g = 9.81 [m/s^2]
  coord y [m]
  particle P mass m at [0, y]
  gravity [0, -g]
  spring k between [0, 0] and [0, y] rest 1 [m]
  init y = -1.2
}
)");
  REQUIRE(dm->derivation);
  mechanics::StaticsProblem problem{dm->params(), {1}, test::state({-0.5}, {0.0})};
  mechanics::StaticsSolution solution;
  solution.values = {-1.962};
  auto impossible = mechanics::impossibleValues(dm->model(), dm->equations(),
                                                *dm->derivation->lowering, problem, solution);
  REQUIRE(impossible.size() == 1);
  CHECK(impossible[0].what == "the stiffness of the spring");
  CHECK(impossible[0].value == Approx(-1.962));
  CHECK(impossible[0].unknowns == std::vector<size_t>{0});
  // k = 1.962 N/m (held at y = -1.5) is a real spring.
  solution.values = {1.962};
  CHECK(mechanics::impossibleValues(dm->model(), dm->equations(), *dm->derivation->lowering,
                                    problem, solution)
            .empty());
  // Solving for m: a negative mass of the particle, and only that (its M
  // follows from it and is not reported twice).
  problem.unknowns = {0};
  solution.values = {-0.5};
  impossible = mechanics::impossibleValues(dm->model(), dm->equations(), *dm->derivation->lowering,
                                           problem, solution);
  REQUIRE(impossible.size() == 1);
  CHECK(impossible[0].what == "the mass of particle 'P'");
  CHECK(impossible[0].value == Approx(-0.5));
}
