// Between the analyses' matrices as rows (mechanics::Matrix, what the
// reports print) and Eigen's, where the linear algebra is done.
#pragma once

#include "mechanics/Linearization.h"

#include <Eigen/Dense>

namespace mech::mechanics {

// `rows` x `cols` of m; entries m does not have read as 0.
inline Eigen::MatrixXd toEigen(const Matrix &m, size_t rows, size_t cols) {
  Eigen::MatrixXd d = Eigen::MatrixXd::Zero(static_cast<long>(rows), static_cast<long>(cols));
  for (size_t i = 0; i < rows && i < m.size(); ++i)
    for (size_t j = 0; j < cols && j < m[i].size(); ++j)
      d(static_cast<long>(i), static_cast<long>(j)) = m[i][j];
  return d;
}

inline Matrix rowsOf(const Eigen::MatrixXd &d) {
  Matrix out(static_cast<size_t>(d.rows()), std::vector<double>(static_cast<size_t>(d.cols())));
  for (long i = 0; i < d.rows(); ++i)
    for (long j = 0; j < d.cols(); ++j)
      out[static_cast<size_t>(i)][static_cast<size_t>(j)] = d(i, j);
  return out;
}

} // namespace mech::mechanics
