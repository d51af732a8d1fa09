// The augmented Lagrangian solve of the first-kind equations (runtime/
// AugmentedSolve.h): M + alpha C^T C factored once, densely or within its
// envelope, then the fixed passes of the multipliers' iteration.
#include "runtime/AugmentedSolve.h"

#include "runtime/DenseSolve.h"
#include "runtime/EnvelopeSolve.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace mech::runtime {

namespace {

// C's rows by their structural entries (from a plan), or every entry.
class ConstraintRows {
public:
  ConstraintRows(const int32_t *plan, size_t n, size_t m, const double *C)
      : n_(n), m_(m), C_(C), rows_(plan ? planConstraintRows(plan) : PlanRows{nullptr, nullptr}) {}

  // out = C^T lambda (n)
  void transposeTimes(const double *lambda, double *out) const {
    std::fill(out, out + n_, 0.0);
    for (size_t r = 0; r < m_; ++r)
      forEach(r, [&](size_t j) { out[j] += C_[r * n_ + j] * lambda[r]; });
  }
  // (C x)_r
  double rowTimes(size_t r, const double *x) const {
    double sum = 0;
    forEach(r, [&](size_t j) { sum += C_[r * n_ + j] * x[j]; });
    return sum;
  }
  // The largest diagonal entry of M + alpha C^T C (`diagonal`: n places).
  double largestDiagonal(const double *M, double alpha, double *diagonal) const {
    for (size_t j = 0; j < n_; ++j)
      diagonal[j] = M[j * n_ + j];
    for (size_t r = 0; r < m_; ++r)
      forEach(r, [&](size_t j) { diagonal[j] += alpha * C_[r * n_ + j] * C_[r * n_ + j]; });
    double largest = 0;
    for (size_t j = 0; j < n_; ++j)
      largest = std::max(largest, std::abs(diagonal[j]));
    return largest;
  }

private:
  template <class Visit> void forEach(size_t r, Visit visit) const {
    if (rows_.start == nullptr) {
      for (size_t j = 0; j < n_; ++j)
        visit(j);
      return;
    }
    for (int32_t k = rows_.start[r]; k < rows_.start[r + 1]; ++k)
      visit(static_cast<size_t>(rows_.columns[k]));
  }

  size_t n_, m_;
  const double *C_;
  PlanRows rows_;
};

void denseMultiply(size_t n, const double *M, const double *x, double *y) {
  for (size_t j = 0; j < n; ++j) {
    y[j] = 0;
    for (size_t k = 0; k < n; ++k)
      y[j] += M[j * n + k] * x[k];
  }
}

// The buffers of one thread's solves, kept between calls.
struct Workspace {
  std::vector<double> M, y0, b, g, Mq;
  EnvelopeFactor envelope;
};

} // namespace

int solveConstrainedAugmented(const int32_t *plan, size_t n, size_t m, const double *Mf,
                              double *qdd, double *lambda) {
  const double *M = Mf, *f = M + n * n, *C = f + n, *gamma = C + m * n;
  thread_local Workspace w;
  const ConstraintRows rows(plan, n, m, C);
  const double alpha = constraintScale(n, m, M, C) / kSchurRegularization;
  double largestM = 0;
  for (size_t j = 0; j < n; ++j)
    largestM = std::max(largestM, std::abs(M[j * n + j]));
  // Pivots are judged against M's own scale, not the penalty's: a light
  // coordinate that no constraint holds is no less definite for the
  // penalty on the others.
  w.y0.resize(n);
  w.b.resize(n);
  w.g.resize(m);
  w.Mq.resize(n);
  const double largest = rows.largestDiagonal(M, alpha, w.b.data());
  const double tolerance = largest > 0 ? kPivotTolerance * largestM / largest : 0;
  // y0 = (M + alpha C^T C)^-1 (f + alpha C^T gamma): q'' for lambda = 0.
  for (size_t r = 0; r < m; ++r)
    w.g[r] = alpha * gamma[r];
  rows.transposeTimes(w.g.data(), w.y0.data());
  for (size_t j = 0; j < n; ++j)
    w.y0[j] += f[j];
  if (plan != nullptr) {
    if (!w.envelope.factor(plan, Mf, alpha, tolerance))
      return kSolveSingular;
    w.envelope.solve(w.y0.data());
  } else {
    w.M.assign(M, M + n * n);
    for (size_t r = 0; r < m; ++r)
      for (size_t j = 0; j < n; ++j)
        for (size_t k = 0; k < n; ++k)
          w.M[j * n + k] += alpha * C[r * n + j] * C[r * n + k];
    if (!factorLdlt(n, w.M.data(), tolerance))
      return kSolveSingular;
    substituteLdlt(n, w.M.data(), w.y0.data());
  }
  // Each pass updates the multipliers, then solves the augmented equations
  // for them as a correction from the dynamics' residual (computed from M
  // and C themselves): the factorization of M + alpha C^T C loses about
  // alpha / |M| of its accuracy to cancellation along the directions C
  // allows, which a solve from the right-hand side would keep, and the
  // correction removes (iterative refinement).
  std::fill(lambda, lambda + m, 0.0);
  std::copy(w.y0.begin(), w.y0.end(), qdd);
  for (int pass = 0; pass < kAugmentedPasses; ++pass) {
    for (size_t r = 0; r < m; ++r) {
      w.g[r] = gamma[r] - rows.rowTimes(r, qdd);
      lambda[r] += alpha * w.g[r];
      w.g[r] = lambda[r] + alpha * w.g[r];
    }
    rows.transposeTimes(w.g.data(), w.b.data());
    if (plan != nullptr)
      envelopeMultiply(plan, M, qdd, w.Mq.data());
    else
      denseMultiply(n, M, qdd, w.Mq.data());
    for (size_t j = 0; j < n; ++j)
      w.b[j] += f[j] - w.Mq[j];
    if (plan != nullptr)
      w.envelope.solve(w.b.data());
    else
      substituteLdlt(n, w.M.data(), w.b.data());
    for (size_t j = 0; j < n; ++j)
      qdd[j] += w.b[j];
  }
  // The multipliers that go with q'': M q'' = f + C^T lambda.
  for (size_t r = 0; r < m; ++r)
    lambda[r] += alpha * (gamma[r] - rows.rowTimes(r, qdd));
  return kSolveOk;
}

} // namespace mech::runtime

extern "C" int mech_solve_constrained_augmented(const int32_t *plan, int64_t n, int64_t m,
                                                const double *Mf, double *qdd, double *lambda) {
  return mech::runtime::solveConstrainedAugmented(plan, static_cast<size_t>(n),
                                                  static_cast<size_t>(m), Mf, qdd, lambda);
}
