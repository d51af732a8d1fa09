// Assertions of the canonical forms that Context's factories build, checked
// on every node before it is interned in the sanitizer, fuzzing and debug
// builds (MECH_CHECK_CANONICAL): hash-consing is only sound when equal
// expressions have one form, so a factory that breaks a rule is caught where
// it does so, not later as two nodes that print alike and compare unequal.
#pragma once

#include "symbolic/Expr.h"

namespace mech::sym {

// Reports an internal error naming the broken rule when `candidate` (not
// yet interned, its operands interned) is not in canonical form or has an
// operand from another context.
void checkCanonical(const Node &candidate, const Context *context);

} // namespace mech::sym
