// Helpers shared by the files of the resolver (Resolve*.cpp), internal to
// compiler/sema: the dimension arithmetic behind the operators and the
// built-ins with its messages, and the test for a bracket that reads as a
// unit. Defined in ResolveUnits.cpp.
#pragma once

#include "sema/Dimension.h"
#include "support/Diagnostics.h"
#include "syntax/Ast.h"

#include <string>

namespace mech::sema {

// 1/d, where d is known; unchecked when the exponents leave their limits.
DimInfo inverseDimension(const DimInfo &d);

// Why a dimension could not be formed: an exponent left the limit.
std::string exponentLimitMessage(const DimInfo &operand, const std::string &operation);

// Dimensionless, or not known (and so not to be reported).
bool isDimensionless(const DimInfo &d);

// The dimension as messages show it.
std::string describeDimension(const DimInfo &d);

// True when every leaf of e is a known unit symbol or a number, and one is a
// unit symbol: `[1/s]` written after something that is not a number.
bool looksLikeUnit(const ast::Expr &e);
// Reports brackets that would be a unit but for an exponent that is not a
// whole number (1 [m^(1/2)]); false, reporting nothing, for other brackets.
bool reportFractionalUnit(Diagnostics &diagnostics, const ast::Index &index);

// " (inertia.mech's 'disk' is now 'disk_axis')" for a renamed standard
// library def, else empty (ResolveNames.cpp).
std::string renamedNote(const std::string &callee);

// omega and omega_body: built in, but not reserved (ResolveFrames.cpp).
bool isFrameFunction(const std::string &name);

} // namespace mech::sema
