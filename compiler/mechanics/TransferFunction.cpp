// Poles, zeros and gain of a single-input, single-output linear system
// (mechanics/TransferFunction.h).
#include "mechanics/TransferFunction.h"

#include "mechanics/MatrixRows.h"

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>

namespace mech::mechanics {

namespace {

using Dense = Eigen::MatrixXd;
using ComplexDense = Eigen::MatrixXcd;
using Complex = std::complex<double>;

// Relative to the system's size: a singular value below this decides rank.
constexpr double kRankTolerance = 1e-8;
// A zero within this (relative) of a cancelled mode is that mode's.
constexpr double kSameRoot = 1e-6;

double scaleOf(const Dense &A, const Eigen::VectorXd &b, const Eigen::RowVectorXd &c) {
  return std::max({1.0, A.norm(), b.norm(), c.norm()});
}

// The smallest singular value of a complex matrix, relative to `scale`.
double smallestSingular(const ComplexDense &m, double scale) {
  Eigen::JacobiSVD<ComplexDense> svd(m);
  return svd.singularValues()(svd.singularValues().size() - 1) / scale;
}

void sortRoots(std::vector<Complex> &roots) {
  std::sort(roots.begin(), roots.end(), [](Complex x, Complex y) {
    return x.real() != y.real() ? x.real() < y.real() : x.imag() < y.imag();
  });
}

// G(s) at one point.
Complex evaluate(const Dense &A, const Eigen::VectorXd &b, const Eigen::RowVectorXd &c, double d,
                 Complex s) {
  const long n = A.rows();
  ComplexDense M = s * ComplexDense::Identity(n, n) - A.cast<Complex>();
  Eigen::VectorXcd x = M.fullPivLu().solve(b.cast<Complex>());
  return (c.cast<Complex>() * x)(0) + d;
}

// The finite generalised eigenvalues of [[A, b], [c, d]] - s [[I, 0], [0, 0]].
std::vector<Complex> invariantZeros(const Dense &A, const Eigen::VectorXd &b,
                                    const Eigen::RowVectorXd &c, double d) {
  const long n = A.rows();
  Dense M(n + 1, n + 1), N = Dense::Zero(n + 1, n + 1);
  M.topLeftCorner(n, n) = A;
  M.topRightCorner(n, 1) = b;
  M.bottomLeftCorner(1, n) = c;
  M(n, n) = d;
  N.topLeftCorner(n, n) = Dense::Identity(n, n);
  Eigen::GeneralizedEigenSolver<Dense> qz(M, N);
  std::vector<Complex> zeros;
  const double scale = std::max(1.0, M.norm());
  for (long i = 0; i < qz.alphas().size(); ++i) {
    Complex alpha = qz.alphas()(i);
    double beta = qz.betas()(i);
    if (std::abs(beta) > 1e-10 * scale && std::abs(alpha / beta) < 1e12)
      zeros.push_back(alpha / beta);
  }
  return zeros;
}

} // namespace

TransferFunction transferFunction(const Matrix &Am, const std::vector<double> &bv,
                                  const std::vector<double> &cv, double d) {
  const long n = static_cast<long>(Am.size());
  const Dense A = toEigen(Am, Am.size(), Am.size());
  const Eigen::VectorXd b = Eigen::Map<const Eigen::VectorXd>(bv.data(), n);
  const Eigen::RowVectorXd c = Eigen::Map<const Eigen::RowVectorXd>(cv.data(), n);
  TransferFunction tf;
  const double scale = scaleOf(A, b, c);
  Eigen::EigenSolver<Dense> eig(A, false);
  std::vector<Complex> zeros = invariantZeros(A, b, c, d);
  for (long i = 0; i < n; ++i) {
    Complex lambda = eig.eigenvalues()(i);
    ComplexDense shifted = A.cast<Complex>() - lambda * ComplexDense::Identity(n, n);
    ComplexDense withB(n, n + 1), withC(n + 1, n);
    withB << shifted, b.cast<Complex>();
    withC << shifted, c.cast<Complex>();
    CancelledMode mode{lambda, smallestSingular(withB, scale) < kRankTolerance,
                       smallestSingular(withC, scale) < kRankTolerance};
    if (!mode.uncontrollable && !mode.unobservable) {
      tf.poles.push_back(lambda);
      continue;
    }
    tf.cancelled.push_back(mode);
    // The cancelled mode's decoupling zero goes with it.
    auto same = std::min_element(zeros.begin(), zeros.end(), [&](Complex x, Complex y) {
      return std::abs(x - lambda) < std::abs(y - lambda);
    });
    if (same != zeros.end() &&
        std::abs(*same - lambda) <= kSameRoot * std::max(1.0, std::abs(lambda)))
      zeros.erase(same);
  }
  tf.zeros = zeros;
  sortRoots(tf.poles);
  sortRoots(tf.zeros);
  // The gain from G at a point away from every root: G(s0) prod(s0 - p) / prod(s0 - z).
  Complex s0(0.5 + A.norm(), 1.3 + A.norm());
  Complex g = evaluate(A, b, c, d, s0);
  for (Complex p : tf.poles)
    g *= s0 - p;
  for (Complex z : tf.zeros)
    g /= s0 - z;
  tf.gain = g.real();
  tf.zero = std::abs(g) <= 1e-12 * scale;
  if (tf.zero)
    tf.zeros.clear();
  return tf;
}

} // namespace mech::mechanics
