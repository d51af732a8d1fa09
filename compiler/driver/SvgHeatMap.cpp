// Heat maps as standalone SVG (driver/SvgPlot.h): one cell per grid point,
// coloured by the viridis map (perceptually uniform, readable in grey and
// under the common colour-vision deficiencies), a colour bar with ticks,
// grey cells for runs without a value. Cells of one row with the same
// colour (the value quantized to 64 levels) are drawn as one rectangle, so
// that a 200 x 200 basin with plateaus stays a small file.
#include "driver/SvgPlot.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <tuple>

namespace mech::driver {

namespace {

constexpr int kLevels = 64;
constexpr double kTickFont = 12, kLabelFont = 13, kTitleFont = 16;
constexpr const char *kNoValue = "#bdbdbd";

// viridis sampled at 0, 0.1, ..., 1 (the matplotlib colour map's values).
constexpr std::array<std::array<int, 3>, 11> kViridis = {{{68, 1, 84},
                                                          {72, 36, 117},
                                                          {65, 68, 135},
                                                          {53, 95, 141},
                                                          {42, 120, 142},
                                                          {33, 145, 140},
                                                          {34, 168, 132},
                                                          {68, 191, 112},
                                                          {122, 209, 81},
                                                          {189, 223, 38},
                                                          {253, 231, 37}}};

// The colour of level k of kLevels, as #rrggbb.
std::string colour(int level) {
  double t = (level + 0.5) / kLevels * 10;
  int i = std::min(9, static_cast<int>(t));
  double f = t - i;
  char text[8];
  int rgb[3];
  for (int c = 0; c < 3; ++c)
    rgb[c] =
        static_cast<int>(std::lround(kViridis[i][c] + f * (kViridis[i + 1][c] - kViridis[i][c])));
  std::snprintf(text, sizeof text, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
  return text;
}

// The plot area and the data ranges it shows.
struct Area {
  double left, top, right, bottom;
  double xlo, xhi, ylo, yhi;
  double mapX(double v) const { return left + (v - xlo) / (xhi - xlo) * (right - left); }
  double mapY(double v) const { return bottom - (v - ylo) / (yhi - ylo) * (bottom - top); }
};

// The cells' edges span half a step beyond the first and last points.
std::pair<double, double> edges(const std::vector<double> &points) {
  double lo = std::min(points.front(), points.back()), hi = std::max(points.front(), points.back());
  double half = points.size() > 1 ? (hi - lo) / double(points.size() - 1) / 2 : 0.5;
  if (half == 0)
    half = std::max(std::abs(lo), 1.0) / 2;
  return {lo - half, hi + half};
}

std::string text(double x, double y, const std::string &content, const char *anchor, double size,
                 const std::string &extra = "") {
  return "<text x=\"" + svgPixels(x) + "\" y=\"" + svgPixels(y) + "\" text-anchor=\"" + anchor +
         "\" font-size=\"" + svgPixels(size) + "\"" + extra + ">" + svgText(content) + "</text>\n";
}

void emitCells(std::string &svg, const HeatMap &map, const Area &a, double lo, double hi) {
  const size_t nx = map.x.size(), ny = map.y.size();
  auto [xlo, xhi] = edges(map.x);
  auto [ylo, yhi] = edges(map.y);
  double cellW = (xhi - xlo) / double(nx), cellH = (yhi - ylo) / double(ny);
  auto level = [&](double v) {
    if (!std::isfinite(v))
      return -1;
    return std::clamp(static_cast<int>((v - lo) / (hi - lo) * kLevels), 0, kLevels - 1);
  };
  svg += "<g class=\"cells\" shape-rendering=\"crispEdges\">\n";
  for (size_t j = 0; j < ny; ++j) {
    // The cell of point (i, j) on the axes as they run (either direction).
    double yc = map.y[j], y0 = a.mapY(yc + cellH / 2), y1 = a.mapY(yc - cellH / 2);
    for (size_t i = 0; i < nx;) {
      int k = level(map.values[i * ny + j]);
      size_t end = i + 1;
      while (end < nx && level(map.values[end * ny + j]) == k)
        ++end;
      double xa = a.mapX(std::min(map.x[i], map.x[end - 1]) - cellW / 2);
      double xb = a.mapX(std::max(map.x[i], map.x[end - 1]) + cellW / 2);
      svg += "<rect x=\"" + svgPixels(xa) + "\" y=\"" + svgPixels(std::min(y0, y1)) +
             "\" width=\"" + svgPixels(xb - xa) + "\" height=\"" + svgPixels(std::abs(y1 - y0)) +
             "\" fill=\"" + (k < 0 ? std::string(kNoValue) : colour(k)) + "\"/>\n";
      i = end;
    }
  }
  svg += "</g>\n";
}

void emitAxes(std::string &svg, const Area &a) {
  svg += "<rect x=\"" + svgPixels(a.left) + "\" y=\"" + svgPixels(a.top) + "\" width=\"" +
         svgPixels(a.right - a.left) + "\" height=\"" + svgPixels(a.bottom - a.top) +
         "\" fill=\"none\" stroke=\"#333\"/>\n";
  AxisTicks x = niceTicks(a.xlo, a.xhi, false, 8), y = niceTicks(a.ylo, a.yhi, false, 8);
  for (double v : x.values) {
    double p = a.mapX(v);
    svg += "<line x1=\"" + svgPixels(p) + "\" y1=\"" + svgPixels(a.bottom) + "\" x2=\"" +
           svgPixels(p) + "\" y2=\"" + svgPixels(a.bottom + 5) + "\" stroke=\"#333\"/>\n";
    svg += text(p, a.bottom + 8 + kTickFont, tickLabel(v, x), "middle", kTickFont);
  }
  for (double v : y.values) {
    double p = a.mapY(v);
    svg += "<line x1=\"" + svgPixels(a.left - 5) + "\" y1=\"" + svgPixels(p) + "\" x2=\"" +
           svgPixels(a.left) + "\" y2=\"" + svgPixels(p) + "\" stroke=\"#333\"/>\n";
    svg += text(a.left - 8, p + kTickFont / 3, tickLabel(v, y), "end", kTickFont);
  }
}

// The colour bar right of the area: the levels from lo (bottom) to hi.
void emitColourBar(std::string &svg, const HeatMap &map, const Area &a, double lo, double hi,
                   bool anyMissing) {
  double x = a.right + 24, w = 18, top = a.top, bottom = a.bottom - (anyMissing ? 40 : 0);
  double h = (bottom - top) / kLevels;
  svg += "<g class=\"colour-bar\" shape-rendering=\"crispEdges\">\n";
  for (int k = 0; k < kLevels; ++k)
    svg += "<rect x=\"" + svgPixels(x) + "\" y=\"" + svgPixels(bottom - (k + 1) * h) +
           "\" width=\"" + svgPixels(w) + "\" height=\"" + svgPixels(h + 0.5) + "\" fill=\"" +
           colour(k) + "\"/>\n";
  svg += "</g>\n";
  AxisTicks ticks = niceTicks(lo, hi, false, 6);
  for (double v : ticks.values) {
    double p = bottom - (v - lo) / (hi - lo) * (bottom - top);
    svg += "<line x1=\"" + svgPixels(x + w) + "\" y1=\"" + svgPixels(p) + "\" x2=\"" +
           svgPixels(x + w + 4) + "\" y2=\"" + svgPixels(p) + "\" stroke=\"#333\"/>\n";
    svg += text(x + w + 7, p + kTickFont / 3, tickLabel(v, ticks), "start", kTickFont);
  }
  if (anyMissing) {
    svg += "<rect x=\"" + svgPixels(x) + "\" y=\"" + svgPixels(a.bottom - 18) + "\" width=\"" +
           svgPixels(w) + "\" height=\"18\" fill=\"" + kNoValue + "\"/>\n";
    svg += text(x + w + 7, a.bottom - 5, "no value", "start", kTickFont);
  }
  double labelX = x + w + 7 + 8 * 0.62 * kTickFont + kLabelFont;
  double labelY = (a.top + a.bottom) / 2;
  svg += text(labelX, labelY, map.valueLabel, "middle", kLabelFont,
              " transform=\"rotate(-90 " + svgPixels(labelX) + " " + svgPixels(labelY) + ")\"");
}

} // namespace

std::string renderHeatMap(const HeatMap &map, int width, int height) {
  width = std::max(width, 320);
  height = std::max(height, 240);
  double lo = INFINITY, hi = -INFINITY;
  bool anyMissing = false;
  for (double v : map.values) {
    if (std::isfinite(v)) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    } else {
      anyMissing = true;
    }
  }
  if (!(lo <= hi))
    lo = 0, hi = 1;
  if (hi - lo <= 1e-12 * std::max(std::abs(lo), 1.0)) {
    double half = std::max(std::abs(lo), 1.0) / 10;
    lo -= half;
    hi += half;
  }
  Area a{80, 40, width - 150.0, height - 60.0, 0, 1, 0, 1};
  if (map.x.empty() || map.y.empty() || map.values.size() != map.x.size() * map.y.size())
    return "";
  std::tie(a.xlo, a.xhi) = edges(map.x);
  std::tie(a.ylo, a.yhi) = edges(map.y);

  std::string svg = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) +
         "\" height=\"" + std::to_string(height) + "\" viewBox=\"0 0 " + std::to_string(width) +
         " " + std::to_string(height) + "\" font-family=\"sans-serif\">\n";
  if (!map.title.empty())
    svg += "<title>" + svgText(map.title) + "</title>\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  emitCells(svg, map, a, lo, hi);
  emitAxes(svg, a);
  emitColourBar(svg, map, a, lo, hi, anyMissing);
  svg += text((a.left + a.right) / 2, height - 14, map.xLabel, "middle", kLabelFont);
  double yLabelX = 22, yLabelY = (a.top + a.bottom) / 2;
  svg += text(yLabelX, yLabelY, map.yLabel, "middle", kLabelFont,
              " transform=\"rotate(-90 " + svgPixels(yLabelX) + " " + svgPixels(yLabelY) + ")\"");
  svg += text(width / 2.0, 26, map.title, "middle", kTitleFont);
  svg += "</svg>\n";
  return svg;
}

} // namespace mech::driver
