// The one formatter of numbers in mech's output. With digits == 0, the
// shortest text that reads back as the same double (0.3, not
// 0.29999999999999999): JSON, eval, generated C headers, the REPL, the
// checked model. With digits > 0, that many significant digits (%g), for
// tables a person reads: equilibria, linearize and solve use 6, the CSV 17,
// the drifts of a simulation summary 3. Either way -0 is written 0 (the
// sign of a zero means nothing to a reader), and non-finite values as nan,
// inf or -inf.
#pragma once

#include <string>

namespace mech {

std::string formatNumber(double value, int digits = 0);

// The shortest round-trip form: formatNumber(value, 0).
inline std::string shortestNumber(double value) {
  return formatNumber(value, 0);
}

} // namespace mech
