// The right-hand side computed from the derived M and f against the same
// kernels computed from their display forms where those take fewer
// weighted operations (KernelPrograms::build's cheaperForms), both JIT-
// compiled in this run: ns per call, the programs' instruction counts and
// Program::cost, the time the choice adds before the first step, and the
// largest relative difference between the two right-hand sides.
// Usage: bench_rhs_forms   (the heavy top, the double pendulum, the
// centrifugal governor, the chain at n = 10 and 40, the Whipple bicycle)
#include "driver/Pipeline.h"
#include "jit/CompiledModel.h"
#include "mechanics/Kernels.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

using namespace mech;

namespace {

template <typename F> double bestSeconds(F &&work, int repeats) {
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    auto start = std::chrono::steady_clock::now();
    work();
    best = std::min(
        best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

void run(const std::string &label, const std::string &path, std::vector<std::string> settings) {
  // The standard library from the source tree, as for a build-tree mech.
  sema::SearchPath search = sema::SearchPath::fromEnvironment(MECH_BUILD_MECH);
  auto loaded =
      driver::loadModel(std::string(MECH_SOURCE_ROOT) + "/" + path, settings, search, true);
  if (!loaded->derivation) {
    std::fprintf(stderr, "%s: derivation failed\n", label.c_str());
    return;
  }
  const auto &eq = loaded->equations();
  size_t params = loaded->model().params.size();
  mechanics::KernelPrograms plain, chosen;
  double plainBuild =
      bestSeconds([&] { plain = mechanics::KernelPrograms::build(eq, params, false); }, 3);
  double chosenBuild =
      bestSeconds([&] { chosen = mechanics::KernelPrograms::build(eq, params, true); }, 3);
  std::string error;
  auto plainJit = jit::compileKernels(plain, error);
  auto chosenJit = jit::compileKernels(chosen, error);
  if (!plainJit || !chosenJit) {
    std::fprintf(stderr, "%s: JIT failed: %s\n", label.c_str(), error.c_str());
    return;
  }
  size_t n = eq.coordinates.size();
  std::vector<double> p = loaded->paramValues(), out(2 * n), check(2 * n);
  constexpr int kStates = 64;
  std::mt19937 random(11);
  std::uniform_real_distribution<double> value(-1, 1);
  std::vector<double> states(kStates * 2 * n);
  for (double &v : states)
    v = value(random);
  double difference = 0;
  for (int k = 0; k < kStates; ++k) {
    plainJit->rhs(0, &states[k * 2 * n], p.data(), check.data());
    chosenJit->rhs(0, &states[k * 2 * n], p.data(), out.data());
    for (size_t i = 0; i < 2 * n; ++i)
      difference = std::max(difference, std::abs(out[i] - check[i]) / (1 + std::abs(check[i])));
  }
  int calls = static_cast<int>(std::max<size_t>(2000, 2000000 / (n * n)));
  auto perCall = [&](mechanics::Kernels &kernels) {
    return 1e9 / calls *
           bestSeconds(
               [&] {
                 for (int k = 0; k < calls; ++k)
                   kernels.rhs(0, &states[(k % kStates) * 2 * n], p.data(), out.data());
               },
               5);
  };
  double plainNs = perCall(*plainJit), chosenNs = perCall(*chosenJit);
  std::printf("| %s | %zu / %.0f | %zu / %.0f | %.1f | %.1f | %.2fx | %.1f | %.1e |\n",
              label.c_str(), plain.dynamics.instructions().size(), plain.dynamics.cost(),
              chosen.dynamics.instructions().size(), chosen.dynamics.cost(), plainNs, chosenNs,
              chosenNs / plainNs, 1e3 * (chosenBuild - plainBuild), difference);
  std::fflush(stdout);
}

} // namespace

int main() {
  std::printf("| model | derived M, f: instructions / cost | chosen: instructions / cost | "
              "derived rhs (ns/call) | chosen rhs (ns/call) | chosen / derived | added "
              "before the first step (ms) | max rel. difference |\n"
              "|---|---|---|---|---|---|---|---|\n");
  run("heavy top", "examples/heavy_top.mech", {});
  run("double pendulum", "examples/double_pendulum.mech", {});
  run("centrifugal governor", "examples/centrifugal_governor.mech", {});
  run("chain, n = 10", "examples/chain.mech", {"n = 10"});
  run("chain, n = 40", "examples/chain.mech", {"n = 40"});
  run("Whipple bicycle", "examples/whipple_bicycle.mech", {});
}
