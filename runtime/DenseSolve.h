// Dense linear solves of the equations of motion, the numeric core of the
// interpreter back end and of the evaluator: M q'' = f by LDL^T, and the
// equations of the first kind with their multipliers. The status codes are
// those of the C ABI of built libraries (docs/library.md).
#pragma once

#include <cstddef>

namespace mech::runtime {

inline constexpr int kSolveOk = 0;
inline constexpr int kSolveSingular = 1; // M (or M + s C^T C) is singular
// The rows of C are dependent where they must not be: the C runtime's
// projection (docs/library.md). solveConstrained solves dependent rows.
inline constexpr int kSolveRedundant = 3;
// A contact whose force drives a sliding friction has no unique force: its
// acceleration does not grow with its force (Painleve's paradox).
inline constexpr int kSolveInconsistent = 4;

// Pivots of M below this fraction of its largest diagonal entry count as
// zero; so do pivots of the Schur complement below kSchurTolerance of its
// largest (a looser bound: its entries carry the rounding of a solve).
inline constexpr double kPivotTolerance = 1e-13;
inline constexpr double kSchurTolerance = 1e-10;
// The regularization of the Schur complement and the passes of refinement
// (solveRegularizedSchur): chosen on the IFToMM N-four-bar, which passes
// its singular positions on its branch with these (docs/language.md).
inline constexpr double kSchurRegularization = 1e-7;
// Rows of the Schur complement whose pivot is below this fraction of its
// largest diagonal entry depend on the others to rounding (redundant
// constraints): set aside before the regularized solve. Well below the
// regularization, so that a linkage crossing a singular position goes from
// regularized to set aside where either gives the same accelerations.
inline constexpr double kDependentRowTolerance = 1e-14;
inline constexpr int kSchurRefinements = 3;

// LDL^T of the symmetric n*n matrix A in place (the strict lower triangle
// holds L, the diagonal D); false on a pivot that is not positive relative
// to the largest diagonal entry. substituteLdlt solves with it, b in place.
bool factorLdlt(size_t n, double *A, double relativeTolerance);
void substituteLdlt(size_t n, const double *A, double *b);
// LDL^T of a symmetric positive semidefinite A with symmetric pivoting
// (P A P^T = L D L^T, the largest remaining pivot first; `order` gets P as
// the original index of each position). Once the largest remaining pivot
// is not above the tolerance times A's largest diagonal entry, the rows
// left depend on those before them: their pivots and L are set to 0. The
// rank is returned; substitutePivotedLdlt then solves A y = b (b in
// place, `scratch` of n) with the unknowns of the dependent rows 0 (a
// basic solution: the independent rows carry it).
// `dependentRows` (n values, or null) gets 1 for each dependent row (by its
// original index), else 0.
size_t factorPivotedLdlt(size_t n, double *A, size_t *order, double relativeTolerance,
                         double *dependentRows = nullptr);
void substitutePivotedLdlt(size_t n, const double *A, const size_t *order, double *b,
                           double *scratch);

// Solves M y = b in place (b becomes y) by LDL^T without pivoting; M is
// overwritten. Returns kSolveSingular on a pivot that is not positive
// (relative to the largest diagonal entry).
int solveLdlt(size_t n, double *M, double *b);

// The equations of the first kind, M q'' = f + C^T lambda, C q'' = gamma,
// for n coordinates and m constraints (C row-major m*n). M may be singular
// where C holds: the solve works on M + s C^T C (s scales C^T C to M),
// which is positive definite exactly when M is on the null space of C,
// then on the Schur complement S = C (M + s C^T C)^-1 C^T, positive
// semidefinite, definite exactly when C has full rank; it is solved as
// solveRegularizedSchur says, so that dependent rows of C (redundant
// constraints, a linkage at a singular position) are solved too: the
// reaction C^T lambda is unique, lambda one split of it. M is
// overwritten. Returns kSolveSingular when M + s C^T C is singular.
int solveConstrained(size_t n, size_t m, double *M, const double *f, const double *C,
                     const double *gamma, double *qdd, double *lambda);

// S mu = r (r in place) for the positive semidefinite Schur complement S
// (m*m): the rows that factorPivotedLdlt finds dependent to
// kDependentRowTolerance
// get mu = 0 and are left out; on the others mu = (S + eps I)^-1 r, eps =
// kSchurRegularization times S's largest diagonal entry, then
// kSchurRefinements passes of iterative refinement against S. Along directions where S is well
// above eps this is S's own solution to rounding (the error shrinks by eps / sigma per pass); rows
// that depend on others to rounding carry nothing (a basic split of the reaction, bounded off the
// constraints too); in between, where a linkage passes a singular position, mu stays bounded and
// smooth instead of growing as 1 / sigma. The generated code does the same operations (jit/
// EmitterLinearAlgebra.cpp).
void solveRegularizedSchur(size_t m, const double *S, double *r);

// As solveConstrained, where the multipliers act along the rows of W
// (m*n) instead of C: M q'' = f + W^T lambda, C q'' = gamma (a resting
// contact whose force also drives a sliding friction). The rows listed in
// `checked` (such contacts) must respond to their own accelerations as a
// contact does: the block of d lambda / d gamma on them is a P-matrix (for
// one contact, C M^-1 W^T > 0 on the directions the other rows allow), or
// their forces have no or several solutions: kSolveInconsistent, with
// `culprit` the first checked row whose own response is not positive (or
// the first checked row, when only the block fails).
int solveWithReactions(size_t n, size_t m, double *M, const double *f, const double *C,
                       const double *W, const double *gamma, const size_t *checked,
                       size_t checkedCount, double *qdd, double *lambda, size_t *culprit);

// M + s C^T C in place, factored by LDL^T, and y (f on entry) becomes
// (M + s C^T C)^-1 (f + s C^T gamma): where both constrained solves start
// (C q'' = gamma makes the added terms cancel). False when it is singular.
bool factorRegularized(size_t n, size_t m, double *M, const double *C, const double *gamma,
                       double s, double *y);

// The scale s of C^T C against M that solveConstrained (and the JIT) use.
double constraintScale(size_t n, size_t m, const double *M, const double *C);

} // namespace mech::runtime
