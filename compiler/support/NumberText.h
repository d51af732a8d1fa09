// A double as the shortest text that reads back as the same double (0.3,
// not 0.29999999999999999), with -0 written as 0: JSON reports, generated
// C headers and the REPL print numbers this way.
#pragma once

#include <string>

namespace mech {

std::string shortestNumber(double value);

} // namespace mech
