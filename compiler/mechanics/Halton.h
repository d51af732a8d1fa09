// Deterministic, evenly spread start points for the searches (equilibria,
// steady motions): the Halton sequence, one prime base per dimension.
#pragma once

#include <cstddef>

namespace mech::mechanics {

// Coordinate `dimension` (from 0) of the Halton point `index` (from 1), in
// [0, 1).
inline double halton(size_t index, size_t dimension) {
  static const size_t primes[] = {2,  3,  5,  7,  11, 13, 17, 19, 23, 29, 31, 37, 41,
                                  43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97};
  size_t base = primes[dimension % (sizeof primes / sizeof primes[0])];
  double result = 0, f = 1.0 / static_cast<double>(base);
  for (; index > 0; index /= base, f /= static_cast<double>(base))
    result += f * static_cast<double>(index % base);
  return result;
}

} // namespace mech::mechanics
