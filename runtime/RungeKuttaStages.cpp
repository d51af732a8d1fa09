// Sparse stage combinations over dense tableau rows.
#include "runtime/RungeKuttaStages.h"

namespace mech::runtime {

void RungeKuttaStages::combine(const Eigen::VectorXd &y, double h, std::span<const double> a,
                               Eigen::VectorXd &out) const {
  out = y;
  for (size_t j = 0; j < a.size(); ++j)
    if (a[j] != 0)
      out += (h * a[j]) * k.col(static_cast<Eigen::Index>(j));
}

double RungeKuttaStages::sum(std::span<const double> a, Eigen::Index i) const {
  double s = 0;
  for (size_t j = 0; j < a.size(); ++j)
    if (a[j] != 0)
      s += a[j] * k(i, static_cast<Eigen::Index>(j));
  return s;
}

} // namespace mech::runtime
