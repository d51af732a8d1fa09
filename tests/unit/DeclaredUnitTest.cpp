// The unit a name is declared in is kept with it (sema::DeclaredUnit), so
// that listings show `[N/m]` where the model wrote it, not `[kg/s^2]`; the
// scales are the unit table's, checked against hand values.
#include "TestSupport.h"

#include "sema/ModelPrinter.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>

using namespace mech;

namespace {

constexpr double kPi = 3.141592653589793;

const char *const kModel = R"(model Units {
  param m = 200 [g], k = 40 [N/m], w [1/s] = 2*pi, th0 = -30 [deg]
  param n = 3, k2 = 2 * k, a = 2 [m] * 3
  coord x [m], th [rad], u
  let e [J] = k/2 * x^2
  let d [cm] = 30
  let h = 2 * x
  kinetic T = m/2 * x'^2 + m * d^2 / 2 * th'^2 + m * a^2 / 2 * u'^2
  potential V = e + k2 / 2 * h^2 + n * w^2 * m * d^2 * th0 * th
})";

template <typename List> const auto &named(const List &list, const std::string &name) {
  for (const auto &item : list)
    if (item.name == name)
      return item;
  FAIL("no " << name);
  throw; // unreachable
}

} // namespace

TEST_CASE("a name keeps the unit it was declared in", "[sema][units]") {
  test::Session session;
  sema::Analysis analysis = session.analyze(kModel);
  INFO(session.messages());
  REQUIRE(analysis.ok);
  const sema::CheckedModel &model = *analysis.model;

  SECTION("params: a unit on the literal or on the name") {
    const sema::Param &m = named(model.params, "m"), &k = named(model.params, "k"),
                      &w = named(model.params, "w"), &th0 = named(model.params, "th0");
    REQUIRE(m.unit);
    CHECK(m.unit->text == "g");
    CHECK(m.unit->scale == Approx(0.001).epsilon(1e-15));
    REQUIRE(k.unit);
    CHECK(k.unit->text == "N/m");
    CHECK(k.unit->scale == 1);
    REQUIRE(w.unit);
    CHECK(w.unit->text == "1/s");
    REQUIRE(th0.unit); // a negated literal is still one literal
    CHECK(th0.unit->text == "deg");
    CHECK(th0.unit->scale == Approx(kPi / 180).epsilon(1e-15));
  }
  SECTION("params computed from others, or without a unit, have none") {
    CHECK_FALSE(named(model.params, "n").unit);
    CHECK_FALSE(named(model.params, "k2").unit);
    CHECK_FALSE(named(model.params, "a").unit); // a product, not one literal
  }
  SECTION("coordinates and lets") {
    REQUIRE(named(model.coords, "th").unit);
    CHECK(named(model.coords, "th").unit->text == "rad");
    CHECK_FALSE(named(model.coords, "u").unit);
    REQUIRE(named(model.lets, "e").unit);
    CHECK(named(model.lets, "e").unit->text == "J");
    REQUIRE(named(model.lets, "d").unit);
    CHECK(named(model.lets, "d").unit->scale == Approx(0.01).epsilon(1e-15));
    CHECK_FALSE(named(model.lets, "h").unit);
  }
  SECTION("listed in the declared unit, else in SI") {
    const sema::Param &m = named(model.params, "m"), &k2 = named(model.params, "k2");
    CHECK(sema::unitOf(m.unit, m.dim) == "g");
    CHECK(sema::unitOf(k2.unit, k2.dim) == "kg/s^2");
    CHECK(sema::valueIn(m.value, m.unit) == "200");
    CHECK(sema::valueIn(0.3, m.unit) == "300"); // not 299.99999999999994
    const sema::Param &th0 = named(model.params, "th0");
    CHECK(sema::valueIn(th0.value, th0.unit) == "-30");
    CHECK(sema::valueIn(0.1, named(model.params, "k").unit) == "0.1");
  }
  SECTION("the dump keeps values in SI") {
    std::string dump = sema::dumpModel(model);
    CHECK(dump.find("param k = 40 [N/m]\n") != std::string::npos);
    CHECK(dump.find("param m = 0.2 [kg]  # declared [g]\n") != std::string::npos);
    CHECK(dump.find("param k2 = 80 [kg/s^2]\n") != std::string::npos);
    CHECK(dump.find("coord th [rad]\n") != std::string::npos);
  }
}
