// Line plots of time series as standalone SVG documents: nice axis ticks,
// grid, legend, gaps at non-finite samples, one panel per unit. Plain string
// building, so that `mech` can draw a simulation without a plotting library.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace mech::driver {

struct PlotSeries {
  std::string name;
  std::vector<double> values; // values[i] is drawn at x[i]; NaN or Inf leaves a gap
  // Shown in the legend ("th1 [rad]") and on the value axis; series of
  // different units are drawn in panels of their own, stacked over a shared
  // abscissa. Empty: no unit.
  std::string unit;
};

struct Plot {
  std::string title;
  std::string xLabel = "t [s]";
  // The shared abscissa: samples past its end are not drawn; when it is
  // empty, the sample index is used instead.
  std::vector<double> x;
  std::vector<PlotSeries> series;
};

// A complete, standalone SVG document (width x height pixels). Sizes below
// 240 x 160 are raised to that minimum.
std::string renderSvg(const Plot &plot, int width = 900, int height = 540);

// A value over a grid of two variables (a sweep's summary), drawn as
// coloured cells with a colour bar (SvgHeatMap.cpp).
struct HeatMap {
  std::string title, xLabel, yLabel, valueLabel;
  std::vector<double> x, y; // the grid's points along each axis, evenly spaced
  // values[i * y.size() + j] at (x[i], y[j]); a non-finite value is a grey
  // cell ("no value").
  std::vector<double> values;
};

std::string renderHeatMap(const HeatMap &map, int width = 900, int height = 640);

// The ticks of one axis: multiples of step, where step is 1, 2 or 5 x 10^k.
struct AxisTicks {
  double lo = 0, hi = 1; // the axis range
  double step = 1;
  std::vector<double> values;
};

// Between 4 and maxTicks (clamped to 4..10) ticks for data in [lo, hi].
// With `extend` the axis grows outwards to the outermost ticks (the value
// axis); otherwise the axis is [lo, hi] and the ticks lie inside it (time).
// An empty or non-finite range becomes [0, 1]; a zero range is widened.
AxisTicks niceTicks(double lo, double hi, bool extend, int maxTicks = 10);

// The shortest label for a tick of `ticks`: "0.2", "-15", and exponent
// notation ("2.5e-7", "1e12") when the axis magnitude is very large or small.
std::string tickLabel(double value, const AxisTicks &ticks);

// Shared by the module's renderers: text made safe for XML (malformed
// UTF-8 and control characters replaced, specials escaped), a pixel
// coordinate to a tenth of a pixel, and the estimated width of a text.
std::string svgText(std::string_view text);
std::string svgPixels(double value);
double svgTextWidth(std::string_view text, double fontSize);

} // namespace mech::driver
