// Prints the checked model: IR expressions in .mech syntax (lets by name),
// the `--dump=sema` listing, and the one-line summary of `mech check`.
#pragma once

#include "sema/Model.h"

#include <string>

namespace mech::sema {

std::string printExpr(const CheckedModel &model, const ExprRef &expr);
std::string dumpModel(const CheckedModel &model);
// "DoublePendulum: 2 coordinates (th1, th2), 5 parameters, 0 constraints, 2 bodies"
std::string summarizeModel(const CheckedModel &model);
// Shortest text that reads back as the same double.
std::string formatNumber(double value);

} // namespace mech::sema
