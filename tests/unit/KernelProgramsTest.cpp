// The kernel programs do not compute entries of M and f that are
// identically zero: the heavy top's M[phi, theta] and M[theta, psi] vanish
// (a textbook's M has only the phi-phi, phi-psi, theta-theta and psi-psi
// entries) though the derivation leaves them as sums of products of sines
// and cosines, so they are constants 0 in the program; the entries that do
// not vanish, and every entry of the Chain's M and f, are computed.
#include "driver/Pipeline.h"
#include "mechanics/Kernels.h"

#include <catch2/catch.hpp>

#include <string>

using namespace mech;

namespace {

mechanics::KernelPrograms programsOf(const std::string &example,
                                     const std::vector<std::string> &settings = {}) {
  sema::SearchPath search;
  search.stdlib = std::string(MECH_SOURCE_ROOT) + "/stdlib";
  auto loaded = driver::loadModel(std::string(MECH_SOURCE_ROOT) + "/examples/" + example, settings,
                                  search, true);
  REQUIRE(loaded->derivation);
  return mechanics::KernelPrograms::build(loaded->equations(), loaded->model().params.size());
}

// Whether output `index` of the dynamics program is the constant 0.
bool isConstantZero(const mechanics::KernelPrograms &programs, size_t index) {
  const sym::Program &program = programs.dynamics;
  const sym::Instruction &instruction = program.instructions().at(program.outputs().at(index));
  return instruction.op == sym::Instruction::Op::Constant && instruction.constant == 0;
}

} // namespace

TEST_CASE("kernel programs omit the heavy top's vanishing inertia entries", "[kernels]") {
  auto programs = programsOf("heavy_top.mech");
  REQUIRE(programs.coordinates == 3); // phi, theta, psi
  auto M = [&](size_t j, size_t k) { return isConstantZero(programs, j * 3 + k); };
  CHECK(M(0, 1));
  CHECK(M(1, 0));
  CHECK(M(1, 2));
  CHECK(M(2, 1));
  CHECK_FALSE(M(0, 0));
  CHECK_FALSE(M(0, 2));
  CHECK_FALSE(M(1, 1));
  CHECK_FALSE(M(2, 2));
}

TEST_CASE("kernel programs compute every entry of the chain's M and f", "[kernels]") {
  // M[j][k] = m l^2 (n + 1 - max(j, k)) cos(th_j - th_k) and every f[j]
  // has a gravity term: none is zero.
  size_t n = 12;
  auto programs = programsOf("chain.mech", {"n = " + std::to_string(n)});
  for (size_t i = 0; i < n * n + n; ++i) {
    INFO("entry " << i);
    CHECK_FALSE(isConstantZero(programs, i));
  }
}
