// Prints the checked model: IR expressions in .mech syntax (lets by name),
// the `--dump=sema` listing, and the one-line summary of `mech check`.
#pragma once

#include "support/NumberText.h"

#include "sema/Model.h"

#include <string>

namespace mech::sema {

std::string printExpr(const CheckedModel &model, const ExprRef &expr);
std::string dumpModel(const CheckedModel &model);
// "DoublePendulum: 2 coordinates (th1, th2), 5 parameters, 0 constraints, 2 bodies"
std::string summarizeModel(const CheckedModel &model);
// Numbers are written by the one formatter (support/NumberText.h).
using mech::formatNumber;

// The unit to list a name's value in: the declared one (N/m), else the SI
// form of a known dimension (kg/s^2), else "" (unchecked).
std::string unitOf(const std::optional<DeclaredUnit> &declared, const DimInfo &dim);
// An SI value in the declared unit: 200 for 0.2 kg declared in g. Without a
// rescaling unit, formatNumber(si); else 15 significant digits, so that the
// conversion's rounding does not show (300, not 299.99999999999994).
std::string valueIn(double si, const std::optional<DeclaredUnit> &declared);

} // namespace mech::sema
