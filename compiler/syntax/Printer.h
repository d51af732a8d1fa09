// Prints the AST back as canonical .mech text (`mech fmt`): two-space
// indentation, one declaration per line, spaces around binary operators
// except ^, parentheses only where precedence needs them, comments kept. A
// matrix whose rows the source wrote on different lines keeps one row per
// line, aligned one column right of its '[' (see Printer.cpp); formatExpr
// always prints one line.
#pragma once

#include "syntax/Ast.h"

#include <string>

namespace mech {

std::string formatFile(const ast::File &file);
std::string formatExpr(const ast::Expr &expr);
std::string formatUnit(const ast::Unit &unit);
std::string formatDecl(const ast::Decl &decl, int indent = 0);

} // namespace mech
