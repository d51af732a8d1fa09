// `mech steady` (steady motions: coordinates turning at constant rates, the
// others at rest, and their stability): the rates and momenta from the
// command line, the reports over mechanics::SteadyMotionFinder.
#include "driver/AnalysisText.h"
#include "driver/Commands.h"
#include "driver/Interrupt.h"
#include "driver/Pipeline.h"
#include "driver/SearchBox.h"
#include "driver/Session.h"
#include "mechanics/SteadyMotion.h"
#include "sema/Values.h"
#include "support/Json.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace mech::driver {

namespace {

using namespace analysis_text;

std::string trimmed(const std::string &text) {
  size_t first = text.find_first_not_of(" \t");
  if (first == std::string::npos)
    return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

// What the command line asks to turn: per coordinate a rate or a momentum.
struct Turning {
  std::vector<std::optional<double>> rate, momentum; // per coordinate
  std::vector<Location> where;                       // per coordinate, where it was given
};

// The dimension of the momentum conjugate to coordinate j: energy * time
// over the coordinate's.
sema::DimInfo momentumDimension(const sema::CheckedModel &model, int j) {
  sema::DimInfo q = coordinateDimension(model, j, 0);
  if (!q.isKnown())
    return q;
  auto action = sema::Dimension::energy().times(sema::Dimension::time());
  auto p = action ? action->over(q.dimension) : std::nullopt;
  return p ? sema::DimInfo::known(*p) : sema::DimInfo::unchecked();
}

// The assignments of an option's text (none for a blank one); nullopt
// after reporting errors.
std::optional<std::vector<sema::Assignment>>
assignments(LoadedModel &loaded, const std::string &option, const std::string &text) {
  if (trimmed(text).empty())
    return std::vector<sema::Assignment>{};
  return sema::parseAssignments(*loaded.compilation, option, text, &loaded.model());
}

// --rates "phi'=2, ..." and --momenta "p_phi=0.5, ..."; false after
// reporting an error.
bool parseTurning(LoadedModel &loaded, const std::string &rates, const std::string &momenta,
                  Turning &turning) {
  const sema::CheckedModel &model = loaded.model();
  size_t n = loaded.equations().coordinates.size();
  turning.rate.assign(n, std::nullopt);
  turning.momentum.assign(n, std::nullopt);
  turning.where.assign(n, {});
  Diagnostics &diagnostics = loaded.diagnostics();
  auto given = assignments(loaded, "--rates", rates);
  if (!given)
    return false;
  for (const sema::Assignment &a : *given) {
    int j = coordinateIndex(model, a.name);
    if (j < 0 || a.primes != 1) {
      diagnostics.error(a.location, "--rates takes the rates of coordinates, as \"" +
                                        (j < 0 ? std::string("phi") : a.name) + "'=2\", not '" +
                                        a.name + std::string(static_cast<size_t>(a.primes), '\'') +
                                        "'");
      return false;
    }
    if (!checkValueDimension(diagnostics, a, coordinateDimension(model, j, 1)))
      return false;
    turning.rate[static_cast<size_t>(j)] = a.value;
    turning.where[static_cast<size_t>(j)] = a.location;
  }
  // Momenta are named p_<coordinate>, as `mech conserved` names them.
  auto byMomentum = assignments(loaded, "--momenta", momenta);
  if (!byMomentum)
    return false;
  for (const sema::Assignment &a : *byMomentum) {
    bool named = a.name.rfind("p_", 0) == 0;
    int j = named ? coordinateIndex(model, a.name.substr(2)) : -1;
    if (j < 0 || a.primes != 0) {
      diagnostics.error(a.location, "--momenta takes momenta named after coordinates, as "
                                    "\"p_phi=0.5\", not '" +
                                        a.name + "'");
      return false;
    }
    if (turning.rate[static_cast<size_t>(j)]) {
      diagnostics.error(a.location,
                        "'" + a.name.substr(2) + "' has a rate and a momentum; give one");
      return false;
    }
    if (!checkValueDimension(diagnostics, a, momentumDimension(model, j)))
      return false;
    turning.momentum[static_cast<size_t>(j)] = a.value;
    turning.where[static_cast<size_t>(j)] = a.location;
  }
  return true;
}

// The request's turning coordinates: every cyclic one of a holonomic model
// (at rest unless given), the ones given for a model with velocity
// constraints. False after reporting why a coordinate cannot turn.
bool chooseTurning(LoadedModel &loaded, const mechanics::SteadyMotionFinder &finder,
                   const Turning &turning, mechanics::SteadyRequest &request) {
  const mechanics::Equations &eq = loaded.equations();
  std::vector<std::string> cyclicNames;
  for (size_t j : finder.cyclic())
    cyclicNames.push_back(eq.coordinates[j]);
  std::string cyclicNote =
      cyclicNames.empty() ? eq.model + " has no cyclic coordinate"
                          : "the cyclic coordinates of " + eq.model + ": " + joined(cyclicNames);
  for (size_t j = 0; j < eq.coordinates.size(); ++j) {
    bool given = turning.rate[j] || turning.momentum[j];
    bool cyclic = std::count(finder.cyclic().begin(), finder.cyclic().end(), j) > 0;
    if (given && !finder.velocityConstraints() && !cyclic) {
      auto &e = loaded.diagnostics().error(
          turning.where[j], "'" + eq.coordinates[j] + "' is not cyclic (" +
                                finder.whyNotTurning(j) +
                                "), so it cannot turn at a constant rate in a steady motion");
      Diagnostics::addNote(e, {}, cyclicNote);
      return false;
    }
    if (!given && !(cyclic && !finder.velocityConstraints()))
      continue;
    request.turning.push_back(j);
    request.rates.push_back(
        turning.momentum[j] ? std::nullopt : std::optional<double>(turning.rate[j].value_or(0)));
    request.momenta.push_back(turning.momentum[j].value_or(0));
  }
  return true;
}

bool turns(const mechanics::SteadyRequest &request, size_t j) {
  return std::find(request.turning.begin(), request.turning.end(), j) != request.turning.end();
}

std::string verdictLine(const mechanics::SteadyMotion &s) {
  return mechanics::verdictText(s.verdict) + " -- " + s.criterion;
}

std::string motionText(const mechanics::Equations &eq, const mechanics::SteadyRequest &request,
                       const mechanics::SteadyMotion &s) {
  std::ostringstream out;
  std::vector<std::string> parts;
  for (size_t j = 0; j < eq.coordinates.size(); ++j)
    if (!turns(request, j))
      parts.push_back(eq.coordinates[j] +
                      (s.arbitrary[j] ? ": any" : " = " + number(s.state.q[j])));
  for (size_t r : request.turning)
    parts.push_back(eq.coordinates[r] + "' = " + number(s.state.qd[r]));
  for (size_t d : s.dependentSpeeds)
    parts.push_back(eq.coordinates[d] + "' = " + number(s.state.qd[d]));
  out << joined(parts) << "\n";
  std::vector<std::string> momenta;
  for (size_t i = 0; i < request.turning.size(); ++i)
    if (s.momentum[i])
      momenta.push_back("p_" + eq.coordinates[request.turning[i]] + " = " + number(*s.momentum[i]));
  if (!momenta.empty())
    out << "   momenta: " << joined(momenta) << "\n";
  out << "   " << verdictLine(s) << "\n";
  if (!s.amendedHessian.empty())
    out << "   eigenvalues of the Hessian of the amended potential: " << list(s.amendedHessian)
        << "\n";
  if (!s.eigenvalues.empty()) {
    out << "   eigenvalues of the reduced linearization (in " << joined(s.reducedStates) << "):";
    for (size_t k = 0; k < s.eigenvalues.size(); ++k)
      out << (k == 0 ? " " : ", ") << complexNumber(s.eigenvalues[k]);
    out << "\n";
  }
  for (const std::string &note : s.notes)
    out << "   note: " << note << "\n";
  for (size_t k = 0; k < s.frequencies.size(); ++k)
    out << "   mode " << k + 1 << ": omega = " << number(s.frequencies[k]) << " rad/s (period "
        << number(2 * M_PI / s.frequencies[k]) << " s)\n";
  return out.str();
}

std::string steadyText(const mechanics::Equations &eq, const mechanics::SteadyRequest &request,
                       const std::vector<bool> &ignorable, bool timed,
                       const std::vector<mechanics::SteadyMotion> &found) {
  std::ostringstream out;
  std::vector<std::string> given, searched;
  for (size_t i = 0; i < request.turning.size(); ++i) {
    const std::string &name = eq.coordinates[request.turning[i]];
    given.push_back(request.rates[i] ? name + "' = " + number(*request.rates[i])
                                     : "p_" + name + " = " + number(request.momenta[i]));
  }
  for (size_t j = 0; j < eq.coordinates.size(); ++j)
    if (!ignorable[j] && !turns(request, j))
      searched.push_back(eq.coordinates[j] + " = " + number(request.box.lo[j]) + ".." +
                         number(request.box.hi[j]));
  out << eq.model << ": " << found.size()
      << (found.size() == 1 ? " steady motion" : " steady motions") << " with " << joined(given)
      << (searched.empty() ? "" : ", searching " + joined(searched));
  if (timed)
    out << " (t frozen at " << number(request.base.t) << ")";
  out << "\n";
  for (size_t i = 0; i < found.size(); ++i)
    out << "\n" << i + 1 << ". " << motionText(eq, request, found[i]);
  return out.str();
}

std::string steadyJson(const mechanics::Equations &eq, const mechanics::SteadyRequest &request,
                       const std::vector<mechanics::SteadyMotion> &found) {
  JsonWriter json;
  std::vector<std::string> turning;
  for (size_t r : request.turning)
    turning.push_back(eq.coordinates[r]);
  json.beginObject().key("model").value(eq.model);
  jsonList(json, "turning", turning);
  json.key("steady_motions").beginArray();
  for (const mechanics::SteadyMotion &s : found) {
    json.beginObject().key("q").beginObject();
    for (size_t j = 0; j < eq.coordinates.size(); ++j) {
      json.key(eq.coordinates[j]);
      if (s.arbitrary[j])
        json.value("arbitrary");
      else
        json.value(s.state.q[j]);
    }
    json.endObject().key("qd").beginObject();
    for (size_t j = 0; j < eq.coordinates.size(); ++j)
      json.key(eq.coordinates[j]).value(s.state.qd[j]);
    json.endObject().key("momenta").beginObject();
    for (size_t i = 0; i < request.turning.size(); ++i)
      if (s.momentum[i])
        json.key("p_" + eq.coordinates[request.turning[i]]).value(*s.momentum[i]);
    json.endObject().key("verdict").value(mechanics::verdictText(s.verdict));
    json.key("stable");
    if (s.verdict == mechanics::SteadyVerdict::Undetermined)
      json.null();
    else
      json.value(s.verdict != mechanics::SteadyVerdict::Unstable);
    json.key("criterion").value(s.criterion);
    jsonList(json, "amended_hessian_eigenvalues", s.amendedHessian);
    jsonList(json, "reduced_states", s.reducedStates);
    jsonList(json, "eigenvalues", s.eigenvalues);
    jsonList(json, "frequencies", s.frequencies);
    jsonList(json, "notes", s.notes);
    json.endObject();
  }
  json.endArray().endObject();
  return json.str() + "\n";
}

} // namespace

int runSteady(const CommandLine &line, Session &session, const CommandIo &io) {
  bool timed = line.has("--time");
  if (!session.derive()) {
    session.printDiagnostics(io.err);
    return kExitModelError;
  }
  LoadedModel &loaded = session.loaded();
  const mechanics::Equations &eq = loaded.equations();
  Turning turning;
  mechanics::SteadyRequest request;
  request.box = mechanics::defaultBox(eq);
  request.base.t = line.number("--time", 0);
  auto fail = [&](int status) {
    session.printDiagnostics(io.err);
    return status;
  };
  if (!readInputs(loaded, line.value("--input")))
    return fail(kExitModelError);
  // The turning and ignorable positions, and those along a family, are
  // the model's init: any value would do.
  std::optional<mechanics::State> init = parseState(loaded, "");
  if (!init)
    return fail(kExitModelError);
  request.base.q = init->q;
  request.cancelled = interruptRequested;
  if (auto status = applySearchRange(loaded, "steady", line.value("--in"), request.box, io))
    return fail(*status);
  if (!parseTurning(loaded, line.value("--rates"), line.value("--momenta"), turning))
    return fail(kExitModelError);
  // Built after the options are read: it decides the cyclic coordinates
  // and builds the linearization program, the costly part of the setup.
  mechanics::SteadyMotionFinder finder(eq, loaded.paramValues(request.base.t));
  if (!chooseTurning(loaded, finder, turning, request))
    return fail(kExitModelError);
  if (request.turning.empty()) {
    if (finder.velocityConstraints())
      return io.usageError("steady: give the rates of the coordinates that turn, as --rates "
                           "\"spin'=10\"");
    loaded.diagnostics().error(loaded.model().location,
                               eq.model + " has no cyclic coordinate, so its steady motions are "
                                          "its states of rest: see mech equilibria");
    return fail(kExitModelError);
  }
  if (!timed && mechanics::dependsOnTime(eq)) {
    loaded.diagnostics().error(loaded.model().location,
                               "the equations of " + eq.model +
                                   " depend on t explicitly, so steady motions need not exist; "
                                   "freeze the time with --time t0");
    return fail(kExitModelError);
  }
  std::string error;
  auto found = finder.find(request, error);
  if (!found) {
    loaded.diagnostics().error(loaded.model().location, error);
    return fail(kExitModelError);
  }
  session.printDiagnostics(io.err);
  if (line.has("--json"))
    io.out << steadyJson(eq, request, *found);
  else
    io.out << steadyText(eq, request, finder.ignorable(), timed, *found);
  return kExitOk;
}

} // namespace mech::driver
