// The reports of `mech periodic` (driver/PeriodicReport.h).
#include "driver/PeriodicReport.h"

#include "driver/AnalysisText.h"
#include "driver/SvgPlot.h"
#include "support/Json.h"
#include "support/NumberText.h"

#include <cmath>
#include <sstream>

namespace mech::driver {

namespace {

using namespace analysis_text;

// A fixed point's values, to the digits Newton's tolerance holds.
std::string precise(double x) {
  return formatNumber(std::abs(x) < 1e-14 ? 0.0 : x, 12);
}

std::vector<std::string> stateNames(const mechanics::Equations &eq) {
  std::vector<std::string> names = eq.coordinates;
  for (const std::string &q : eq.coordinates)
    names.push_back(q + "'");
  return names;
}

std::string stateLine(const mechanics::Equations &eq, const std::vector<double> &x) {
  std::vector<std::string> parts;
  std::vector<std::string> names = stateNames(eq);
  for (size_t i = 0; i < names.size(); ++i)
    parts.push_back(names[i] + " = " + precise(x[i]));
  return joined(parts);
}

std::string mapText(const PeriodicTitle &title) {
  const int k = title.setup.returns;
  std::string returns = k > 1 ? "of " + std::to_string(k) + " returns " : "";
  if (title.setup.section)
    return returns + "through section '" + title.eq.events[*title.setup.section].name + "'";
  if (k > 1)
    returns = "of " + std::to_string(k) + " forcing periods ";
  std::string period =
      title.periodText.empty() ? number(title.setup.forcingPeriod) : title.periodText;
  return returns + "of the forcing's period " + period +
         " (the stroboscopic map from t = " + number(title.setup.t0) + ")";
}

std::string multiplierList(const std::vector<std::complex<double>> &mu) {
  std::vector<std::string> parts;
  for (auto z : mu)
    parts.push_back(complexNumber(z) +
                    (std::abs(z.imag()) > 1e-12 ? " (modulus " + number(std::abs(z)) + ")" : ""));
  return parts.empty() ? "none" : joined(parts);
}

void orbitLines(std::ostream &out, const PeriodicTitle &title, const PeriodicOrbit &o) {
  const mechanics::Equations &eq = title.eq;
  out << "   start of a period: " << stateLine(eq, o.start) << "\n";
  for (size_t k = 0; k < o.map.returnStates.size(); ++k)
    out << "   after return " << k + 1 << ": " << stateLine(eq, o.map.returnStates[k]) << "\n";
  if (title.setup.section && !eq.events[*title.setup.section].resets.empty())
    out << "   at the section, before its resets: " << stateLine(eq, o.map.before) << "\n";
  out << "   period " << precise(o.map.period);
  if (o.family)
    out << ", energy T + V = " << precise(o.energy);
  out << "\n";
  if (o.map.resets > 0 || o.map.impacts > 0)
    out << "   on the way: " << o.map.resets << (o.map.resets == 1 ? " reset, " : " resets, ")
        << o.map.impacts << (o.map.impacts == 1 ? " impact" : " impacts") << "\n";
  out << "   multipliers: " << multiplierList(o.multipliers) << "\n";
  for (const std::string &d : o.dropped)
    out << "   dropped: " << d << "\n";
  out << "   " << verdictText(o.verdict) << " -- " << o.criterion << "\n";
}

void jsonStable(JsonWriter &json, OrbitVerdict verdict) {
  json.key("stable");
  if (verdict == OrbitVerdict::Undetermined)
    json.null();
  else
    json.value(verdict != OrbitVerdict::Unstable);
}

void jsonComplex(JsonWriter &json, std::complex<double> z) {
  json.beginArray().value(z.real()).value(z.imag()).endArray();
}

void orbitFields(JsonWriter &json, const PeriodicOrbit &o, bool section) {
  jsonList(json, "fixed_point", o.start);
  if (section)
    jsonList(json, "before_section", o.map.before);
  else
    json.key("before_section").null();
  json.key("return_states").beginArray();
  for (const std::vector<double> &x : o.map.returnStates) {
    json.beginArray();
    for (double v : x)
      json.value(v);
    json.endArray();
  }
  json.endArray();
  json.key("period").value(o.map.period);
  json.key("energy").value(o.energy);
  json.key("multipliers").beginArray();
  for (auto z : o.multipliers)
    jsonComplex(json, z);
  json.endArray();
  jsonList(json, "dropped", o.dropped);
  json.key("verdict").value(verdictText(o.verdict));
  jsonStable(json, o.verdict);
  json.key("criterion").value(o.criterion);
  json.key("iterations").value(static_cast<double>(o.iterations));
  json.key("residual").value(o.residual);
  json.key("resets").value(static_cast<double>(o.map.resets));
  json.key("impacts").value(static_cast<double>(o.map.impacts));
}

void jsonHeader(JsonWriter &json, const PeriodicTitle &title) {
  json.beginObject().key("model").value(title.eq.model);
  json.key("map").value(title.setup.section ? "section" : "stroboscopic");
  json.key("section");
  if (title.setup.section)
    json.value(title.eq.events[*title.setup.section].name);
  else
    json.null();
  json.key("returns").value(static_cast<double>(title.setup.returns));
  json.key("forcing_period");
  if (title.setup.section)
    json.null();
  else
    json.value(title.setup.forcingPeriod);
  jsonList(json, "state", stateNames(title.eq));
}

} // namespace

std::string orbitText(const PeriodicTitle &title, const PeriodicOrbit &orbit) {
  std::ostringstream out;
  out << title.eq.model << ": a periodic motion " << mapText(title)
      << " (Newton: " << orbit.iterations << (orbit.iterations == 1 ? " iteration" : " iterations")
      << ", |P(x) - x| = " << formatNumber(orbit.residual, 2) << ")\n";
  orbitLines(out, title, orbit);
  return out.str();
}

std::string orbitJson(const PeriodicTitle &title, const PeriodicOrbit &orbit) {
  JsonWriter json;
  jsonHeader(json, title);
  orbitFields(json, orbit, title.setup.section.has_value());
  json.endObject();
  return json.str() + "\n";
}

std::string branchText(const PeriodicTitle &title, const Branch &branch) {
  std::ostringstream out;
  out << title.eq.model << ": periodic motions " << mapText(title) << " against " << title.parameter
      << ", " << branch.orbits.size() << (branch.orbits.size() == 1 ? " value" : " values") << "\n";
  for (size_t k = 0; k < branch.orbits.size(); ++k) {
    const PeriodicOrbit &o = branch.orbits[k];
    out << "   " << title.parameter << " = " << number(branch.values[k]) << ": period "
        << number(o.map.period) << ", "
        << (o.multipliers.empty() ? "no multiplier besides the family's"
                                  : "largest |multiplier| " + number(largestModulus(o)))
        << ", " << verdictText(o.verdict) << "\n";
  }
  for (const BranchChange &c : branch.changes)
    out << "stability " << (c.losesStability ? "lost" : "gained") << " at " << title.parameter
        << " = " << formatNumber(c.at, 10) << ": " << c.kind << " (multiplier "
        << complexNumber(c.multiplier) << " crosses the unit circle)\n";
  if (branch.changes.empty() && !branch.interruptedAt)
    out << "no change of stability between the values\n";
  if (!branch.lost.empty())
    out << "note: the branch was lost " << branch.lost << "\n";
  if (branch.endsAt) {
    std::complex<double> mu = branch.endMultiplier;
    bool fold = std::abs(mu.imag()) < 1e-6 && std::abs(mu - 1.0) < 0.05;
    out << "the branch ends at " << title.parameter << " = " << formatNumber(*branch.endsAt, 10)
        << (fold ? ": a fold, where the motion meets another and both end (a multiplier "
                 : ": Newton's method finds no motion beyond it (the multiplier nearest 1 ")
        << complexNumber(mu) << (fold ? " tends to +1)" : ")") << "\n";
  }
  if (branch.interruptedAt)
    out << "note: interrupted at " << title.parameter << " = " << number(*branch.interruptedAt)
        << ", before any change of stability was located\n";
  return out.str();
}

std::string branchJson(const PeriodicTitle &title, const Branch &branch) {
  JsonWriter json;
  jsonHeader(json, title);
  json.key("parameter").value(title.parameter);
  json.key("points").beginArray();
  for (size_t k = 0; k < branch.orbits.size(); ++k) {
    json.beginObject().key("value").value(branch.values[k]);
    orbitFields(json, branch.orbits[k], title.setup.section.has_value());
    json.endObject();
  }
  json.endArray().key("changes").beginArray();
  for (const BranchChange &c : branch.changes) {
    json.beginObject().key("at").value(c.at).key("kind").value(c.kind);
    json.key("loses_stability").value(c.losesStability).key("multiplier");
    jsonComplex(json, c.multiplier);
    json.endObject();
  }
  json.endArray().key("interrupted_at");
  if (branch.interruptedAt)
    json.value(*branch.interruptedAt);
  else
    json.null();
  json.key("ends_at");
  if (branch.endsAt)
    json.value(*branch.endsAt);
  else
    json.null();
  json.key("end_multiplier");
  if (branch.endsAt)
    jsonComplex(json, branch.endMultiplier);
  else
    json.null();
  json.key("lost");
  if (branch.lost.empty())
    json.null();
  else
    json.value(branch.lost);
  json.endObject();
  return json.str() + "\n";
}

std::string branchPlot(const PeriodicTitle &title, const SweepSpec &spec, const Branch &branch) {
  Plot plot;
  plot.title = "Floquet multipliers of " + title.eq.model + " against " + spec.name;
  plot.xLabel = spec.name + (spec.unit.empty() ? "" : " [" + spec.unit + "]");
  plot.x = branch.values;
  size_t count = 0;
  for (const PeriodicOrbit &o : branch.orbits)
    count = std::max(count, o.multipliers.size());
  for (size_t i = 0; i < count && i < 8; ++i) {
    PlotSeries series{"|\u03bc" + std::to_string(i + 1) + "|", {}, ""};
    for (const PeriodicOrbit &o : branch.orbits)
      series.values.push_back(i < o.multipliers.size() ? std::abs(o.multipliers[i]) : NAN);
    plot.series.push_back(series);
  }
  plot.series.push_back({"unit circle", std::vector<double>(branch.values.size(), 1.0), ""});
  return renderSvg(plot);
}

} // namespace mech::driver
