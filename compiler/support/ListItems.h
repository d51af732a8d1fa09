// Splitting an option's list at the commas outside parentheses and
// brackets (`th=-0.5..0.5, d[1, 2]=0..1`), keeping where each item is in the
// text so that diagnostics can point into the whole option.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace mech {

struct ListItem {
  size_t begin = 0, end = 0; // [begin, end) in the text, the comma excluded
};

std::vector<ListItem> splitListItems(const std::string &text);

// The text with everything outside the spans [first, second) blanked (line
// breaks kept), so that a part parses alone while carets still point into
// the whole option.
std::string keepOnly(const std::string &text, const std::vector<std::pair<size_t, size_t>> &spans);

} // namespace mech
