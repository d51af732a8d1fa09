// A derivation cache entry can pass its checksum and still be malformed:
// written by a faulty build, or altered with its checksum recomputed. The
// decoders (symbolic/ExprCodec.h, mechanics/EquationsCodec.h) must refuse
// every such body that the later stages would index out of bounds with
// (a power or function with the wrong operands, a symbol beyond the
// model's, lists of the wrong length, missing expressions), and a body
// altered anywhere must either be refused or give equations that the
// kernels evaluate without a crash.
#include "driver/Pipeline.h"
#include "mechanics/EquationsCodec.h"
#include "mechanics/Kernels.h"
#include "support/Diagnostics.h"
#include "symbolic/ExprCodec.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <random>

using namespace mech;

namespace {

std::unique_ptr<driver::LoadedModel> loadExample(const std::string &name) {
  sema::SearchPath search;
  search.stdlib = std::string(MECH_SOURCE_ROOT) + "/stdlib";
  return driver::loadModel(std::string(MECH_SOURCE_ROOT) + "/examples/" + name, {}, search, true);
}

// A node table of one node per entry: kind, function, an exact number 1,
// then the operand numbers.
std::string table(const std::vector<std::pair<sym::Kind, std::vector<uint32_t>>> &nodes,
                  sym::Fn fn = sym::Fn::Sin) {
  ByteWriter out;
  out.put<uint64_t>(nodes.size());
  for (const auto &[kind, ops] : nodes) {
    out.put<uint8_t>(static_cast<uint8_t>(kind));
    out.put<uint8_t>(static_cast<uint8_t>(fn));
    out.put<uint8_t>(1);
    out.put<int64_t>(1);
    out.put<int64_t>(1);
    out.put<uint32_t>(static_cast<uint32_t>(ops.size()));
    for (uint32_t op : ops)
      out.put<uint32_t>(op);
  }
  return out.take();
}

bool reads(const std::string &bytes) {
  sym::Context context;
  sym::ExprDecoder decoder(context);
  ByteReader in(bytes);
  return decoder.read(in);
}

// Whether a table of the right shape is accepted. Its nodes (1^1, sin(1))
// are the right shape but not canonical: a build that checks canonical
// forms (MECH_CHECK_CANONICAL, the sanitizer tree) stops at them with an
// internal error, which says nothing about their shape.
bool shapeAccepted(const std::string &bytes) {
  try {
    return reads(bytes);
  } catch (const InternalError &error) {
    return std::string(error.what()).find("non-canonical") != std::string::npos;
  }
}

// Decodes `bytes` for the loaded model; when accepted, evaluates every
// kernel once at a state of ones (what a run does first).
bool decodesAndRuns(const std::string &bytes, driver::LoadedModel &loaded) {
  const SourceManager &sources = loaded.compilation->sources();
  auto decoded = mechanics::decodeDerivation(bytes, loaded.model(), sources);
  if (!decoded)
    return false;
  size_t params = loaded.model().params.size(), n = decoded->equations.coordinates.size();
  auto programs = mechanics::KernelPrograms::build(decoded->equations, params);
  auto kernels = mechanics::interpretedKernels(programs);
  size_t room = std::max({n * n, 2 * n, size_t(2), decoded->equations.outputs.size()});
  std::vector<double> x(2 * n, 1.0), p(params, 1.0), out(room, 0.0);
  kernels->massMatrix(0, x.data(), p.data(), out.data());
  kernels->rhs(0, x.data(), p.data(), out.data());
  kernels->energy(0, x.data(), p.data(), out.data());
  kernels->outputs(0, x.data(), p.data(), out.data());
  return true;
}

} // namespace

TEST_CASE("a node table with operands that do not fit its kinds is refused", "[cache]") {
  using K = sym::Kind;
  CHECK(shapeAccepted(table({{K::Number, {}}, {K::Pow, {0, 0}}})));
  CHECK(shapeAccepted(table({{K::Number, {}}, {K::Func, {0}}}, sym::Fn::Sin)));
  CHECK(shapeAccepted(table({{K::Number, {}}, {K::Func, {0, 0}}}, sym::Fn::Atan2)));
  CHECK_FALSE(reads(table({{K::Number, {}}, {K::Pow, {0}}})));
  CHECK_FALSE(reads(table({{K::Number, {}}, {K::Pow, {0, 0, 0}}})));
  CHECK_FALSE(reads(table({{K::Number, {}}, {K::Func, {0, 0}}}, sym::Fn::Sin)));
  CHECK_FALSE(reads(table({{K::Number, {}}, {K::Func, {0}}}, sym::Fn::Atan2)));
  CHECK_FALSE(reads(table({{K::Number, {}}, {K::Add, {}}})));
  CHECK_FALSE(reads(table({{K::Number, {}}, {K::Mul, {}}})));
  CHECK_FALSE(reads(table({{K::Number, {}}, {K::Number, {0}}})));
  CHECK_FALSE(reads(table({{K::Number, {}}, {K::Pow, {0, 2}}}))); // a later node
}

TEST_CASE("equations whose shape is not the model's are refused", "[cache]") {
  auto loaded = loadExample("double_pendulum.mech");
  REQUIRE(loaded->derivation);
  const SourceManager &sources = loaded->compilation->sources();
  const mechanics::Derivation &original = *loaded->derivation;
  sym::Context &c = *original.context;
  auto refused = [&](const std::function<void(mechanics::Equations &)> &alter) {
    mechanics::Derivation changed;
    changed.equations = original.equations;
    alter(changed.equations);
    return !mechanics::decodeDerivation(mechanics::encodeDerivation(changed, sources),
                                        loaded->model(), sources);
  };
  CHECK_FALSE(refused([](mechanics::Equations &) {}));
  size_t params = loaded->model().params.size();
  CHECK(refused([&](mechanics::Equations &eq) {
    eq.outputs.push_back(c.symbol("p_far", sym::SymbolKind::Param, int(params) + 5, 0));
    eq.outputNames.push_back("far");
  }));
  CHECK(refused([&](mechanics::Equations &eq) {
    eq.outputs.push_back(c.coordinate("q_far", 7).qd);
    eq.outputNames.push_back("far");
  }));
  CHECK(refused([&](mechanics::Equations &eq) {
    eq.outputs.push_back(c.symbol("lambda_far", sym::SymbolKind::Multiplier, 0, 0));
    eq.outputNames.push_back("far");
  }));
  CHECK(refused([](mechanics::Equations &eq) { eq.M.pop_back(); }));
  CHECK(refused([](mechanics::Equations &eq) { eq.M[0].pop_back(); }));
  CHECK(refused([](mechanics::Equations &eq) { eq.f.pop_back(); }));
  CHECK(refused([](mechanics::Equations &eq) { eq.coordinates.push_back("extra"); }));
  CHECK(refused([](mechanics::Equations &eq) { eq.outputNames.push_back("extra"); }));
  CHECK(refused([](mechanics::Equations &eq) { eq.T = sym::Expr(); }));
  CHECK(refused([](mechanics::Equations &eq) { eq.f[1] = sym::Expr(); }));
  CHECK(refused([](mechanics::Equations &eq) { eq.inputs.push_back({"u", 999, {}}); }));
  CHECK(refused([](mechanics::Equations &eq) { eq.multipliers.push_back(eq.T); }));
}

TEST_CASE("a body altered anywhere is refused or runs without a crash", "[cache]") {
  for (const char *name : {"double_pendulum.mech", "cartesian_pendulum.mech", "knife_edge.mech"}) {
    auto loaded = loadExample(name);
    REQUIRE(loaded->derivation);
    const SourceManager &sources = loaded->compilation->sources();
    const std::string bytes = mechanics::encodeDerivation(*loaded->derivation, sources);
    std::mt19937_64 random(17);
    size_t accepted = 0, tried = 0;
    for (size_t at = 0; at < bytes.size(); at += 1 + bytes.size() / 300) {
      for (uint8_t value : {uint8_t(bytes[at] ^ 0x01), uint8_t(bytes[at] ^ 0x80), uint8_t(0xff),
                            uint8_t(random())}) {
        std::string altered = bytes;
        altered[at] = static_cast<char>(value);
        ++tried;
        try {
          accepted += decodesAndRuns(altered, *loaded);
        } catch (const InternalError &) {
          // A broken invariant reported as such is not a crash.
        }
      }
    }
    CHECK(tried > 1000);
    CHECK(accepted < tried);
  }
}
