// `mech solve FILE --at "phi=0.3" --for P [--for Q ...]`: statics by
// virtual work. Finds the values of the named params that make the
// configuration given by --at an equilibrium (mechanics/Statics.h), puts
// the configuration onto the constraints first (the coordinates --at gives
// are kept), and prints the solution with units, the support reactions and
// whether the question was exactly, under- or over-determined.
#include "driver/Commands.h"
#include "driver/Session.h"
#include "support/NumberText.h"

#include "driver/Pipeline.h"
#include "driver/Reports.h"
#include "mechanics/Admissibility.h"
#include "mechanics/ConstraintProjection.h"
#include "mechanics/Kernels.h"
#include "mechanics/Statics.h"
#include "sema/Values.h"
#include "support/Json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <sstream>

namespace mech::driver {

namespace {

using mechanics::StaticsSolution;

std::string number(double value) {
  return formatNumber(value, 6);
}

// " N", " N*m", " kg": the unit of a param or multiplier, or "" when the
// dimension is not known or is a pure number.
std::string unitOf(const sema::DimInfo &dim) {
  if (!dim.isKnown() || dim.dimension.isDimensionless())
    return "";
  return forceUnit(dim);
}

// --for values, each possibly a comma-separated list.
std::vector<std::string> unknownNames(const std::vector<std::string> &fors) {
  std::vector<std::string> names;
  for (const std::string &text : fors) {
    std::stringstream list(text);
    std::string name;
    while (std::getline(list, name, ',')) {
      size_t first = name.find_first_not_of(" \t"), last = name.find_last_not_of(" \t");
      if (first != std::string::npos)
        names.push_back(name.substr(first, last - first + 1));
    }
  }
  return names;
}

// The param indices of the names, or errors located at the model.
std::optional<std::vector<size_t>> resolveUnknowns(LoadedModel &loaded,
                                                   const std::vector<std::string> &names) {
  const sema::CheckedModel &model = loaded.model();
  std::vector<size_t> indices;
  bool ok = true;
  for (const std::string &name : names) {
    auto found = std::find_if(model.params.begin(), model.params.end(),
                              [&](const sema::Param &p) { return p.name == name; });
    if (found == model.params.end()) {
      std::string list;
      for (const sema::Param &p : model.params)
        if (!p.structural)
          list += (list.empty() ? "" : ", ") + p.name;
      loaded.diagnostics().error(
          model.location,
          "--for '" + name + "': not a param of " + model.name +
              (list.empty() ? " (it has no params)" : " (its params: " + list + ")"));
      ok = false;
      continue;
    }
    size_t index = static_cast<size_t>(found - model.params.begin());
    if (found->structural) {
      loaded.diagnostics().error(found->location, "--for '" + name +
                                                      "': a structural param (a range bound) "
                                                      "cannot be solved for");
      ok = false;
    } else if (std::find(indices.begin(), indices.end(), index) != indices.end()) {
      loaded.diagnostics().error(model.location, "--for '" + name + "' is given twice");
      ok = false;
    } else {
      indices.push_back(index);
    }
  }
  if (!ok)
    return std::nullopt;
  return indices;
}

// The coordinates --at names: they are what the question is about, so they
// win over the model's init when the two together miss the constraints.
// Falls back to `init` (the coordinates init gives) when --at names none.
std::vector<bool> keptCoordinates(LoadedModel &loaded, const std::string &at,
                                  std::vector<bool> init, bool &fromAt) {
  const sema::CheckedModel &model = loaded.model();
  std::vector<bool> kept(model.coords.size(), false);
  bool any = false;
  if (at.find_first_not_of(" \t") != std::string::npos)
    if (auto assignments = sema::parseAssignments(*loaded.compilation, "--at", at, &model))
      for (const sema::Assignment &a : *assignments)
        for (size_t j = 0; j < kept.size(); ++j)
          if (a.primes == 0 && model.coords[j].name == a.name)
            kept[j] = any = true;
  fromAt = any;
  return any ? kept : init;
}

// " m", " (60 deg)": how a coordinate's value reads.
std::string coordinateValue(const sema::DimInfo &dim, double value) {
  if (dim.isKnown() && dim.dimension.isDimensionless())
    return number(value) + " (" + number(value * 180 / 3.14159265358979323846) + " deg)";
  if (dim.isKnown())
    return number(value) + " " + dim.dimension.toString();
  return number(value);
}

// Puts q onto the holonomic constraints, keeping the coordinates in `given`
// where the constraints allow; marks those that moved.
bool placeOnConstraints(LoadedModel &loaded, const std::vector<double> &params,
                        mechanics::State &state, const std::vector<bool> &given,
                        std::vector<bool> &moved) {
  const mechanics::Equations &eq = loaded.equations();
  size_t n = eq.coordinates.size();
  moved.assign(n, false);
  std::vector<bool> holonomic = mechanics::holonomicFlags(eq);
  if (std::find(holonomic.begin(), holonomic.end(), true) == holonomic.end())
    return true;
  auto kernels = mechanics::interpretedKernels(loaded.programs());
  mechanics::ConstraintProjector projector(*kernels, params, holonomic);
  std::vector<double> x(2 * n, 0.0);
  std::copy(state.q.begin(), state.q.end(), x.begin());
  mechanics::ProjectionResult result = projector.projectPositions(state.t, x.data(), {given});
  if (!result.ok) {
    loaded.diagnostics().error(loaded.model().location,
                               "the configuration given by --at cannot be put onto the "
                               "constraints (largest residual " +
                                   number(result.residual) + ")");
    return false;
  }
  for (size_t j = 0; j < n; ++j) {
    moved[j] = std::abs(x[j] - state.q[j]) > 1e-12 * (1 + std::abs(state.q[j]));
    state.q[j] = x[j];
  }
  return true;
}

std::string determinedText(const StaticsSolution &s, size_t unknowns) {
  std::string counts = std::to_string(unknowns) + (unknowns == 1 ? " unknown, " : " unknowns, ") +
                       std::to_string(s.equations) +
                       (s.equations == 1 ? " equilibrium condition" : " equilibrium conditions");
  switch (s.determined) {
  case StaticsSolution::Determined::Under:
    return "under-determined (" + counts + ", " + std::to_string(s.rank) +
           " independent): the minimum-norm solution is shown";
  case StaticsSolution::Determined::Over:
    return "over-determined (" + counts + "): the least-squares solution is shown";
  default:
    return "exactly determined (" + counts + ")";
  }
}

// "m1 = -1 kg": an unknown with its value, in the unit it was declared in
// (k = 40 [N/m], m = 200 [g]).
std::string unknownValue(const sema::Param &p, double si) {
  std::string unit = p.unit ? p.unit->text : unitOf(p.dim);
  double value = p.unit ? si / p.unit->scale : si;
  return p.name + " = " + number(value) + (unit.empty() || unit == "1" ? "" : " " + unit);
}

// Why a solved value is impossible: "with m1 = -1 kg the mass of particle
// 'P' would be -1 kg, and it cannot be negative".
std::string impossibleReason(const sema::CheckedModel &model, const std::vector<size_t> &unknowns,
                             const StaticsSolution &s, const mechanics::ImpossibleValue &v) {
  std::string values;
  for (size_t u : v.unknowns)
    values +=
        (values.empty() ? "" : " and ") + unknownValue(model.params[unknowns[u]], s.values[u]);
  if (!v.direction.empty())
    return "with " + values + " the kinetic energy is negative for " + v.direction +
           " (the mass matrix is not positive definite), which no mechanism has";
  // The param is the quantity itself (`mass m`, `spring k`).
  if (v.unknowns.size() == 1 &&
      std::abs(v.value - s.values[v.unknowns[0]]) <= 1e-12 * std::abs(v.value))
    return values + " is " + v.what + ", which cannot be negative";
  std::string unit = unitOf(v.dim);
  return "with " + values + " " + v.what + " would be " + number(v.value) +
         (unit.empty() ? "" : " " + unit) + ", and it cannot be negative";
}

// What an impossible solution means for the question asked.
std::string impossibleVerdict(const sema::CheckedModel &model, const std::vector<size_t> &unknowns,
                              const StaticsSolution &s) {
  std::string names;
  for (size_t i = 0; i < unknowns.size(); ++i)
    names += (i ? ", " : "") + model.params[unknowns[i]].name;
  switch (s.determined) {
  case StaticsSolution::Determined::Under:
    return "the minimum-norm solution is not admissible; an admissible one may lie along the free "
           "directions";
  case StaticsSolution::Determined::Over:
    return "the configuration is not an equilibrium for any value of " + names +
           ", and the least-squares one is not admissible either";
  default:
    return "the configuration is not an equilibrium for any admissible value of " + names;
  }
}

// The coordinates whose equilibrium condition the solution leaves unmet
// (|f + C^T lambda| above the balance tolerance of the forces involved).
std::vector<size_t> unbalancedCoordinates(const StaticsSolution &s) {
  std::vector<size_t> result;
  for (size_t j = 0; j < s.imbalance.size(); ++j)
    if (!s.balanced && std::abs(s.imbalance[j]) > 1e-9 * s.forceScale)
      result.push_back(j);
  return result;
}

std::string solutionText(const LoadedModel &loaded, const mechanics::State &state,
                         const std::vector<bool> &moved, const std::vector<size_t> &unknowns,
                         const StaticsSolution &s,
                         const std::vector<mechanics::ImpossibleValue> &impossible) {
  const sema::CheckedModel &model = loaded.model();
  const mechanics::Equations &eq = loaded.equations();
  std::ostringstream out;
  out << "model " << model.name << ": statics at ";
  for (size_t j = 0; j < eq.coordinates.size(); ++j)
    out << (j ? ", " : "") << eq.coordinates[j] << " = "
        << coordinateValue(eq.coordinateDims[j], state.q[j])
        << (moved[j] ? " (from the constraints)" : "");
  if (eq.hasExplicitTime)
    out << ", t = " << number(state.t);
  out << "\n" << determinedText(s, unknowns.size()) << "\n\n";
  size_t width = 0;
  for (size_t u : unknowns)
    width = std::max(width, model.params[u].name.size());
  for (size_t i = 0; i < unknowns.size(); ++i) {
    const sema::Param &p = model.params[unknowns[i]];
    out << "  " << p.name << std::string(width - p.name.size(), ' ')
        << unknownValue(p, s.values[i]).substr(p.name.size()) << "\n";
  }
  if (!impossible.empty()) {
    out << "\n";
    for (const mechanics::ImpossibleValue &v : impossible)
      out << "impossible: " << impossibleReason(model, unknowns, s, v) << "\n";
    out << impossibleVerdict(model, unknowns, s) << "\n";
  }
  for (size_t i : s.inert)
    out << "  (" << model.params[unknowns[i]].name
        << " does not act on the balance at this configuration: its value is left as given)\n";
  if (!s.freeDirections.empty()) {
    out << "\nfree directions (adding any multiple keeps the balance):\n";
    for (const std::vector<double> &v : s.freeDirections) {
      out << "  ";
      for (size_t i = 0; i < unknowns.size(); ++i)
        out << (i ? ", " : "") << "d" << model.params[unknowns[i]].name << " = " << number(v[i]);
      out << "\n";
    }
  }
  if (!s.lambda.empty()) {
    out << "\nsupport reactions (multipliers; C^T*lambda is the generalized reaction):\n";
    for (size_t i = 0; i < eq.constraints.size(); ++i) {
      std::string unit = unitOf(eq.constraints[i].multiplierDim);
      out << "  " << eq.constraints[i].name << " = " << number(s.lambda[i])
          << (unit.empty() ? "" : " " + unit) << "\n";
    }
    if (!s.redundantNote.empty())
      out << "  note: " << s.redundantNote << "\n";
  }
  if (std::vector<size_t> unmet = unbalancedCoordinates(s); !unmet.empty()) {
    out << "\nequilibrium conditions not met by the solution ("
        << (eq.constraints.empty() ? "f" : "f + C^T*lambda") << " on each coordinate):\n";
    for (size_t j : unmet) {
      std::string unit = forceUnit(eq.Qdim[j]);
      out << "  " << eq.coordinates[j] << ": " << number(s.imbalance[j])
          << (unit.empty() ? "" : " " + unit) << "\n";
    }
  }
  out << "\nresidual " << (eq.constraints.empty() ? "|f|" : "|f + C^T*lambda|") << " = "
      << number(s.residual);
  if (s.balanced)
    out << " (balanced)\n";
  else
    out << " against forces of " << number(s.forceScale)
        << ": the configuration cannot be balanced exactly by "
        << (unknowns.size() == 1 ? "this param" : "these params") << "\n";
  if (!s.converged)
    out << "warning: Newton's method did not converge in " << s.iterations << " iterations\n";
  return out.str();
}

std::string solutionJson(const LoadedModel &loaded, const mechanics::State &state,
                         const std::vector<size_t> &unknowns, const StaticsSolution &s,
                         const std::vector<mechanics::ImpossibleValue> &impossible) {
  const sema::CheckedModel &model = loaded.model();
  const mechanics::Equations &eq = loaded.equations();
  JsonWriter json;
  json.beginObject().key("model").value(model.name);
  json.key("at").beginObject();
  for (size_t j = 0; j < eq.coordinates.size(); ++j)
    json.key(eq.coordinates[j]).value(state.q[j]);
  json.endObject().key("t").value(state.t);
  json.key("solution").beginObject();
  for (size_t i = 0; i < unknowns.size(); ++i)
    json.key(model.params[unknowns[i]].name).value(s.values[i]);
  json.endObject().key("units").beginObject();
  for (size_t u : unknowns) {
    std::string unit = unitOf(model.params[u].dim);
    json.key(model.params[u].name);
    unit.empty() ? json.null() : json.value(unit);
  }
  json.endObject().key("units_declared").beginObject();
  for (size_t u : unknowns) {
    const std::optional<sema::DeclaredUnit> &declared = model.params[u].unit;
    json.key(model.params[u].name);
    declared ? json.value(declared->text) : json.null();
  }
  json.endObject();
  json.key("residual").value(s.residual);
  json.key("balanced").value(s.balanced);
  json.key("determined").value(mechanics::determinedName(s.determined));
  json.key("equations").value(static_cast<double>(s.equations));
  json.key("rank").value(static_cast<double>(s.rank));
  json.key("free_directions").beginArray();
  for (const std::vector<double> &v : s.freeDirections) {
    json.beginObject();
    for (size_t i = 0; i < unknowns.size(); ++i)
      json.key(model.params[unknowns[i]].name).value(v[i]);
    json.endObject();
  }
  json.endArray();
  if (!eq.constraints.empty()) {
    json.key("reactions").beginObject();
    for (size_t i = 0; i < eq.constraints.size(); ++i)
      json.key(eq.constraints[i].name).value(s.lambda[i]);
    json.endObject();
  }
  json.key("notes").beginArray();
  if (!s.redundantNote.empty())
    json.value(s.redundantNote);
  json.endArray();
  json.key("inert").beginArray();
  for (size_t i : s.inert)
    json.value(model.params[unknowns[i]].name);
  json.endArray();
  json.key("converged").value(s.converged);
  json.key("unbalanced").beginObject();
  for (size_t j : unbalancedCoordinates(s))
    json.key(eq.coordinates[j]).value(s.imbalance[j]);
  json.endObject();
  json.key("admissible").value(impossible.empty());
  json.key("impossible").beginArray();
  for (const mechanics::ImpossibleValue &v : impossible) {
    json.beginObject().key("params").beginArray();
    for (size_t u : v.unknowns)
      json.value(model.params[unknowns[u]].name);
    json.endArray().key("reason").value(impossibleReason(model, unknowns, s, v));
    json.endObject();
  }
  json.endArray();
  if (!impossible.empty())
    json.key("verdict").value(impossibleVerdict(model, unknowns, s));
  json.endObject();
  return json.str() + "\n";
}

} // namespace

int runSolve(const CommandLine &line, Session &session, const CommandIo &io) {
  std::vector<std::string> names = unknownNames(line.values("--for"));
  if (names.empty())
    return io.usageError("solve: name the param to solve for with --for PARAM");
  if (!session.derive()) {
    session.printDiagnostics(io.err);
    return kExitModelError;
  }
  LoadedModel *loaded = &session.loaded();
  std::string at = line.value("--at");
  std::optional<std::vector<size_t>> unknowns = resolveUnknowns(*loaded, names);
  std::vector<bool> given, moved;
  std::optional<mechanics::State> state;
  GivenValues givenValues;
  if (unknowns)
    state = parseState(*loaded, at, &givenValues);
  if (state)
    given = givenValues.positionPreferences().front(); // the command line's and the init's
  std::vector<double> params = loaded->paramValues();
  std::optional<StaticsSolution> solution;
  if (state) {
    std::fill(state->qd.begin(), state->qd.end(), 0.0); // statics: at rest
    bool fromAt = false;
    given = keptCoordinates(*loaded, at, given, fromAt);
    bool placed = placeOnConstraints(*loaded, params, *state, given, moved);
    // Moving what --at asked about would answer another question.
    for (size_t j = 0; placed && fromAt && j < moved.size(); ++j)
      if (given[j] && moved[j]) {
        loaded->diagnostics().error(loaded->model().location,
                                    "the configuration given by --at is not on the constraints: "
                                    "'" +
                                        loaded->equations().coordinates[j] +
                                        "' would have to move to " + number(state->q[j]) +
                                        "; give values that satisfy them");
        placed = false;
      }
    if (placed) {
      std::vector<std::string> paramNames;
      for (const sema::Param &p : loaded->model().params)
        paramNames.push_back(p.name);
      mechanics::StaticsProblem problem{params, *unknowns, *state};
      solution = mechanics::solveStatics(loaded->equations(),
                                         loaded->derivation->lowering->params(), paramNames,
                                         problem, loaded->diagnostics(), loaded->model().location);
    }
  }
  // A value no mechanism can have answers no question: say so where the
  // param is used that way (the exit status stays that of a configuration
  // that cannot be balanced).
  std::vector<mechanics::ImpossibleValue> impossible;
  if (solution) {
    mechanics::StaticsProblem problem{params, *unknowns, *state};
    impossible = mechanics::impossibleValues(loaded->model(), loaded->equations(),
                                             *loaded->derivation->lowering, problem, *solution);
    for (const mechanics::ImpossibleValue &v : impossible)
      loaded->diagnostics().warning(
          v.location,
          "impossible solution: " + impossibleReason(loaded->model(), *unknowns, *solution, v) +
              "; " + impossibleVerdict(loaded->model(), *unknowns, *solution));
  }
  session.printDiagnostics(io.err);
  if (!solution)
    return kExitModelError;
  if (line.has("--json"))
    io.out << solutionJson(*loaded, *state, *unknowns, *solution, impossible);
  else
    io.out << solutionText(*loaded, *state, moved, *unknowns, *solution, impossible);
  return kExitOk;
}

} // namespace mech::driver
