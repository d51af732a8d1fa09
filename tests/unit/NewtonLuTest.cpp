// runtime/NewtonLu: solutions against known vectors (b = A x), the choice
// of the sparse decomposition by size and density, a changed pattern
// analysed again, complex matrices, and a singular sparse matrix left to
// the dense decomposition.
#include "runtime/NewtonLu.h"

#include <catch2/catch.hpp>

#include <complex>

using namespace mech::runtime;

namespace {

// A tridiagonal (or with `wide`, pentadiagonal) diagonally dominant matrix.
template <class Scalar> Eigen::Matrix<Scalar, -1, -1> banded(Eigen::Index n, bool wide) {
  Eigen::Matrix<Scalar, -1, -1> A = Eigen::Matrix<Scalar, -1, -1>::Zero(n, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    A(i, i) = Scalar(6.0 + 0.01 * static_cast<double>(i));
    for (Eigen::Index d : {1, 2})
      if ((d == 1 || wide) && i + d < n) {
        A(i, i + d) = Scalar(-1.0 - 0.1 * static_cast<double>(d));
        A(i + d, i) = Scalar(-0.5);
      }
  }
  return A;
}

template <class Scalar>
double solveError(NewtonLu<Scalar> &lu, const Eigen::Matrix<Scalar, -1, -1> &A) {
  Eigen::Matrix<Scalar, -1, 1> x(A.rows());
  for (Eigen::Index i = 0; i < x.size(); ++i)
    x(i) = Scalar(std::sin(0.3 * static_cast<double>(i)) + 1.5);
  lu.compute(A);
  return (lu.solve(A * x) - x).cwiseAbs().maxCoeff();
}

} // namespace

TEST_CASE("Newton LU: a large sparse matrix is decomposed sparsely, a dense or small one densely") {
  NewtonLu<double> lu(200);
  CHECK(solveError(lu, banded<double>(200, false)) < 1e-13);
  CHECK(lu.sparse());
  // The pattern changes (pentadiagonal): analysed again, still right.
  CHECK(solveError(lu, banded<double>(200, true)) < 1e-13);
  CHECK(lu.sparse());
  Eigen::MatrixXd full = banded<double>(200, false) + Eigen::MatrixXd::Constant(200, 200, 0.001);
  CHECK(solveError(lu, full) < 1e-12);
  CHECK_FALSE(lu.sparse());
  NewtonLu<double> small(kSparseNewtonFrom - 1);
  CHECK(solveError(small, banded<double>(kSparseNewtonFrom - 1, false)) < 1e-13);
  CHECK_FALSE(small.sparse());
}

TEST_CASE("Newton LU: complex matrices, as radau's second system") {
  using Complex = std::complex<double>;
  Eigen::MatrixXcd A = banded<Complex>(120, true);
  A.diagonal().array() += Complex(0, 2.5);
  NewtonLu<Complex> lu(120);
  CHECK(solveError(lu, A) < 1e-13);
  CHECK(lu.sparse());
}

TEST_CASE("Newton LU: a singular sparse matrix is left to the dense decomposition") {
  Eigen::MatrixXd A = banded<double>(100, false);
  A.row(40).setZero();
  A.col(40).setZero();
  NewtonLu<double> lu(100);
  lu.compute(A);
  CHECK_FALSE(lu.sparse());
}
