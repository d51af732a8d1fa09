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
#include <vector>

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

// The terms of each entry of a Taylor polynomial, c_k (x - x0)^k in
// ascending k, without the zero ones (one term 0 when all are). The engine
// keeps a sum as a set of terms and prints them in its own order; a series
// reads as one only in ascending powers, so the REPL prints these terms in
// turn. The coefficient is kept apart so that it can be simplified without
// expanding the power.
struct SeriesTerm {
  sym::Expr coefficient, power;
};
using Series = std::vector<std::vector<SeriesTerm>>;

// The value of `expr`, or nullopt with errors reported at its nodes. When
// `expr` is a call of taylor and `series` is given, it receives the terms.
std::optional<Tensor> evaluate(const ast::Expr &expr, Scope &scope, Diagnostics &diagnostics,
                               Series *series = nullptr);

// a; [a, b]; [[a, b], [c, d]] in .mech syntax, or in LaTeX. With `series`
// (one list of terms per entry) the entries are printed term by term.
std::string format(const Tensor &value, bool latex = false, const Series *series = nullptr);

} // namespace mech::repl
