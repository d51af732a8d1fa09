// What every explicit Runge–Kutta stepper here shares: the stage derivatives
// k_j as the columns of one matrix allocated up front, and the linear
// combinations y + h Σ a_j k_j that a Butcher tableau prescribes. Tableau rows
// are dense; their zeros are skipped, never multiplied, so columns not yet
// computed in a step are never read.
#pragma once

#include "runtime/RhsEvaluator.h"

#include <Eigen/Core>

#include <span>

namespace mech::runtime {

class RungeKuttaStages {
public:
  RungeKuttaStages(long dimension, int stages) : k(dimension, stages) {}

  // out = y + h Σ_j a[j] k_j.
  void combine(const Eigen::VectorXd &y, double h, std::span<const double> a,
               Eigen::VectorXd &out) const;
  // Σ_j a[j] k_j, component i only.
  double sum(std::span<const double> a, Eigen::Index i) const;
  // k_j = F(t, x).
  bool evaluate(RhsEvaluator &f, int j, double t, const Eigen::VectorXd &x) {
    return f(t, x.data(), k.col(j).data());
  }

  Eigen::MatrixXd k; // column j holds stage j
};

} // namespace mech::runtime
