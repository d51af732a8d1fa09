// Two numbers in one option's text, "a..b" (a time window) or "a,b"
// (Baumgarte's gains, a view's angles), as the options that take them read
// them.
#pragma once

#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

namespace mech::driver {

// The finite numbers on either side of the first `separator`, blanks
// around them allowed; nullopt when either is missing, malformed or not
// finite.
inline std::optional<std::pair<double, double>> numberPair(const std::string &text,
                                                           const std::string &separator) {
  size_t at = text.find(separator);
  if (at == std::string::npos)
    return std::nullopt;
  auto number = [](const std::string &part) -> std::optional<double> {
    char *end = nullptr;
    double value = std::strtod(part.c_str(), &end);
    if (end == part.c_str() ||
        part.find_first_not_of(" \t", static_cast<size_t>(end - part.c_str())) !=
            std::string::npos ||
        !std::isfinite(value))
      return std::nullopt;
    return value;
  };
  auto a = number(text.substr(0, at)), b = number(text.substr(at + separator.size()));
  if (!a || !b)
    return std::nullopt;
  return std::make_pair(*a, *b);
}

} // namespace mech::driver
