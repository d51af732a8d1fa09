// Tiered execution: kernels that start on the interpreter hand over to the
// compiled ones once the compile on another thread has finished, at a call
// whose t they record, with every value the same bits before and after; a
// failed compile leaves the interpreter running; kernels dropped while
// their compile runs leave it to finish on its own.
#include "jit/TieredKernels.h"
#include "driver/Pipeline.h"
#include "mechanics/Kernels.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <cstring>
#include <thread>

using namespace mech;

namespace {

std::unique_ptr<driver::LoadedModel> doublePendulum() {
  sema::SearchPath search;
  auto loaded = driver::loadModel(std::string(MECH_SOURCE_ROOT) + "/examples/double_pendulum.mech",
                                  {}, search, true);
  REQUIRE(loaded->derivation);
  return loaded;
}

bool sameBits(const std::vector<double> &a, const std::vector<double> &b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// Waits (at most a minute) until no background compile runs.
void waitForCompiles() {
  for (int i = 0; i < 6000 && jit::backgroundCompilesRunning() > 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  REQUIRE(jit::backgroundCompilesRunning() == 0);
}

} // namespace

TEST_CASE("tiered kernels switch to native code with the same bits", "[jit]") {
  auto loaded = doublePendulum();
  auto programs =
      mechanics::KernelPrograms::build(loaded->equations(), loaded->paramValues().size());
  std::unique_ptr<mechanics::Kernels> reference = mechanics::interpretedKernels(programs);
  auto copy = std::make_shared<const mechanics::KernelPrograms>(programs);
  jit::TieredKernels tiered(mechanics::interpretedKernels(programs), [copy] {
    jit::BackgroundResult result;
    result.kernels = jit::compileKernels(*copy, result.error);
    return result;
  });
  CHECK(tiered.coordinates == programs.coordinates);
  std::vector<double> x = {0.3, -0.7, 1.1, 0.4}, p = loaded->paramValues();
  std::vector<double> a(4), b(4);
  // Calls go on until the compiled kernels took over (or a minute passed).
  double t = 0;
  for (int call = 0; call < 60000 && !tiered.switched(); ++call, t += 1e-3) {
    REQUIRE(tiered.rhs(t, x.data(), p.data(), a.data()) == 0);
    REQUIRE(reference->rhs(t, x.data(), p.data(), b.data()) == 0);
    REQUIRE(sameBits(a, b));
    if (!tiered.switched())
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  REQUIRE(tiered.switched());
  CHECK(tiered.switched()->t == t - 1e-3); // the call that took over
  CHECK(tiered.switched()->seconds > 0);
  REQUIRE(tiered.outcome());
  CHECK(tiered.outcome()->error.empty());
  // From here on the compiled kernels answer, with the interpreter's bits.
  for (double s : {0.1, 2.5, -1.0}) {
    std::vector<double> y = {s, 2 * s, -s, 0.5};
    REQUIRE(tiered.rhs(s, y.data(), p.data(), a.data()) == 0);
    REQUIRE(reference->rhs(s, y.data(), p.data(), b.data()) == 0);
    CHECK(sameBits(a, b));
    std::vector<double> e(2), f(2);
    tiered.energy(s, y.data(), p.data(), e.data());
    reference->energy(s, y.data(), p.data(), f.data());
    CHECK(sameBits(e, f));
  }
  waitForCompiles();
}

TEST_CASE("a failed background compile leaves the interpreter running", "[jit]") {
  auto loaded = doublePendulum();
  auto programs =
      mechanics::KernelPrograms::build(loaded->equations(), loaded->paramValues().size());
  jit::TieredKernels tiered(mechanics::interpretedKernels(programs), [] {
    jit::BackgroundResult result;
    result.error = "no target";
    return result;
  });
  waitForCompiles();
  std::vector<double> x = {0.3, -0.7, 1.1, 0.4}, p = loaded->paramValues(), a(4);
  CHECK(tiered.rhs(0, x.data(), p.data(), a.data()) == 0);
  CHECK_FALSE(tiered.switched());
  REQUIRE(tiered.outcome());
  CHECK(tiered.outcome()->error == "no target");
}

TEST_CASE("kernels dropped while their compile runs leave it to finish", "[jit]") {
  auto loaded = doublePendulum();
  auto programs =
      mechanics::KernelPrograms::build(loaded->equations(), loaded->paramValues().size());
  auto copy = std::make_shared<const mechanics::KernelPrograms>(programs);
  {
    jit::TieredKernels tiered(mechanics::interpretedKernels(programs), [copy] {
      jit::BackgroundResult result;
      result.kernels = jit::compileKernels(*copy, result.error);
      return result;
    });
  } // the model's programs go too: the compile has its own copy
  loaded.reset();
  waitForCompiles();
}
