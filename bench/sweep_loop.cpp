// The baseline of bench/sweep_vs_loop.sh: the sweep of `mech sweep` over
// the double pendulum's starting angles written by hand, as a user would
// write it without mech: the equations of motion in closed form (the
// textbook's, for point masses on massless rods, angles from the
// downward vertical), mech's own DOPRI5 (runtime::integrate, so that the
// comparison is of everything around the integrator), a loop over the grid
// split between threads, and the same two summaries per run, at_end(th2)
// and any(|th2| > pi) over the samples every 0.01 s, written as CSV.
//
// Usage: bench_sweep_loop N T THREADS RTOL OUT.csv   (an N x N grid over
// [-3, 3]^2, each run from rest for T seconds)
#include "runtime/Integrator.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

constexpr double kM1 = 1, kM2 = 1, kL1 = 1, kL2 = 0.8, kG = 9.81;

int doublePendulum(double, const double *x, double *xdot) {
  const double th1 = x[0], th2 = x[1], w1 = x[2], w2 = x[3];
  const double d = th1 - th2, s = std::sin(d), c = std::cos(d);
  const double den = 2 * kM1 + kM2 - kM2 * std::cos(2 * d);
  xdot[0] = w1;
  xdot[1] = w2;
  xdot[2] = (-kG * (2 * kM1 + kM2) * std::sin(th1) - kM2 * kG * std::sin(th1 - 2 * th2) -
             2 * s * kM2 * (w2 * w2 * kL2 + w1 * w1 * kL1 * c)) /
            (kL1 * den);
  xdot[3] =
      2 * s *
      (w1 * w1 * kL1 * (kM1 + kM2) + kG * (kM1 + kM2) * std::cos(th1) + w2 * w2 * kL2 * kM2 * c) /
      (kL2 * den);
  return 0;
}

struct Row {
  double th1, th2, end, flipped;
};

} // namespace

int main(int argc, char **argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: bench_sweep_loop N T THREADS RTOL OUT.csv\n");
    return 2;
  }
  const long n = std::atol(argv[1]);
  const double until = std::atof(argv[2]), rtol = std::atof(argv[4]);
  const int threads = std::atoi(argv[3]);
  std::vector<Row> rows(static_cast<size_t>(n * n));
  auto work = [&](int part) {
    for (long k = part; k < n * n; k += threads) {
      Row &row = rows[static_cast<size_t>(k)];
      row.th1 = -3 + 6.0 * double(k / n) / double(n - 1);
      row.th2 = -3 + 6.0 * double(k % n) / double(n - 1);
      mech::runtime::IntegratorOptions o;
      o.tEnd = until;
      o.dt = 0.01;
      o.rtol = o.atol = rtol;
      o.step = 0;
      row.flipped = 0;
      mech::runtime::integrate(doublePendulum, {row.th1, row.th2, 0, 0}, o,
                               [&](double, const double *x) {
                                 row.end = x[1];
                                 if (std::abs(x[1]) > M_PI)
                                   row.flipped = 1;
                                 return true;
                               });
    }
  };
  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i)
    pool.emplace_back(work, i);
  work(0);
  for (std::thread &t : pool)
    t.join();
  FILE *out = std::fopen(argv[5], "w");
  if (!out)
    return 1;
  std::fprintf(out, "th1,th2,at_end(th2),flipped\n");
  for (const Row &r : rows)
    std::fprintf(out, "%.17g,%.17g,%.17g,%g\n", r.th1, r.th2, r.end, r.flipped);
  return std::fclose(out) == 0 ? 0 : 1;
}
