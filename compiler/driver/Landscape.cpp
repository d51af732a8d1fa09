// The potential's landscape (Landscape.h): V from the derived equations,
// evaluated by the interpreter on a grid over the box, drawn by SvgPlot.
#include "driver/Landscape.h"

#include "driver/StateProgram.h"
#include "driver/SvgPlot.h"

#include <algorithm>
#include <cmath>

namespace mech::driver {

namespace {

constexpr size_t kCurvePoints = 401, kMapPoints = 121;

// W = V - T0 at q (velocities 0) and time t: the potential whose
// stationary points are the states of rest (T0, the part of T free of the
// velocities, is zero unless the model's frame or constraints move).
class PotentialAt {
public:
  PotentialAt(const LoadedModel &loaded, double t)
      : params_(loaded.paramValues(t)), t_(t),
        program_({loaded.equations().V - loaded.equations().T0}, params_.size(),
                 loaded.equations().coordinates.size()) {}
  double operator()(const std::vector<double> &q) {
    return program_(params_, t_, q.data(), nullptr)[0];
  }

private:
  std::vector<double> params_;
  double t_;
  StateProgram program_;
};

std::string potentialName(const LoadedModel &loaded) {
  return loaded.equations().T0.isZero() ? "V" : "W = V - T0";
}

std::string unitOfCoordinate(const LoadedModel &loaded, size_t j) {
  const sema::Coord &q = loaded.model().coords[j];
  std::string unit = q.unit ? q.unit->text
                     : q.dim.isKnown() && !q.dim.dimension.isDimensionless()
                         ? q.dim.dimension.toString()
                         : "";
  return unit.empty() || unit == "1" ? q.name : q.name + " [" + unit + "]";
}

// V against the one coordinate, with the states of rest as dots on it.
std::string curve(const LoadedModel &loaded, const mechanics::Box &box, double t,
                  const std::vector<mechanics::Equilibrium> &found) {
  PotentialAt V(loaded, t);
  Plot plot;
  plot.title = potentialName(loaded) + " of " + loaded.model().name;
  plot.xLabel = unitOfCoordinate(loaded, 0);
  std::vector<double> at;
  for (size_t i = 0; i < kCurvePoints; ++i)
    at.push_back(box.lo[0] + (box.hi[0] - box.lo[0]) * static_cast<double>(i) /
                                 static_cast<double>(kCurvePoints - 1));
  for (const mechanics::Equilibrium &e : found)
    if (!e.arbitrary[0])
      at.push_back(e.q[0]);
  // Once each: a state of rest on a grid point is that point (two equal
  // samples would draw a line of no length instead of a dot).
  std::sort(at.begin(), at.end());
  at.erase(std::unique(at.begin(), at.end()), at.end());
  plot.x = at;
  PlotSeries potential{potentialName(loaded), {}, "J"}, stable{"stable", {}, "J"},
      unstable{"unstable", {}, "J"};
  for (double q : at) {
    double v = V({q});
    potential.values.push_back(v);
    auto rest = std::find_if(found.begin(), found.end(), [&](const mechanics::Equilibrium &e) {
      return !e.arbitrary[0] && e.q[0] == q;
    });
    bool isRest = rest != found.end();
    stable.values.push_back(isRest && rest->stable == true ? v : NAN);
    unstable.values.push_back(isRest && rest->stable != true ? v : NAN);
  }
  plot.series = {potential, stable, unstable};
  return renderSvg(plot);
}

// V over the two coordinates as a heat map.
std::string map(const LoadedModel &loaded, const mechanics::Box &box, double t) {
  PotentialAt V(loaded, t);
  HeatMap heat;
  heat.title = potentialName(loaded) + " of " + loaded.model().name;
  heat.xLabel = unitOfCoordinate(loaded, 0);
  heat.yLabel = unitOfCoordinate(loaded, 1);
  heat.valueLabel = potentialName(loaded) + " [J]";
  for (size_t i = 0; i < kMapPoints; ++i) {
    double s = static_cast<double>(i) / static_cast<double>(kMapPoints - 1);
    heat.x.push_back(box.lo[0] + (box.hi[0] - box.lo[0]) * s);
    heat.y.push_back(box.lo[1] + (box.hi[1] - box.lo[1]) * s);
  }
  for (double a : heat.x)
    for (double b : heat.y)
      heat.values.push_back(V({a, b}));
  return renderHeatMap(heat);
}

} // namespace

std::string landscapeProblem(const LoadedModel &loaded) {
  const mechanics::Equations &eq = loaded.equations();
  if (!eq.constraints.empty())
    return "equilibria: --plot draws V over free coordinates; " + eq.model + " has constraints";
  if (eq.coordinates.empty() || eq.coordinates.size() > 2)
    return "equilibria: --plot draws V over one or two coordinates; " + eq.model + " has " +
           std::to_string(eq.coordinates.size());
  return "";
}

std::string landscapeSvg(const LoadedModel &loaded, const mechanics::Box &box, double t,
                         const std::vector<mechanics::Equilibrium> &found) {
  return loaded.equations().coordinates.size() == 1 ? curve(loaded, box, t, found)
                                                    : map(loaded, box, t);
}

} // namespace mech::driver
