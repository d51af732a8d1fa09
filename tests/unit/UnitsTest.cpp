// Units and dimensions through the whole front end: a literal with a unit in a
// tiny model, read back as the param's SI value and printed dimension. The
// expected values are the SI definitions, worked out by hand.
#include "TestSupport.h"

#include "sema/Dimension.h"
#include "sema/Units.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <set>
#include <string>
#include <vector>

using namespace mech;
using sema::Dimension;

namespace {

constexpr double kPi = 3.141592653589793;

struct UnitCase {
  const char *literal; // the default value of `param p`
  double si;           // its SI value
  const char *dimension;
};

// Analyses `model U { <params> }` and returns the first param; fails the test
// case when the model does not check.
struct ParamResult {
  double value = 0;
  sema::DimInfo dim;
  std::string messages;
  bool ok = false;
};

ParamResult analyzeParam(const std::string &params) {
  test::Session session;
  sema::Analysis analysis = session.analyze("model U { " + params + " }");
  ParamResult result;
  result.messages = session.messages();
  result.ok = analysis.ok && analysis.model && !analysis.model->params.empty();
  if (result.ok) {
    result.value = analysis.model->params[0].value;
    result.dim = analysis.model->params[0].dim;
  }
  return result;
}

void checkParam(const std::string &params, double si, const std::string &dimension) {
  ParamResult result = analyzeParam(params);
  INFO(params << "\n" << result.messages);
  REQUIRE(result.ok);
  CHECK(result.value == Approx(si).epsilon(1e-14).margin(0));
  CHECK(result.dim.state == sema::DimInfo::Known);
  CHECK(result.dim.dimension.toString() == dimension);
}

// Every unit of the unit table, one literal each.
const std::vector<UnitCase> kUnitTable = {
    {"4 [1]", 4, "1"},
    {"2 [m]", 2, "m"},
    {"3 [km]", 3000, "m"},
    {"30 [cm]", 0.3, "m"},
    {"5 [mm]", 0.005, "m"},
    {"2 [um]", 2e-6, "m"},
    {"2 [kg]", 2, "kg"},
    {"500 [g]", 0.5, "kg"},
    {"2 [s]", 2, "s"},
    {"250 [ms]", 0.25, "s"},
    {"2 [min]", 120, "s"},
    {"1.5 [h]", 5400, "s"},
    {"2 [A]", 2, "A"},
    {"300 [K]", 300, "K"},
    {"2 [mol]", 2, "mol"},
    {"3 [cd]", 3, "cd"},
    {"2 [rad]", 2, "1"},
    {"90 [deg]", kPi / 2, "1"},
    {"180 [deg]", kPi, "1"},
    {"1 [rev]", 2 * kPi, "1"},
    {"2 [N]", 2, "kg*m/s^2"},
    {"1 [kN]", 1000, "kg*m/s^2"},
    {"3 [J]", 3, "kg*m^2/s^2"},
    {"2 [kJ]", 2000, "kg*m^2/s^2"},
    {"5 [W]", 5, "kg*m^2/s^3"},
    {"1.5 [kW]", 1500, "kg*m^2/s^3"},
    {"7 [Pa]", 7, "kg/(m*s^2)"},
    {"101.325 [kPa]", 101325, "kg/(m*s^2)"},
    {"50 [Hz]", 50, "1/s"},
    {"1 [rpm]", 2 * kPi / 60, "1/s"},
    {"60 [rpm]", 2 * kPi, "1/s"},
};

const std::vector<UnitCase> kCompoundUnits = {
    {"1 [kg*m^2]", 1, "kg*m^2"},
    {"9.81 [m/s^2]", 9.81, "m/s^2"},
    {"2 [1/s]", 2, "1/s"},
    {"0.05 [N*m*s]", 0.05, "kg*m^2/s"},
    {"3 [kg/(m*s)]", 3, "kg/(m*s)"},
    {"9.81 [m*s^-2]", 9.81, "m/s^2"},
    {"2 [s^-1]", 2, "1/s"},
    {"4 [m^-2]", 4, "1/m^2"},
    {"3 [(kg*m)/s^2]", 3, "kg*m/s^2"},
    {"2 [g*cm^2]", 2e-7, "kg*m^2"},
    {"36 [km/h]", 10, "m/s"},
    {"1 [mm^3]", 1e-9, "m^3"},
    {"5 [N/m]", 5, "kg/s^2"},
    {"2 [kN*m]", 2000, "kg*m^2/s^2"},
    {"1 [deg/s]", kPi / 180, "1/s"},
    {"1 [rev/min]", 2 * kPi / 60, "1/s"},
    {"2 [kg^2]", 2, "kg^2"},
    {"1 [J/(mol*K)]", 1, "kg*m^2/(s^2*K*mol)"},
    {"1 [A*s]", 1, "s*A"},
};

} // namespace

TEST_CASE("every unit of the table converts to SI", "[units]") {
  for (const UnitCase &c : kUnitTable) {
    DYNAMIC_SECTION(c.literal) {
      checkParam(std::string("param p = ") + c.literal, c.si, c.dimension);
    }
  }
}

TEST_CASE("the unit table is covered by the tests", "[units]") {
  std::set<std::string> tested;
  for (const UnitCase &c : kUnitTable) {
    std::string literal = c.literal;
    size_t open = literal.find('['), close = literal.find(']');
    tested.insert(literal.substr(open + 1, close - open - 1));
  }
  for (const std::string &symbol : sema::knownUnitSymbols()) {
    INFO("unit without a test: " << symbol);
    CHECK(tested.count(symbol) == 1);
  }
  CHECK(sema::knownUnitSymbols().size() == 28);
}

TEST_CASE("compound units multiply and divide and take exponents", "[units]") {
  for (const UnitCase &c : kCompoundUnits) {
    DYNAMIC_SECTION(c.literal) {
      checkParam(std::string("param p = ") + c.literal, c.si, c.dimension);
    }
  }
}

TEST_CASE("a unit on the name of a param applies to its value", "[units]") {
  SECTION("param w [1/s] = 2*pi") {
    checkParam("param w [1/s] = 2*pi", 6.283185307179586, "1/s");
  }
  SECTION("param a [cm] = 30") {
    checkParam("param a [cm] = 30", 0.3, "m");
  }
  SECTION("param th [deg] = 90") {
    checkParam("param th [deg] = 90", kPi / 2, "1");
  }
  SECTION("param r [rpm] = 60") {
    checkParam("param r [rpm] = 60", 2 * kPi, "1/s");
  }
  SECTION("param F [kN] = 1.5") {
    checkParam("param F [kN] = 1.5", 1500, "kg*m/s^2");
  }
  SECTION("param J [g*cm^2] = 3") {
    checkParam("param J [g*cm^2] = 3", 3e-7, "kg*m^2");
  }
}

TEST_CASE("values computed from literals with units", "[units]") {
  struct Case {
    const char *params;
    double si;
    const char *dimension;
  };
  const std::vector<Case> cases = {
      {"param p = 1 [m] + 50 [cm]", 1.5, "m"},  {"param p = 2 [N] * 3 [m]", 6, "kg*m^2/s^2"},
      {"param p = 10 [m] / 4 [s]", 2.5, "m/s"}, {"param p = (2 [m])^2", 4, "m^2"},
      {"param p = 3 [cm]^2", 0.0009, "m^2"},    {"param p = sqrt(16 [m^2])", 4, "m"},
      {"param p = 1 [m] + 2", 3, "m"},          {"param p = -(1 [km])", -1000, "m"},
      {"param p = 2 [m] * 3", 6, "m"},          {"param p = 1 [h] / 1 [min]", 60, "1"},
  };
  for (const Case &c : cases) {
    DYNAMIC_SECTION(c.params) {
      checkParam(c.params, c.si, c.dimension);
    }
  }
}

TEST_CASE("a param without a unit is unchecked", "[units]") {
  ParamResult result = analyzeParam("param n = 10");
  INFO(result.messages);
  REQUIRE(result.ok);
  CHECK(result.value == 10);
  CHECK(result.dim.state == sema::DimInfo::Unchecked);
  CHECK(result.dim.toString() == "unchecked");
}

TEST_CASE("an unknown unit is an error", "[units]") {
  test::Session session;
  sema::Analysis analysis = session.analyze("model U { param p = 1 [furlong] }");
  CHECK_FALSE(analysis.ok);
  CHECK(session.messages() == "1:24: error: unknown unit 'furlong'\n");
}

TEST_CASE("dimensions print as products over quotients", "[units][dimension]") {
  Dimension mass = Dimension::mass(), length = Dimension::length(), time = Dimension::time();
  auto times = [](const Dimension &a, const Dimension &b) { return *a.times(b); };
  auto over = [](const Dimension &a, const Dimension &b) { return *a.over(b); };
  auto power = [](const Dimension &a, Rational p) { return *a.raisedTo(p); };

  CHECK(Dimension().toString() == "1");
  CHECK(Dimension().isDimensionless());
  CHECK(mass.toString() == "kg");
  CHECK(Dimension::energy().toString() == "kg*m^2/s^2");
  CHECK(Dimension::power().toString() == "kg*m^2/s^3");
  CHECK(Dimension::force().toString() == "kg*m/s^2");
  CHECK(over(Dimension(), time).toString() == "1/s");
  CHECK(over(mass, times(length, time)).toString() == "kg/(m*s)");
  CHECK(times(mass, power(length, 2)).toString() == "kg*m^2");
  CHECK(over(Dimension(), times(length, time)).toString() == "1/(m*s)");
  CHECK(over(length, power(time, 2)).toString() == "m/s^2");
  CHECK(power(length, *Rational::make(1, 2)).toString() == "m^(1/2)");
  CHECK(power(length, *Rational::make(-3, 2)).toString() == "1/m^(3/2)");
  CHECK(Dimension::base(Dimension::Current).toString() == "A");
  CHECK(Dimension::base(Dimension::Temperature).toString() == "K");
  CHECK(Dimension::base(Dimension::Amount).toString() == "mol");
  CHECK(Dimension::base(Dimension::Luminosity).toString() == "cd");
  CHECK(over(Dimension::energy(), Dimension::time()) == Dimension::power());
  CHECK(times(Dimension::force(), length) == Dimension::energy());
  CHECK(over(length, length).isDimensionless());
  CHECK_FALSE(Dimension::force() == Dimension::energy());
}

TEST_CASE("the dimension state of an expression prints", "[units][dimension]") {
  CHECK(sema::DimInfo::unchecked().toString() == "unchecked");
  CHECK(sema::DimInfo::pure().toString() == "1");
  CHECK(sema::DimInfo::known(Dimension::force()).toString() == "kg*m/s^2");
  CHECK_FALSE(sema::DimInfo::unchecked().effective().has_value());
  REQUIRE(sema::DimInfo::pure().effective().has_value());
  CHECK(sema::DimInfo::pure().effective()->isDimensionless());
}
