// The top-level comma split of support/ListItems.h.
#include "support/ListItems.h"

namespace mech {

std::vector<ListItem> splitListItems(const std::string &text) {
  std::vector<ListItem> items;
  int depth = 0;
  size_t begin = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    char c = i < text.size() ? text[i] : ',';
    depth += (c == '(' || c == '[') - (c == ')' || c == ']');
    if (c == ',' && depth <= 0) {
      items.push_back({begin, i});
      begin = i + 1;
    }
  }
  return items;
}

std::string keepOnly(const std::string &text, const std::vector<std::pair<size_t, size_t>> &spans) {
  std::string out(text.size(), ' ');
  for (size_t i = 0; i < text.size(); ++i) {
    bool kept = text[i] == '\n';
    for (const auto &[first, second] : spans)
      kept = kept || (i >= first && i < second);
    out[i] = kept ? text[i] : ' ';
  }
  return out;
}

} // namespace mech
