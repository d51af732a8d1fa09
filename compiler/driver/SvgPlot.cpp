// Renders a Plot as SVG: nice axis ticks, a layout whose margins come from
// estimated text widths (there are no font metrics at hand), per-pixel-column
// downsampling of long series, and text made safe for XML.
#include "driver/SvgPlot.h"

#include "support/Utf8.h"
#include "support/XmlText.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string_view>
#include <tuple>

namespace mech::driver {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Larger magnitudes are clipped, so that every span and difference stays finite.
constexpr double kMaxMagnitude = 1e300;
// Smaller magnitudes count as zero, so that 10^-k of a tick step stays finite.
constexpr double kTinyMagnitude = 1e-290;

// ---- text ------------------------------------------------------------------

constexpr double kTickFont = 12;
constexpr double kLabelFont = 13;
constexpr double kTitleFont = 16;
// Advance of an average sans-serif glyph in em (digits are 0.55-0.64 em);
// on the generous side, so that estimated boxes contain the real text.
constexpr double kGlyphWidth = 0.62;
constexpr std::string_view kReplacement = "\xEF\xBF\xBD"; // U+FFFD
constexpr std::string_view kEllipsis = "\xE2\x80\xA6";    // U+2026

// Valid UTF-8 holding only characters XML allows: malformed bytes and control
// characters would make the document ill-formed, so they become U+FFFD. Line
// breaks and tabs become spaces, since SVG text is a single line.
std::string sanitize(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char32_t c : decodeUtf8Lossy(s)) {
    if (c == U'\t' || c == U'\n' || c == U'\r')
      out += ' ';
    else if (c < 0x20 || c == 0xFFFE || c == 0xFFFF)
      out += kReplacement;
    else
      out += encodeUtf8(c);
  }
  return out;
}

size_t codepoints(std::string_view utf8) {
  return std::count_if(utf8.begin(), utf8.end(),
                       [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; });
}

double textWidth(std::string_view utf8, double fontSize) {
  return static_cast<double>(codepoints(utf8)) * kGlyphWidth * fontSize;
}

// `utf8` cut at a character boundary and ended with an ellipsis when its
// estimated width exceeds maxWidth.
std::string fitText(const std::string &utf8, double maxWidth, double fontSize) {
  if (textWidth(utf8, fontSize) <= maxWidth)
    return utf8;
  double glyphs = std::floor(maxWidth / (kGlyphWidth * fontSize)) - 1;
  size_t keep = glyphs > 0 ? static_cast<size_t>(glyphs) : 0;
  size_t end = 0, seen = 0;
  while (end < utf8.size()) {
    if ((static_cast<unsigned char>(utf8[end]) & 0xC0) != 0x80 && seen++ == keep)
      break;
    ++end;
  }
  return utf8.substr(0, end) + std::string(kEllipsis);
}

// ---- numbers ---------------------------------------------------------------

// std::to_chars, unlike printf, ignores the locale: a decimal comma would
// corrupt coordinates.
std::string formatFixed(double value, int decimals) {
  std::array<char, 400> buffer;
  auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                              std::chars_format::fixed, decimals);
  return std::string(buffer.data(), result.ptr);
}

std::string formatScientific(double value, int decimals) {
  std::array<char, 64> buffer;
  auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                              std::chars_format::scientific, decimals);
  return std::string(buffer.data(), result.ptr);
}

// "2.500" -> "2.5", "3.000" -> "3", "-0.0" -> "0".
std::string trimZeros(std::string s) {
  if (s.find('.') != std::string::npos) {
    s.erase(s.find_last_not_of('0') + 1);
    if (s.back() == '.')
      s.pop_back();
  }
  return s == "-0" ? "0" : s;
}

// A tick label as shown: U+2212 is as wide as a digit and reads better than
// the hyphen; tickLabel itself stays ASCII so that it parses as a number.
std::string shownLabel(const std::string &label) {
  std::string out;
  for (char c : label)
    out += c == '-' ? std::string("\xE2\x88\x92") : std::string(1, c);
  return out;
}

// A pixel coordinate: a tenth of a pixel is finer than any screen shows.
std::string px(double value) {
  return trimZeros(formatFixed(value, 1));
}

// ---- ticks -----------------------------------------------------------------

// m x 10^e computed so that it is the double nearest the decimal: 10^|e| is
// exact up to 10^22, and one division rounds correctly (0.3, not 0.30000000000000004).
double decimal(double m, int e) {
  return e >= 0 ? m * std::pow(10.0, e) : m / std::pow(10.0, -e);
}

// The range niceTicks works on: finite, ordered, clipped, and not empty.
std::pair<double, double> usableRange(double lo, double hi) {
  if (!std::isfinite(lo) || !std::isfinite(hi))
    return {0.0, 1.0};
  if (lo > hi)
    std::swap(lo, hi);
  lo = std::clamp(lo, -kMaxMagnitude, kMaxMagnitude);
  hi = std::clamp(hi, -kMaxMagnitude, kMaxMagnitude);
  double magnitude = std::max(std::abs(lo), std::abs(hi));
  // A range too narrow for distinct labels is drawn as a constant.
  if (hi - lo <= magnitude * 1e-9 || hi - lo < kTinyMagnitude) {
    double centre = lo / 2 + hi / 2;
    double halfWidth = std::abs(centre) < kTinyMagnitude ? 1.0 : std::abs(centre) / 10;
    return {centre - halfWidth, centre + halfWidth};
  }
  return {lo, hi};
}

// Where sample i of a series sits on the abscissa; NaN when it has no place.
double abscissa(const Plot &plot, size_t i) {
  if (plot.x.empty())
    return static_cast<double>(i);
  return i < plot.x.size() ? plot.x[i] : kNaN;
}

struct Range {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  void add(double v) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
};

// ---- layout ----------------------------------------------------------------

// The plot area in pixels and the axes that map data onto it.
struct Frame {
  double left = 0, top = 0, right = 0, bottom = 0;
  AxisTicks x, y;

  double width() const { return right - left; }
  double height() const { return bottom - top; }
  // Far-off points are pulled in to a band around the plot area, keeping the
  // direction of lines that leave it while the numbers stay small.
  double mapX(double v) const {
    double p = left + (clip(v) - x.lo) / (x.hi - x.lo) * width();
    return std::clamp(p, left - 2 * width(), right + 2 * width());
  }
  double mapY(double v) const {
    double p = bottom - (clip(v) - y.lo) / (y.hi - y.lo) * height();
    return std::clamp(p, top - 2 * height(), bottom + 2 * height());
  }
  static double clip(double v) { return std::clamp(v, -kMaxMagnitude, kMaxMagnitude); }
};

double widestLabel(const AxisTicks &ticks, double fontSize) {
  double widest = 0;
  for (double value : ticks.values)
    widest = std::max(widest, textWidth(tickLabel(value, ticks), fontSize));
  return widest;
}

// Room one x tick label needs: its width and a gap of two digits.
double xLabelRoom(const AxisTicks &ticks) {
  return widestLabel(ticks, kTickFont) + 2 * kGlyphWidth * kTickFont;
}
constexpr double kYLabelRoom = 1.4 * kTickFont;

// Labels go on every stride-th tick so that neighbours keep clear of each
// other: every tick, unless even four ticks are too many for a small image.
long long labelStride(const AxisTicks &ticks, double axisLength, double labelRoom) {
  double spacing = axisLength * ticks.step / (ticks.hi - ticks.lo);
  return static_cast<long long>(std::max(1.0, std::ceil(labelRoom / spacing - 1e-9)));
}

// Strides count from zero, so that 0 keeps its label.
bool labelled(double value, const AxisTicks &ticks, long long stride) {
  return std::llround(value / ticks.step) % stride == 0;
}

// Abscissa ticks as dense as their labels allow, or the fewest the rule
// allows. A time axis spans the data; another (a phase portrait's) grows
// to its outermost ticks, as a value axis does.
AxisTicks fittingXTicks(double lo, double hi, double plotWidth, bool extend) {
  AxisTicks ticks;
  for (int most = 10; most >= 4; --most) {
    ticks = niceTicks(lo, hi, extend, most);
    if (labelStride(ticks, plotWidth, xLabelRoom(ticks)) == 1)
      break;
  }
  return ticks;
}

// Okabe & Ito's palette, which stays distinct under the common colour-vision
// deficiencies; yellow is left out, it is unreadable on white. Past seven
// series the colours repeat with a dash pattern.
constexpr std::array<std::string_view, 7> kColours = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                                      "#E69F00", "#56B4E9", "#000000"};
constexpr std::array<std::string_view, 4> kDashes = {"", "7 4", "2 3", "9 3 2 3"};

std::string strokeStyle(size_t series) {
  std::string style = "stroke=\"" + std::string(kColours[series % kColours.size()]) + "\"";
  std::string_view dash = kDashes[(series / kColours.size()) % kDashes.size()];
  if (!dash.empty())
    style += " stroke-dasharray=\"" + std::string(dash) + "\"";
  return style;
}

// ---- series ----------------------------------------------------------------

struct Point {
  double x, y;
};

// Keeps, per pixel column, the first, lowest, highest and last point in
// their original order: peaks survive and columns still join up. Only for
// runs whose x never decreases (a time series), where columns are contiguous.
std::vector<Point> downsample(const std::vector<Point> &run) {
  std::vector<Point> out;
  size_t begin = 0;
  while (begin < run.size()) {
    double column = std::floor(run[begin].x);
    size_t end = begin, lowest = begin, highest = begin;
    while (end < run.size() && std::floor(run[end].x) == column) {
      // Pixel y grows downwards: the lowest value has the largest y.
      if (run[end].y > run[lowest].y)
        lowest = end;
      if (run[end].y < run[highest].y)
        highest = end;
      ++end;
    }
    std::array<size_t, 4> keep = {begin, lowest, highest, end - 1};
    std::sort(keep.begin(), keep.end());
    for (size_t k = 0; k < keep.size(); ++k)
      if (k == 0 || keep[k] != keep[k - 1])
        out.push_back(run[keep[k]]);
    begin = end;
  }
  return out;
}

// A curve that turns back (a phase portrait, a path in the plane) has no
// pixel columns: its points closer than half a pixel to the last one kept
// are left out, which no eye can tell apart; the last point stays.
std::vector<Point> thinned(const std::vector<Point> &run) {
  std::vector<Point> out = {run.front()};
  for (size_t i = 1; i < run.size(); ++i) {
    double dx = run[i].x - out.back().x, dy = run[i].y - out.back().y;
    if (dx * dx + dy * dy >= 0.25 || i + 1 == run.size())
      out.push_back(run[i]);
  }
  return out;
}

// One run of consecutive drawable samples: a polyline, or a dot when alone.
void emitRun(std::string &svg, std::vector<Point> run, const Frame &frame) {
  if (run.empty())
    return;
  if (run.size() == 1) {
    svg += "<circle cx=\"" + px(run[0].x) + "\" cy=\"" + px(run[0].y) +
           "\" r=\"4\" stroke=\"none\" fill=\"currentColor\"/>\n";
    return;
  }
  bool increasing = std::is_sorted(run.begin(), run.end(),
                                   [](const Point &a, const Point &b) { return a.x < b.x; });
  if (static_cast<double>(run.size()) > 2 * frame.width())
    run = increasing ? downsample(run) : thinned(run);
  svg += "<polyline points=\"";
  for (size_t i = 0; i < run.size(); ++i) {
    if (i)
      svg += ' ';
    svg += px(run[i].x) + "," + px(run[i].y);
  }
  svg += "\"/>\n";
}

void emitSeries(std::string &svg, const Plot &plot, size_t index, const Frame &frame) {
  const PlotSeries &series = plot.series[index];
  svg += "<g class=\"series\" fill=\"none\" stroke-width=\"1.75\" stroke-linejoin=\"round\" "
         "stroke-linecap=\"round\" " +
         strokeStyle(index) + " color=\"" + std::string(kColours[index % kColours.size()]) +
         "\">\n";
  std::vector<Point> run;
  for (size_t i = 0; i < series.values.size(); ++i) {
    double x = abscissa(plot, i), y = series.values[i];
    if (std::isfinite(x) && std::isfinite(y)) {
      run.push_back({frame.mapX(x), frame.mapY(y)});
      continue;
    }
    emitRun(svg, std::move(run), frame); // a gap ends the run
    run.clear();
  }
  emitRun(svg, std::move(run), frame);
  svg += "</g>\n";
}

} // namespace

AxisTicks niceTicks(double lo, double hi, bool extend, int maxTicks) {
  std::tie(lo, hi) = usableRange(lo, hi);
  maxTicks = std::clamp(maxTicks, 4, 10);
  // Tick k sits at k x step; the slack absorbs rounding in lo / step.
  auto firstLast = [&](double step) {
    double slack = 1e-9;
    return extend ? std::pair{std::floor(lo / step + slack), std::ceil(hi / step - slack)}
                  : std::pair{std::ceil(lo / step - slack), std::floor(hi / step + slack)};
  };
  // Start with a step surely too fine (100 to 1000 intervals) and coarsen
  // through 1, 2, 5 x 10^e until at most maxTicks remain.
  int exponent = static_cast<int>(std::floor(std::log10(hi - lo))) - 2;
  double mantissa = 1, previousMantissa = 1;
  int previousExponent = exponent;
  for (int attempt = 0; attempt < 40; ++attempt) {
    auto [first, last] = firstLast(decimal(mantissa, exponent));
    double count = last - first + 1;
    if (count <= maxTicks) {
      // Coarsening overshot below four ticks: the finer step is closer.
      if (count < 4 && attempt > 0)
        mantissa = previousMantissa, exponent = previousExponent;
      break;
    }
    previousMantissa = mantissa, previousExponent = exponent;
    if (mantissa == 1)
      mantissa = 2;
    else if (mantissa == 2)
      mantissa = 5;
    else
      mantissa = 1, ++exponent;
  }
  AxisTicks ticks;
  ticks.step = decimal(mantissa, exponent);
  auto [first, last] = firstLast(ticks.step);
  for (double k = first; k <= last; ++k)
    ticks.values.push_back(decimal(k * mantissa, exponent));
  ticks.lo = extend ? std::min(lo, ticks.values.front()) : lo;
  ticks.hi = extend ? std::max(hi, ticks.values.back()) : hi;
  return ticks;
}

std::string tickLabel(double value, const AxisTicks &ticks) {
  if (!std::isfinite(value))
    return std::isnan(value) ? "NaN" : value > 0 ? "Inf" : "-Inf";
  if (value == 0)
    return "0";
  int stepExponent = static_cast<int>(std::floor(std::log10(ticks.step) + 1e-9));
  int decimals = std::max(0, -stepExponent);
  double magnitude = std::max(std::abs(ticks.lo), std::abs(ticks.hi));
  if (!ticks.values.empty())
    magnitude = std::max(std::abs(ticks.values.front()), std::abs(ticks.values.back()));
  if (magnitude >= 1e-3 && magnitude < 1e5)
    return trimZeros(formatFixed(value, decimals));
  // Exponent notation with as many mantissa digits as the step needs.
  int valueExponent = static_cast<int>(std::floor(std::log10(std::abs(value))));
  std::string text = formatScientific(value, std::clamp(valueExponent - stepExponent, 0, 16));
  size_t e = text.find('e');
  int power = std::stoi(text.substr(e + 1));
  return trimZeros(text.substr(0, e)) + "e" + std::to_string(power);
}

namespace {

// The extent of the drawable data: the abscissa of every sample that has a
// place, and the values of the samples drawn (a gap contributes nothing).
Range xRange(const Plot &plot) {
  Range xData;
  size_t samples = 0;
  for (const PlotSeries &series : plot.series)
    samples = std::max(samples, series.values.size());
  if (plot.x.empty() && samples > 0)
    xData.add(0), xData.add(static_cast<double>(samples - 1));
  for (double x : plot.x)
    if (std::isfinite(x))
      xData.add(x);
  return xData;
}

// The extent of the values of the given series.
Range yRange(const Plot &plot, const std::vector<size_t> &indices) {
  Range yData;
  for (size_t index : indices) {
    const PlotSeries &series = plot.series[index];
    for (size_t i = 0; i < series.values.size(); ++i)
      if (std::isfinite(abscissa(plot, i)) && std::isfinite(series.values[i]))
        yData.add(series.values[i]);
  }
  return yData;
}

// The legend's names as shown (with their units), the series they stand
// for, and the box that holds them.
struct Legend {
  static constexpr double swatch = 24, pad = 8;
  std::vector<std::string> names;
  std::vector<size_t> series;
  double width = 0;
};

std::string nameWithUnit(const PlotSeries &series, size_t index) {
  std::string name = sanitize(series.name);
  if (name.find_first_not_of(' ') == std::string::npos)
    name = "series " + std::to_string(index + 1);
  return series.unit.empty() ? name : name + " [" + sanitize(series.unit) + "]";
}

// Legend outside the plot on the right, names cut to at most ~28% of the width.
Legend legendFor(const Plot &plot, const std::vector<size_t> &indices, double W) {
  Legend legend;
  double nameWidth = 0;
  double maxNameWidth = std::max(24.0, 0.28 * W - 46);
  for (size_t i : indices) {
    legend.names.push_back(fitText(nameWithUnit(plot.series[i], i), maxNameWidth, kTickFont));
    legend.series.push_back(i);
    nameWidth = std::max(nameWidth, textWidth(legend.names.back(), kTickFont));
  }
  legend.width = legend.names.empty() ? 0 : 2 * Legend::pad + Legend::swatch + 6 + nameWidth;
  return legend;
}

// The series of one unit, drawn against their own value axis: a plot of
// series in several units is a stack of panels that share the abscissa.
struct Panel {
  std::vector<size_t> series;
  std::string unit, yLabel;
  Legend legend;
  Frame frame;
};

// Panels shorter than this hold too few ticks to read: the series then
// share one panel, their units in the legend.
constexpr double kMinPanelHeight = 64, kPanelGap = 14;

// One panel per unit, in the order the units first come; one panel for all
// when there is no room for more.
std::vector<Panel> panelsOf(const Plot &plot, double plotHeight) {
  std::vector<Panel> panels;
  for (size_t i = 0; i < plot.series.size(); ++i) {
    auto found = std::find_if(panels.begin(), panels.end(),
                              [&](const Panel &p) { return p.unit == plot.series[i].unit; });
    if (found == panels.end())
      found = panels.insert(panels.end(), Panel{{}, plot.series[i].unit, "", {}, {}});
    found->series.push_back(i);
  }
  double k = static_cast<double>(panels.size());
  if (panels.size() > 1 && (plotHeight - (k - 1) * kPanelGap) / k < kMinPanelHeight) {
    Panel all;
    for (size_t i = 0; i < plot.series.size(); ++i)
      all.series.push_back(i);
    panels = {all};
  }
  if (panels.empty())
    panels.push_back({});
  // The value axis is labelled with its unit, and with the series' names
  // when there are at most three.
  for (Panel &panel : panels) {
    if (panel.unit.empty())
      continue;
    std::string names;
    for (size_t i : panel.series)
      names += (names.empty() ? "" : ", ") + sanitize(plot.series[i].name);
    panel.yLabel = (panel.series.size() <= 3 ? names + " " : "") + "[" + sanitize(panel.unit) + "]";
  }
  return panels;
}

// The panels' plot areas and axes: the margins make room for the title,
// the tick labels, the axis labels and the legends. The panels share the
// left and right edges and the abscissa's ticks.
std::vector<Panel> layoutPanels(const Plot &plot, double W, double H, const Range &xData) {
  // Vertical layout: title band, panels, tick labels, x label.
  double top = plot.title.empty() ? 16 : 22 + kTitleFont;
  double bottom = H - (5 + 5 + kTickFont + (plot.xLabel.empty() ? 8 : 12 + kLabelFont + 8));
  std::vector<Panel> panels = panelsOf(plot, bottom - top);
  double k = static_cast<double>(panels.size());
  double height = (bottom - top - (k - 1) * kPanelGap) / k;
  double tickLabelRoom = 0, legendWidth = 0;
  bool yLabels = false;
  for (size_t p = 0; p < panels.size(); ++p) {
    Frame &frame = panels[p].frame;
    frame.top = top + static_cast<double>(p) * (height + kPanelGap);
    frame.bottom = frame.top + height;
    Range yData = yRange(plot, panels[p].series);
    frame.y = niceTicks(yData.lo, yData.hi, true, static_cast<int>(height / (2.5 * kTickFont)));
    tickLabelRoom = std::max(tickLabelRoom, widestLabel(frame.y, kTickFont));
    panels[p].legend = legendFor(plot, panels[p].series, W);
    legendWidth = std::max(legendWidth, panels[p].legend.width);
    yLabels = yLabels || !panels[p].yLabel.empty();
  }

  // Horizontal layout: y label, y tick labels, plot, gap, legend. The gaps
  // also hold half of the outermost x tick labels, which are centred on
  // their ticks.
  double left = 10 + (yLabels ? kLabelFont + 6 : 0) + tickLabelRoom + 5 + 5;
  double legendRoom = legendWidth == 0 ? 0 : 10 + legendWidth;
  double halfXLabel = 0;
  Frame shared;
  bool timeLike = std::is_sorted(plot.x.begin(), plot.x.end());
  // The labels depend on the width and the width on the labels: the second
  // pass settles it (label widths barely change between the passes).
  for (int pass = 0; pass < 2; ++pass) {
    double gap = std::max(12.0, halfXLabel + 6);
    shared.left = std::max(left, gap);
    shared.right = std::max(W - legendRoom - gap, shared.left + 40);
    shared.x = fittingXTicks(xData.lo, xData.hi, shared.width(), !timeLike);
    halfXLabel = widestLabel(shared.x, kTickFont) / 2;
  }
  for (Panel &panel : panels) {
    panel.frame.left = shared.left;
    panel.frame.right = shared.right;
    panel.frame.x = shared.x;
    if (!panel.legend.names.empty())
      panel.legend.width = legendWidth;
  }
  return panels;
}

// The attributes x, y, width and height of the plot area.
std::string areaAttributes(const Frame &frame) {
  return "x=\"" + px(frame.left) + "\" y=\"" + px(frame.top) + "\" width=\"" + px(frame.width()) +
         "\" height=\"" + px(frame.height()) + "\"";
}

// The XML prolog, the root element, the title and the white background.
void emitPrologue(std::string &svg, const Plot &plot, int width, int height) {
  svg += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) +
         "\" height=\"" + std::to_string(height) + "\" viewBox=\"0 0 " + std::to_string(width) +
         " " + std::to_string(height) + "\" font-family=\"sans-serif\" font-size=\"" +
         px(kTickFont) + "\">\n";
  if (!plot.title.empty())
    svg += "<title>" + xmlEscape(sanitize(plot.title)) + "</title>\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
}

// The clip path of a plot area; returns its id.
std::string emitClip(std::string &svg, const Frame &frame) {
  // Plots inlined in one web page share an id space: the id spells out the
  // rectangle, so that a clash between two plots clips both the same way.
  std::string clipId = "mech-clip-" + px(frame.left) + "-" + px(frame.top) + "-" +
                       px(frame.width()) + "-" + px(frame.height());
  svg += "<defs><clipPath id=\"" + clipId + "\"><rect " + areaAttributes(frame) +
         "/></clipPath></defs>\n";
  return clipId;
}

// Grid, with the zero line a shade darker when it is in view.
void emitGrid(std::string &svg, const Frame &frame) {
  svg +=
      "<g class=\"grid\" stroke=\"#e3e3e3\" stroke-width=\"1\" shape-rendering=\"crispEdges\">\n";
  for (double v : frame.x.values)
    svg += "<line x1=\"" + px(frame.mapX(v)) + "\" y1=\"" + px(frame.top) + "\" x2=\"" +
           px(frame.mapX(v)) + "\" y2=\"" + px(frame.bottom) + "\"/>\n";
  for (double v : frame.y.values)
    svg += "<line x1=\"" + px(frame.left) + "\" y1=\"" + px(frame.mapY(v)) + "\" x2=\"" +
           px(frame.right) + "\" y2=\"" + px(frame.mapY(v)) + "\"" +
           (v == 0 ? " stroke=\"#b0b0b0\"" : "") + "/>\n";
  svg += "</g>\n";
}

// Frame, tick marks and tick labels; drawn over the series, which the plot
// area's edge would otherwise hide.
void emitAxes(std::string &svg, const Frame &frame, bool xLabels) {
  svg += "<rect " + areaAttributes(frame) +
         " fill=\"none\" stroke=\"#555\" shape-rendering=\"crispEdges\"/>\n";
  svg += "<g class=\"ticks\" stroke=\"#555\" shape-rendering=\"crispEdges\">\n";
  for (double v : frame.x.values)
    svg += "<line x1=\"" + px(frame.mapX(v)) + "\" y1=\"" + px(frame.bottom) + "\" x2=\"" +
           px(frame.mapX(v)) + "\" y2=\"" + px(frame.bottom + 5) + "\"/>\n";
  for (double v : frame.y.values)
    svg += "<line x1=\"" + px(frame.left - 5) + "\" y1=\"" + px(frame.mapY(v)) + "\" x2=\"" +
           px(frame.left) + "\" y2=\"" + px(frame.mapY(v)) + "\"/>\n";
  svg += "</g>\n";
  svg += "<g class=\"tick-labels\" fill=\"#333\">\n";
  // Baselines are placed by hand: dominant-baseline is not honoured everywhere.
  long long xStride = labelStride(frame.x, frame.width(), xLabelRoom(frame.x));
  long long yStride = labelStride(frame.y, frame.height(), kYLabelRoom);
  for (double v : frame.x.values)
    if (xLabels && labelled(v, frame.x, xStride))
      svg += "<text x=\"" + px(frame.mapX(v)) + "\" y=\"" +
             px(frame.bottom + 5 + 4 + 0.8 * kTickFont) + "\" text-anchor=\"middle\">" +
             shownLabel(tickLabel(v, frame.x)) + "</text>\n";
  for (double v : frame.y.values)
    if (labelled(v, frame.y, yStride))
      svg += "<text x=\"" + px(frame.left - 5 - 4) + "\" y=\"" +
             px(frame.mapY(v) + 0.35 * kTickFont) + "\" text-anchor=\"end\">" +
             shownLabel(tickLabel(v, frame.y)) + "</text>\n";
  svg += "</g>\n";
}

// The x label or the title: cut to the room it has, centred over the plot
// area but moved inwards where it would leave the image.
void emitCentred(std::string &svg, const Frame &frame, double W, const std::string &text,
                 double fontSize, double measureSize, double y, const std::string &attributes) {
  std::string fitted = fitText(sanitize(text), W - 20, measureSize);
  double half = textWidth(fitted, measureSize) / 2;
  double x = std::clamp((frame.left + frame.right) / 2, std::min(W / 2, 10 + half),
                        std::max(W / 2, W - 10 - half));
  svg += "<text " + attributes + " x=\"" + px(x) + "\" y=\"" + px(y) +
         "\" text-anchor=\"middle\" font-size=\"" + px(fontSize) + "\">" + xmlEscape(fitted) +
         "</text>\n";
}

// Legend: as many rows as fit beside the plot, then a count of the rest.
void emitLegend(std::string &svg, const Legend &legend, const Frame &frame, double W) {
  const std::vector<std::string> &names = legend.names;
  const double row = 1.6 * kTickFont;
  size_t fit = static_cast<size_t>(std::max(1.0, std::floor((frame.height() - 8) / row)));
  size_t shown = names.size() <= fit ? names.size() : fit - 1;
  size_t rows = shown + (shown < names.size() ? 1 : 0);
  double x0 = W - 10 - legend.width, y0 = frame.top;
  svg += "<g class=\"legend\">\n<rect x=\"" + px(x0) + "\" y=\"" + px(y0) + "\" width=\"" +
         px(legend.width) + "\" height=\"" + px(static_cast<double>(rows) * row + 8) +
         "\" rx=\"3\" fill=\"white\" stroke=\"#c8c8c8\"/>\n";
  for (size_t i = 0; i < shown; ++i) {
    double y = y0 + 4 + (static_cast<double>(i) + 0.5) * row;
    svg += "<line x1=\"" + px(x0 + Legend::pad) + "\" y1=\"" + px(y) + "\" x2=\"" +
           px(x0 + Legend::pad + Legend::swatch) + "\" y2=\"" + px(y) + "\" stroke-width=\"2.5\" " +
           strokeStyle(legend.series[i]) + "/>\n";
    svg += "<text x=\"" + px(x0 + Legend::pad + Legend::swatch + 6) + "\" y=\"" +
           px(y + 0.35 * kTickFont) + "\" fill=\"#222\">" + xmlEscape(names[i]) + "</text>\n";
  }
  if (shown < names.size()) {
    double y = y0 + 4 + (static_cast<double>(shown) + 0.5) * row;
    svg += "<text x=\"" + px(x0 + Legend::pad) + "\" y=\"" + px(y + 0.35 * kTickFont) +
           "\" fill=\"#555\">+" + std::to_string(names.size() - shown) + " more</text>\n";
  }
  svg += "</g>\n";
}

// The value axis's label, turned to run up the left edge beside the panel.
void emitYLabel(std::string &svg, const Frame &frame, const std::string &label) {
  std::string fitted = fitText(label, frame.height(), kLabelFont);
  double x = 10 + 0.8 * kLabelFont, y = (frame.top + frame.bottom) / 2;
  svg += "<text class=\"y-label\" x=\"" + px(x) + "\" y=\"" + px(y) + "\" transform=\"rotate(-90 " +
         px(x) + " " + px(y) + ")\" text-anchor=\"middle\" font-size=\"" + px(kLabelFont) +
         "\" fill=\"#222\">" + xmlEscape(fitted) + "</text>\n";
}

// One panel, its layers from the back: grid, series clipped to the plot
// area, axes (tick labels of the abscissa only under the lowest panel),
// the value axis's label, legend.
void emitPanel(std::string &svg, const Plot &plot, const Panel &panel, bool lowest, double W) {
  const Frame &frame = panel.frame;
  svg += "<g class=\"panel\"";
  if (!panel.unit.empty())
    svg += " data-unit=\"" + xmlEscape(sanitize(panel.unit)) + "\"";
  svg += ">\n";
  std::string clipId = emitClip(svg, frame);
  emitGrid(svg, frame);
  svg += "<g clip-path=\"url(#" + clipId + ")\">\n";
  for (size_t i : panel.series)
    emitSeries(svg, plot, i, frame);
  svg += "</g>\n";
  emitAxes(svg, frame, lowest);
  if (!panel.yLabel.empty())
    emitYLabel(svg, frame, panel.yLabel);
  if (!panel.legend.names.empty())
    emitLegend(svg, panel.legend, frame, W);
  svg += "</g>\n";
}

} // namespace

// Layout first (the margins depend on the labels), then the panels from the
// top, the x label under the lowest, the title over all.
std::string renderSvg(const Plot &plot, int width, int height) {
  width = std::max(width, 240);
  height = std::max(height, 160);
  const double W = width, H = height;

  std::vector<Panel> panels = layoutPanels(plot, W, H, xRange(plot));
  std::string svg;
  svg.reserve(16384);
  emitPrologue(svg, plot, width, height);
  for (size_t p = 0; p < panels.size(); ++p)
    emitPanel(svg, plot, panels[p], p + 1 == panels.size(), W);
  const Frame &frame = panels.back().frame;
  if (!plot.xLabel.empty())
    emitCentred(svg, frame, W, plot.xLabel, kLabelFont, kLabelFont, H - 10,
                "class=\"x-label\" fill=\"#222\"");
  // Bold glyphs are about a tenth wider.
  if (!plot.title.empty())
    emitCentred(svg, frame, W, plot.title, kTitleFont, 1.1 * kTitleFont, 10 + 0.8 * kTitleFont,
                "class=\"title\" font-weight=\"bold\" fill=\"#111\"");
  svg += "</svg>\n";
  return svg;
}

std::string svgText(std::string_view text) {
  return xmlEscape(sanitize(text));
}

std::string svgPixels(double value) {
  return px(value);
}

double svgTextWidth(std::string_view text, double fontSize) {
  return textWidth(text, fontSize);
}

} // namespace mech::driver
