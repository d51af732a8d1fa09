// The byte form of a derivation (mechanics/EquationsCodec.h,
// symbolic/ExprCodec.h): every example's derivation, decoded into a fresh
// context, has every expression printed as the original's, every name,
// dimension, flag and location the original's, kernel programs of the same
// instructions, and coordinates whose time derivatives still work (the
// conserved-quantity and linearization passes differentiate); a cut,
// extended or altered byte string is refused, never read past its end.
#include "driver/Pipeline.h"
#include "mechanics/EquationsCodec.h"
#include "mechanics/Kernels.h"
#include "symbolic/Diff.h"
#include "symbolic/Print.h"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace mech;

namespace {

std::string printed(const sym::Expr &e) {
  return e ? sym::toMech(e) : "<none>";
}

std::vector<std::string> printedAll(const mechanics::Equations &eq) {
  std::vector<std::string> out = {eq.model,
                                  printed(eq.T),
                                  printed(eq.V),
                                  printed(eq.D),
                                  printed(eq.L),
                                  printed(eq.T2),
                                  printed(eq.T1),
                                  printed(eq.T0),
                                  std::to_string(eq.conservative),
                                  std::to_string(eq.hasExplicitTime)};
  auto all = [&](const std::vector<sym::Expr> &list) {
    for (const sym::Expr &e : list)
      out.push_back(printed(e));
  };
  for (const std::string &name : eq.coordinates)
    out.push_back(name);
  all(eq.Q);
  all(eq.Qnc);
  for (const auto &row : eq.M)
    all(row);
  all(eq.f);
  all(eq.momentum);
  all(eq.force);
  all(eq.lhs);
  all(eq.outputs);
  all(eq.multipliers);
  for (const std::string &name : eq.outputNames)
    out.push_back(name);
  for (const auto &e : eq.events)
    out.push_back(e.name + " " + printed(e.g) + " " + std::to_string(e.direction) +
                  std::to_string(e.stop) + " " + std::to_string(e.location.line) + ":" +
                  std::to_string(e.location.column));
  for (const auto &u : eq.inputs)
    out.push_back(u.name + " " + std::to_string(u.param));
  for (const auto &w : eq.where)
    out.push_back(printed(w.name) + " = " + printed(w.definition));
  auto constraint = [&](const mechanics::Equations::Constraint &c) {
    out.push_back(c.name + " " + std::to_string(c.holonomic) + std::to_string(c.integrable) + " " +
                  printed(c.phi) + " " + printed(c.psi) + " " + printed(c.gamma) + " " +
                  (c.integral ? printed(*c.integral) : "-") + " " +
                  (c.location.file ? c.location.file->path() : "") + ":" +
                  std::to_string(c.location.line));
    all(c.C);
  };
  for (const auto &c : eq.constraints)
    constraint(c);
  for (const auto &c : eq.contacts) {
    constraint(c.gap);
    out.push_back(printed(c.restitution) + " " + printed(c.force));
  }
  for (const auto &f : eq.frictions) {
    constraint(f.slip);
    out.push_back(printed(f.normal) + " " + printed(f.staticCoefficient) + " " +
                  printed(f.kineticCoefficient) + " " + printed(f.force) + " " +
                  std::to_string(f.contact));
  }
  return out;
}

size_t instructions(const mechanics::KernelPrograms &p) {
  return p.dynamics.instructions().size() + p.energy.instructions().size() +
         p.outputs.instructions().size() + p.residuals.instructions().size();
}

} // namespace

TEST_CASE("derivations survive their byte form, on every example", "[cache]") {
  int compared = 0;
  for (const auto &entry :
       std::filesystem::directory_iterator(std::string(MECH_SOURCE_ROOT) + "/examples")) {
    if (entry.path().extension() != ".mech")
      continue;
    DYNAMIC_SECTION(entry.path().filename().string()) {
      sema::SearchPath search;
      search.stdlib = std::string(MECH_SOURCE_ROOT) + "/stdlib";
      auto loaded = driver::loadModel(entry.path().string(), {}, search, true);
      REQUIRE(loaded->derivation);
      const SourceManager &sources = loaded->compilation->sources();
      std::string bytes = mechanics::encodeDerivation(*loaded->derivation, sources);
      auto decoded = mechanics::decodeDerivation(bytes, loaded->model(), sources);
      REQUIRE(decoded);
      const mechanics::Equations &a = loaded->derivation->equations, &b = decoded->equations;
      CHECK(printedAll(a) == printedAll(b));
      CHECK(a.coordinateDims.size() == b.coordinateDims.size());
      for (size_t i = 0; i < a.Qdim.size(); ++i)
        CHECK(a.Qdim[i].dimension == b.Qdim[i].dimension);
      // Expressions are the decoded context's own: d/dt of T works there.
      sym::Differentiator ddt = sym::totalTime(*decoded->context);
      CHECK(printed(ddt(b.T)) == printed(sym::totalTime(*loaded->derivation->context)(a.T)));
      size_t params = loaded->model().params.size();
      CHECK(instructions(mechanics::KernelPrograms::build(a, params)) ==
            instructions(mechanics::KernelPrograms::build(b, params)));
      // Cut anywhere (sampled), extended, or of another model: refused.
      for (size_t cut = 0; cut < bytes.size(); cut += 1 + bytes.size() / 97)
        CHECK_FALSE(mechanics::decodeDerivation(bytes.substr(0, cut), loaded->model(), sources));
      CHECK_FALSE(mechanics::decodeDerivation(bytes + "x", loaded->model(), sources));
      std::string format = bytes;
      format[0] ^= 0x40;
      CHECK_FALSE(mechanics::decodeDerivation(format, loaded->model(), sources));
    }
    ++compared;
  }
  CHECK(compared >= 30);
}
