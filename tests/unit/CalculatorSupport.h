// The REPL's calculator (repl/Expressions.h) on one line of input, for the
// unit tests: the value, its number or printed form, or the first error.
#pragma once

#include "repl/Expressions.h"
#include "syntax/Parser.h"

#include <catch2/catch.hpp>

#include <string>

namespace mech::test {

struct Calculator {
  sym::Context context;
  repl::Scope scope;
  SourceManager sources;
  Calculator() { scope.context = &context; }

  // The value of `text`, which must evaluate.
  repl::Tensor value(const std::string &text) {
    Diagnostics diagnostics;
    ast::ExprPtr tree = parseExpression(sources.add("<test>", text), diagnostics);
    REQUIRE(tree);
    auto result = repl::evaluate(*tree, scope, diagnostics);
    INFO(text);
    REQUIRE(result);
    return *result;
  }
  double number(const std::string &text) {
    repl::Tensor v = value(text);
    REQUIRE(v.isScalar());
    REQUIRE(v[0].isNumber());
    return v[0]->num.toDouble();
  }
  std::string shown(const std::string &text) { return repl::format(value(text)); }
  // The first error of `text`, which must fail.
  Diagnostic failure(const std::string &text) {
    Diagnostics diagnostics;
    ast::ExprPtr tree = parseExpression(sources.add("<test>", text), diagnostics);
    if (tree)
      CHECK_FALSE(repl::evaluate(*tree, scope, diagnostics));
    REQUIRE(diagnostics.hasErrors());
    return diagnostics.all().front();
  }
  std::string error(const std::string &text) { return failure(text).message; }
};

} // namespace mech::test
