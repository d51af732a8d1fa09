// A straight-line program as text, one instruction a line, for
// `mech --dump=program`: what CSE made of the derived expressions, and what
// both back ends (the interpreter and the JIT) execute.
#pragma once

#include "symbolic/Program.h"

#include <string>
#include <vector>

namespace mech::sym {

// `inputNames[k]` names input k (beyond the list: "in[k]"); `outputNames[k]`
// names output k (beyond the list: "out[k]").
std::string programListing(const Program &program, const std::vector<std::string> &inputNames,
                           const std::vector<std::string> &outputNames);

} // namespace mech::sym
