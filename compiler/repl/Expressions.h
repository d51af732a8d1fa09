// Expressions typed at the REPL: the language's operators, shapes and
// built-in functions over the symbolic engine, plus the calculator's own
// functions diff, simplify, expand, subs, taylor and eval. Names come from a
// Scope: a model's coordinates, params, lets and derived quantities, the
// session's variables, and (without a model) free symbols.
#pragma once

#include "mechanics/Lowering.h"
#include "support/Diagnostics.h"
#include "syntax/Ast.h"

#include <functional>
#include <map>
#include <optional>
#include <string>

namespace mech::repl {

using mechanics::Tensor;

struct Scope {
  sym::Context *context = nullptr;
  std::map<std::string, Tensor> names; // coordinates, params, lets, T, V, L, variables
  std::map<std::string, Tensor> eom;   // eom.T, eom.M, ...
  // d/dt along the motion; empty without a model (then ' is an error).
  std::function<sym::Expr(const sym::Expr &)> timeDerivative;
  // Unknown names become free symbols (the calculator, with or without a
  // model); when false they are errors.
  bool freeSymbols = true;
  // Told of each name that became a free symbol, with a suggestion such as
  // " (did you mean 'th1'?)" or "": the session notes the names that are
  // not the model's.
  std::function<void(const std::string &name, const std::string &suggestion)> onFreeSymbol;
  // What eval uses for a symbol it is not given: params and the init state.
  std::map<const sym::Node *, double> values;
  // The defs visible (the model file's, its imports', the typed ones).
  std::map<std::string, const ast::DefDecl *> defs;
};

// The value of `expr`, or nullopt with errors reported at its nodes.
std::optional<Tensor> evaluate(const ast::Expr &expr, Scope &scope, Diagnostics &diagnostics);

// a; [a, b]; [[a, b], [c, d]] in .mech syntax, or in LaTeX.
std::string format(const Tensor &value, bool latex = false);

} // namespace mech::repl
