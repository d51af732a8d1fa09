// Dense linear solves of the equations of motion, the numeric core of the
// interpreter back end and of the evaluator: M q'' = f by LDL^T, and the
// equations of the first kind with their multipliers. The status codes are
// those of the C ABI of built libraries (docs/library.md).
#pragma once

#include <cstddef>

namespace mech::runtime {

inline constexpr int kSolveOk = 0;
inline constexpr int kSolveSingular = 1;  // M (or M + s C^T C) is singular
inline constexpr int kSolveRedundant = 3; // C has dependent rows at the state

// Pivots of M below this fraction of its largest diagonal entry count as
// zero; so do pivots of the Schur complement below kSchurTolerance of its
// largest (a looser bound: its entries carry the rounding of a solve).
inline constexpr double kPivotTolerance = 1e-13;
inline constexpr double kSchurTolerance = 1e-10;

// Solves M y = b in place (b becomes y) by LDL^T without pivoting; M is
// overwritten. Returns kSolveSingular on a pivot that is not positive
// (relative to the largest diagonal entry).
int solveLdlt(size_t n, double *M, double *b);

// The equations of the first kind, M q'' = f + C^T lambda, C q'' = gamma,
// for n coordinates and m constraints (C row-major m*n). M may be singular
// where C holds: the solve works on M + s C^T C (s scales C^T C to M),
// which is positive definite exactly when M is on the null space of C,
// then on the Schur complement S = C (M + s C^T C)^-1 C^T, positive
// definite exactly when C has full rank. M is overwritten. Returns
// kSolveSingular or kSolveRedundant on failure.
int solveConstrained(size_t n, size_t m, double *M, const double *f, const double *C,
                     const double *gamma, double *qdd, double *lambda);

// The scale s of C^T C against M that solveConstrained (and the JIT) use.
double constraintScale(size_t n, size_t m, const double *M, const double *C);

} // namespace mech::runtime
