// std::to_chars without a precision gives the shortest round-trip form;
// with one, the %g form of that many significant digits.
#include "support/NumberText.h"

#include <charconv>
#include <cmath>

namespace mech {

std::string formatNumber(double value, int digits) {
  if (std::isnan(value))
    return "nan"; // never "-nan"
  if (value == 0)
    value = 0; // no -0
  char buffer[64];
  auto [end, error] = digits > 0 ? std::to_chars(buffer, buffer + sizeof buffer, value,
                                                 std::chars_format::general, digits)
                                 : std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, error == std::errc() ? end : buffer);
}

} // namespace mech
