// `mech equilibria` (states of rest in a box, their stability and small
// oscillations): option parsing and reports over mechanics::findEquilibria.
#include "driver/AnalysisText.h"
#include "driver/Commands.h"
#include "driver/Landscape.h"
#include "driver/PlotFile.h"
#include "driver/SearchBox.h"
#include "driver/Session.h"
#include "support/NumberText.h"

#include "driver/InitialState.h"
#include "driver/Interrupt.h"
#include "driver/Pipeline.h"
#include "mechanics/ConstraintProjection.h"
#include "mechanics/Equilibria.h"
#include "mechanics/IntegrableConstraints.h"
#include "mechanics/Linearization.h"
#include "sema/Values.h"
#include "support/Json.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <iomanip>
#include <ostream>
#include <sstream>

namespace mech::driver {

namespace {

using mechanics::Matrix;
using namespace analysis_text;

// What holds for every equilibrium: the integrable velocity constraints,
// treated as holonomic ones. Those written out keep their value at the
// model's init (sampled in `init`); the others, one value per equilibrium.
std::vector<std::string> modelNotes(const mechanics::Equations &eq,
                                    const mechanics::LinearSample &init) {
  std::vector<std::string> notes;
  for (size_t i = 0; i < eq.constraints.size(); ++i) {
    const mechanics::Equations::Constraint &k = eq.constraints[i];
    std::string note = mechanics::integrableNote(eq, k);
    if (k.integral)
      note += ", kept at its value at the model's init, " + number(init.phi[i]);
    else if (k.integrable)
      note += ", kept at its value at the model's init (the line integral of its coefficients "
              "from there)";
    if (k.integrable && mechanics::demandsMotion(eq, k))
      note += "; it asks for motion (its part without velocities is not 0): rest only where "
              "that part vanishes";
    if (k.integrable)
      notes.push_back(note);
  }
  return notes;
}

// The small oscillations, one line per mode, and A's eigenvalues with the
// family's zeros said to be so.
std::string modesText(const mechanics::Equations &eq, const mechanics::Equilibrium &e) {
  std::ostringstream out;
  for (size_t k = 0; k < e.frequencies.size(); ++k) {
    double omega = e.frequencies[k];
    out << "   mode " << k + 1 << ": omega = " << number(omega) << " rad/s (period "
        << (omega > 0 ? number(2 * M_PI / omega) + " s" : "infinite") << ")";
    if (k < e.naturalFrequencies.size())
      out << ", natural frequency |lambda| = " << number(e.naturalFrequencies[k])
          << " rad/s, damping ratio " << number(e.dampingRatios[k]);
    if (k < e.modes.size())
      out << ", shape [" << list(e.modes[k]) << "]";
    out << "\n";
  }
  if (e.eigenvalues.empty())
    return out.str();
  out << "   eigenvalues of A:";
  for (size_t k = 0; k < e.eigenvalues.size(); ++k)
    out << (k == 0 ? " " : ", ") << complexNumber(e.eigenvalues[k]);
  out << "\n";
  if (e.familyZeros > 0) {
    std::string names;
    for (size_t j = 0; j < e.arbitrary.size(); ++j)
      if (e.arbitrary[j])
        names += (names.empty() ? "" : ", ") + eq.coordinates[j];
    out << "   note: "
        << (e.familyZeros == 1 ? "the first eigenvalue of A is 0; it belongs"
                               : "the first " + std::to_string(e.familyZeros) +
                                     " eigenvalues of A are 0; they belong")
        << " to the family (" << names
        << " free: kept at any value, or drifting at a constant rate), not to an oscillation\n";
  }
  return out.str();
}

std::string equilibriaText(const mechanics::Equations &eq, const mechanics::Box &box, double t,
                           bool timed, const std::vector<mechanics::Equilibrium> &found,
                           const std::vector<std::string> &notes) {
  std::ostringstream out;
  out << eq.model << ": "
      << (found.empty()       ? std::string("no equilibrium")
          : found.size() == 1 ? std::string("1 equilibrium")
                              : std::to_string(found.size()) + " equilibria")
      << " in ";
  for (size_t j = 0; j < eq.coordinates.size(); ++j)
    out << (j == 0 ? "" : ", ") << eq.coordinates[j] << " = " << number(box.lo[j]) << ".."
        << number(box.hi[j]);
  if (timed)
    out << " (t frozen at " << number(t) << ")";
  out << "\n";
  for (const std::string &note : notes)
    out << "note: " << note << "\n";
  for (size_t i = 0; i < found.size(); ++i) {
    const mechanics::Equilibrium &e = found[i];
    out << "\n" << i + 1 << ". " << stateText(eq, e.q, &e.arbitrary) << "\n";
    bool family = std::find(e.arbitrary.begin(), e.arbitrary.end(), true) != e.arbitrary.end();
    if (family)
      out << "   a continuous family: the arbitrary coordinates take any value (the "
          << "analysis below sets them to 0 and looks across the family)\n";
    out << "   "
        << (e.stable == true    ? (e.asymptotic ? "asymptotically stable" : "stable")
            : e.stable == false ? "unstable"
                                : "stability undetermined")
        << " -- " << e.criterion << "\n";
    if (!e.hessianEigenvalues.empty())
      out << "   eigenvalues of the Hessian of W = V - T0" << (e.lambda.empty() ? "" : " (reduced)")
          << ": " << list(e.hessianEigenvalues) << "\n";
    for (size_t c = 0; c < e.lambda.size(); ++c)
      out << "   multiplier " << eq.constraints[c].name << " = " << number(e.lambda[c]) << "\n";
    for (const std::string &note : e.notes)
      out << "   note: " << note << "\n";
    out << modesText(eq, e);
  }
  return out.str();
}

std::string equilibriaJson(const mechanics::Equations &eq,
                           const std::vector<mechanics::Equilibrium> &found,
                           const std::vector<std::string> &notes) {
  JsonWriter json;
  json.beginObject().key("model").value(eq.model).key("equilibria").beginArray();
  for (const mechanics::Equilibrium &e : found) {
    json.beginObject().key("q").beginObject();
    for (size_t j = 0; j < e.q.size(); ++j) {
      json.key(eq.coordinates[j]);
      if (e.arbitrary[j])
        json.value("arbitrary");
      else
        json.value(e.q[j]);
    }
    json.endObject().key("stable");
    if (e.stable)
      json.value(*e.stable);
    else
      json.null();
    json.key("asymptotic").value(e.asymptotic);
    json.key("criterion").value(e.criterion);
    jsonList(json, "notes", e.notes);
    json.key("multipliers").beginObject();
    for (size_t c = 0; c < e.lambda.size(); ++c)
      json.key(eq.constraints[c].name).value(e.lambda[c]);
    json.endObject();
    jsonList(json, "hessian_eigenvalues", e.hessianEigenvalues);
    jsonList(json, "frequencies", e.frequencies);
    jsonList(json, "natural_frequencies", e.naturalFrequencies);
    jsonList(json, "damping_ratios", e.dampingRatios);
    jsonMatrix(json, "modes", e.modes);
    jsonList(json, "eigenvalues", e.eigenvalues);
    json.key("family_zero_eigenvalues").value(static_cast<double>(e.familyZeros));
    json.endObject();
  }
  json.endArray();
  jsonList(json, "notes", notes);
  json.endObject();
  return json.str() + "\n";
}

} // namespace

int runEquilibria(const CommandLine &line, Session &session, const CommandIo &io) {
  bool timed = line.has("--time");
  double t = line.number("--time", 0);
  if (!session.derive()) {
    session.printDiagnostics(io.err);
    return kExitModelError;
  }
  LoadedModel *loaded = &session.loaded();
  const mechanics::Equations &eq = loaded->equations();
  if (!readInputs(*loaded, line.value("--input"))) {
    session.printDiagnostics(io.err);
    return kExitModelError;
  }
  mechanics::EquilibriaOptions search;
  search.box = mechanics::defaultBox(eq);
  search.t = t;
  if (auto status = applySearchRange(*loaded, "equilibria", line.value("--in"), search.box, io)) {
    session.printDiagnostics(io.err);
    return *status;
  }
  if (!timed && mechanics::dependsOnTime(eq)) {
    loaded->diagnostics().error(loaded->model().location,
                                "the equations of " + eq.model +
                                    " depend on t explicitly, so states of rest need not exist; "
                                    "freeze the time with --time t0");
    session.printDiagnostics(io.err);
    return kExitModelError;
  }
  std::string plotPath = line.value("--plot");
  if (!plotPath.empty()) {
    if (std::string problem = landscapeProblem(*loaded); !problem.empty())
      return io.usageError(problem);
    if (std::string problem = plotFileProblem(plotPath); !problem.empty()) {
      return io.error(problem);
    }
  }
  mechanics::Linearizer linearizer(eq, loaded->paramValues(t));
  search.cancelled = interruptRequested;
  // Integrable constraints keep their values at the model's init.
  std::optional<mechanics::State> init = parseState(*loaded, "");
  if (init)
    search.reference = init->q;
  auto found = mechanics::findEquilibria(linearizer, search, loaded->diagnostics(),
                                         loaded->model().location);
  session.printDiagnostics(io.err);
  if (!found || !init)
    return kExitModelError;
  init->t = t;
  std::string error;
  if (!plotPath.empty() &&
      !writePlotFile(plotPath, landscapeSvg(*loaded, search.box, t, *found), error)) {
    return io.error(error);
  }
  std::vector<std::string> notes = modelNotes(eq, linearizer.at(*init));
  if (line.has("--json"))
    io.out << equilibriaJson(eq, *found, notes);
  else
    io.out << equilibriaText(eq, search.box, t, timed, *found, notes);
  return kExitOk;
}

} // namespace mech::driver
