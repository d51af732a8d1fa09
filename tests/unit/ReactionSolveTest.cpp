// runtime::solveWithReactions against Eigen's full-pivoting LU of the
// first-kind system [M, -W^T; C, 0] written out here, and its consistency
// check against the closed form of one contact: C M^-1 W^T > 0.
#include "runtime/DenseSolve.h"

#include <catch2/catch.hpp>

#include <Eigen/Dense>

using namespace mech;

namespace {

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct Solved {
  int status;
  Eigen::VectorXd qdd, lambda;
  size_t culprit = 99;
};

Solved solve(RowMajor M, const Eigen::VectorXd &f, const RowMajor &C, const RowMajor &W,
             const Eigen::VectorXd &gamma, const std::vector<size_t> &checked) {
  const size_t n = static_cast<size_t>(M.rows()), m = static_cast<size_t>(C.rows());
  Solved out{0, Eigen::VectorXd(n), Eigen::VectorXd(m)};
  out.status = runtime::solveWithReactions(n, m, M.data(), f.data(), C.data(), W.data(),
                                           gamma.data(), checked.data(), checked.size(),
                                           out.qdd.data(), out.lambda.data(), &out.culprit);
  return out;
}

} // namespace

TEST_CASE("solveWithReactions solves M q'' = f + W^T lambda, C q'' = gamma", "[solve]") {
  RowMajor A = RowMajor::Random(4, 4);
  RowMajor M = A * A.transpose() + 4 * RowMajor::Identity(4, 4);
  RowMajor C = RowMajor::Random(2, 4), W = C + 0.3 * RowMajor::Random(2, 4);
  Eigen::VectorXd f = Eigen::VectorXd::Random(4), gamma = Eigen::VectorXd::Random(2);
  Solved s = solve(M, f, C, W, gamma, {});
  REQUIRE(s.status == runtime::kSolveOk);
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(6, 6);
  K.topLeftCorner(4, 4) = M;
  K.topRightCorner(4, 2) = -W.transpose();
  K.bottomLeftCorner(2, 4) = C;
  Eigen::VectorXd b(6);
  for (int i = 0; i < 6; ++i)
    b(i) = i < 4 ? f(i) : gamma(i - 4);
  Eigen::VectorXd x = K.fullPivLu().solve(b);
  CHECK((s.qdd - x.head(4)).cwiseAbs().maxCoeff() <= 1e-12);
  CHECK((s.lambda - x.tail(2)).cwiseAbs().maxCoeff() <= 1e-12);
}

TEST_CASE("solveWithReactions refuses a contact whose force does not push it", "[solve]") {
  // One body of mass 1 in the plane (x, y) and the floor's row C = (0, 1);
  // sliding friction mu tilts its force to W = (-mu, 1), and a third
  // coordinate couples them through M: C M^-1 W^T changes sign with mu.
  RowMajor M(3, 3);
  M << 1, 0, 0, 0, 1, 0.9, 0, 0.9, 1;
  RowMajor C(1, 3);
  C << 0, 1, 0;
  Eigen::VectorXd f(3), gamma(1);
  f << 0, -9.81, 0;
  gamma << 0;
  for (double mu : {-5.0, -1.0, 0.0, 1.0, 5.0}) {
    RowMajor W(1, 3);
    W << -mu, 1, 2 * mu;
    const double g = (C * M.inverse() * W.transpose())(0, 0); // the closed form's quantity
    const double lambda = (gamma(0) - (C * M.inverse() * f)(0)) / g;
    Solved s = solve(M, f, C, W, gamma, {0});
    INFO("mu = " << mu << ", C M^-1 W^T = " << g);
    if (g > 0) {
      CHECK(s.status == runtime::kSolveOk);
      CHECK(std::abs(s.lambda(0) - lambda) <= 1e-9 * std::abs(lambda));
    } else {
      CHECK(s.status == runtime::kSolveInconsistent);
      CHECK(s.culprit == 0);
    }
  }
}

TEST_CASE("solveWithReactions checks the contacts as a block", "[solve]") {
  // Two contacts whose own responses are positive but whose block is not a
  // P-matrix (its determinant is negative): no unique pair of forces.
  RowMajor M = RowMajor::Identity(2, 2), C = RowMajor::Identity(2, 2), W(2, 2);
  W << 1, 2, 2, 1; // C M^-1 W^T = [[1, 2], [2, 1]]: inverse diagonal -1/3 < 0
  Eigen::VectorXd f = Eigen::VectorXd::Zero(2), gamma = Eigen::VectorXd::Zero(2);
  CHECK(solve(M, f, C, W, gamma, {0, 1}).status == runtime::kSolveInconsistent);
  W << 1, 0.5, 0.2, 1; // a P-matrix
  CHECK(solve(M, f, C, W, gamma, {0, 1}).status == runtime::kSolveOk);
}
