// The pieces of text the analyses' reports share (equilibria, linearize):
// numbers with rounding noise shown as 0, lists, matrices in aligned
// columns and as JSON, and a configuration as "x = 1, y = 2".
#pragma once

#include "mechanics/Lagrange.h"
#include "mechanics/Linearization.h"
#include "support/Json.h"

#include <complex>
#include <ostream>
#include <string>
#include <vector>

namespace mech::driver::analysis_text {

using mechanics::Matrix;

// 6 significant digits; |x| < 1e-12 (rounding noise) reads as 0.
std::string number(double x);
std::string complexNumber(std::complex<double> z);
std::string list(const std::vector<double> &values);
// "a, b, c".
std::string joined(const std::vector<std::string> &items);
void printMatrix(std::ostream &out, const std::string &name, const Matrix &m);
void jsonMatrix(JsonWriter &json, const std::string &name, const Matrix &m);
// "name": [values...]; complex values as [re, im] pairs.
void jsonList(JsonWriter &json, const std::string &name, const std::vector<double> &values);
void jsonList(JsonWriter &json, const std::string &name, const std::vector<std::string> &values);
void jsonList(JsonWriter &json, const std::string &name,
              const std::vector<std::complex<double>> &values);
// "x = 1, y = 2" (or "arbitrary" where *arbitrary says so).
std::string stateText(const mechanics::Equations &eq, const std::vector<double> &q,
                      const std::vector<bool> *arbitrary = nullptr);

} // namespace mech::driver::analysis_text
