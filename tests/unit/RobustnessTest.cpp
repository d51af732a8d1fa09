#include "TestSupport.h"
#include "syntax/AstDump.h"
#include <catch2/catch.hpp>
#include <iostream>
using namespace mech;
TEST_CASE("debug", "[debug]") {
  for (const char *t : {"2.x", "2.x ", "(2).x", "2.y", "1.e5", "x.x"}) {
    SourceFile source("expr.mech", t);
    Diagnostics diagnostics;
    ast::ExprPtr expr = parseExpression(source, diagnostics);
    std::cout << "== " << t << "\n" << (expr ? dumpExpr(*expr, true) : "null") << "\n";
    for (auto &d : diagnostics.all()) std::cout << render(d);
  }
}
