// The shared pieces of the analyses' reports (driver/AnalysisText.h).
#include "driver/AnalysisText.h"

#include "support/NumberText.h"

#include <cmath>
#include <iomanip>

namespace mech::driver::analysis_text {

std::string number(double x) {
  if (std::abs(x) < 1e-12)
    x = 0; // rounding noise reads as 0
  return formatNumber(x, 6);
}

std::string complexNumber(std::complex<double> z) {
  if (std::abs(z.imag()) < 1e-12)
    return number(z.real());
  return number(z.real()) + (z.imag() < 0 ? " - " : " + ") + number(std::abs(z.imag())) + "i";
}

std::string joined(const std::vector<std::string> &items) {
  std::string text;
  for (const std::string &item : items)
    text += (text.empty() ? "" : ", ") + item;
  return text;
}

std::string list(const std::vector<double> &values) {
  std::string text;
  for (double v : values)
    text += (text.empty() ? "" : ", ") + number(v);
  return text;
}

void printMatrix(std::ostream &out, const std::string &name, const Matrix &m) {
  out << "  " << name << " =\n";
  std::vector<std::vector<std::string>> cells;
  size_t width = 0;
  for (const auto &row : m) {
    cells.emplace_back();
    for (double v : row) {
      cells.back().push_back(number(v));
      width = std::max(width, cells.back().back().size());
    }
  }
  for (const auto &row : cells) {
    out << "    [";
    for (const std::string &cell : row)
      out << " " << std::setw(static_cast<int>(width)) << cell;
    out << " ]\n";
  }
}

void jsonMatrix(JsonWriter &json, const std::string &name, const Matrix &m) {
  json.key(name).beginArray();
  for (const auto &row : m) {
    json.beginArray();
    for (double v : row)
      json.value(v);
    json.endArray();
  }
  json.endArray();
}

namespace {

template <class T>
void writeList(JsonWriter &json, const std::string &name, const std::vector<T> &values) {
  json.key(name).beginArray();
  for (const T &v : values)
    json.value(v);
  json.endArray();
}

} // namespace

void jsonList(JsonWriter &json, const std::string &name, const std::vector<double> &values) {
  writeList(json, name, values);
}

void jsonList(JsonWriter &json, const std::string &name, const std::vector<std::string> &values) {
  writeList(json, name, values);
}

void jsonList(JsonWriter &json, const std::string &name,
              const std::vector<std::complex<double>> &values) {
  json.key(name).beginArray();
  for (std::complex<double> z : values)
    json.beginArray().value(z.real()).value(z.imag()).endArray();
  json.endArray();
}

std::string stateText(const mechanics::Equations &eq, const std::vector<double> &q,
                      const std::vector<bool> *arbitrary) {
  std::string text;
  for (size_t j = 0; j < q.size(); ++j)
    text += (j == 0 ? "" : ", ") + eq.coordinates[j] + " = " +
            (arbitrary != nullptr && (*arbitrary)[j] ? "arbitrary" : number(q[j]));
  return text;
}

} // namespace mech::driver::analysis_text
