// The two back ends give the same bits: for every example (constrained ones
// included: the multipliers and constraint residuals too) and the Chain at
// n = 1, 5, 20, 30, the LLVM-compiled kernels and the interpreter give
// identical outputs on random states, so that a run may switch from one to
// the other without changing a digit. The generated code performs the
// interpreter's operations in its order, without FMA contraction.
#include "driver/Pipeline.h"
#include "jit/CompiledModel.h"
#include "mechanics/Kernels.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <random>

using namespace mech;

namespace {

double maxAbs(const std::vector<double> &v) {
  double m = 0;
  for (double x : v)
    m = std::max(m, std::abs(x));
  return m;
}

// The same bits, NaN matching NaN (a NaN's payload may differ), +0 not
// matching -0.
bool sameBits(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0;
}

void requireSame(const std::vector<double> &a, const std::vector<double> &b, const char *what) {
  REQUIRE(a.size() == b.size());
  size_t differing = 0, first = 0;
  for (size_t i = a.size(); i-- > 0;)
    if (!sameBits(a[i], b[i])) {
      ++differing;
      first = i;
    }
  INFO(what << ": " << differing << " of " << a.size() << " values differ"
            << (differing ? ", the first at " + std::to_string(first) : std::string()));
  if (differing)
    INFO(std::setprecision(17) << a[first] << " against " << b[first] << ", scale " << maxAbs(a));
  CHECK(differing == 0);
}

// `segmentSize`: the size of the functions the JIT cuts programs into;
// `augmented`: constraints solved by the augmented Lagrangian iteration.
void compareBackends(const std::string &path, const std::vector<std::string> &settings,
                     size_t segmentSize = jit::kSegmentInstructions, bool augmented = false) {
  sema::SearchPath search;
  search.stdlib = std::string(MECH_SOURCE_ROOT) + "/stdlib";
  auto loaded = driver::loadModel(path, settings, search, true);
  REQUIRE(loaded->derivation);
  auto programs =
      mechanics::KernelPrograms::build(loaded->equations(), loaded->model().params.size());
  programs.addJacobian(loaded->equations());
  programs.augmentedSolve = augmented;
  std::string error;
  jit::CompileOptions everything;
  everything.momentumForce = true;
  everything.jacobian = true;
  everything.segmentSize = segmentSize;
  std::unique_ptr<mechanics::Kernels> jit = jit::compileKernels(programs, error, everything);
  INFO(error);
  REQUIRE(jit);
  std::unique_ptr<mechanics::Kernels> interp = mechanics::interpretedKernels(programs);
  size_t n = programs.coordinates;
  std::vector<double> p = loaded->paramValues();
  std::mt19937 random(12345);
  std::uniform_real_distribution<double> angle(-1.5, 1.5), rate(-2, 2);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<double> x(2 * n);
    for (size_t i = 0; i < n; ++i) {
      x[i] = angle(random);
      x[n + i] = rate(random);
    }
    // Keep radial coordinates (the bead's s) away from zero inertia.
    if (loaded->model().name == "BeadOnRod")
      x[0] = 0.3 + std::abs(x[0]);
    double t = std::abs(angle(random));
    std::vector<double> a(n * n), b(n * n);
    CHECK(jit->massMatrix(t, x.data(), p.data(), a.data()) ==
          interp->massMatrix(t, x.data(), p.data(), b.data()));
    requireSame(a, b, "mass matrix");
    a.assign(n, 0), b.assign(n, 0);
    jit->forcing(t, x.data(), p.data(), a.data());
    interp->forcing(t, x.data(), p.data(), b.data());
    requireSame(a, b, "forcing");
    a.assign(2 * n, 0), b.assign(2 * n, 0);
    int sa = jit->rhs(t, x.data(), p.data(), a.data());
    int sb = interp->rhs(t, x.data(), p.data(), b.data());
    CHECK(sa == sb);
    if (sa == 0)
      requireSame(a, b, "rhs");
    a.assign(2, 0), b.assign(2, 0);
    jit->energy(t, x.data(), p.data(), a.data());
    interp->energy(t, x.data(), p.data(), b.data());
    requireSame(a, b, "energy");
    a.assign(2 * n, 0), b.assign(2 * n, 0);
    jit->momentumForce(t, x.data(), p.data(), a.data());
    interp->momentumForce(t, x.data(), p.data(), b.data());
    requireSame(a, b, "momenta and forces");
    a.assign(programs.outputs.outputs().size(), 0), b.assign(a.size(), 0);
    CHECK(jit->outputs(t, x.data(), p.data(), a.data()) ==
          interp->outputs(t, x.data(), p.data(), b.data()));
    requireSame(a, b, "outputs");
    size_t m = programs.constraints;
    a.assign(m, 0), b.assign(m, 0);
    CHECK(jit->multipliers(t, x.data(), p.data(), a.data()) ==
          interp->multipliers(t, x.data(), p.data(), b.data()));
    requireSame(a, b, "multipliers");
    a.assign(2 * m + m * n, 0), b.assign(a.size(), 0);
    jit->constraints(t, x.data(), p.data(), a.data());
    interp->constraints(t, x.data(), p.data(), b.data());
    requireSame(a, b, "constraint residuals");
    // M, C, then dr/dq and dr/dq' ((n + m) * n each).
    a.assign(n * n + m * n + 2 * (n + m) * n, 0), b.assign(a.size(), 0);
    CHECK(jit->jacobianParts(t, x.data(), p.data(), a.data()) ==
          interp->jacobianParts(t, x.data(), p.data(), b.data()));
    requireSame(a, b, "Jacobian parts");
  }
}

// Whether the model's programs solve through the envelope (runtime/EnvelopeSolve.h).
bool hasEnvelopePlan(const std::string &path, const std::vector<std::string> &settings) {
  sema::SearchPath search;
  auto loaded = driver::loadModel(path, settings, search, true);
  REQUIRE(loaded->derivation);
  return !mechanics::KernelPrograms::build(loaded->equations(), loaded->model().params.size())
              .envelopePlan.empty();
}

} // namespace

TEST_CASE("JIT and interpreter agree on every example", "[jit]") {
  int compared = 0;
  for (const auto &entry :
       std::filesystem::directory_iterator(std::string(MECH_SOURCE_ROOT) + "/examples")) {
    // Folders (examples/c, examples/python) are skipped before they are read.
    if (entry.path().extension() != ".mech")
      continue;
    std::ifstream in(entry.path());
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    DYNAMIC_SECTION(entry.path().filename().string()) {
      compareBackends(entry.path().string(), {});
    }
    ++compared;
  }
  CHECK(compared >= 4);
}

TEST_CASE("JIT and interpreter agree on the chain", "[jit]") {
  std::string chain = std::string(MECH_SOURCE_ROOT) + "/examples/chain.mech";
  for (int n : {1, 5, 20, 30}) {
    DYNAMIC_SECTION("n = " << n) {
      compareBackends(chain, {"n = " + std::to_string(n)});
    }
  }
}

// The N-four-bar's M and C are banded: from N = 4 (9 coordinates) both back
// ends call the runtime's envelope solve (runtime/EnvelopeSolve.h), the
// JIT's code through the symbol its session defines.
TEST_CASE("JIT and interpreter agree on the envelope solve of the N-four-bar", "[jit]") {
  std::string model = std::string(MECH_SOURCE_ROOT) + "/tests/cli/models/n_four_bar.mech";
  for (int N : {4, 12}) {
    DYNAMIC_SECTION("N = " << N) {
      REQUIRE(hasEnvelopePlan(model, {"N = " + std::to_string(N)}));
      compareBackends(model, {"N = " + std::to_string(N)});
    }
  }
}

// Without constraints, a diagonal M of 30 coordinates: both back ends solve
// M q'' = f within its envelope.
TEST_CASE("JIT and interpreter agree on the envelope solve of a chain of springs", "[jit]") {
  std::string model = std::string(MECH_SOURCE_ROOT) + "/tests/cli/models/spring_chain.mech";
  REQUIRE(hasEnvelopePlan(model, {"n = 30"}));
  compareBackends(model, {"n = 30"});
}

// `--constraints augmented`: both back ends call the runtime's augmented
// Lagrangian solve, with the dense factorization (the parallelogram, the
// slider-crank) and within the envelope (the N-four-bar).
TEST_CASE("JIT and interpreter agree on the augmented Lagrangian solve", "[jit]") {
  std::string root = MECH_SOURCE_ROOT;
  SECTION("parallelogram") {
    compareBackends(root + "/examples/parallelogram_linkage.mech", {}, jit::kSegmentInstructions,
                    true);
  }
  SECTION("slider-crank") {
    compareBackends(root + "/examples/slider_crank_flywheel.mech", {}, jit::kSegmentInstructions,
                    true);
  }
  SECTION("N-four-bar") {
    compareBackends(root + "/tests/cli/models/n_four_bar.mech", {"N = 6"},
                    jit::kSegmentInstructions, true);
  }
}

// The model `text`, written to a temporary file `name`, compared across the
// back ends with its programs cut into functions of `segmentSize` and
// `settings`; its IR (with `params` params) must hold a table loop
// (@mech_table).
void compareCutWithTable(const std::string &name, const std::string &text,
                         const std::vector<std::string> &settings, size_t params,
                         size_t segmentSize) {
  std::string path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path) << text;
  compareBackends(path, settings, segmentSize);
  sema::SearchPath search;
  auto loaded = driver::loadModel(path, {}, search, true);
  REQUIRE(loaded->derivation);
  std::string error;
  std::string ir = jit::kernelsIr(mechanics::KernelPrograms::build(loaded->equations(), params),
                                  error, segmentSize);
  CHECK(ir.find("@mech_table") != std::string::npos);
  std::filesystem::remove(path);
}

// Every program cut into functions of about 16 LLVM instructions: values
// cross many of them, sin and cos pairs fall at their ends, inputs and
// constants are outputs (the cut is otherwise seen only on large models).
TEST_CASE("JIT and interpreter agree with the programs cut into small functions", "[jit]") {
  constexpr size_t kTiny = 16;
  for (const char *name : {"double_pendulum", "slider_crank_flywheel", "whipple_bicycle",
                           "parallelogram_linkage", "bead_on_rod", "quaternion_top"}) {
    std::string path = std::string(MECH_SOURCE_ROOT) + "/examples/" + name + ".mech";
    DYNAMIC_SECTION(name) {
      compareBackends(path, {}, kTiny);
    }
  }
  std::string chain = std::string(MECH_SOURCE_ROOT) + "/examples/chain.mech";
  SECTION("chain") {
    compareBackends(chain, {"n = 12"}, kTiny);
  }
  SECTION("a potential of 300 terms: a sum of hundreds of operands, evaluated by a loop") {
    compareCutWithTable("mech_wide_sum_test.mech",
                        "model Wide {\n  param m = 1 [kg], k = 1 [N/m]\n  coord x [m]\n"
                        "  particle p mass m at [x, 0]\n"
                        "  potential V = k * sum(i in 1..300, cos(i * x / 1 [m]) / i^2) * 1 [m^2]\n"
                        "}\n",
                        {}, 2, kTiny);
  }
  SECTION("a dense mass matrix: one input in hundreds of places, stored by a loop") {
    compareCutWithTable("mech_dense_cut_test.mech",
                        "model Dense {\n  param n = 20, m = 1 [kg], k = 1 [N/m]\n"
                        "  coord x[1..n] [m]\n"
                        "  kinetic m/2*sum(i in 1..n, x[i]'^2) + m/2*(sum(i in 1..n, x[i]'))^2\n"
                        "  potential k/2*sum(i in 1..n, x[i]^2) + k/2*(sum(i in 1..n, x[i]))^2\n"
                        "}\n",
                        {"m = 1.5"}, 3, kTiny);
  }
  SECTION("the cut happens, and only when asked") {
    sema::SearchPath search;
    auto loaded = driver::loadModel(chain, {"n = 12"}, search, true);
    REQUIRE(loaded->derivation);
    auto programs = mechanics::KernelPrograms::build(loaded->equations(), 1);
    std::string error;
    std::string cut = jit::kernelsIr(programs, error, kTiny);
    std::string whole = jit::kernelsIr(programs, error, SIZE_MAX);
    INFO(error);
    CHECK(cut.find("@mech_segment") != std::string::npos);
    CHECK(whole.find("@mech_segment") == std::string::npos);
  }
}

TEST_CASE("the compiled rhs reports a singular mass matrix", "[jit]") {
  std::string path = std::filesystem::temp_directory_path() / "mech_singular_test.mech";
  std::ofstream(path) << "model S {\n  param m = 1 [kg]\n  coord x [m], phi [rad]\n"
                         "  particle p mass m at [x, 0]\n  potential V = 1 [J] * cos(phi)\n}\n";
  sema::SearchPath search;
  auto loaded = driver::loadModel(path, {}, search, true);
  REQUIRE(loaded->derivation);
  auto programs = mechanics::KernelPrograms::build(loaded->equations(), 1);
  std::string error;
  auto jit = jit::compileKernels(programs, error);
  REQUIRE(jit);
  std::vector<double> x = {0.1, 0.2, 0.3, 0.4}, xdot(4), p = {1.0};
  CHECK(jit->rhs(0, x.data(), p.data(), xdot.data()) == mechanics::kStatusSingularMassMatrix);
  CHECK(mechanics::interpretedKernels(programs)->rhs(0, x.data(), p.data(), xdot.data()) ==
        mechanics::kStatusSingularMassMatrix);
}
