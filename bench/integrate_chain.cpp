// The baseline of the warm-start benchmark (bench/warm_start.sh): what
// `mech simulate examples/chain.mech --set n=20 --until 10 --rtol 1e-8
// --atol 1e-8 -o out.csv` does, written by hand as a user would without
// mech: the chain's right-hand side in closed form (bench/rhs_chain.cpp's
// hand-written one: M_ij = (n - max(i, j)) m l^2 cos(th_i - th_j), its
// forcing, Eigen's fixed-size LLT), mech's DOPRI5 (runtime::integrate, the
// same algorithm and step control, so that the comparison is of everything
// around the integrator) at the same tolerances, and the same CSV (t, the
// angles, their rates, at every 0.01 s, 17 significant digits).
//
// Usage: bench_integrate_chain OUT.csv
#include "ChainHandWritten.h"
#include "runtime/Integrator.h"

#include <cmath>
#include <cstdio>
#include <string>

namespace {

constexpr int kLinks = 20;

mech::bench::HandWritten<kLinks> chain;

// 17 significant digits, as mech's CSV.
void put(std::string &line, double v) {
  char text[32];
  int length = std::snprintf(text, sizeof text, "%.17g", v == 0 ? 0.0 : v);
  line.append(text, static_cast<size_t>(length));
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: bench_integrate_chain OUT.csv\n");
    return 2;
  }
  FILE *out = std::fopen(argv[1], "w");
  if (!out)
    return 1;
  std::string header = "t";
  for (const char *suffix : {"", "'"})
    for (int i = 1; i <= kLinks; ++i)
      header += ",th[" + std::to_string(i) + "]" + suffix;
  std::fprintf(out, "%s\n", header.c_str());
  mech::runtime::IntegratorOptions o;
  o.tEnd = 10;
  o.dt = 0.01;
  o.rtol = o.atol = 1e-8;
  std::vector<double> x0(2 * kLinks, 0.0);
  x0[0] = 0.5;
  std::string line;
  mech::runtime::integrate(
      [](double, const double *x, double *xdot) {
        chain.rhs(x, xdot);
        return 0;
      },
      x0, o,
      [&](double t, const double *x) {
        line.clear();
        put(line, t);
        for (int i = 0; i < 2 * kLinks; ++i) {
          line += ',';
          put(line, x[i]);
        }
        line += '\n';
        std::fputs(line.c_str(), out);
        return true;
      });
  return std::fclose(out) == 0 ? 0 : 1;
}
