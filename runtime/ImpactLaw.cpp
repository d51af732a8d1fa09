// The impact's complementarity problem by enumeration of its active sets.
// For each set S of pushing contacts the KKT system of the impulsive
// equations is square; S is the answer when its impulses are nonnegative and
// the contacts outside it do not close faster than their least rate. With a
// Delassus matrix G M^-1 G^T that is positive definite on the bilateral
// constraints' directions the solution is unique (a P-matrix LCP), so the
// first set that passes is it.
#include "runtime/ImpactLaw.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>

namespace mech::runtime {

namespace {

using Matrix = Eigen::MatrixXd;
using Vector = Eigen::VectorXd;
using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct Views {
  Matrix M, A, G;
  Vector a, b, r, v;
};

Views viewsOf(const ImpactProblem &p) {
  const long n = static_cast<long>(p.n);
  const long m = static_cast<long>(p.a.size()), k = static_cast<long>(p.b.size());
  Views v;
  v.M = Eigen::Map<const RowMajor>(p.M.data(), n, n);
  v.A = Eigen::Map<const RowMajor>(p.A.data(), m, n);
  v.G = Eigen::Map<const RowMajor>(p.G.data(), k, n);
  v.a = Eigen::Map<const Vector>(p.a.data(), m);
  v.b = Eigen::Map<const Vector>(p.b.data(), k);
  v.r = Eigen::Map<const Vector>(p.r.data(), k);
  v.v = Eigen::Map<const Vector>(p.velocity.data(), n);
  return v;
}

// The KKT solve for the pushing set `active`; false when it is singular.
bool solveActive(const Views &p, const std::vector<long> &active, Vector &velocity,
                 Vector &reaction, Vector &impulse) {
  const long n = p.M.rows(), m = p.A.rows(), s = static_cast<long>(active.size());
  Matrix K = Matrix::Zero(n + m + s, n + m + s);
  Vector rhs = Vector::Zero(n + m + s);
  K.topLeftCorner(n, n) = p.M;
  K.block(0, n, n, m) = -p.A.transpose();
  K.block(n, 0, m, n) = p.A;
  rhs.head(n) = p.M * p.v;
  rhs.segment(n, m) = -p.a;
  for (long j = 0; j < s; ++j) {
    K.block(0, n + m + j, n, 1) = -p.G.row(active[static_cast<size_t>(j)]).transpose();
    K.block(n + m + j, 0, 1, n) = p.G.row(active[static_cast<size_t>(j)]);
    rhs(n + m + j) = p.r(active[static_cast<size_t>(j)]) - p.b(active[static_cast<size_t>(j)]);
  }
  Eigen::FullPivLU<Matrix> lu(K);
  lu.setThreshold(1e-12);
  if (!lu.isInvertible())
    return false;
  Vector x = lu.solve(rhs);
  if (!x.allFinite())
    return false;
  velocity = x.head(n);
  reaction = x.segment(n, m);
  impulse = x.tail(s);
  return true;
}

} // namespace

ImpactSolution solveImpact(const ImpactProblem &problem) {
  ImpactSolution result;
  const size_t k = problem.b.size();
  if (k > kMaxImpactContacts) {
    result.status = ImpactStatus::TooManyContacts;
    return result;
  }
  const Views p = viewsOf(problem);
  // What "nonnegative" means at the scale of the rates and of M v-.
  const double rates =
      std::max({1.0, (p.G * p.v).cwiseAbs().sum(), p.r.cwiseAbs().sum(), p.b.cwiseAbs().sum()});
  const double rateTolerance = 1e-9 * rates;
  bool anySolvable = false;
  // Subsets by size, then in binary order within a size.
  std::vector<unsigned> sets(size_t(1) << k);
  for (unsigned s = 0; s < sets.size(); ++s)
    sets[s] = s;
  std::stable_sort(sets.begin(), sets.end(), [](unsigned x, unsigned y) {
    return __builtin_popcount(x) < __builtin_popcount(y);
  });
  for (unsigned set : sets) {
    std::vector<long> active;
    for (size_t i = 0; i < k; ++i)
      if (set & (1u << i))
        active.push_back(static_cast<long>(i));
    Vector velocity, reaction, impulse;
    if (!solveActive(p, active, velocity, reaction, impulse))
      continue;
    anySolvable = true;
    const double impulses = std::max(1e-300, impulse.cwiseAbs().sum());
    bool pushing = true;
    for (long j = 0; j < impulse.size(); ++j)
      pushing = pushing && impulse(j) >= -1e-9 * impulses;
    Vector w = p.G * velocity + p.b - p.r;
    bool apart = true;
    for (size_t i = 0; i < k; ++i)
      if (!(set & (1u << i)))
        apart = apart && w(static_cast<long>(i)) >= -rateTolerance;
    if (!pushing || !apart)
      continue;
    result.velocity.assign(velocity.data(), velocity.data() + velocity.size());
    result.reaction.assign(reaction.data(), reaction.data() + reaction.size());
    result.impulse.assign(k, 0.0);
    for (size_t j = 0; j < active.size(); ++j)
      result.impulse[static_cast<size_t>(active[j])] = std::max(0.0, impulse(static_cast<long>(j)));
    return result;
  }
  result.status = anySolvable ? ImpactStatus::NoSolution : ImpactStatus::Singular;
  return result;
}

} // namespace mech::runtime
