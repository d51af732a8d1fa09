// runtime/DenseSolve against systems solved by hand.
#include "runtime/DenseSolve.h"

#include <catch2/catch.hpp>

#include <vector>

using namespace mech::runtime;

TEST_CASE("dense solve: LDL^T of a symmetric positive definite matrix") {
  // [[4, 2], [2, 3]] y = [2, 1]: the inverse is [[3, -2], [-2, 4]] / 8,
  // so y = [(6 - 2) / 8, (-4 + 4) / 8] = [0.5, 0].
  std::vector<double> M = {4, 2, 2, 3}, b = {2, 1};
  REQUIRE(solveLdlt(2, M.data(), b.data()) == kSolveOk);
  CHECK(b[0] == Approx(0.5).epsilon(1e-15));
  CHECK(b[1] == Approx(0).margin(1e-15));
  std::vector<double> singular = {1, 1, 1, 1}, c = {1, 2};
  CHECK(solveLdlt(2, singular.data(), c.data()) == kSolveSingular);
}

TEST_CASE("dense solve: the Cartesian pendulum's equations of the first kind") {
  // m = 1, f = (0, -g), C = (2x, 2y) at (0.6, -0.8), at rest so gamma = 0.
  // C (f + C^T lambda) = 0 gives lambda = -(C f) / (C C^T) = -1.6 g / 4 =
  // -0.4 g, and q'' = f + lambda C^T = (-0.48 g, -0.36 g), tangent to the
  // circle: 0.6 (-0.48) + (-0.8)(-0.36) = 0.
  const double g = 9.81;
  std::vector<double> M = {1, 0, 0, 1}, f = {0, -g}, C = {1.2, -1.6}, gamma = {0};
  std::vector<double> qdd(2), lambda(1);
  REQUIRE(solveConstrained(2, 1, M.data(), f.data(), C.data(), gamma.data(), qdd.data(),
                           lambda.data()) == kSolveOk);
  CHECK(lambda[0] == Approx(-0.4 * g).epsilon(1e-14));
  CHECK(qdd[0] == Approx(-0.48 * g).epsilon(1e-14));
  CHECK(qdd[1] == Approx(-0.36 * g).epsilon(1e-14));
}

TEST_CASE("dense solve: a constraint given twice gives the motion of one, with the reaction on "
          "the first, and a massless direction without a constraint is singular") {
  // The Cartesian pendulum's row twice, g = 1: q'' as above (-0.48, -0.36)
  // and the reaction M q'' - f = (-0.48, 0.64) = -0.4 (1.2, -1.6), all on
  // the first row (lambda = (-0.4, 0): the second depends on the first).
  std::vector<double> M = {1, 0, 0, 1}, f = {0, -1}, twice = {1.2, -1.6, 1.2, -1.6}, gamma = {0, 0},
                      qdd(2), lambda(2);
  REQUIRE(solveConstrained(2, 2, M.data(), f.data(), twice.data(), gamma.data(), qdd.data(),
                           lambda.data()) == kSolveOk);
  CHECK(qdd[0] == Approx(-0.48).epsilon(1e-13));
  CHECK(qdd[1] == Approx(-0.36).epsilon(1e-13));
  CHECK(lambda[0] == Approx(-0.4).epsilon(1e-13));
  CHECK(lambda[1] == 0);
  // No inertia along y and the constraint acts along x only.
  std::vector<double> massless = {1, 0, 0, 0}, alongX = {1, 0}, one = {0};
  CHECK(solveConstrained(2, 1, massless.data(), f.data(), alongX.data(), one.data(), qdd.data(),
                         lambda.data()) == kSolveSingular);
}

TEST_CASE("dense solve: a pivoted semidefinite LDL^T drops a dependent row and solves the rest") {
  // S = [[4, 2, 6], [2, 5, 3], [6, 3, 9]]: row 1 = (2/3) row 3, rank 2. The
  // pivots come largest first: 9 (row 3), then 5 - 3*3/9 = 4 (row 2), then
  // row 1's 4 - 6*6/9 = 0: dependent. With b = (6, 7, 9) in S's range, the
  // basic solution gives y1 = 0 and solves [[5, 3], [3, 9]] (y2, y3) = (7, 9):
  // y = (0, 1, 2/3).
  std::vector<double> S = {4, 2, 6, 2, 5, 3, 6, 3, 9}, b = {6, 7, 9}, scratch(3);
  std::vector<size_t> order(3);
  CHECK(factorPivotedLdlt(3, S.data(), order.data(), 1e-10) == 2);
  CHECK(order == std::vector<size_t>{2, 1, 0});
  substitutePivotedLdlt(3, S.data(), order.data(), b.data(), scratch.data());
  CHECK(b[0] == 0);
  CHECK(b[1] == Approx(1).epsilon(1e-14));
  CHECK(b[2] == Approx(2.0 / 3).epsilon(1e-14));
}
