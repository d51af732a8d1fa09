// Printers of symbolic expressions: .mech syntax (what `mech equations`
// shows), LaTeX, and C. Display order is chosen for reading, not storage:
// factors in declaration order (params, coordinates, t, functions,
// velocities), a coefficient p/q written as p*...*/q, negative exponents as a
// denominator, and the result is the same on every run.
#pragma once

#include "symbolic/Expr.h"

#include <functional>
#include <string>

namespace mech::sym {

std::string toMech(const Expr &e);
std::string toLatex(const Expr &e);
// C99 source using <math.h>; `name` spells each symbol (e.g. "q[0]").
std::string toC(const Expr &e, const std::function<std::string(const SymbolInfo &)> &name);

} // namespace mech::sym
