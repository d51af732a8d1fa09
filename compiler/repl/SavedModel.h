// The text :save writes: the session's model with the values that :set
// gave written into the param declarations, so that the file holds the
// model as the session has it.
#pragma once

#include "sema/Model.h"

#include <string>

namespace mech::repl {

// `text` with the default of every param marked overridden replaced by its
// value (in the unit on the param's name, or in SI with the dimension's
// unit). Text that does not parse is returned unchanged.
std::string withParamValues(const std::string &text, const std::vector<sema::Param> &params);

} // namespace mech::repl
