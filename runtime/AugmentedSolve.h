// The first-kind equations solved by the augmented Lagrangian iteration
// (Bayo and Ledesma's formulation at the acceleration level), the solve of
// `--constraints augmented`:
//   (M + alpha C^T C) q''_k = f + C^T lambda_k + alpha C^T gamma,
//   lambda_{k+1} = lambda_k + alpha (gamma - C q''_k),
// from lambda_0 = 0, a fixed number of times. Each pass shrinks the
// multipliers' error along an eigenvector of S = C M^-1 C^T by
// 1 / (1 + alpha sigma): with alpha = s / kSchurRegularization (s scales
// C^T C to M) that is the regularized Schur solve's contraction
// (runtime/DenseSolve.h), reached without forming or factoring S. So a
// linkage at a singular position, or with redundant constraints, needs no
// rank decision: the directions C loses are left to the penalty, bounded
// and smooth, and the factorization is M + alpha C^T C's alone, within
// its envelope for a sparse model (runtime/EnvelopeSolve.h). The
// multipliers of dependent rows are the split the iteration reaches from
// 0 (near the least-norm one), not the pivoted one.
#pragma once

#include <cstddef>
#include <cstdint>

namespace mech::runtime {

// The passes of the iteration: those of the regularized Schur solve (one
// solve and kSchurRefinements refinements), for the same contraction.
inline constexpr int kAugmentedPasses = 4;

// Mf as the dynamics program lays it out: M (n*n), f (n), C (m*n), gamma
// (m), not changed. `plan`: an envelope plan (runtime/EnvelopeSolve.h), or
// null for the dense factorization. Status as solveConstrained's:
// kSolveSingular when M is not positive definite on the directions the
// constraints allow (pivots relative to M's largest diagonal entry).
int solveConstrainedAugmented(const int32_t *plan, size_t n, size_t m, const double *Mf,
                              double *qdd, double *lambda);

} // namespace mech::runtime

// The same, with C linkage: the symbol generated code calls.
extern "C" int mech_solve_constrained_augmented(const int32_t *plan, int64_t n, int64_t m,
                                                const double *Mf, double *qdd, double *lambda);
