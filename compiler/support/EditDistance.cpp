// One row of the dynamic-programming table at a time.
#include "support/EditDistance.h"

#include <algorithm>
#include <vector>

namespace mech {

int editDistance(const std::string &a, const std::string &b) {
  std::vector<int> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j)
    row[j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    int previous = row[0];
    row[0] = static_cast<int>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      int saved = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1)});
      previous = saved;
    }
  }
  return row[b.size()];
}

} // namespace mech
