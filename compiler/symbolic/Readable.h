// Display forms: what `mech equations`, `conserved` and the REPL print.
//
// Each expression is brought to the trigonometric normal form
// (NormalForm.h), which removes every variable it does not depend on (no
// entry of the heavy top's T, M or momenta shows phi or psi) and every
// identity (R^T R = I collapses). From there, per angle atom, the shorter of
// the forms with sin^2 or with cos^2 reduced is kept; terms are grouped by
// their velocity monomial (q_i' q_j'), as a textbook groups them; and each
// group's coefficient goes through `simplify` (angle sums recognised,
// parameters collected), then common parameter factors come out of the
// whole. A form is used only once the zero test (ZeroTest.h) has proven it
// equal to the original; an expression too large for the normal form gets
// the plain `simplify`.
#pragma once

#include "symbolic/Expr.h"

#include <vector>

namespace mech::sym {

// The display form of each expression; angle atoms are shared across them.
// Where equivalents[i] is set, it is an expression equal to exprs[i] that is
// cheaper to bring to the normal form (T as T2 + T1 + T0 shares the mass
// matrix's work); the result is still checked against exprs[i].
std::vector<Expr> readableForms(const std::vector<Expr> &exprs,
                                const std::vector<Expr> &equivalents = {});
Expr readable(const Expr &e);

} // namespace mech::sym
