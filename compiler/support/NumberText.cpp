// std::to_chars without a precision gives the shortest round-trip form.
#include "support/NumberText.h"

#include <charconv>

namespace mech {

std::string shortestNumber(double value) {
  if (value == 0)
    value = 0; // no -0
  char buffer[32];
  auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, error == std::errc() ? end : buffer);
}

} // namespace mech
