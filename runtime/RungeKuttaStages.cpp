// Sparse stage combinations over dense tableau rows.
#include "runtime/RungeKuttaStages.h"

namespace mech::runtime {

// Plain loops over the columns: for the small systems most models are
// (n of 2 to 20) Eigen's expression per column costs more than the
// arithmetic (the same operations in the same order).
void RungeKuttaStages::combine(const Eigen::VectorXd &y, double h, std::span<const double> a,
                               Eigen::VectorXd &out) const {
  const Eigen::Index n = y.size();
  out.resize(n);
  double *o = out.data();
  const double *start = y.data();
  for (Eigen::Index i = 0; i < n; ++i)
    o[i] = start[i];
  for (size_t j = 0; j < a.size(); ++j) {
    if (a[j] == 0)
      continue;
    const double c = h * a[j];
    const double *column = k.data() + static_cast<Eigen::Index>(j) * n;
    for (Eigen::Index i = 0; i < n; ++i)
      o[i] += c * column[i];
  }
}

double RungeKuttaStages::sum(std::span<const double> a, Eigen::Index i) const {
  double s = 0;
  for (size_t j = 0; j < a.size(); ++j)
    if (a[j] != 0)
      s += a[j] * k(i, static_cast<Eigen::Index>(j));
  return s;
}

} // namespace mech::runtime
