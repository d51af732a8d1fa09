// Right-hand-side speed of the n-link Chain: the JIT-compiled mech_rhs next
// to a hand-written C++ version (closed-form M_ij = (n - max(i, j)) m l^2
// cos(th_i - th_j) with 0-based i, j, one sincos per angle, angle-difference
// identities, fixed-size Eigen LLT, no allocation per call), the
// interpreter, and the rhs of a shared library built by `mech build` (for
// the generic x86-64 CPU and for this one), called through dlopen, in one
// run. Prints ns per call and ratios.
// Usage: bench_rhs_chain   (n = 2, 5, 10, 20, 40)
#include "driver/LibraryBuild.h"
#include "driver/Pipeline.h"
#include "jit/CompiledModel.h"
#include "mechanics/Kernels.h"

#include <Eigen/Dense>

#include "ChainHandWritten.h"
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <dlfcn.h>
#include <random>
#include <string>
#include <vector>

using namespace mech;
using mech::bench::HandWritten;

namespace {

template <typename F> double nanosecondsPerCall(F &&call, int calls) {
  double best = 1e300;
  for (int repeat = 0; repeat < 5; ++repeat) {
    auto start = std::chrono::steady_clock::now();
    for (int k = 0; k < calls; ++k)
      call(k);
    double ns =
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() /
        calls;
    best = std::min(best, ns);
  }
  return best;
}

using RhsFunction = int (*)(double, const double *, const double *, double *);

// Builds the model's library into `folder` and returns its rhs (null on failure).
RhsFunction libraryRhs(driver::LoadedModel &loaded, const std::string &folder,
                       const std::string &prefix, bool native) {
  driver::LibraryBuildOptions options;
  options.output = folder + "/lib" + prefix + ".so";
  options.prefix = prefix;
  options.nativeCpu = native;
  std::vector<std::string> notes;
  std::string error;
  if (!driver::buildLibrary(loaded, options, notes, error)) {
    std::fprintf(stderr, "mech build failed: %s\n", error.c_str());
    return nullptr;
  }
  void *library = dlopen(options.output.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    std::fprintf(stderr, "dlopen failed: %s\n", dlerror());
    return nullptr;
  }
  return reinterpret_cast<RhsFunction>(dlsym(library, (prefix + "_rhs").c_str()));
}

template <int N> void run(const std::string &chainPath, const std::string &folder) {
  sema::SearchPath search;
  auto loaded = driver::loadModel(chainPath, {"n = " + std::to_string(N)}, search, true);
  if (!loaded->derivation) {
    std::fprintf(stderr, "derivation failed\n");
    return;
  }
  auto programs =
      mechanics::KernelPrograms::build(loaded->equations(), loaded->model().params.size());
  std::string error;
  auto jit = jit::compileKernels(programs, error);
  if (!jit) {
    std::fprintf(stderr, "JIT failed: %s\n", error.c_str());
    return;
  }
  auto interp = mechanics::interpretedKernels(programs);
  std::vector<double> p = loaded->paramValues();
  // States: random angles and rates, cycled through to defeat caching of one input.
  constexpr int kStates = 64;
  std::mt19937 random(7);
  std::uniform_real_distribution<double> angle(-1, 1);
  std::vector<double> states(kStates * 2 * N), out(2 * N), check(2 * N);
  for (double &v : states)
    v = angle(random);
  RhsFunction generic = libraryRhs(*loaded, folder, "chain" + std::to_string(N), false);
  RhsFunction native = libraryRhs(*loaded, folder, "chain" + std::to_string(N) + "n", true);
  if (!generic || !native)
    return;
  HandWritten<N> hand;
  double difference = 0;
  for (int k = 0; k < kStates; ++k) {
    hand.rhs(&states[k * 2 * N], check.data());
    for (RhsFunction rhs : {generic, native}) {
      rhs(0, &states[k * 2 * N], p.data(), out.data());
      for (int i = 0; i < 2 * N; ++i)
        difference = std::max(difference, std::abs(out[i] - check[i]) / (1 + std::abs(check[i])));
    }
    jit->rhs(0, &states[k * 2 * N], p.data(), out.data());
    for (int i = 0; i < 2 * N; ++i)
      difference = std::max(difference, std::abs(out[i] - check[i]) / (1 + std::abs(check[i])));
  }
  int calls = std::max(2000, 2000000 / (N * N));
  double handNs = nanosecondsPerCall(
      [&](int k) { hand.rhs(&states[(k % kStates) * 2 * N], out.data()); }, calls);
  double jitNs = nanosecondsPerCall(
      [&](int k) { jit->rhs(0, &states[(k % kStates) * 2 * N], p.data(), out.data()); }, calls);
  double genericNs = nanosecondsPerCall(
      [&](int k) { generic(0, &states[(k % kStates) * 2 * N], p.data(), out.data()); }, calls);
  double nativeNs = nanosecondsPerCall(
      [&](int k) { native(0, &states[(k % kStates) * 2 * N], p.data(), out.data()); }, calls);
  double interpNs = nanosecondsPerCall(
      [&](int k) { interp->rhs(0, &states[(k % kStates) * 2 * N], p.data(), out.data()); },
      std::max(200, calls / 20));
  std::printf("| %d | %.1f | %.1f | %.2fx | %.1f | %.2fx | %.1f | %.2fx | %.1f | %.1fx | %.1e |\n",
              N, handNs, jitNs, jitNs / handNs, genericNs, genericNs / handNs, nativeNs,
              nativeNs / handNs, interpNs, interpNs / handNs, difference);
  std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv) {
  std::string chain = argc > 1 ? argv[1] : std::string(MECH_SOURCE_ROOT) + "/examples/chain.mech";
  char pattern[] = "/tmp/mech-bench-XXXXXX";
  if (mkdtemp(pattern) == nullptr)
    return 1;
  std::string folder = pattern;
  std::printf("| n | hand-written C++ (ns/call) | JIT mech_rhs (ns/call) | JIT / hand | library, "
              "generic CPU (ns/call) | generic / hand | library, native CPU (ns/call) | native / "
              "hand | interpreter (ns/call) | interp / hand | max rel. difference |\n"
              "|---|---|---|---|---|---|---|---|---|---|---|\n");
  run<2>(chain, folder);
  run<5>(chain, folder);
  run<10>(chain, folder);
  run<20>(chain, folder);
  run<40>(chain, folder);
  std::system(("rm -rf " + folder).c_str());
}
