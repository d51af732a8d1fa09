// A table's interpolant as a tree of choices (mechanics/TableLaws.h).
#include "mechanics/TableLaws.h"

#include "sema/Tables.h"
#include "support/NumberText.h"
#include "support/Rational.h"

#include <cmath>

namespace mech::mechanics {

namespace {

class TableLaw {
public:
  TableLaw(const sema::Table &table, const sym::Expr &x)
      : t_(table), x_(x), c_(x.context()), slopes_(sema::knotSlopes(table)) {
    // The pieces between the rows, and one beyond each end.
    breakpoints_ = table.x;
    first_ = -1;
    last_ = static_cast<long>(table.x.size()) - 1;
  }

  sym::Expr build() { return pieces(first_, last_); }

private:
  // Exact where the value is a short decimal (15 rather than 15.0 in the
  // printed laws); the kernels compute the same double either way.
  sym::Expr number(double v) const {
    if (std::optional<Rational> exact = Rational::fromDecimal(shortestNumber(std::abs(v))))
      if (exact->toDouble() == std::abs(v))
        return v < 0 ? -c_.number(sym::Num(*exact)) : c_.number(sym::Num(*exact));
    return c_.number(sym::Num::inexact(v));
  }

  // The pieces first..last (segment k lies between rows k and k + 1; -1 and
  // rows - 1 are the ends beyond the rows, held).
  sym::Expr pieces(long first, long last) {
    if (first == last)
      return piece(first);
    const long middle = first + (last - first + 1) / 2; // first piece of the right half
    const double at = breakpoints_[static_cast<size_t>(middle - first_ - 1)];
    return sym::select(x_ - number(at), pieces(middle, last), pieces(first, middle - 1));
  }

  sym::Expr piece(long k) {
    const std::vector<double> &x = t_.x, &y = t_.y;
    const long rows = static_cast<long>(x.size());
    if (k < 0 || k >= rows - 1) { // beyond the rows: the end value, or its tangent line
      const size_t end = k < 0 ? 0 : x.size() - 1;
      if (!t_.linearExtrapolation)
        return number(y[end]);
      return number(y[end]) + number(slopes_[end]) * (x_ - number(x[end]));
    }
    const size_t i = static_cast<size_t>(k);
    const double h = x[i + 1] - x[i];
    const sym::Expr s = x_ - number(x[i]);
    if (!t_.cubic)
      return number(y[i]) + number((y[i + 1] - y[i]) / h) * s;
    // Hermite in powers of s: y_i + m_i s + c2 s^2 + c3 s^3.
    const double d = (y[i + 1] - y[i]) / h, m0 = slopes_[i], m1 = slopes_[i + 1];
    const double c2 = (3 * d - 2 * m0 - m1) / h, c3 = (m0 + m1 - 2 * d) / (h * h);
    return number(y[i]) + number(m0) * s + number(c2) * sym::pow(s, 2) +
           number(c3) * sym::pow(s, 3);
  }

  const sema::Table &t_;
  sym::Expr x_;
  sym::Context &c_;
  std::vector<double> slopes_, breakpoints_;
  long first_ = 0, last_ = 0;
};

} // namespace

sym::Expr tableLaw(const sema::Table &table, const sym::Expr &x) {
  sym::Expr law = TableLaw(table, x).build();
  return table.cubic ? x.context().function(sym::Fn::Smooth, {law}) : law;
}

} // namespace mech::mechanics
