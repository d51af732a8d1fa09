// The text of modelDescription.xml (FmuDescription.h), element by element
// in the order the FMI 2.0 schema requires: the interfaces, the units, the
// default experiment, the variables in value-reference order (so that a
// variable's 1-based index is its value reference + 1) and the model
// structure. The guid is a hash of the text written with an empty guid.
#include "driver/FmuDescription.h"

#include "support/NumberText.h"
#include "support/XmlText.h"

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <sstream>

namespace mech::driver {

namespace {

// ` name="value"`, escaped; nothing for an empty value.
std::string attribute(const std::string &name, const std::string &value) {
  return value.empty() ? "" : " " + name + "=\"" + xmlEscape(value) + "\"";
}

// A number as xs:double reads it: the shortest round-trip digits, and INF,
// -INF, NaN where mech would write inf, -inf, nan.
std::string number(double value) {
  std::string text = shortestNumber(value);
  if (text == "inf")
    return "INF";
  if (text == "-inf")
    return "-INF";
  return text == "nan" ? "NaN" : text;
}

// One ScalarVariable; `type` holds its type element's attributes, already
// written (` start="1" unit="m"`).
struct Scalar {
  std::string name, description, causality, variability, initial;
  std::string element = "Real", type;
};

void writeScalar(std::ostringstream &out, size_t valueReference, const Scalar &s) {
  out << "    <!-- index " << valueReference + 1 << " -->\n    <ScalarVariable"
      << attribute("name", s.name) << " valueReference=\"" << valueReference << "\""
      << attribute("description", s.description) << attribute("causality", s.causality)
      << attribute("variability", s.variability) << attribute("initial", s.initial) << ">\n      <"
      << s.element << s.type << "/>\n    </ScalarVariable>\n";
}

void writeParams(std::ostringstream &out, const FmuDescription &d) {
  size_t firstInput = d.params.size() - d.inputs;
  for (size_t i = 0; i < d.params.size(); ++i) {
    const FmuVariable &p = d.params[i];
    // An input starts at 0 as a built library's does until it is set.
    if (i >= firstInput)
      writeScalar(out, i,
                  {p.name, p.description, "input", "continuous", "", "Real",
                   " start=\"0\"" + attribute("unit", p.unit)});
    else
      writeScalar(out, i,
                  {p.name, p.description, "parameter", "fixed", "exact", "Real",
                   " start=\"" + number(p.start) + "\"" + attribute("unit", p.unit)});
  }
}

// The states q and q', then their derivatives, each pointing at its state
// by the state's index (value reference + 1).
void writeStates(std::ostringstream &out, const FmuDescription &d) {
  FmuLayout layout{d.params.size(), d.coordinates.size(), d.outputs.size()};
  std::vector<const FmuVariable *> states;
  for (const FmuVariable &q : d.coordinates)
    states.push_back(&q);
  for (const FmuVariable &v : d.speeds)
    states.push_back(&v);
  // With constraints the start state is moved onto them when
  // initialisation ends: its values are then start values of an iteration.
  const char *initial = d.constrained ? "approx" : "exact";
  for (size_t k = 0; k < states.size(); ++k)
    writeScalar(
        out, layout.firstCoordinate() + k,
        {states[k]->name, states[k]->description, "local", "continuous", initial, "Real",
         " start=\"" + number(states[k]->start) + "\"" + attribute("unit", states[k]->unit)});
  for (size_t k = 0; k < states.size(); ++k)
    writeScalar(out, layout.firstDerivative() + k,
                {"der(" + states[k]->name + ")", "derivative of " + states[k]->name, "local",
                 "continuous", "", "Real",
                 " derivative=\"" + std::to_string(layout.firstCoordinate() + k + 1) + "\"" +
                     attribute("unit", states[k]->derivativeUnit)});
}

void writeOutputsAndSettings(std::ostringstream &out, const FmuDescription &d) {
  FmuLayout layout{d.params.size(), d.coordinates.size(), d.outputs.size()};
  for (size_t k = 0; k < d.outputs.size(); ++k)
    writeScalar(out, layout.firstOutput() + k,
                {d.outputs[k].name, d.outputs[k].description, "output", "continuous", "", "Real",
                 attribute("unit", d.outputs[k].unit)});
  size_t setting = layout.firstSetting();
  writeScalar(out, setting,
              {"mech.rtol", "Co-Simulation's relative tolerance", "parameter", "fixed", "exact",
               "Real", " start=\"1e-8\""});
  writeScalar(out, setting + 1,
              {"mech.atol", "Co-Simulation's absolute tolerance", "parameter", "fixed", "exact",
               "Real", " start=\"1e-10\""});
  writeScalar(out, setting + 2,
              {"mech.method", "Co-Simulation's integrator: 0 DOPRI5, 1 Radau IIA", "parameter",
               "fixed", "exact", "Integer", " start=\"0\""});
}

void writeUnits(std::ostringstream &out, const std::vector<FmuUnit> &units) {
  if (units.empty())
    return; // the schema wants at least one Unit in UnitDefinitions
  static const char *bases[8] = {"kg", "m", "s", "A", "K", "mol", "cd", "rad"};
  out << "  <UnitDefinitions>\n";
  for (const FmuUnit &unit : units) {
    out << "    <Unit" << attribute("name", unit.name);
    if (!unit.hasBaseUnit) {
      out << "/>\n";
      continue;
    }
    out << ">\n      <BaseUnit";
    for (size_t b = 0; b < 8; ++b)
      if (unit.exponents[b] != 0)
        out << " " << bases[b] << "=\"" << unit.exponents[b] << "\"";
    out << "/>\n    </Unit>\n";
  }
  out << "  </UnitDefinitions>\n";
}

// Outputs, derivatives and the initial unknowns (the outputs and the
// derivatives, and the states when they are approx), by index; no
// dependencies given, which means each may depend on every known.
void writeModelStructure(std::ostringstream &out, const FmuDescription &d) {
  FmuLayout layout{d.params.size(), d.coordinates.size(), d.outputs.size()};
  auto unknowns = [&](const char *element, size_t first, size_t count) {
    if (count == 0)
      return;
    out << "    <" << element << ">\n";
    for (size_t k = 0; k < count; ++k)
      out << "      <Unknown index=\"" << first + k + 1 << "\"/>\n";
    out << "    </" << element << ">\n";
  };
  out << "  <ModelStructure>\n";
  unknowns("Outputs", layout.firstOutput(), d.outputs.size());
  unknowns("Derivatives", layout.firstDerivative(), 2 * d.coordinates.size());
  // The states', the derivatives' and the outputs' value references
  // follow each other: sorted.
  size_t states = 2 * d.coordinates.size();
  if (d.constrained)
    unknowns("InitialUnknowns", layout.firstCoordinate(), 2 * states + d.outputs.size());
  else
    unknowns("InitialUnknowns", layout.firstDerivative(), states + d.outputs.size());
  out << "  </ModelStructure>\n";
}

void writeOpening(std::ostringstream &out, const FmuDescription &d, const std::string &guid) {
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<fmiModelDescription fmiVersion=\"2.0\""
      << attribute("modelName", d.modelName) << " guid=\"" << xmlEscape(guid) << "\""
      << attribute("description", d.description) << attribute("generationTool", d.generationTool)
      << " variableNamingConvention=\"flat\" numberOfEventIndicators=\"" << d.eventIndicators
      << "\">\n";
  std::string id = attribute("modelIdentifier", d.modelIdentifier);
  out << "  <ModelExchange" << id
      << " canGetAndSetFMUstate=\"true\" canSerializeFMUstate=\"true\""
         " canNotUseMemoryManagementFunctions=\"true\" providesDirectionalDerivative=\"true\"/>\n";
  out << "  <CoSimulation" << id
      << " canHandleVariableCommunicationStepSize=\"true\" canInterpolateInputs=\"true\""
         " canGetAndSetFMUstate=\"true\""
         " canSerializeFMUstate=\"true\" canNotUseMemoryManagementFunctions=\"true\" "
         "providesDirectionalDerivative=\"true\"/>\n";
}

std::string descriptionText(const FmuDescription &d, const std::string &guid) {
  std::ostringstream out;
  writeOpening(out, d, guid);
  writeUnits(out, d.units);
  // The categories the binary logs under (runtime/library/Fmi2*.c).
  out << "  <LogCategories>\n"
         "    <Category name=\"logStatusError\" description=\"a call that failed, and why\"/>\n"
         "    <Category name=\"logEvents\" description=\"the model's events as they fire\"/>\n"
         "  </LogCategories>\n";
  out << "  <DefaultExperiment startTime=\"0\" stopTime=\"" << number(d.stopTime)
      << "\" stepSize=\"" << number(d.stepSize) << "\" tolerance=\"1e-8\"/>\n";
  out << "  <ModelVariables>\n";
  writeParams(out, d);
  writeStates(out, d);
  writeOutputsAndSettings(out, d);
  out << "  </ModelVariables>\n";
  writeModelStructure(out, d);
  out << "</fmiModelDescription>\n";
  return out.str();
}

uint64_t fnv1a(const std::string &text, uint64_t basis) {
  uint64_t hash = basis;
  for (char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ull;
  }
  return hash;
}

// 128 bits from two FNV-1a hashes (FNV's offset basis, and another), as
// {xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}.
std::string guidOf(const std::string &text) {
  uint64_t high = fnv1a(text, 0xcbf29ce484222325ull), low = fnv1a(text, 0x6c62272e07bb0142ull);
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "{%08x-%04x-%04x-%04x-%04x%08x}",
                static_cast<unsigned>(high >> 32), static_cast<unsigned>((high >> 16) & 0xFFFF),
                static_cast<unsigned>(high & 0xFFFF), static_cast<unsigned>(low >> 48),
                static_cast<unsigned>((low >> 32) & 0xFFFF),
                static_cast<unsigned>(low & 0xFFFFFFFF));
  return buffer;
}

} // namespace

FmuXml fmuModelDescription(const FmuDescription &description) {
  FmuXml result;
  result.guid = guidOf(descriptionText(description, ""));
  result.xml = descriptionText(description, result.guid);
  return result;
}

std::string fmuModelIdentifier(const std::string &outputPath) {
  std::string name = std::filesystem::path(outputPath).filename().string();
  if (name.size() > 4 && name.compare(name.size() - 4, 4, ".fmu") == 0)
    name.resize(name.size() - 4);
  for (char &c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
      c = '_';
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])))
    name = "_" + name;
  return name;
}

} // namespace mech::driver
