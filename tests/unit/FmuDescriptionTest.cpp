// The FMU's modelDescription.xml (driver/FmuDescription.h): the variables
// in the value-reference layout the FMU's binary relies on, their
// causalities, starts and units, the derivatives' and the model
// structure's indices, the unit definitions, escaping, the guid, and the
// model identifier taken from the output's file name.
#include "MechanicsTestSupport.h"

#include "driver/FmuDescription.h"

#include <regex>

using namespace mech;

namespace {

// A pendulum on a spring-mounted cart, pushed by an input, with an output
// and an event: every section of the value references is there.
constexpr const char *kCartPendulum = R"(
model CartPendulum {
  param m = 1 [kg], l = 0.5 [m], g = 9.81 [m/s^2], k = 40 [N/m], c = 0.25 [N*m*s/rad]
  param mc = 500 [g]
  input F [N]
  coord x [m], th [rad]
  kinetic mc/2 * x'^2 + m/2 * ((x' + l*cos(th)*th')^2 + (l*sin(th)*th')^2)
  potential k/2 * x^2 - m*g*l*cos(th)
  dissipation c/2 * th'^2
  generalized F on x
  output energy = m*g*l*(1 - cos(th))
  event upright: th == 3
  init x = 0.1, th = 0.5, th' = -0.25
}
)";

// The ScalarVariables' (name, valueReference) in the order of the file,
// the names unescaped (a speed's ' is written &apos;).
std::vector<std::pair<std::string, size_t>> variables(const std::string &xml) {
  std::vector<std::pair<std::string, size_t>> found;
  std::regex scalar("<ScalarVariable name=\"([^\"]*)\" valueReference=\"([0-9]+)\"");
  for (std::sregex_iterator it(xml.begin(), xml.end(), scalar), end; it != end; ++it)
    found.emplace_back(std::regex_replace((*it)[1].str(), std::regex("&apos;"), "'"),
                       std::stoul((*it)[2].str()));
  return found;
}

// The text of the ScalarVariable named `name` (escaped), up to its end tag.
std::string variable(const std::string &xml, const std::string &name) {
  size_t start = xml.find("<ScalarVariable name=\"" + name + "\"");
  INFO(name);
  REQUIRE(start != std::string::npos);
  return xml.substr(start, xml.find("</ScalarVariable>", start) - start);
}

bool has(const std::string &text, const std::string &part) {
  INFO(text << "\nhas no: " << part);
  return text.find(part) != std::string::npos;
}

driver::FmuDescription cartPendulum() {
  auto derived = test::derive(kCartPendulum);
  driver::FmuDescription d = driver::describeFmu(
      derived->model(), derived->equations(), derived->params(), derived->model().initialState());
  d.modelIdentifier = "cart";
  return d;
}

} // namespace

TEST_CASE("fmu: the variables in the value references' layout", "[fmu]") {
  std::string xml = driver::fmuModelDescription(cartPendulum()).xml;
  std::vector<std::pair<std::string, size_t>> expected = {
      {"m", 0},       {"l", 1},          {"g", 2},          {"k", 3},           {"c", 4},
      {"mc", 5},      {"F", 6},          {"x", 7},          {"th", 8},          {"x'", 9},
      {"th'", 10},    {"der(x)", 11},    {"der(th)", 12},   {"der(x')", 13},    {"der(th')", 14},
      {"energy", 15}, {"mech.rtol", 16}, {"mech.atol", 17}, {"mech.method", 18}};
  CHECK(variables(xml) == expected);

  CHECK(has(variable(xml, "mc"), "causality=\"parameter\" variability=\"fixed\" "
                                 "initial=\"exact\">\n      <Real start=\"0.5\" unit=\"kg\"/>"));
  CHECK(has(variable(xml, "F"), "causality=\"input\" variability=\"continuous\">\n      "
                                "<Real start=\"0\" unit=\"N\"/>"));
  CHECK(has(variable(xml, "th"), "causality=\"local\" variability=\"continuous\" "
                                 "initial=\"exact\">\n      <Real start=\"0.5\" unit=\"rad\"/>"));
  CHECK(has(variable(xml, "th&apos;"), "description=\"speed of th\""));
  CHECK(has(variable(xml, "th&apos;"), "<Real start=\"-0.25\" unit=\"rad/s\"/>"));
  CHECK(has(variable(xml, "x&apos;"), "<Real start=\"0\" unit=\"m/s\"/>"));
  // Each derivative points at its state's index, the value reference + 1.
  CHECK(has(variable(xml, "der(x)"), "<Real derivative=\"8\" unit=\"m/s\"/>"));
  CHECK(has(variable(xml, "der(th&apos;)"), "<Real derivative=\"11\" unit=\"rad/s^2\"/>"));
  CHECK_FALSE(has(variable(xml, "der(th)"), "start="));
  CHECK(has(variable(xml, "energy"), "causality=\"output\" variability=\"continuous\">\n      "
                                     "<Real unit=\"J\"/>"));
  CHECK(has(variable(xml, "mech.method"), "<Integer start=\"0\"/>"));
  CHECK(has(variable(xml, "mech.rtol"), "<Real start=\"1e-8\"/>"));
}

TEST_CASE("fmu: the header, units, experiment and model structure", "[fmu]") {
  driver::FmuDescription d = cartPendulum();
  d.stopTime = 5;
  d.stepSize = 0.001;
  std::string xml = driver::fmuModelDescription(d).xml;
  CHECK(has(xml, "fmiVersion=\"2.0\" modelName=\"CartPendulum\""));
  CHECK(has(xml, "variableNamingConvention=\"flat\" numberOfEventIndicators=\"1\""));
  CHECK(has(xml, "generationTool=\"mech "));
  CHECK(has(xml, "<ModelExchange modelIdentifier=\"cart\" canGetAndSetFMUstate=\"true\""));
  CHECK(has(xml, "<CoSimulation modelIdentifier=\"cart\" "
                 "canHandleVariableCommunicationStepSize=\"true\""));
  CHECK(has(xml, "<DefaultExperiment startTime=\"0\" stopTime=\"5\" stepSize=\"0.001\" "
                 "tolerance=\"1e-8\"/>"));

  // N/m as written; c's N*m*s/rad with its radian; g's unit of 500 [g] in kg.
  CHECK(has(xml, "<Unit name=\"N/m\">\n      <BaseUnit kg=\"1\" s=\"-2\"/>"));
  CHECK(has(xml, "<Unit name=\"N*m*s/rad\">\n      <BaseUnit kg=\"1\" m=\"2\" s=\"-1\" "
                 "rad=\"-1\"/>"));
  CHECK(has(xml, "<Unit name=\"rad/s^2\">\n      <BaseUnit s=\"-2\" rad=\"1\"/>"));
  CHECK(has(xml, "<Unit name=\"J\">\n      <BaseUnit kg=\"1\" m=\"2\" s=\"-2\"/>"));
  CHECK_FALSE(has(xml, "<Unit name=\"g\""));
  std::regex unit("<Unit name=\"([^\"]*)\"");
  std::vector<std::string> units;
  for (std::sregex_iterator it(xml.begin(), xml.end(), unit), end; it != end; ++it)
    units.push_back((*it)[1].str());
  CHECK(units == std::vector<std::string>{"J", "N", "N*m*s/rad", "N/m", "kg", "m", "m/s", "m/s^2",
                                          "rad", "rad/s", "rad/s^2"});

  CHECK(has(xml, "<Outputs>\n      <Unknown index=\"16\"/>\n    </Outputs>"));
  CHECK(has(xml, "<Derivatives>\n      <Unknown index=\"12\"/>\n      <Unknown index=\"13\"/>\n"
                 "      <Unknown index=\"14\"/>\n      <Unknown index=\"15\"/>\n"
                 "    </Derivatives>"));
  CHECK(has(xml, "<InitialUnknowns>\n      <Unknown index=\"12\"/>\n      <Unknown index=\"13\"/>\n"
                 "      <Unknown index=\"14\"/>\n      <Unknown index=\"15\"/>\n"
                 "      <Unknown index=\"16\"/>\n    </InitialUnknowns>"));
}

TEST_CASE("fmu: text is escaped, and the guid hashes the rest", "[fmu]") {
  driver::FmuDescription d = cartPendulum();
  driver::FmuXml first = driver::fmuModelDescription(d);
  CHECK(
      std::regex_match(first.guid, std::regex("\\{[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}\\}")));
  CHECK(has(first.xml, "guid=\"" + first.guid + "\""));
  CHECK(driver::fmuModelDescription(d).xml == first.xml);

  d.params[0].start = 2;
  CHECK(driver::fmuModelDescription(d).guid != first.guid);
  d.description = "a<b & c>\"d\" 'e'";
  CHECK(has(driver::fmuModelDescription(d).xml,
            "description=\"a&lt;b &amp; c&gt;&quot;d&quot; &apos;e&apos;\""));
}

TEST_CASE("fmu: the model identifier from the output's name", "[fmu]") {
  CHECK(driver::fmuModelIdentifier("pendulum.fmu") == "pendulum");
  CHECK(driver::fmuModelIdentifier("out/double-pendulum.v2.fmu") == "double_pendulum_v2");
  CHECK(driver::fmuModelIdentifier("/tmp/2dof.fmu") == "_2dof");
  CHECK(driver::fmuModelIdentifier("model") == "model");
}
