// The Levenshtein distance between two names, for "did you mean" hints in
// diagnostics (sema) and in the REPL.
#pragma once

#include <string>

namespace mech {

// The fewest insertions, deletions and substitutions that turn a into b.
int editDistance(const std::string &a, const std::string &b);

} // namespace mech
