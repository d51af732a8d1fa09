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

TEST_CASE("dense solve: a constraint given twice gives the motion of one, its reaction on one "
          "row, and a massless direction without a constraint is singular") {
  // The Cartesian pendulum's row twice, g = 1: q'' as above (-0.48, -0.36)
  // and the reaction M q'' - f = (-0.48, 0.64) = -0.4 (1.2, -1.6), all on
  // the first row: the pivoted factorization keeps the first of two equal
  // rows and finds the second dependent (lambda = (-0.4, 0)).
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

TEST_CASE("dense solve: the regularized Schur solve is exact where S is regular, drops "
          "dependent rows and stays bounded where S is nearly singular") {
  // Regular: S = [[4, 1], [1, 3]], r = S (1, 2) = (6, 7).
  std::vector<double> S = {4, 1, 1, 3}, r = {6, 7};
  solveRegularizedSchur(2, S.data(), r.data());
  CHECK(r[0] == Approx(1).epsilon(1e-15));
  CHECK(r[1] == Approx(2).epsilon(1e-15));
  // Dependent: S = [[1, 2], [2, 4]] (rank 1), r = (1, 2) in its range: the
  // solutions are mu1 + 2 mu2 = 1; the pivot 4 comes first and row 1 is
  // dependent: mu = (0, 1/2). Off its range, r = (1, 0), the dependent row
  // still gets 0 and mu2 stays the kept row's own answer, 0.
  std::vector<double> dependent = {1, 2, 2, 4}, b = {1, 2};
  solveRegularizedSchur(2, dependent.data(), b.data());
  CHECK(b[0] == 0);
  CHECK(b[1] == Approx(0.5).epsilon(1e-14));
  std::vector<double> off = {1, 0};
  solveRegularizedSchur(2, dependent.data(), off.data());
  CHECK(off[0] == 0);
  CHECK(off[1] == 0);
  // Nearly singular, S = diag(1, 1e-12) with r = (1, 1): the exact mu2 would
  // be 1e12; each pass adds at most 1 / eps to the regularized one.
  std::vector<double> weak = {1, 0, 0, 1e-12}, c = {1, 1};
  solveRegularizedSchur(2, weak.data(), c.data());
  CHECK(c[0] == Approx(1).epsilon(1e-15));
  CHECK(std::abs(c[1]) <= (kSchurRefinements + 1) / kSchurRegularization);
}
