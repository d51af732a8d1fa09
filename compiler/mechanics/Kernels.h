// The numeric kernels of a model, x = (q, q') throughout, with a plain C
// signature over double arrays. Two back ends implement them: the
// interpreter (InterpretedKernels, over the CSE'd programs) and the LLVM JIT
// (jit/CompiledModel). Each returns 0, or 1 when the mass matrix is not
// positive definite at the state.
#pragma once

#include "mechanics/Lagrange.h"
#include "symbolic/Program.h"

#include <memory>
#include <vector>

namespace mech::mechanics {

inline constexpr int kStatusOk = 0;
inline constexpr int kStatusSingularMassMatrix = 1;

class Kernels {
public:
  virtual ~Kernels() = default;
  virtual int massMatrix(double t, const double *q, const double *p, double *M) = 0; // n*n
  virtual int forcing(double t, const double *x, const double *p, double *f) = 0;    // n
  virtual int rhs(double t, const double *x, const double *p, double *xdot) = 0;     // 2n
  virtual int energy(double t, const double *x, const double *p, double *TV) = 0;    // T, V
  virtual int outputs(double t, const double *x, const double *p, double *out) = 0;
  size_t coordinates = 0, params = 0, outputCount = 0;
};

// The programs every back end compiles: M (row-major) and f together, T and
// V, and the outputs (which may use q'', taken from the solution of M q'' = f).
struct KernelPrograms {
  size_t coordinates = 0, params = 0;
  sym::Program dynamics; // n*n entries of M, then n of f
  sym::Program energy;   // T, V
  sym::Program outputs;
  static KernelPrograms build(const Equations &equations, size_t params);
};

// Solves M y = b in place (b becomes y) by LDL^T without pivoting; M is
// overwritten. Returns kStatusSingularMassMatrix on a pivot that is not
// positive (relative to the largest diagonal entry).
int solveLdlt(size_t n, double *M, double *b);

std::unique_ptr<Kernels> interpretedKernels(const KernelPrograms &programs);

// The coordinates whose row of M (n*n, row-major) vanishes: they have no
// inertia. Empty when every row has an entry.
std::vector<std::string> coordinatesWithoutInertia(const double *M,
                                                   const std::vector<std::string> &names);
// ": coordinate 'phi' has no inertia" (or the plural), or "" when none.
std::string describeMissingInertia(const std::vector<std::string> &coordinates);

} // namespace mech::mechanics
