// Text for XML and SVG documents: the five characters with a meaning in
// markup written as their entities, so that a name or label from a model
// (`th1'`, `a < b`) reads back as itself in attributes and content.
#pragma once

#include <string>
#include <string_view>

namespace mech {

std::string xmlEscape(std::string_view text);

} // namespace mech
