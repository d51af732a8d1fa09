// The state Jacobian dF/dx of x' = F(t, x) (mechanics/StateJacobian) against
// central finite differences of the rhs kernel itself, on random states of
// every example (constrained ones through the first-kind equations), from
// both back ends: the interpreter and the LLVM-compiled kernels.
#include "mechanics/StateJacobian.h"
#include "driver/Pipeline.h"
#include "jit/CompiledModel.h"
#include "mechanics/Kernels.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>

using namespace mech;

namespace {

// Central differences of F by x_k with step h_k = 1e-6 (1 + |x_k|): an
// error of O(h^2 |F'''|) plus rounding of O(eps |F| / h).
std::vector<double> finiteDifferences(mechanics::Kernels &kernels, double t, std::vector<double> x,
                                      const std::vector<double> &p, bool &ok) {
  size_t d = x.size();
  std::vector<double> J(d * d), plus(d), minus(d);
  for (size_t k = 0; k < d; ++k) {
    double h = 1e-6 * (1 + std::abs(x[k])), saved = x[k];
    x[k] = saved + h;
    ok = ok && kernels.rhs(t, x.data(), p.data(), plus.data()) == 0;
    x[k] = saved - h;
    ok = ok && kernels.rhs(t, x.data(), p.data(), minus.data()) == 0;
    x[k] = saved;
    for (size_t i = 0; i < d; ++i)
      J[i * d + k] = (plus[i] - minus[i]) / (2 * h);
  }
  return J;
}

// Each entry within 1e-5 of the Jacobian's largest entry (and of its own
// size): finite differences of a smooth F at this step are good to ~1e-8.
void compare(const std::vector<double> &exact, const std::vector<double> &approximate,
             const std::string &where) {
  double scale = 0;
  for (double v : exact)
    scale = std::max(scale, std::abs(v));
  double worst = 0;
  for (size_t i = 0; i < exact.size(); ++i)
    worst = std::max(worst, std::abs(exact[i] - approximate[i]) / (1e-3 + scale));
  INFO(where << ": worst difference " << worst << " of the scale " << scale);
  CHECK(worst < 1e-5);
}

void checkModel(const std::string &path) {
  sema::SearchPath search;
  search.stdlib = std::string(MECH_SOURCE_ROOT) + "/stdlib";
  auto loaded = driver::loadModel(path, {}, search, true);
  REQUIRE(loaded->derivation);
  auto programs =
      mechanics::KernelPrograms::build(loaded->equations(), loaded->model().params.size());
  programs.addJacobian(loaded->equations());
  std::string error;
  jit::CompileOptions options;
  options.jacobian = true;
  std::unique_ptr<mechanics::Kernels> compiled = jit::compileKernels(programs, error, options);
  INFO(error);
  REQUIRE(compiled);
  std::unique_ptr<mechanics::Kernels> interpreted = mechanics::interpretedKernels(programs);
  size_t n = programs.coordinates;
  std::vector<double> p = loaded->paramValues();
  std::mt19937 random(2024);
  std::uniform_real_distribution<double> angle(-1.2, 1.2), rate(-1.5, 1.5);
  int compared = 0;
  for (int trial = 0; trial < 12 && compared < 4; ++trial) {
    std::vector<double> x(2 * n);
    for (size_t i = 0; i < n; ++i) {
      x[i] = angle(random);
      x[n + i] = rate(random);
    }
    if (loaded->model().name == "BeadOnRod")
      x[0] = 0.3 + std::abs(x[0]);
    double t = std::abs(angle(random));
    for (mechanics::Kernels *kernels : {compiled.get(), interpreted.get()}) {
      std::vector<double> J(4 * n * n);
      mechanics::StateJacobian jacobian(*kernels);
      bool ok = jacobian(t, x.data(), p.data(), J.data()) == 0;
      std::vector<double> fd = finiteDifferences(*kernels, t, x, p, ok);
      if (!ok)
        continue; // a state where the mass matrix is singular
      compare(J, fd, path + (kernels == compiled.get() ? " (JIT)" : " (interpreter)"));
      ++compared;
    }
  }
  INFO(path);
  CHECK(compared >= 4);
}

} // namespace

TEST_CASE("the state Jacobian matches finite differences on every example", "[jacobian]") {
  for (const auto &entry :
       std::filesystem::directory_iterator(std::string(MECH_SOURCE_ROOT) + "/examples"))
    if (entry.path().extension() == ".mech")
      checkModel(entry.path().string());
}

TEST_CASE("without the Jacobian program the kernel says it was not compiled", "[jacobian]") {
  sema::SearchPath search;
  search.stdlib = std::string(MECH_SOURCE_ROOT) + "/stdlib";
  auto loaded = driver::loadModel(std::string(MECH_SOURCE_ROOT) + "/examples/double_pendulum.mech",
                                  {}, search, true);
  REQUIRE(loaded->derivation);
  auto programs =
      mechanics::KernelPrograms::build(loaded->equations(), loaded->model().params.size());
  std::vector<double> p = loaded->paramValues(), x(4, 0.1), J(16);
  std::unique_ptr<mechanics::Kernels> interpreted = mechanics::interpretedKernels(programs);
  CHECK(mechanics::StateJacobian(*interpreted)(0, x.data(), p.data(), J.data()) ==
        mechanics::kStatusKernelNotCompiled);
}
