// SVG plots: the document is well-formed XML whatever the data, says what it
// should (title, labels, legend), leaves gaps at non-finite samples, and
// places ticks at 1, 2, 5 x 10^k with compact labels.
#include "driver/SvgPlot.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace mech::driver;

namespace {

const double NaN = std::numeric_limits<double>::quiet_NaN();
const double Inf = std::numeric_limits<double>::infinity();

bool isNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == ':' ||
         c == '.';
}

// An '&' must start one of the predefined entities or a character reference.
std::string entityProblem(const std::string &text, size_t at) {
  size_t end = text.find(';', at);
  if (end == std::string::npos || end - at > 10)
    return "bare '&'";
  std::string name = text.substr(at + 1, end - at - 1);
  static const std::set<std::string> known = {"amp", "lt", "gt", "quot", "apos"};
  if (known.count(name) || (name.size() > 1 && name[0] == '#'))
    return "";
  return "unknown entity &" + name + ";";
}

// The inside of a tag, "name a=\"1\" b='2' /": a name, then distinct quoted
// attributes without '<', and '&' only in entities.
std::string tagProblem(const std::string &tag, std::string &name, bool &selfClosing) {
  size_t i = 0;
  while (i < tag.size() && isNameChar(tag[i]))
    ++i;
  name = tag.substr(0, i);
  if (name.empty())
    return "tag without a name: <" + tag + ">";
  std::set<std::string> attributes;
  selfClosing = false;
  while (i < tag.size()) {
    if (std::isspace(static_cast<unsigned char>(tag[i]))) {
      ++i;
      continue;
    }
    if (tag[i] == '/' && i + 1 == tag.size()) {
      selfClosing = true;
      break;
    }
    size_t start = i;
    while (i < tag.size() && isNameChar(tag[i]))
      ++i;
    std::string attribute = tag.substr(start, i - start);
    if (attribute.empty() || i + 1 >= tag.size() || tag[i] != '=' ||
        (tag[i + 1] != '"' && tag[i + 1] != '\''))
      return "malformed attribute in <" + tag + ">";
    if (!attributes.insert(attribute).second)
      return "duplicate attribute " + attribute;
    char quote = tag[i + 1];
    size_t close = tag.find(quote, i + 2);
    if (close == std::string::npos)
      return "unterminated attribute value";
    for (size_t k = i + 2; k < close; ++k) {
      if (tag[k] == '<')
        return "'<' in attribute value";
      if (tag[k] == '&') {
        std::string problem = entityProblem(tag, k);
        if (!problem.empty())
          return problem;
      }
    }
    i = close + 1;
  }
  return "";
}

// Empty when `doc` is well-formed XML with a single <svg> root (after an
// optional declaration): tags balance, attributes are quoted, text escaped.
std::string xmlProblem(const std::string &doc) {
  std::vector<std::string> open;
  bool rootSeen = false;
  size_t i = 0;
  if (doc.compare(0, 5, "<?xml") == 0)
    i = doc.find("?>") + 2;
  while (i < doc.size()) {
    char c = doc[i];
    if (c == '&') {
      std::string problem = entityProblem(doc, i);
      if (!problem.empty())
        return problem;
    }
    if (c != '<') {
      if (open.empty() && !std::isspace(static_cast<unsigned char>(c)))
        return "text outside the root element";
      ++i;
      continue;
    }
    if (doc.compare(i, 4, "<!--") == 0) {
      size_t end = doc.find("-->", i);
      if (end == std::string::npos)
        return "unterminated comment";
      i = end + 3;
      continue;
    }
    size_t end = i + 1;
    char quote = 0;
    for (; end < doc.size(); ++end) {
      if (quote && doc[end] == quote)
        quote = 0;
      else if (!quote && (doc[end] == '"' || doc[end] == '\''))
        quote = doc[end];
      else if (!quote && (doc[end] == '>' || doc[end] == '<'))
        break;
    }
    if (end >= doc.size() || doc[end] != '>')
      return "unterminated tag at offset " + std::to_string(i);
    std::string tag = doc.substr(i + 1, end - i - 1);
    i = end + 1;
    if (!tag.empty() && tag[0] == '/') {
      std::string name = tag.substr(1);
      if (open.empty() || open.back() != name)
        return "</" + name + "> closes " + (open.empty() ? "nothing" : "<" + open.back() + ">");
      open.pop_back();
      continue;
    }
    std::string name;
    bool selfClosing = false;
    std::string problem = tagProblem(tag, name, selfClosing);
    if (!problem.empty())
      return problem;
    if (open.empty()) {
      if (rootSeen)
        return "a second root element <" + name + ">";
      if (name != "svg")
        return "the root is <" + name + ">, not <svg>";
      rootSeen = true;
    }
    if (!selfClosing)
      open.push_back(name);
  }
  if (!open.empty())
    return "<" + open.back() + "> is never closed";
  return rootSeen ? "" : "no root element";
}

// The contents of every <text> element, in order.
std::vector<std::string> texts(const std::string &svg) {
  std::vector<std::string> out;
  for (size_t at = svg.find("<text"); at != std::string::npos; at = svg.find("<text", at + 1)) {
    size_t start = svg.find('>', at) + 1;
    out.push_back(svg.substr(start, svg.find("</text>", start) - start));
  }
  return out;
}

bool hasText(const std::string &svg, const std::string &text) {
  auto all = texts(svg);
  return std::find(all.begin(), all.end(), text) != all.end();
}

size_t occurrences(const std::string &haystack, const std::string &needle) {
  size_t count = 0;
  for (size_t at = haystack.find(needle); at != std::string::npos;
       at = haystack.find(needle, at + 1))
    ++count;
  return count;
}

// The value of attribute `name` in the first element that starts with `element`.
double attribute(const std::string &svg, const std::string &element, const std::string &name) {
  size_t at = svg.find(element);
  size_t value = svg.find(" " + name + "=\"", at) + name.size() + 3;
  return std::stod(svg.substr(value));
}

std::vector<std::pair<double, double>> polylinePoints(const std::string &svg) {
  std::vector<std::pair<double, double>> points;
  for (size_t at = svg.find("<polyline points=\""); at != std::string::npos;
       at = svg.find("<polyline points=\"", at + 1)) {
    size_t start = at + 18;
    std::istringstream in(svg.substr(start, svg.find('"', start) - start));
    double x, y;
    char comma;
    while (in >> x >> comma >> y)
      points.push_back({x, y});
  }
  return points;
}

// Non-finite numbers must never reach an attribute.
bool mentionsNonFinite(const std::string &svg) {
  std::string lower = svg;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower.find("nan") != std::string::npos || lower.find("inf") != std::string::npos;
}

// The estimated box of every <text>: the renderer's own glyph-width estimate
// (0.62 em), ascent 0.8 em and descent 0.2 em around the baseline.
struct Box {
  double left, top, right, bottom;
  std::string text;
};

std::vector<Box> textBoxes(const std::string &svg) {
  std::vector<Box> boxes;
  for (size_t at = svg.find("<text"); at != std::string::npos; at = svg.find("<text", at + 1)) {
    size_t close = svg.find('>', at);
    std::string tag = svg.substr(at, close - at);
    auto number = [&](const std::string &name, double fallback) {
      size_t found = tag.find(" " + name + "=\"");
      return found == std::string::npos ? fallback : std::stod(tag.substr(found + name.size() + 3));
    };
    std::string content = svg.substr(close + 1, svg.find("</text>", close) - close - 1);
    size_t glyphs = 0;
    for (size_t i = 0; i < content.size(); ++i) {
      if (content[i] == '&')
        i = content.find(';', i);
      if ((static_cast<unsigned char>(content[i]) & 0xC0) != 0x80)
        ++glyphs;
    }
    double size = number("font-size", 12), x = number("x", 0), y = number("y", 0);
    double width = 0.62 * size * static_cast<double>(glyphs);
    if (tag.find("rotate(-90 ") != std::string::npos) {
      // Turned about (x, y) to run upwards, centred there (the y label).
      boxes.push_back({x - 0.8 * size, y - width / 2, x + 0.2 * size, y + width / 2, content});
      continue;
    }
    double left = tag.find("text-anchor=\"middle\"") != std::string::npos ? x - width / 2
                  : tag.find("text-anchor=\"end\"") != std::string::npos  ? x - width
                                                                          : x;
    boxes.push_back({left, y - 0.8 * size, left + width, y + 0.2 * size, content});
  }
  return boxes;
}

// Every text inside the image and clear of every other.
void checkTextInsideAndApart(const std::string &svg, int width, int height) {
  auto boxes = textBoxes(svg);
  for (size_t i = 0; i < boxes.size(); ++i) {
    INFO(boxes[i].text);
    CHECK(boxes[i].left >= 0);
    CHECK(boxes[i].right <= width);
    CHECK(boxes[i].top >= 0);
    CHECK(boxes[i].bottom <= height);
    for (size_t j = 0; j < i; ++j) {
      INFO("and " << boxes[j].text);
      bool apart = boxes[i].right <= boxes[j].left || boxes[j].right <= boxes[i].left ||
                   boxes[i].bottom <= boxes[j].top || boxes[j].bottom <= boxes[i].top;
      CHECK(apart);
    }
  }
}

Plot wave(size_t n) {
  Plot plot;
  plot.title = "Waves";
  for (size_t i = 0; i < n; ++i)
    plot.x.push_back(0.01 * static_cast<double>(i));
  plot.series = {{"sin", {}, ""}, {"cos", {}, ""}};
  for (double t : plot.x) {
    plot.series[0].values.push_back(std::sin(t));
    plot.series[1].values.push_back(std::cos(t));
  }
  return plot;
}

bool isNiceStep(double step) {
  double exponent = std::floor(std::log10(step) + 1e-9);
  double mantissa = step / std::pow(10.0, exponent);
  return std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 ||
         std::abs(mantissa - 5) < 1e-9;
}

} // namespace

TEST_CASE("the checker rejects malformed documents", "[plot]") {
  CHECK(xmlProblem("<svg><g></g></svg>").empty());
  CHECK(xmlProblem("<?xml version=\"1.0\"?>\n<svg a=\"1\"><line/></svg>\n").empty());
  CHECK_FALSE(xmlProblem("<svg><g></svg>").empty());
  CHECK_FALSE(xmlProblem("<svg><g></g>").empty());
  CHECK_FALSE(xmlProblem("<html></html>").empty());
  CHECK_FALSE(xmlProblem("<svg>a & b</svg>").empty());
  CHECK_FALSE(xmlProblem("<svg>a < b</svg>").empty());
  CHECK_FALSE(xmlProblem("<svg a=\"1\" a=\"2\"></svg>").empty());
  CHECK_FALSE(xmlProblem("<svg a=1></svg>").empty());
  CHECK_FALSE(xmlProblem("<svg></svg><svg></svg>").empty());
}

TEST_CASE("a plot has its title, axis labels, legend and lines", "[plot]") {
  Plot plot = wave(700);
  plot.title = "Double pendulum";
  plot.series[0].name = "θ1";
  plot.series[1].name = "θ2";
  std::string svg = renderSvg(plot);
  INFO(svg.substr(0, 2000));
  REQUIRE(xmlProblem(svg) == "");
  CHECK(svg.rfind("<?xml", 0) == 0);
  CHECK(svg.find("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"900\" height=\"540\"") !=
        std::string::npos);
  CHECK(svg.find("font-family=\"sans-serif\"") != std::string::npos);
  CHECK(hasText(svg, "Double pendulum"));
  CHECK(hasText(svg, "t [s]"));
  CHECK(hasText(svg, "θ1")); // UTF-8 passes through untouched
  CHECK(hasText(svg, "θ2"));
  CHECK(occurrences(svg, "<polyline") == 2);
  // Distinct colours, and the legend swatches use them too.
  CHECK(occurrences(svg, "stroke=\"#0072B2\"") == 2);
  CHECK(occurrences(svg, "stroke=\"#D55E00\"") == 2);
  CHECK_FALSE(mentionsNonFinite(svg));

  std::string small = renderSvg(plot, 400, 260);
  REQUIRE(xmlProblem(small) == "");
  CHECK(small.find("width=\"400\" height=\"260\"") != std::string::npos);
}

TEST_CASE("names and titles are escaped", "[plot]") {
  Plot plot = wave(50);
  plot.title = "<script>alert('x')</script>";
  plot.xLabel = "t & \"time\"";
  plot.series[0].name = "a<b & c>d";
  plot.series[1].name = "bad\xff utf8\x01";
  std::string svg = renderSvg(plot);
  REQUIRE(xmlProblem(svg) == "");
  CHECK(svg.find("<script>") == std::string::npos);
  CHECK(hasText(svg, "&lt;script&gt;alert(&apos;x&apos;)&lt;/script&gt;"));
  CHECK(hasText(svg, "t &amp; &quot;time&quot;"));
  CHECK(hasText(svg, "a&lt;b &amp; c&gt;d"));
  CHECK(hasText(svg, "bad\xEF\xBF\xBD utf8\xEF\xBF\xBD")); // replaced by U+FFFD
}

TEST_CASE("NaN and Inf split a line into pieces", "[plot]") {
  Plot plot;
  plot.x = {0, 1, 2, 3, 4, 5, 6, 7, 8};
  plot.series = {{"y", {0, 1, 2, NaN, 3, 4, Inf, 5, 6}, ""}};
  std::string svg = renderSvg(plot);
  REQUIRE(xmlProblem(svg) == "");
  CHECK(occurrences(svg, "<polyline") == 3);
  CHECK_FALSE(mentionsNonFinite(svg));

  // A lone sample between gaps is drawn as a dot; a NaN abscissa is a gap too.
  plot.series = {{"y", {0, 1, NaN, 2, -Inf, 3, 4, 5, 6}, ""}};
  plot.x[7] = NaN;
  svg = renderSvg(plot);
  REQUIRE(xmlProblem(svg) == "");
  CHECK(occurrences(svg, "<polyline") == 2);
  CHECK(occurrences(svg, "<circle") == 2); // 2, and 6 after the NaN abscissa
  CHECK_FALSE(mentionsNonFinite(svg));
}

TEST_CASE("degenerate data still renders a valid plot", "[plot]") {
  auto check = [](const Plot &plot, int width = 900, int height = 540) {
    std::string svg = renderSvg(plot, width, height);
    INFO(svg.substr(0, 3000));
    REQUIRE(xmlProblem(svg) == "");
    CHECK_FALSE(mentionsNonFinite(svg));
    CHECK(occurrences(svg, "<text") >= 8); // the axes always get their ticks
    return svg;
  };
  check(Plot{});
  check(Plot{"empty", "t [s]", {}, {{"nothing", {}, ""}}});
  check(Plot{"all missing", "t [s]", {0, 1, 2}, {{"y", {NaN, NaN, NaN}, ""}}});

  std::string single = check(Plot{"one sample", "t [s]", {0.5}, {{"y", {3}, ""}}});
  CHECK(occurrences(single, "<circle") == 1);

  std::string constant = check(Plot{"constant", "t [s]", {0, 1, 2, 3}, {{"c", {5, 5, 5, 5}, ""}}});
  CHECK(occurrences(constant, "<polyline") == 1);
  CHECK(hasText(constant, "5"));
  check(Plot{"zero", "t [s]", {0, 1, 2, 3}, {{"c", {0, 0, 0, 0}, ""}}});

  // Mismatched lengths plot the common part; no x means sample indices.
  check(Plot{"short x", "t [s]", {0, 1}, {{"y", {1, 2, 3, 4}, ""}}});
  std::string indexed = check(Plot{"no x", "", {}, {{"y", {1, 2, 3, 4, 5, 6}, ""}}});
  CHECK(occurrences(indexed, "<polyline") == 1);

  // Extreme magnitudes, and sizes too small to be useful.
  check(Plot{"huge", "t [s]", {0, 1, 2}, {{"y", {-1e308, 1e308, 1.7e308}, ""}}});
  check(Plot{"tiny", "t [s]", {0, 1e-300, 2e-300}, {{"y", {1e-320, 0, 4.9e-324}, ""}}});
  check(Plot{"offset", "t [s]", {0, 1, 2}, {{"y", {1e9, 1e9 + 1e-6, 1e9}, ""}}});
  std::string tinyImage = check(wave(100), 10, 10);
  CHECK(tinyImage.find("width=\"240\" height=\"160\"") != std::string::npos);
}

TEST_CASE("text stays inside the image and clear of other text", "[plot]") {
  Plot magnitudes = wave(3000);
  magnitudes.title = "Energy of a stiff spring over a long run";
  magnitudes.xLabel = "time since the start of the run [s]";
  for (double &v : magnitudes.series[0].values)
    v *= -3.3e7;
  magnitudes.series[1].name = "a series with a name far too long for any legend box";
  Plot tiny = wave(4);
  tiny.x = {0, 1e-9, 2e-9, 3e-9};
  tiny.series.pop_back();
  for (double &v : tiny.series[0].values)
    v *= -1.5e-12;
  for (const Plot &plot : {wave(2000), magnitudes, tiny}) {
    for (auto [width, height] : {std::pair{240, 160}, {420, 280}, {900, 540}, {1600, 900}}) {
      std::string svg = renderSvg(plot, width, height);
      REQUIRE(xmlProblem(svg) == "");
      INFO(width << "x" << height << " " << plot.title);
      checkTextInsideAndApart(svg, width, height);
    }
  }
}

TEST_CASE("ticks are nice", "[plot]") {
  AxisTicks unit = niceTicks(0, 1, true);
  CHECK(unit.values == std::vector<double>{0, 0.2, 0.4, 0.6, 0.8, 1});
  CHECK(unit.lo == 0);
  CHECK(unit.hi == 1);

  AxisTicks mixed = niceTicks(-3.7, 12.1, true);
  CHECK((mixed.step == 2 || mixed.step == 5));
  CHECK(mixed.values.front() <= -3.7);
  CHECK(mixed.values.back() >= 12.1);
  for (double v : mixed.values)
    CHECK(std::fmod(v, mixed.step) == 0);

  // Time axes keep the data range and put the ticks inside it.
  AxisTicks time = niceTicks(0, 10.3, false);
  CHECK(time.lo == 0);
  CHECK(time.hi == 10.3);
  CHECK(time.values.front() == 0);
  CHECK(time.values.back() == 10);

  CHECK(niceTicks(5, 5, true).values.size() >= 4); // a zero range is widened
  CHECK(niceTicks(1, -1, true).values == niceTicks(-1, 1, true).values);
  CHECK(niceTicks(NaN, 3, true).values == niceTicks(0, 1, true).values);

  std::mt19937 random(12345);
  std::uniform_real_distribution<double> unitInterval(-1, 1);
  std::uniform_int_distribution<int> decade(-12, 12);
  for (int trial = 0; trial < 2000; ++trial) {
    double scale = std::pow(10.0, decade(random));
    double a = unitInterval(random) * scale, b = unitInterval(random) * scale;
    bool extend = trial % 2 == 0;
    int most = 4 + trial % 7;
    AxisTicks ticks = niceTicks(a, b, extend, most);
    INFO("range " << a << " .. " << b << (extend ? " extended" : " inside"));
    REQUIRE(ticks.values.size() >= 4);
    REQUIRE(ticks.values.size() <= 10);
    CHECK(isNiceStep(ticks.step));
    CHECK(ticks.lo <= std::min(a, b));
    CHECK(ticks.hi >= std::max(a, b));
    if (extend) {
      CHECK(ticks.values.front() == ticks.lo);
      CHECK(ticks.values.back() == ticks.hi);
    } else {
      CHECK(ticks.values.front() >= ticks.lo);
      CHECK(ticks.values.back() <= ticks.hi);
    }
    std::set<std::string> labels;
    for (double v : ticks.values) {
      CHECK(std::abs(v / ticks.step - std::round(v / ticks.step)) < 1e-6);
      std::string label = tickLabel(v, ticks);
      CHECK(label.size() <= 12); // "-1.0005e-12" for a narrow range far from zero
      labels.insert(label);
    }
    CHECK(labels.size() == ticks.values.size()); // labels tell the ticks apart
  }
}

TEST_CASE("tick labels are compact", "[plot]") {
  auto labels = [](double lo, double hi, bool extend = true) {
    AxisTicks ticks = niceTicks(lo, hi, extend);
    std::vector<std::string> out;
    for (double v : ticks.values)
      out.push_back(tickLabel(v, ticks));
    return out;
  };
  using Labels = std::vector<std::string>;
  CHECK(labels(0, 0.9) ==
        Labels{"0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9"});
  CHECK(labels(-3.7, 12.1) == Labels{"-4", "-2", "0", "2", "4", "6", "8", "10", "12", "14"});
  CHECK(labels(0, 2500) == Labels{"0", "500", "1000", "1500", "2000", "2500"});
  CHECK(labels(0, 3e-7) == Labels{"0", "5e-8", "1e-7", "1.5e-7", "2e-7", "2.5e-7", "3e-7"});
  CHECK(labels(0, 4e9) ==
        Labels{"0", "5e8", "1e9", "1.5e9", "2e9", "2.5e9", "3e9", "3.5e9", "4e9"});
  CHECK(labels(-2e12, 1e12) == Labels{"-2e12", "-1.5e12", "-1e12", "-5e11", "0", "5e11", "1e12"});
}

TEST_CASE("long series are thinned per pixel column, keeping the peaks", "[plot]") {
  Plot plot;
  plot.title = "Spikes";
  const size_t n = 200000;
  plot.series = {{"y", std::vector<double>(n, 0.0), ""}};
  for (size_t i = 0; i < n; ++i)
    plot.x.push_back(1e-3 * static_cast<double>(i));
  plot.series[0].values[123457] = 1;
  plot.series[0].values[77777] = -0.5;
  std::string svg = renderSvg(plot);
  REQUIRE(xmlProblem(svg) == "");
  auto points = polylinePoints(svg);
  CHECK(points.size() <= 4 * 900);
  CHECK(svg.size() < 100000);

  double top = attribute(svg, "<clipPath", "y");
  double height = attribute(svg, "<clipPath", "height");
  double highest = points.front().second, lowest = points.front().second;
  for (auto [x, y] : points) {
    highest = std::min(highest, y);
    lowest = std::max(lowest, y);
  }
  // The axis runs from -0.6 to 1: the spike touches the top, the dip sits 1/16 above the bottom.
  CHECK(highest == Approx(top).margin(0.1));
  CHECK(lowest == Approx(top + height * 1.5 / 1.6).margin(0.2));
}

TEST_CASE("a crowded legend says how many series it leaves out", "[plot]") {
  Plot plot = wave(30);
  plot.series.clear();
  for (int i = 0; i < 40; ++i)
    plot.series.push_back({"series number " + std::to_string(i) + " with a rather long name",
                           std::vector<double>(30, i), ""});
  std::string svg = renderSvg(plot, 600, 300);
  REQUIRE(xmlProblem(svg) == "");
  CHECK(occurrences(svg, "<polyline") == 40);
  bool counted = false, truncated = false;
  for (const std::string &text : texts(svg)) {
    counted = counted ||
              (!text.empty() && text.front() == '+' && text.find(" more") != std::string::npos);
    truncated = truncated || text.find("\xE2\x80\xA6") != std::string::npos;
  }
  CHECK(counted);
  CHECK(truncated);
  CHECK(svg.find("stroke-dasharray") != std::string::npos); // colours repeat with dashes
}

namespace {

// A plot of an angle, a rate and a unitless value as a simulation makes it.
Plot mixedUnits(size_t n) {
  Plot plot = wave(n);
  plot.title = "Units";
  plot.series[0].unit = "rad";
  plot.series[1].unit = "rad";
  plot.series.push_back({"w1", {}, "rad/s"});
  plot.series.push_back({"h", {}, ""});
  for (double t : plot.x) {
    plot.series[2].values.push_back(40 * std::cos(t));
    plot.series[3].values.push_back(-0.002 + 1e-6 * t);
  }
  return plot;
}

// The vertical extents [top, bottom] of the clip rectangles, one per panel.
std::vector<std::pair<double, double>> panelExtents(const std::string &svg) {
  std::vector<std::pair<double, double>> extents;
  for (size_t at = svg.find("<clipPath"); at != std::string::npos;
       at = svg.find("<clipPath", at + 1)) {
    std::string rest = svg.substr(at);
    double top = attribute(rest, "<rect", "y");
    extents.push_back({top, top + attribute(rest, "<rect", "height")});
  }
  return extents;
}

} // namespace

TEST_CASE("series of different units are drawn in panels of their own", "[plot]") {
  std::string svg = renderSvg(mixedUnits(600));
  REQUIRE(xmlProblem(svg) == "");
  // One panel per unit, in the order the units come, stacked without overlap.
  CHECK(occurrences(svg, "<g class=\"panel\"") == 3);
  CHECK(occurrences(svg, "data-unit=\"rad\"") == 1);
  CHECK(occurrences(svg, "data-unit=\"rad/s\"") == 1);
  auto extents = panelExtents(svg);
  REQUIRE(extents.size() == 3);
  for (size_t i = 1; i < extents.size(); ++i)
    CHECK(extents[i].first > extents[i - 1].second);
  // Units in the legend and on the value axes; the time axis labelled once.
  CHECK(hasText(svg, "sin [rad]"));
  CHECK(hasText(svg, "w1 [rad/s]"));
  CHECK(hasText(svg, "h"));
  CHECK(hasText(svg, "sin, cos [rad]"));
  CHECK(occurrences(svg, ">w1 [rad/s]</text>") == 2); // the legend and the value axis
  CHECK(occurrences(svg, "class=\"y-label\"") == 2);  // none for the unitless panel
  CHECK(occurrences(svg, ">t [s]</text>") == 1);
  // The small unitless value fills its own panel instead of a flat line:
  // its curve spans most of the panel's height.
  auto points = polylinePoints(svg.substr(svg.rfind("<g class=\"panel\"")));
  double highest = points.front().second, lowest = highest;
  for (auto [x, y] : points) {
    highest = std::min(highest, y);
    lowest = std::max(lowest, y);
  }
  CHECK(lowest - highest > 0.5 * (extents[2].second - extents[2].first));
}

TEST_CASE("panels keep their text apart and fall back to one when there is no room", "[plot]") {
  for (auto [width, height] : {std::pair{240, 160}, {420, 280}, {900, 540}, {1600, 900}}) {
    std::string svg = renderSvg(mixedUnits(300), width, height);
    REQUIRE(xmlProblem(svg) == "");
    INFO(width << "x" << height);
    checkTextInsideAndApart(svg, width, height);
  }
  // 160 px high leaves no room for three panels: one, units in the legend.
  std::string small = renderSvg(mixedUnits(300), 240, 160);
  CHECK(occurrences(small, "<g class=\"panel\"") == 1);
}

TEST_CASE("a closed curve in the plane is drawn closed and thinned", "[plot]") {
  // x = cos, y = sin over exactly one turn, 100000 samples: a phase
  // portrait. Its polyline ends where it starts, with far fewer points.
  Plot plot;
  plot.title = "Phase";
  plot.xLabel = "x [m]";
  const size_t n = 100000;
  plot.series = {{"x'", {}, "m/s"}};
  for (size_t i = 0; i <= n; ++i) {
    double a = 2 * M_PI * static_cast<double>(i) / n;
    plot.x.push_back(std::cos(a));
    plot.series[0].values.push_back(-std::sin(a));
  }
  std::string svg = renderSvg(plot);
  REQUIRE(xmlProblem(svg) == "");
  auto points = polylinePoints(svg);
  REQUIRE(points.size() > 100);
  CHECK(points.size() < 10000);
  CHECK(std::hypot(points.front().first - points.back().first,
                   points.front().second - points.back().second) < 0.5);
  // The abscissa grows to its outer ticks (-1 and 1 are ticks here).
  CHECK(hasText(svg, "x [m]"));
}
