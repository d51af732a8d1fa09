// The first-kind equations of a model whose mass matrix and constraint
// Jacobian are sparse (a linkage of many loops, the IFToMM N-four-bar),
// solved as solveConstrained solves them (runtime/DenseSolve.h) but with
// M + s C^T C factored within its envelope after a reverse Cuthill-McKee
// ordering, and C's rows used by their structural entries only: the dense
// solve's n^3 / 6 factorization, its m n^2 substitutions and m^2 n products
// become about n b^2, m n b and m^2 k (b the envelope's width, k the entries
// of a row of C). The Schur complement S = C (M + s C^T C)^-1 C^T stays
// dense (it is, for a closed chain) and is solved by solveRegularizedSchur:
// redundant constraints and singular positions are handled alike.
//
// The structure is a fact of the model's symbolic equations (which entries
// are not identically zero), fixed before a run: it is held in a plan, one
// flat array of int32 that generated code can keep as a constant and pass
// back to mech_solve_constrained_envelope, the one implementation both back
// ends call (so they give the same bits).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mech::runtime {

// Below this many coordinates the dense solve is used, and where M + s C^T C's
// envelope fills more than this fraction of its lower triangle (a dense mass
// matrix: a chain in absolute angles). Measured (bench/README.md, "Linkages"):
// on the N-four-bar the envelope solve is slower at n = 3 and 5, faster from
// n = 7 (fill 0.6 at n = 9); on a chain closed at its tip (fill 1) it is 30 %
// slower at n = 8 and 16.
inline constexpr size_t kEnvelopeSolveFrom = 8;
// Without constraints the generated code solves M q'' = f unrolled up to
// 24 coordinates (jit/CompiledModel.h, kUnrolledSolveLimit); the envelope
// solve of M alone is used from there (measured on a mass-spring chain:
// bench/README.md, "Stiff models").
inline constexpr size_t kEnvelopeMassFrom = 25;
inline constexpr double kEnvelopeFillLimit = 0.7;

// The plan for n coordinates and m constraints (m = 0: M q'' = f), from the structural
// nonzeros of M (n*n, row-major) and C (m*n): empty when the envelope solve
// does not pay (the limits above).
std::vector<int32_t> planEnvelopeSolve(size_t n, size_t m, const std::vector<bool> &nonzeroM,
                                       const std::vector<bool> &nonzeroC);

// The entries of M + s C^T C's lower triangle that the plan factors.
size_t envelopeEntries(const int32_t *plan);

// C's structural entries in a plan: row r's columns are
// columns[start[r]] .. columns[start[r + 1] - 1].
struct PlanRows {
  const int32_t *start, *columns;
};
PlanRows planConstraintRows(const int32_t *plan);

// y = M x (by coordinates) from M's entries within the plan's envelope,
// which hold all those not identically zero.
void envelopeMultiply(const int32_t *plan, const double *M, const double *x, double *y);

// M + s C^T C factored within a plan's envelope (Mf laid out as below), for
// solves by coordinates (the augmented Lagrangian's iteration, runtime/
// AugmentedSolve.h).
class EnvelopeFactor {
public:
  // False on a pivot not above relativeTolerance times the largest diagonal entry.
  bool factor(const int32_t *plan, const double *Mf, double s, double relativeTolerance);
  // b = (M + s C^T C)^-1 b, in place.
  void solve(double *b);

private:
  const int32_t *plan_ = nullptr;
  std::vector<double> L_, work_;
};

// The solve of M q'' = f + C^T lambda, C q'' = gamma, with Mf laid out as
// the dynamics program writes it: M (n*n), f (n), C (m*n), gamma (m).
// M's entries outside the plan's structure must be 0, and are not read.
// Without constraints (m = 0) lambda is not used (may be null).
// Mf is not changed. Status as solveConstrained's.
int solveConstrainedEnvelope(const int32_t *plan, const double *Mf, double *qdd, double *lambda);

} // namespace mech::runtime

// The same, with C linkage: the symbol generated code calls (jit/Jit.cpp
// defines it in every JIT session).
extern "C" int mech_solve_constrained_envelope(const int32_t *plan, const double *Mf, double *qdd,
                                               double *lambda);
