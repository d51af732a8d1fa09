// The chain's right-hand side written by hand, as a careful engineer would
// for this model (bench/README.md): closed-form M_ij = (n - max(i, j)) m l^2
// cos(th_i - th_j) and its forcing, one sincos per angle, angle differences
// from products of those, Eigen's fixed-size LLT, no allocation per call.
// The baseline of bench_rhs_chain and bench_integrate_chain.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>

namespace mech::bench {

inline constexpr double kMass = 1.0, kLength = 1.0, kGravity = 9.81;

// x' = (q', M^-1 f) for N links.
template <int N> struct HandWritten {
  Eigen::Matrix<double, N, N> M;
  Eigen::Matrix<double, N, 1> f;
  Eigen::LLT<Eigen::Matrix<double, N, N>> llt;
  double s[N], c[N];

  void rhs(const double *x, double *xdot) {
    const double *th = x, *w = x + N;
    for (int i = 0; i < N; ++i)
      sincos(th[i], &s[i], &c[i]);
    const double ml2 = kMass * kLength * kLength;
    for (int i = 0; i < N; ++i) {
      double fi = -(N - i) * kMass * kGravity * kLength * s[i];
      for (int j = 0; j < N; ++j) {
        double weight = (N - std::max(i, j)) * ml2;
        M(i, j) = weight * (c[i] * c[j] + s[i] * s[j]);
        fi -= weight * (s[i] * c[j] - c[i] * s[j]) * w[j] * w[j];
      }
      f(i) = fi;
    }
    llt.compute(M);
    Eigen::Matrix<double, N, 1> a = llt.solve(f);
    for (int i = 0; i < N; ++i) {
      xdot[i] = w[i];
      xdot[N + i] = a(i);
    }
  }
};

} // namespace mech::bench
