// `mech linearize --sweep`: the eigenvalues of A at evenly spaced values of
// a param, or of a name the --at text uses (a steady rate such as a
// bicycle's forward speed), with the structural zero modes dropped; the
// values where stability changes, by bisection to 1e-11 relative on the
// sign of the largest real part of the remaining modes (on a threshold
// where the stable side is neutral); a table
// (or JSON) and optionally an SVG of the real and imaginary parts.
#include "driver/AnalysisText.h"
#include "driver/Commands.h"
#include "driver/InitialState.h"
#include "driver/LinearizeSweep.h"
#include "driver/PlotFile.h"
#include "driver/Session.h"
#include "driver/SvgPlot.h"
#include "sema/Values.h"
#include "support/Json.h"
#include "support/NumberText.h"
#include "support/OutputFile.h"

#include <cctype>
#include <cmath>
#include <ostream>
#include <sstream>

namespace mech::driver {

namespace {

using namespace analysis_text;

// How one value of the swept quantity reaches the state: a param's value
// (SI = value * scale), or the name replaced in the --at text.
struct Sweeper {
  LoadedModel &loaded;
  const SweepSpec &spec;
  std::string at;
  int param = -1;
  double scale = 1;
  mechanics::IndependentChoice choice;
  StateMatrices matrices;
  mechanics::Linearizer rest; // f and C at the state: whether it is an equilibrium
  // Of the last state at_ formed: its velocities, and what rest leaves of f
  // (empty at an equilibrium).
  std::vector<double> velocities, imbalance;

  std::optional<StateMatrix> at_(double value, std::string &why);
};

// `text` with the identifier `name` replaced by `by` (not inside longer
// names, and not where a prime follows: that would be a velocity).
std::string substituted(const std::string &text, const std::string &name, const std::string &by,
                        bool &found) {
  std::string out;
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t i = 0; i < text.size();) {
    bool starts = text.compare(i, name.size(), name) == 0 && (i == 0 || !word(text[i - 1]));
    size_t end = i + name.size();
    if (starts && (end == text.size() || (!word(text[end]) && text[end] != '\''))) {
      out += by;
      found = true;
      i = end;
    } else {
      out += text[i++];
    }
  }
  return out;
}

std::optional<StateMatrix> Sweeper::at_(double value, std::string &why) {
  std::vector<std::string> notes;
  std::string text = at;
  if (param >= 0) {
    loaded.analysis.model->params[static_cast<size_t>(param)].value = value * scale;
  } else {
    bool found = false;
    std::string by =
        "(" + formatNumber(value, 17) + (spec.unit.empty() ? "" : " [" + spec.unit + "]") + ")";
    text = substituted(at, spec.name, by, found);
  }
  std::optional<mechanics::State> state =
      consistentState(loaded, text, Velocities::GivenOrInit, notes);
  if (!state) {
    why.clear(); // the state's errors are in the diagnostics, printed as they are
    return std::nullopt;
  }
  // As a single linearize says it: a state that is no equilibrium.
  rest.setParams(loaded.paramValues());
  mechanics::LinearSample sample = rest.at(*state);
  mechanics::RestWithConstraints balance = mechanics::restWithConstraints(sample);
  velocities = state->qd;
  imbalance.clear();
  if (mechanics::offEquilibrium(sample, balance))
    imbalance = balance.residual;
  return matrices.at(*state, loaded.paramValues(), choice, why);
}

struct SweepResult {
  std::vector<double> values;
  std::vector<std::vector<std::complex<double>>> eigenvalues;
  std::vector<bool> stable;
  std::vector<std::string> labels;
  std::vector<std::string> kept, dropped;
  // The values whose state is no equilibrium, the first one's imbalance,
  // and the velocities of the first state (--at's, or the init's).
  std::vector<double> offEquilibrium, firstImbalance, velocities;
  struct Change {
    double at;
    std::string below, above;
  };
  std::vector<Change> changes;
};

// The largest real part of the modes kept, and the threshold below which
// they count as not growing: 1e-9 of the largest |eigenvalue|, so that
// neutral (conservative) modes, whose real parts are rounding, are stable.
struct Growth {
  double top = -INFINITY, threshold = 1e-9;
  bool stable() const { return top <= threshold; }
  // "asymptotically stable" (every mode decays), "stable (neutral)" (the
  // slowest modes neither grow nor decay: no conservative system is called
  // asymptotically stable) or "unstable".
  std::string label() const {
    return top > threshold    ? "unstable"
           : top < -threshold ? "asymptotically stable"
                              : "stable (neutral)";
  }
};
Growth growthOf(const std::vector<std::complex<double>> &values) {
  Growth g;
  double largest = 1;
  for (auto z : values) {
    largest = std::max(largest, std::abs(z));
    g.top = std::max(g.top, z.real());
  }
  g.threshold = 1e-9 * largest;
  return g;
}

// The notes a single linearize gives: the state's velocities (those --at
// does not give are the init's), and whether it is an equilibrium.
std::string stateNotes(const mechanics::Equations &eq, const SweepSpec &spec,
                       const SweepResult &r) {
  std::ostringstream out;
  std::string moving;
  for (size_t j = 0; j < r.velocities.size(); ++j)
    if (r.velocities[j] != 0)
      moving += (moving.empty() ? "" : ", ") + eq.coordinates[j] + "' = " + number(r.velocities[j]);
  if (!moving.empty())
    out << "  note: about a motion (at " << spec.name << " = " << number(r.values.front())
        << "): " << moving << " (velocities that --at does not give are the model's init's)\n";
  if (r.offEquilibrium.empty())
    return out.str();
  out << "  note: not an equilibrium (" << (eq.constraints.empty() ? "f" : "f + C^T lambda")
      << " = [" << list(r.firstImbalance) << "] at " << spec.name << " = "
      << number(r.offEquilibrium.front()) << "; "
      << (r.offEquilibrium.size() == r.values.size()
              ? std::string("so at every value")
              : "so at " + std::to_string(r.offEquilibrium.size()) + " of the " +
                    std::to_string(r.values.size()) + " values")
      << "); K and D are the derivatives of f there\n";
  return out.str();
}

std::string sweepText(const mechanics::Equations &eq, const SweepSpec &spec, const SweepResult &r) {
  const std::string &model = eq.model;
  std::ostringstream out;
  std::string unit = spec.unit.empty() ? "" : " [" + spec.unit + "]";
  out << "Eigenvalues of A of " << model << " against " << spec.name << unit << ", over (" << [&] {
    std::string s;
    for (const std::string &k : r.kept)
      s += (s.empty() ? "" : ", ") + k;
    return s;
  }() << ")\n";
  if (!r.dropped.empty()) {
    std::string s;
    for (const std::string &d : r.dropped)
      s += (s.empty() ? "" : ", ") + d;
    out << "  dropped (a zero eigenvalue each: nothing depends on them, or they do not change): "
        << s << "\n";
  }
  out << stateNotes(eq, spec, r);
  for (size_t k = 0; k < r.values.size(); ++k) {
    out << "  " << spec.name << " = " << number(r.values[k]) << ": " << r.labels[k] << ";";
    for (size_t i = 0; i < r.eigenvalues[k].size(); ++i)
      out << (i ? ", " : " ") << complexNumber(r.eigenvalues[k][i]);
    out << "\n";
  }
  if (r.changes.empty())
    out << "  stability does not change in " << number(spec.lo) << ".." << number(spec.hi) << unit
        << "\n";
  for (const SweepResult::Change &c : r.changes)
    out << "  stability changes at " << spec.name << " = " << formatNumber(c.at, 12) << unit << " ("
        << c.below << " below, " << c.above << " above; by bisection to 1e-11 relative)\n";
  return out.str();
}

std::string sweepJson(const std::string &model, const SweepSpec &spec, const SweepResult &r) {
  JsonWriter json;
  json.beginObject().key("model").value(model).key("parameter").value(spec.name);
  json.key("unit").value(spec.unit).key("state").beginArray();
  for (const std::string &k : r.kept)
    json.value(k);
  json.endArray().key("dropped").beginArray();
  for (const std::string &d : r.dropped)
    json.value(d);
  json.endArray().key("values").beginArray();
  for (double v : r.values)
    json.value(v);
  // The values whose state is no equilibrium (K and D about a motion).
  json.endArray().key("not_equilibrium").beginArray();
  for (double v : r.offEquilibrium)
    json.value(v);
  json.endArray().key("eigenvalues").beginArray();
  for (const auto &row : r.eigenvalues) {
    json.beginArray();
    for (auto z : row)
      json.beginArray().value(z.real()).value(z.imag()).endArray();
    json.endArray();
  }
  json.endArray().key("stability").beginArray();
  for (const std::string &label : r.labels)
    json.value(label);
  json.endArray().key("changes").beginArray();
  for (const SweepResult::Change &c : r.changes)
    json.beginObject()
        .key("at")
        .value(c.at)
        .key("below")
        .value(c.below)
        .key("above")
        .value(c.above)
        .endObject();
  json.endArray().endObject();
  return json.str() + "\n";
}

// The eigenvalues followed from one value to the next (each to the nearest
// of the previous ones), so that a mode keeps its line where the order by
// real part changes.
std::vector<std::vector<std::complex<double>>>
tracks(const std::vector<std::vector<std::complex<double>>> &eigenvalues) {
  std::vector<std::vector<std::complex<double>>> out;
  if (eigenvalues.empty())
    return out;
  for (auto z : eigenvalues.front())
    out.push_back({z});
  for (size_t k = 1; k < eigenvalues.size(); ++k) {
    std::vector<bool> taken(eigenvalues[k].size(), false);
    for (auto &track : out) {
      size_t best = 0;
      double distance = INFINITY;
      for (size_t i = 0; i < eigenvalues[k].size(); ++i)
        if (!taken[i] && std::abs(eigenvalues[k][i] - track.back()) < distance) {
          best = i;
          distance = std::abs(eigenvalues[k][i] - track.back());
        }
      taken[best] = true;
      track.push_back(eigenvalues[k][best]);
    }
  }
  return out;
}

// Real parts against the swept value, one line per mode, and the positive
// imaginary parts (the frequencies of the oscillatory modes), as the
// bicycle benchmark draws them; at most 8 modes.
std::string sweepPlot(const std::string &model, const SweepSpec &spec, const SweepResult &r) {
  Plot plot;
  plot.title = "Eigenvalues of A of " + model;
  plot.xLabel = spec.name + (spec.unit.empty() ? "" : " [" + spec.unit + "]");
  plot.x = r.values;
  std::vector<std::vector<std::complex<double>>> modes = tracks(r.eigenvalues);
  if (modes.size() > 8)
    modes.resize(8);
  for (size_t i = 0; i < modes.size(); ++i) {
    PlotSeries series{"Re \u03bb" + std::to_string(i + 1), {}, "1/s"};
    for (auto z : modes[i])
      series.values.push_back(z.real());
    plot.series.push_back(series);
  }
  for (size_t i = 0; i < modes.size(); ++i) {
    PlotSeries series{"Im \u03bb" + std::to_string(i + 1), {}, "1/s"};
    bool oscillates = false;
    for (auto z : modes[i]) {
      series.values.push_back(z.imag() > 0 ? z.imag() : NAN);
      oscillates = oscillates || z.imag() > 0;
    }
    if (oscillates)
      plot.series.push_back(series);
  }
  return renderSvg(plot);
}

// Samples the range, drops the structural zero modes, and bisects each
// change of stability between neighbouring samples.
std::optional<SweepResult> sweep(Sweeper &s, std::string &why) {
  SweepResult r;
  std::vector<mechanics::Matrix> samples;
  std::vector<std::string> names;
  for (size_t k = 0; k < s.spec.count; ++k) {
    double value = s.spec.lo + (s.spec.hi - s.spec.lo) * static_cast<double>(k) /
                                   static_cast<double>(s.spec.count - 1);
    std::optional<StateMatrix> m = s.at_(value, why);
    if (!m) {
      if (!why.empty())
        why = "at " + s.spec.name + " = " + number(value) + ": " + why;
      return std::nullopt;
    }
    r.values.push_back(value);
    if (k == 0)
      r.velocities = s.velocities;
    if (!s.imbalance.empty()) {
      if (r.offEquilibrium.empty())
        r.firstImbalance = s.imbalance;
      r.offEquilibrium.push_back(value);
    }
    samples.push_back(m->A);
    names = m->names;
  }
  std::vector<bool> dropped = structuralZeroStates(samples);
  for (size_t k = 0; k < names.size(); ++k)
    (dropped[k] ? r.dropped : r.kept).push_back(names[k]);
  for (const mechanics::Matrix &A : samples) {
    r.eigenvalues.push_back(keptEigenvalues(A, dropped));
    r.stable.push_back(growthOf(r.eigenvalues.back()).stable());
    r.labels.push_back(growthOf(r.eigenvalues.back()).label());
  }
  for (size_t k = 0; k + 1 < r.values.size(); ++k) {
    if (r.stable[k] == r.stable[k + 1])
      continue;
    // Where the stable side decays clearly, the root of the largest real
    // part itself; where it is neutral, the threshold's crossing.
    double lo = r.values[k], hi = r.values[k + 1];
    Growth a = growthOf(r.eigenvalues[k]), b = growthOf(r.eigenvalues[k + 1]);
    bool signs = std::min(a.top, b.top) < -std::max(a.threshold, b.threshold);
    auto sideOfLo = [&](const Growth &g) {
      return signs ? (g.top > 0) == (a.top > 0) : g.stable() == a.stable();
    };
    while (hi - lo > 1e-11 * std::max(1.0, std::abs(lo))) {
      double mid = 0.5 * (lo + hi);
      std::optional<StateMatrix> m = s.at_(mid, why);
      if (!m)
        return std::nullopt;
      (sideOfLo(growthOf(keptEigenvalues(m->A, dropped))) ? lo : hi) = mid;
    }
    r.changes.push_back({0.5 * (lo + hi), r.labels[k], r.labels[k + 1]});
  }
  return r;
}

} // namespace

// The scale from the sweep's numbers to SI for a param: its declared unit,
// or the sweep's [UNIT] (whose dimension must be the param's).
std::optional<double> paramScale(LoadedModel &loaded, const SweepSpec &spec, const sema::Param &p) {
  if (spec.unit.empty())
    return p.unit ? p.unit->scale : 1.0;
  auto assignments = sema::parseAssignments(*loaded.compilation, "--sweep",
                                            spec.name + " = 1 [" + spec.unit + "]", nullptr);
  if (!assignments)
    return std::nullopt;
  const sema::Assignment &a = assignments->front();
  if (p.dim.isKnown() && a.dim.isKnown() && !(p.dim.dimension == a.dim.dimension)) {
    loaded.diagnostics().error({}, "--sweep: '" + spec.name + "' has dimension " +
                                       p.dim.dimension.toString() + ", [" + spec.unit + "] has " +
                                       a.dim.dimension.toString());
    return std::nullopt;
  }
  return a.value;
}

int runLinearizeSweep(const CommandLine &line, Session &session, const CommandIo &io) {
  std::string error;
  std::optional<SweepSpec> spec = parseSweep(line.value("--sweep"), error);
  if (!spec)
    return io.usageError(error);
  LoadedModel &loaded = session.loaded();
  std::optional<mechanics::IndependentChoice> choice =
      independentChoice(loaded, line.value("--independent"));
  if (!choice) {
    session.printDiagnostics(io.err);
    return kExitModelError;
  }
  Sweeper s{loaded,
            *spec,
            line.value("--at"),
            -1,
            1,
            *choice,
            StateMatrices(loaded.equations(), loaded.paramValues()),
            mechanics::Linearizer(loaded.equations(), loaded.paramValues()),
            {},
            {}};
  std::vector<sema::Param> &params = loaded.analysis.model->params;
  for (size_t i = 0; i < params.size(); ++i)
    if (params[i].name == spec->name)
      s.param = static_cast<int>(i);
  bool found = false;
  substituted(s.at, spec->name, "", found);
  if (s.param < 0 && !found) {
    loaded.diagnostics().error({}, "--sweep: '" + spec->name + "' is neither a param of " +
                                       loaded.model().name + " nor a name the --at text uses");
  } else if (s.param >= 0 && params[static_cast<size_t>(s.param)].structural) {
    loaded.diagnostics().error({}, "--sweep: '" + spec->name +
                                       "' is structural (a range bound or index): "
                                       "each value is another model");
  } else if (s.param >= 0) {
    std::optional<double> scale = paramScale(loaded, *spec, params[static_cast<size_t>(s.param)]);
    s.scale = scale.value_or(0);
  }
  if (loaded.diagnostics().hasErrors()) {
    session.printDiagnostics(io.err);
    return kExitModelError;
  }
  // The session's value comes back after the sweep (the REPL keeps it).
  double kept = s.param >= 0 ? params[static_cast<size_t>(s.param)].value : 0;
  std::optional<SweepResult> result = sweep(s, error);
  if (s.param >= 0)
    params[static_cast<size_t>(s.param)].value = kept;
  if (!result) {
    if (!error.empty())
      loaded.diagnostics().error({}, "--sweep: A is not formed " + error);
    session.printDiagnostics(io.err);
    return kExitModelError;
  }
  const std::string &model = loaded.model().name;
  if (std::string path = line.value("--plot"); !path.empty()) {
    if (!writePlotFile(path, sweepPlot(model, *spec, *result), error)) {
      loaded.diagnostics().error({}, error);
      session.printDiagnostics(io.err);
      return kExitModelError;
    }
  }
  io.out << (line.has("--json") ? sweepJson(model, *spec, *result)
                                : sweepText(loaded.equations(), *spec, *result));
  return kExitOk;
}

} // namespace mech::driver
