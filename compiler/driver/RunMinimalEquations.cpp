// `mech equations --minimal` on a constrained model: the independent speeds
// chosen as `linearize` chooses them (pivoting on the constraint Jacobian,
// here at the model's init configuration, or --independent), then Kane's
// equations in them (mechanics/MinimalEquations.h), printed by
// driver/MinimalReport.
#include "driver/Commands.h"

#include "driver/InitialState.h"
#include "driver/LinearizeSweep.h"
#include "driver/MinimalReport.h"
#include "driver/Reports.h"
#include "driver/Session.h"
#include "mechanics/ConstrainedLinearization.h"

#include <algorithm>
#include <ostream>

namespace mech::driver {

namespace {

std::string speedList(const mechanics::Equations &eq, const std::vector<size_t> &indices) {
  std::string text;
  for (size_t j : indices)
    text += (text.empty() ? "" : ", ") + eq.coordinates[j] + "'";
  return text;
}

// The dependent speeds: the complement of the user's independent ones, or
// pivoting's choice at the state. Nullopt after reporting why not.
std::optional<std::vector<size_t>> chooseDependent(LoadedModel &loaded,
                                                   const mechanics::IndependentChoice &choice,
                                                   const mechanics::Matrix &C) {
  const mechanics::Equations &eq = loaded.equations();
  std::string why;
  std::optional<std::vector<size_t>> dependent = mechanics::dependentSpeeds(C, choice.speeds, why);
  if (dependent)
    return dependent;
  if (choice.speeds.empty()) {
    loaded.diagnostics().error({}, "--minimal: " + why + " (at the model's init configuration)");
  } else if (choice.speeds.size() + eq.constraints.size() != eq.coordinates.size()) {
    loaded.diagnostics().error({}, "--independent: " + why + " (" +
                                       std::to_string(eq.coordinates.size()) + " coordinates, " +
                                       std::to_string(eq.constraints.size()) + " constraints)");
  } else {
    std::vector<size_t> rest;
    for (size_t j = 0; j < eq.coordinates.size(); ++j)
      if (std::find(choice.speeds.begin(), choice.speeds.end(), j) == choice.speeds.end())
        rest.push_back(j);
    const char *verb = choice.speeds.size() == 1 ? " does not determine " : " do not determine ";
    loaded.diagnostics().error({}, "--independent: " + speedList(eq, choice.speeds) + verb +
                                       speedList(eq, rest) + " (the constraints' Jacobian in " +
                                       speedList(eq, rest) +
                                       " is singular at the model's init configuration)");
  }
  return std::nullopt;
}

// The choice of --independent: speeds only (names with a prime).
std::optional<mechanics::IndependentChoice> speedChoice(LoadedModel &loaded,
                                                        const std::string &text) {
  std::optional<mechanics::IndependentChoice> choice = independentChoice(loaded, text);
  if (choice && !choice->coordinates.empty()) {
    const std::string &name = loaded.equations().coordinates[choice->coordinates[0]];
    loaded.diagnostics().error({}, "--independent: '" + name +
                                       "' is a coordinate; --minimal takes the independent "
                                       "speeds, written with a prime (" +
                                       name + "')");
    return std::nullopt;
  }
  return choice;
}

// Why the minimal equations cannot be formed, or "": a constant that
// overflows (as `equations` refuses), or more constraints than coordinates
// (redundant or conflicting: no speed is left to choose).
std::string refusal(const mechanics::Equations &eq) {
  if (std::string overflow = nonFiniteConstants(eq); !overflow.empty())
    return overflow;
  size_t n = eq.coordinates.size(), m = eq.constraints.size();
  if (m > n)
    return "--minimal: " + std::to_string(m) + " constraints on " + std::to_string(n) +
           (n == 1 ? " coordinate" : " coordinates") +
           " are redundant or conflicting: there are no independent speeds";
  return "";
}

} // namespace

int runMinimalEquations(const CommandLine &line, Session &session, const CommandIo &io) {
  LoadedModel &loaded = session.loaded();
  const mechanics::Equations &eq = loaded.equations();
  if (std::string refused = refusal(eq); !refused.empty()) {
    loaded.diagnostics().error(loaded.model().location, refused);
    session.printDiagnostics(io.err);
    return kExitModelError;
  }
  std::optional<mechanics::IndependentChoice> choice =
      speedChoice(loaded, line.value("--independent"));
  std::vector<std::string> notes;
  std::optional<mechanics::State> state =
      choice ? consistentState(loaded, "", Velocities::GivenOrInit, notes) : std::nullopt;
  std::optional<mechanics::MinimalEquations> minimal;
  if (state) {
    mechanics::Matrix C = mechanics::constraintJacobianAt(eq, loaded.paramValues(state->t), *state);
    if (std::optional<std::vector<size_t>> dependent = chooseDependent(loaded, *choice, C)) {
      minimal = mechanics::minimalEquations(eq, *dependent, C);
      if (!minimal)
        loaded.diagnostics().error({}, "--minimal: the constraints' Jacobian in " +
                                           speedList(eq, *dependent) +
                                           " is singular at the model's init configuration");
    }
  }
  session.printDiagnostics(io.err);
  if (!minimal)
    return kExitModelError;
  MinimalReport report{eq, mechanics::readableMinimal(*minimal), *state, !choice->speeds.empty()};
  io.out << (line.has("--json")    ? minimalJson(report)
             : line.has("--latex") ? minimalLatex(report)
                                   : minimalText(report));
  return kExitOk;
}

} // namespace mech::driver
