// The LU decomposition of an implicit method's Newton matrix (radau's real
// and complex ones, bdf's): dense with partial pivoting, or, for a large
// matrix that is mostly zeros (a model of many bodies coupled to their
// neighbours only: a mass-spring chain in Cartesian coordinates), Eigen's
// SparseLU with a COLAMD ordering, whose symbolic analysis is kept while
// the pattern of nonzeros stays the same. Measured with radau on a chain of
// n masses and stiff springs in Cartesian coordinates (Newton matrices of
// 2n with 4n nonzeros; integration time of 0.1 s, dense against sparse):
// n = 10 0.064 / 0.057 s, 15 0.13 / 0.09, 25 0.31 / 0.14, 50 1.28 / 0.33,
// 100 2.19 / 0.72, 200 19.0 / 2.25, 400 105 / 9.0.
#pragma once

#include <Eigen/Core>
#include <Eigen/LU>
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>

#include <memory>

namespace mech::runtime {

// From this dimension, a Newton matrix with at most this fraction of
// nonzeros is decomposed sparsely.
inline constexpr Eigen::Index kSparseNewtonFrom = 30;
inline constexpr double kSparseNewtonDensity = 0.1;

template <class Scalar> class NewtonLu {
public:
  using Matrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
  using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;

  explicit NewtonLu(Eigen::Index n) : dense_(n) {}

  void compute(const Matrix &A) {
    sparse_ = A.rows() >= kSparseNewtonFrom && sparseEnough(A) && computeSparse(A);
    if (!sparse_)
      dense_.compute(A);
  }

  Vector solve(const Vector &b) const { return sparse_ ? Vector(lu_->solve(b)) : dense_.solve(b); }

  // Whether the last decomposition was sparse (for the run's summary and tests).
  bool sparse() const { return sparse_; }

private:
  using Sparse = Eigen::SparseMatrix<Scalar, Eigen::ColMajor, int>;

  static bool sparseEnough(const Matrix &A) {
    Eigen::Index nonzeros = (A.array() != Scalar(0)).count();
    return static_cast<double>(nonzeros) <=
           kSparseNewtonDensity * static_cast<double>(A.rows() * A.cols());
  }

  // False when SparseLU fails (a singular matrix): the dense decomposition
  // then gives what the methods expect of it (non-finite steps they reject).
  bool computeSparse(const Matrix &A) {
    Sparse S = A.sparseView();
    S.makeCompressed();
    if (!lu_ || !samePattern(S)) {
      lu_ = std::make_unique<Eigen::SparseLU<Sparse, Eigen::COLAMDOrdering<int>>>();
      lu_->analyzePattern(S);
      pattern_ = S;
    }
    lu_->factorize(S);
    return lu_->info() == Eigen::Success;
  }

  bool samePattern(const Sparse &S) const {
    if (S.rows() != pattern_.rows() || S.nonZeros() != pattern_.nonZeros())
      return false;
    for (Eigen::Index j = 0; j <= S.cols(); ++j)
      if (S.outerIndexPtr()[j] != pattern_.outerIndexPtr()[j])
        return false;
    for (Eigen::Index k = 0; k < S.nonZeros(); ++k)
      if (S.innerIndexPtr()[k] != pattern_.innerIndexPtr()[k])
        return false;
    return true;
  }

  Eigen::PartialPivLU<Matrix> dense_;
  std::unique_ptr<Eigen::SparseLU<Sparse, Eigen::COLAMDOrdering<int>>> lu_;
  Sparse pattern_;
  bool sparse_ = false;
};

} // namespace mech::runtime
