// The transfer function of one input to one output of a linear system
// x' = A x + b u, y = c x + d u: G(s) = c (sI - A)^-1 b + d, as its poles,
// zeros and gain, G(s) = gain * prod(s - z) / prod(s - p), from a minimal
// realisation. A mode the input cannot move (uncontrollable) or the output
// cannot see (unobservable) by the Popov-Belevitch-Hautus test cancels
// from G: it is named, not silently dropped. The zeros are the finite
// generalised eigenvalues of the Rosenbrock pencil [[A, b], [c, d]] -
// s [[I, 0], [0, 0]] less the cancelled modes.
#pragma once

#include "mechanics/Linearization.h"

#include <complex>
#include <string>
#include <vector>

namespace mech::mechanics {

struct CancelledMode {
  std::complex<double> pole;
  bool uncontrollable = false, unobservable = false;
};

struct TransferFunction {
  std::vector<std::complex<double>> poles, zeros; // by real part, then imaginary
  double gain = 0;   // the leading coefficient: G(s) ~ gain s^(zeros - poles) for large s
  bool zero = false; // G is identically 0 (every mode cancelled and d = 0)
  std::vector<CancelledMode> cancelled;
};

// For A (n x n), the input's column b (n), the output's row c (n) and d.
TransferFunction transferFunction(const Matrix &A, const std::vector<double> &b,
                                  const std::vector<double> &c, double d);

} // namespace mech::mechanics
