// A table's interpolant in numbers (sema/Model.h Table): the segment of an
// argument, the knot slopes of the monotone cubic, and the value.
#include "sema/Tables.h"
#include "sema/Model.h"

#include <algorithm>
#include <cmath>

namespace mech::sema {

std::vector<double> knotSlopes(const Table &table) {
  const std::vector<double> &x = table.x, &y = table.y;
  const size_t n = x.size();
  std::vector<double> h(n - 1), d(n - 1), m(n, 0.0);
  for (size_t k = 0; k + 1 < n; ++k) {
    h[k] = x[k + 1] - x[k];
    d[k] = (y[k + 1] - y[k]) / h[k];
  }
  if (!table.cubic || n == 2) {
    // Linear: each knot's slope is its segment's (unused inside).
    for (size_t k = 0; k + 1 < n; ++k)
      m[k] = d[k];
    m[n - 1] = d[n - 2];
    return m;
  }
  // PCHIP (Fritsch and Butland's weighted harmonic mean): 0 at an extremum
  // of the data, so the interpolant is monotone where the rows are.
  for (size_t k = 1; k + 1 < n; ++k) {
    if (d[k - 1] * d[k] <= 0)
      continue;
    const double w1 = 2 * h[k] + h[k - 1], w2 = h[k] + 2 * h[k - 1];
    m[k] = (w1 + w2) / (w1 / d[k - 1] + w2 / d[k]);
  }
  // The ends: a three-point estimate, kept of the segment's sign and at
  // most three times its slope.
  auto end = [](double h0, double h1, double d0, double d1) {
    double s = ((2 * h0 + h1) * d0 - h0 * d1) / (h0 + h1);
    if (s * d0 <= 0)
      return 0.0;
    if (d0 * d1 <= 0 && std::abs(s) > 3 * std::abs(d0))
      return 3 * d0;
    return s;
  };
  m[0] = end(h[0], h[1], d[0], d[1]);
  m[n - 1] = end(h[n - 2], h[n - 3], d[n - 2], d[n - 3]);
  return m;
}

double Table::value(double at) const {
  const size_t n = x.size();
  std::vector<double> m = knotSlopes(*this);
  if (at <= x.front() || at >= x.back()) {
    const bool below = at <= x.front();
    const size_t k = below ? 0 : n - 1;
    return linearExtrapolation ? y[k] + m[k] * (at - x[k]) : y[k];
  }
  const size_t k = static_cast<size_t>(std::upper_bound(x.begin(), x.end(), at) - x.begin()) - 1;
  const double h = x[k + 1] - x[k], t = (at - x[k]) / h;
  if (!cubic)
    return y[k] + (y[k + 1] - y[k]) * t;
  const double t2 = t * t, t3 = t2 * t;
  return (2 * t3 - 3 * t2 + 1) * y[k] + (t3 - 2 * t2 + t) * h * m[k] +
         (3 * t2 - 2 * t3) * y[k + 1] + (t3 - t2) * h * m[k + 1];
}

} // namespace mech::sema
