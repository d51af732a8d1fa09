// Constrained systems for the tests of the first-kind solves (EnvelopeSolveTest,
// AugmentedSolveTest): banded problems in a scrambled order, and their
// answer from the whole system [M, -C^T; C, 0] (q'', lambda) = (f, gamma)
// by Eigen's full-pivoting LU, independent of mech's solves.
#pragma once

#include <Eigen/Dense>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

namespace mech::testing {

// A banded system in a natural order, then scrambled: M tridiagonal and
// positive definite (but for the coordinates `massless`, which have no
// inertia), row r of C on the natural coordinates 2r, 2r + 1, 2r + 2.
struct Problem {
  size_t n, m;
  std::vector<double> Mf; // M, f, C, gamma, as the dynamics program lays them out
  std::vector<bool> nonzeroM, nonzeroC;

  double *M() { return Mf.data(); }
  double *f() { return M() + n * n; }
  double *C() { return f() + n; }
  double *gamma() { return C() + m * n; }
};

inline Problem banded(size_t n, size_t m, const std::vector<size_t> &massless, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> value(-1, 1);
  std::vector<size_t> scrambled(n);
  std::iota(scrambled.begin(), scrambled.end(), 0);
  std::shuffle(scrambled.begin(), scrambled.end(), random);
  Problem p{n, m, std::vector<double>(n * n + n + m * n + m, 0.0), {}, {}};
  auto inertia = [&](size_t k) {
    return std::find(massless.begin(), massless.end(), k) == massless.end();
  };
  for (size_t k = 0; k < n; ++k) {
    size_t a = scrambled[k];
    p.M()[a * n + a] = inertia(k) ? 3 + value(random) : 0;
    if (k + 1 < n && inertia(k) && inertia(k + 1)) {
      size_t b = scrambled[k + 1];
      p.M()[a * n + b] = p.M()[b * n + a] = 0.5 * value(random);
    }
    p.f()[a] = 5 * value(random);
  }
  for (size_t r = 0; r < m; ++r) {
    for (size_t k = 2 * r; k <= 2 * r + 2 && k < n; ++k)
      p.C()[r * n + scrambled[k]] = 1 + value(random);
    p.gamma()[r] = value(random);
  }
  for (size_t i = 0; i < n * n; ++i)
    p.nonzeroM.push_back(p.Mf[i] != 0);
  for (size_t i = 0; i < m * n; ++i)
    p.nonzeroC.push_back(p.C()[i] != 0);
  return p;
}

// q'' and lambda from the whole system by full-pivoting LU.
inline Eigen::VectorXd solveWhole(Problem &p) {
  const long n = static_cast<long>(p.n), m = static_cast<long>(p.m);
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(n + m, n + m);
  Eigen::VectorXd b(n + m);
  for (long i = 0; i < n; ++i) {
    for (long j = 0; j < n; ++j)
      K(i, j) = p.M()[i * n + j];
    b(i) = p.f()[i];
  }
  for (long r = 0; r < m; ++r) {
    for (long j = 0; j < n; ++j) {
      K(n + r, j) = p.C()[r * n + j];
      K(j, n + r) = -p.C()[r * n + j];
    }
    b(n + r) = p.gamma()[r];
  }
  return K.fullPivLu().solve(b);
}

// a against b's entries from `offset`, to `relative` of b's largest.
inline void requireClose(const std::vector<double> &a, const Eigen::VectorXd &b, long offset,
                         double relative = 1e-11) {
  double scale = b.segment(offset, static_cast<long>(a.size())).cwiseAbs().maxCoeff(), worst = 0;
  for (size_t i = 0; i < a.size(); ++i)
    worst = std::max(worst, std::abs(a[i] - b(offset + static_cast<long>(i))));
  INFO("largest difference " << worst << ", scale " << scale);
  CHECK(worst <= relative * scale);
}

// `once` with row r of C (and of gamma) given again at the end.
inline Problem withRowTwice(const Problem &once, size_t r) {
  Problem twice = once;
  twice.m = once.m + 1;
  const double *C = once.Mf.data() + once.n * once.n + once.n, *gamma = C + once.m * once.n;
  twice.Mf.resize(once.n * once.n + once.n);
  twice.Mf.insert(twice.Mf.end(), C, C + once.m * once.n);
  twice.Mf.insert(twice.Mf.end(), C + r * once.n, C + (r + 1) * once.n);
  twice.Mf.insert(twice.Mf.end(), gamma, gamma + once.m);
  twice.Mf.push_back(gamma[r]);
  twice.nonzeroC.insert(twice.nonzeroC.end(), once.nonzeroC.begin() + static_cast<long>(r * once.n),
                        once.nonzeroC.begin() + static_cast<long>((r + 1) * once.n));
  return twice;
}

// C^T lambda of a problem (n).
inline std::vector<double> reactionOf(Problem &p, const double *lambda) {
  std::vector<double> reaction(p.n, 0.0);
  for (size_t r = 0; r < p.m; ++r)
    for (size_t j = 0; j < p.n; ++j)
      reaction[j] += p.C()[r * p.n + j] * lambda[r];
  return reaction;
}

} // namespace mech::testing
