// A structural dump of the AST (`mech --dump=ast`). Without locations it is
// also the equality used by the parse/print round-trip tests.
#pragma once

#include "syntax/Ast.h"

#include <string>

namespace mech {

std::string dumpAst(const ast::File &file, bool withLocations);
std::string dumpExpr(const ast::Expr &expr, bool withLocations);

} // namespace mech
