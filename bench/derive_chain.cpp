// Derivation benchmark: the brief's n-link Chain for several n. Times
// parse + check, the derivation of M and f, and CSE into a straight-line
// program; counts the nodes of M and f written as trees and after CSE.
// Usage: bench_derive_chain [n ...]   (default 5 10 20 40 80)
#include "mechanics/Lagrange.h"
#include "sema/Analyzer.h"
#include "symbolic/Program.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

using namespace mech;
using Clock = std::chrono::steady_clock;

namespace {

std::string chainModel(int n) {
  return "model Chain {\n"
         "  param n = " +
         std::to_string(n) +
         ", m = 1 [kg], l = 1 [m], g = 9.81 [m/s^2]\n"
         "  coord th[1..n] [rad]\n"
         "  let x[k in 1..n] = sum(i in 1..k, l * sin(th[i]))\n"
         "  let y[k in 1..n] = -sum(i in 1..k, l * cos(th[i]))\n"
         "  for k in 1..n { particle bob[k] mass m at [x[k], y[k]] }\n"
         "  gravity [0, -g]\n"
         "  init th[1] = 0.5\n"
         "}\n";
}

double seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

} // namespace

int main(int argc, char **argv) {
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i)
    sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty())
    sizes = {5, 10, 20, 40, 80};
  std::printf("%4s %10s %10s %10s %10s %14s %12s\n", "n", "check_s", "derive_s", "cse_s", "total_s",
              "tree_nodes", "cse_nodes");
  for (int n : sizes) {
    auto t0 = Clock::now();
    sema::Compilation compilation;
    const sema::LoadedFile *file = compilation.loadText("chain.mech", chainModel(n));
    sema::Analysis analysis = sema::analyzeLoaded(compilation, file);
    if (!analysis.model) {
      compilation.diagnostics().print(std::cerr);
      return 1;
    }
    auto t1 = Clock::now();
    auto derivation = mechanics::deriveEquations(*analysis.model, compilation.diagnostics());
    if (!derivation)
      return 1;
    auto t2 = Clock::now();
    const mechanics::Equations &eq = derivation->equations;
    std::vector<sym::Expr> outputs;
    for (const auto &row : eq.M)
      for (const sym::Expr &e : row)
        outputs.push_back(e);
    for (const sym::Expr &e : eq.f)
      outputs.push_back(e);
    size_t np = analysis.model->params.size(), nq = eq.coordinates.size();
    sym::Program program(outputs, [&](const sym::SymbolInfo &s) {
      if (s.kind == sym::SymbolKind::Param)
        return s.index;
      if (s.kind == sym::SymbolKind::Coord)
        return static_cast<int>(np + static_cast<size_t>(s.order) * nq +
                                static_cast<size_t>(s.index));
      return static_cast<int>(np + 3 * nq);
    });
    auto t3 = Clock::now();
    std::printf("%4d %10.4f %10.4f %10.4f %10.4f %14.0f %12zu\n", n, seconds(t0, t1),
                seconds(t1, t2), seconds(t2, t3), seconds(t0, t3), program.treeSize(),
                program.instructions().size());
    std::fflush(stdout);
  }
}
