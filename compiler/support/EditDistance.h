// The Levenshtein distance between two names, for "did you mean" hints in
// diagnostics (sema) and in the REPL.
#pragma once

#include <string>

namespace mech {

// The fewest insertions, deletions and substitutions that turn a into b.
int editDistance(const std::string &a, const std::string &b);

// The candidate closest to a name, for a hint: within 1 edit of a name of
// up to 2 characters, 2 of one up to 4, 3 beyond (short names are close to
// everything); one-character candidates are never offered.
class ClosestName {
public:
  explicit ClosestName(std::string name);
  void consider(const std::string &candidate);
  // " (did you mean 'sin'?)", or "" when no candidate was close.
  std::string hint() const;

private:
  std::string name_, best_;
  int bestDistance_;
};

} // namespace mech
