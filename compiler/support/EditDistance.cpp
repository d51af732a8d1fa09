// One row of the dynamic-programming table at a time.
#include "support/EditDistance.h"

#include <algorithm>
#include <utility>
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

ClosestName::ClosestName(std::string name)
    : name_(std::move(name)), bestDistance_(name_.size() <= 2   ? 1
                                            : name_.size() <= 4 ? 2
                                                                : 3) {}

void ClosestName::consider(const std::string &candidate) {
  // The distance is at least the difference in length: most candidates are
  // rejected without the dynamic-programming table.
  size_t longer = std::max(name_.size(), candidate.size());
  size_t shorter = std::min(name_.size(), candidate.size());
  if (candidate.size() <= 1 || longer - shorter >= static_cast<size_t>(bestDistance_))
    return;
  int distance = editDistance(name_, candidate);
  if (distance > 0 && distance < bestDistance_)
    bestDistance_ = distance, best_ = candidate;
}

std::string ClosestName::hint() const {
  return best_.empty() ? "" : " (did you mean '" + best_ + "'?)";
}

} // namespace mech
