// What `mech equations`, `mech eval` and `--dump=eom` print, as text, JSON
// or LaTeX. Library code, so that the CLI and the REPL print the same.
#pragma once

#include "mechanics/Evaluation.h"
#include "mechanics/Lagrange.h"
#include "symbolic/SharedTerms.h"

#include <string>
#include <vector>

namespace mech::driver {

// Equations as given (not re-simplified here: pass mechanics::simplified()).
std::string equationsText(const mechanics::Equations &equations);
std::string equationsJson(const mechanics::Equations &equations);
std::string equationsLatex(const mechanics::Equations &equations);
// The whole Lagrange IR, for --dump=eom.
std::string eomDump(const mechanics::Equations &equations);

std::string evaluationText(const mechanics::Equations &equations,
                           const mechanics::Evaluation &evaluation);
std::string evaluationJson(const mechanics::Equations &equations,
                           const mechanics::Evaluation &evaluation);

// The error for derived quantities (T, V, M[x,y], f[x], Q[x], Qnc[x]) that
// hold a number that is not finite, from a constant of the model that
// overflowed, naming them; "" when none. Printed, they would read inf or
// nan as if those were coefficients.
std::string nonFiniteConstants(const mechanics::Equations &equations);

// A generalized force's unit in words: N, N*m, or base units.
std::string forceUnit(const sema::DimInfo &dim);

// The named subexpressions of large expressions, after the equations that
// use them ("" when there are none).
std::string whereLines(const std::vector<sym::NamedSubexpression> &where);

} // namespace mech::driver
