// A tree walk over the typed expression (a line: no sharing to memoise), the
// symbolic work done by the engine's own diff, simplify, expand and
// substitution, and numbers by the engine's straight-line programs.
#include "repl/Expressions.h"

#include "mechanics/Builtins.h"
#include "sema/BuiltinShapes.h"

#include "mechanics/MatrixBuiltins.h"
#include "sema/Units.h"
#include "support/EditDistance.h"
#include "support/NumberText.h"
#include "symbolic/Diff.h"
#include "symbolic/Print.h"
#include "symbolic/Program.h"
#include "symbolic/Readable.h"
#include "symbolic/Simplify.h"
#include "symbolic/Subs.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <unordered_set>

namespace mech::repl {

namespace {

using sym::Expr;

const char *shapeName(const Tensor &t) {
  if (t.isScalar())
    return "a scalar";
  return t.cols == 0 ? "a vector" : "a matrix";
}

// Calls visit once for every node of e's DAG.
template <class Visit> void forEachNode(const Expr &e, Visit &&visit) {
  std::unordered_set<const sym::Node *> seen;
  std::vector<const sym::Node *> stack{e.node()};
  while (!stack.empty()) {
    const sym::Node *n = stack.back();
    stack.pop_back();
    if (!seen.insert(n).second)
      continue;
    visit(n);
    for (const sym::Node *child : n->ops)
      stack.push_back(child);
  }
}

class Evaluator {
public:
  Evaluator(Scope &scope, Diagnostics &diagnostics)
      : scope_(scope), diagnostics_(diagnostics), c_(*scope.context) {}

  // Where a taylor call that is the whole input leaves its terms.
  void recordSeries(const ast::Expr &input, Series *series) {
    seriesInput_ = &input;
    series_ = series;
  }

  std::optional<Tensor> eval(const ast::Expr &e) {
    switch (e.kind) {
    case ast::ExprKind::Number:
      return number(static_cast<const ast::Number &>(e));
    case ast::ExprKind::Time:
      return Tensor::scalar(c_.time());
    case ast::ExprKind::Pi:
      return Tensor::scalar(c_.pi());
    case ast::ExprKind::Name:
      return name(static_cast<const ast::Name &>(e));
    case ast::ExprKind::Call:
      return call(static_cast<const ast::Call &>(e));
    case ast::ExprKind::SumOver:
      return sum(static_cast<const ast::SumOver &>(e));
    case ast::ExprKind::Vector:
      return vector(static_cast<const ast::Vector &>(e));
    case ast::ExprKind::Add:
      return add(static_cast<const ast::Add &>(e));
    case ast::ExprKind::Mul:
      return mul(static_cast<const ast::Mul &>(e));
    case ast::ExprKind::Neg: {
      auto v = eval(*static_cast<const ast::Neg &>(e).operand);
      if (!v)
        return std::nullopt;
      return map(*v, [](const Expr &x) { return -x; });
    }
    case ast::ExprKind::Pow:
      return power(static_cast<const ast::Pow &>(e));
    case ast::ExprKind::Prime:
      return prime(static_cast<const ast::Prime &>(e));
    case ast::ExprKind::Component:
      return component(static_cast<const ast::Component &>(e));
    case ast::ExprKind::Index:
      return index(static_cast<const ast::Index &>(e));
    case ast::ExprKind::Colon:
      return fail(e.location, "':' stands for a whole row or column and can only be an index");
    case ast::ExprKind::Compare:
    case ast::ExprKind::Logic:
      return fail(e.location, "a condition can only be the first argument of if");
    }
    return fail(e.location, "unsupported expression");
  }

private:
  std::nullopt_t fail(Location at, const std::string &message) {
    diagnostics_.error(at, message);
    return std::nullopt;
  }

  static Tensor map(const Tensor &t, const std::function<Expr(const Expr &)> &f) {
    Tensor out{t.rows, t.cols, {}};
    for (const Expr &x : t.v)
      out.v.push_back(f(x));
    return out;
  }

  std::optional<Tensor> number(const ast::Number &n) {
    double value = 0;
    auto result = std::from_chars(n.text.data(), n.text.data() + n.text.size(), value);
    if (result.ec != std::errc() || !std::isfinite(value))
      return fail(n.location, "number " + n.text + " is out of range");
    std::optional<Rational> exact = Rational::fromDecimal(n.text);
    Expr x = exact ? c_.number(sym::Num(*exact)) : c_.number(sym::Num::inexact(value));
    if (n.unit) {
      std::optional<sema::UnitValue> unit = sema::evaluateUnit(*n.unit, diagnostics_);
      if (!unit)
        return std::nullopt;
      x = x * c_.number(sym::Num(unit->scale));
      if (unit->piPower != 0)
        x = x * sym::pow(c_.pi(), unit->piPower);
    }
    return Tensor::scalar(x);
  }

  std::optional<Tensor> name(const ast::Name &n) {
    auto found = scope_.names.find(n.name);
    if (found != scope_.names.end())
      return found->second;
    if (n.name == "eom")
      return fail(n.location, "eom holds the derived quantities: eom.T, eom.V, eom.L, eom.D, "
                              "eom.M, eom.f, eom.Q, eom.T2, eom.T1, eom.T0");
    if (scope_.freeSymbols) {
      if (scope_.onFreeSymbol)
        scope_.onFreeSymbol(n.name, suggestion(n.name));
      return Tensor::scalar(c_.symbol(n.name, sym::SymbolKind::Free));
    }
    return fail(n.location, "unknown name '" + n.name + "'" + suggestion(n.name));
  }

  // " (did you mean 'th1'?)" for a name one edit away from a known one.
  std::string suggestion(const std::string &name) const {
    for (const auto &[known, value] : scope_.names)
      if (editDistance(name, known) <= (name.size() > 3 ? 2 : 1))
        return " (did you mean '" + known + "'?)";
    return "";
  }

  std::optional<Tensor> vector(const ast::Vector &v) {
    std::vector<Tensor> elements;
    for (const ast::ExprPtr &e : v.elements) {
      auto value = eval(*e);
      if (!value)
        return std::nullopt;
      elements.push_back(std::move(*value));
    }
    if (elements.empty())
      return fail(v.location, "an empty vector");
    if (elements[0].isScalar()) {
      Tensor out{static_cast<int>(elements.size()), 0, {}};
      for (size_t i = 0; i < elements.size(); ++i) {
        if (!elements[i].isScalar())
          return fail(v.elements[i]->location, "a vector's entries must be scalars");
        out.v.push_back(elements[i][0]);
      }
      return out;
    }
    // A matrix, row by row.
    int cols = elements[0].rows;
    Tensor out{static_cast<int>(elements.size()), cols, {}};
    for (size_t i = 0; i < elements.size(); ++i) {
      if (elements[i].isScalar() || elements[i].cols != 0 || elements[i].rows != cols)
        return fail(v.elements[i]->location,
                    "a matrix's rows must be vectors of one size (" + std::to_string(cols) + ")");
      out.v.insert(out.v.end(), elements[i].v.begin(), elements[i].v.end());
    }
    return out;
  }

  static bool sameShape(const Tensor &a, const Tensor &b) {
    return a.rows == b.rows && a.cols == b.cols;
  }

  std::optional<Tensor> add(const ast::Add &a) {
    std::optional<Tensor> total;
    for (const ast::Add::Term &term : a.terms) {
      auto value = eval(*term.value);
      if (!value)
        return std::nullopt;
      if (term.negated)
        value = map(*value, [](const Expr &x) { return -x; });
      if (!total) {
        total = std::move(value);
        continue;
      }
      if (!sameShape(*total, *value))
        return fail(term.value->location, std::string("cannot add ") + shapeName(*value) + " to " +
                                              shapeName(*total) + " of another shape");
      for (size_t i = 0; i < total->v.size(); ++i)
        total->v[i] = total->v[i] + value->v[i];
    }
    return total;
  }

  std::optional<Tensor> product(const Tensor &a, const Tensor &b, Location at) {
    if (a.isScalar())
      return map(b, [&](const Expr &x) { return a[0] * x; });
    if (b.isScalar())
      return map(a, [&](const Expr &x) { return x * b[0]; });
    if (a.cols == 0)
      return fail(at, "a vector times a vector: use dot(a, b) or cross(a, b)");
    if (a.cols != b.rows)
      return fail(at, "a " + std::to_string(a.rows) + "x" + std::to_string(a.cols) +
                          " matrix cannot multiply " + shapeName(b) + " with " +
                          std::to_string(b.rows) + " rows");
    int width = b.cols == 0 ? 1 : b.cols;
    Tensor out{a.rows, b.cols, {}};
    for (int i = 0; i < a.rows; ++i)
      for (int j = 0; j < width; ++j) {
        std::vector<Expr> terms;
        for (int k = 0; k < a.cols; ++k)
          terms.push_back(a.v[static_cast<size_t>(i * a.cols + k)] *
                          b.v[static_cast<size_t>(k * width + j)]);
        out.v.push_back(c_.add(terms));
      }
    return out;
  }

  std::optional<Tensor> mul(const ast::Mul &m) {
    std::optional<Tensor> total;
    for (const ast::Mul::Factor &factor : m.factors) {
      auto value = eval(*factor.value);
      if (!value)
        return std::nullopt;
      if (!total) {
        total = std::move(value);
        continue;
      }
      if (factor.divides) {
        if (!value->isScalar())
          return fail(factor.value->location, "division by a vector or matrix");
        if (value->v[0].isZero())
          return fail(factor.value->location, "division by zero");
        Expr divisor = value->v[0];
        total = map(*total, [&](const Expr &x) { return x / divisor; });
      } else {
        total = product(*total, *value, factor.value->location);
        if (!total)
          return std::nullopt;
      }
    }
    return total;
  }

  std::optional<Tensor> power(const ast::Pow &p) {
    auto base = eval(*p.base), exponent = eval(*p.exponent);
    if (!base || !exponent)
      return std::nullopt;
    if (!base->isScalar() || !exponent->isScalar())
      return fail(p.location, "^ takes scalars");
    if (base->v[0].isZero() && exponent->v[0].isNumber() && exponent->v[0]->num.isNegative())
      return fail(p.location, "division by zero");
    return Tensor::scalar(sym::pow(base->v[0], exponent->v[0]));
  }

  std::optional<Tensor> prime(const ast::Prime &p) {
    auto value = eval(*p.operand);
    if (!value)
      return std::nullopt;
    if (!scope_.timeDerivative)
      return fail(p.location, "' (d/dt along the motion) needs a model: load one with :load FILE "
                              "or declare coordinates with coord");
    for (int k = 0; k < p.order; ++k) {
      for (const Expr &x : value->v)
        if (x.has(sym::kHasAcceleration))
          return fail(p.location, "the derivative of an acceleration (order 3) is not defined");
      value = map(*value, scope_.timeDerivative);
    }
    return value;
  }

  std::optional<Tensor> component(const ast::Component &c) {
    if (c.operand->kind == ast::ExprKind::Name &&
        static_cast<const ast::Name &>(*c.operand).name == "eom" && !scope_.names.count("eom")) {
      auto found = scope_.eom.find(c.component);
      // A model without coordinates has empty M, f and Q: there is no
      // value to show, and an empty tensor would read as a scalar.
      if (found != scope_.eom.end() && found->second.v.empty())
        return fail(c.location, "eom." + c.component +
                                    " is empty: the model has no coordinates (declare one "
                                    "with coord NAME [unit])");
      if (found != scope_.eom.end())
        return found->second;
      if (scope_.eom.empty())
        return fail(c.location, "eom needs a model with equations: load one with :load FILE");
      return fail(c.componentLocation,
                  "eom has no '" + c.component + "': it has T, V, L, D, M, f, Q, T2, T1, T0");
    }
    auto value = eval(*c.operand);
    if (!value)
      return std::nullopt;
    int k = c.component == "x" ? 0 : c.component == "y" ? 1 : c.component == "z" ? 2 : -1;
    if (k < 0)
      return fail(c.componentLocation, "." + c.component + ": a vector has .x, .y and .z");
    if (value->isScalar() || value->cols != 0 || k >= value->rows)
      return fail(c.componentLocation,
                  "." + c.component + " of " + shapeName(*value) +
                      (value->isScalar() ? "" : " of size " + std::to_string(value->rows)));
    return Tensor::scalar(value->v[static_cast<size_t>(k)]);
  }

  std::optional<long> integer(const ast::Expr &e) {
    auto value = eval(e);
    if (!value)
      return std::nullopt;
    if (!value->isScalar() || !value->v[0].isNumber() || !value->v[0]->num.isInteger()) {
      fail(e.location, "an integer was expected");
      return std::nullopt;
    }
    return static_cast<long>(value->v[0]->num.rational().num());
  }

  static constexpr long kWhole = std::numeric_limits<long>::min();

  std::optional<Tensor> index(const ast::Index &ix) {
    std::vector<long> at; // kWhole stands for ':', the whole row or column
    for (const ast::ExprPtr &e : ix.indices) {
      if (e->kind == ast::ExprKind::Colon) {
        at.push_back(kWhole);
        continue;
      }
      auto k = integer(*e);
      if (!k)
        return std::nullopt;
      at.push_back(*k);
    }
    // A member of an indexed family: th[2].
    if (ix.operand->kind == ast::ExprKind::Name) {
      std::string member = static_cast<const ast::Name &>(*ix.operand).name + "[";
      for (size_t i = 0; i < at.size(); ++i)
        member += (i ? ", " : "") + std::to_string(at[i]);
      member += "]";
      auto found = scope_.names.find(member);
      if (found != scope_.names.end())
        return found->second;
    }
    auto value = eval(*ix.operand);
    if (!value)
      return std::nullopt;
    return entries(*value, at, ix.location);
  }

  // An entry, row or column of a vector or matrix, counted from 1 as in the
  // textbooks; W[i] is row i.
  std::optional<Tensor> entries(const Tensor &value, const std::vector<long> &given, Location loc) {
    if (value.isScalar())
      return fail(loc, "a scalar has no entries");
    long rows = value.rows, cols = value.cols;
    // From here 0 is ':' and every index a user wrote is at least 1.
    auto axis = [&](size_t i) -> long {
      if (i >= given.size())
        return i == 1 ? 0 : -1;
      return given[i] == kWhole ? 0 : given[i] < 1 ? -1 : given[i];
    };
    std::array<long, 2> at{axis(0), axis(1)};
    auto outside = [&](long k, long size) { return k < 0 || k > size; };
    bool fits = cols == 0 ? given.size() == 1 && !outside(at[0], rows)
                          : given.size() <= 2 && !outside(at[0], rows) && !outside(at[1], cols);
    if (!fits)
      return fail(loc, std::string("no such entry of ") + shapeName(value) + " (" +
                           std::to_string(rows) + (cols ? "x" + std::to_string(cols) : "") +
                           "; entries count from 1)");
    if (cols == 0)
      return at[0] == 0 ? value : Tensor::scalar(value.v[static_cast<size_t>(at[0] - 1)]);
    if (at[0] == 0 && at[1] == 0)
      return value;
    if (at[0] > 0 && at[1] > 0)
      return Tensor::scalar(value.v[static_cast<size_t>((at[0] - 1) * cols + at[1] - 1)]);
    Tensor line{static_cast<int>(at[0] > 0 ? cols : rows), 0, {}};
    for (long k = 0; k < line.rows; ++k)
      line.v.push_back(
          value.v[static_cast<size_t>(at[0] > 0 ? (at[0] - 1) * cols + k : k * cols + at[1] - 1)]);
    return line;
  }

  std::optional<Tensor> sum(const ast::SumOver &s) {
    auto from = integer(*s.from), to = integer(*s.to);
    if (!from || !to)
      return std::nullopt;
    if (*to - *from > 100000)
      return fail(s.location, "the range of the sum is too long");
    auto saved = scope_.names.find(s.index) != scope_.names.end()
                     ? std::optional<Tensor>(scope_.names[s.index])
                     : std::nullopt;
    // The terms are added once at the end: a sum built term by term would
    // re-canonicalise an ever longer sum.
    std::optional<Tensor> first;
    std::vector<std::vector<Expr>> terms;
    bool ok = true;
    for (long k = *from; k <= *to && ok; ++k) {
      scope_.names[s.index] = Tensor::scalar(c_.integer(k));
      auto term = eval(*s.body);
      if (!term) {
        ok = false;
      } else if (!first) {
        first = std::move(term);
        terms.resize(first->v.size());
        for (size_t i = 0; i < first->v.size(); ++i)
          terms[i].push_back(first->v[i]);
      } else if (!sameShape(*first, *term)) {
        ok = false;
        fail(s.body->location, "the terms of the sum have different shapes");
      } else {
        for (size_t i = 0; i < term->v.size(); ++i)
          terms[i].push_back(term->v[i]);
      }
    }
    if (saved)
      scope_.names[s.index] = *saved;
    else
      scope_.names.erase(s.index);
    if (!ok)
      return std::nullopt;
    if (!first)
      return Tensor::scalar(c_.zero());
    for (size_t i = 0; i < first->v.size(); ++i)
      first->v[i] = c_.add(terms[i]);
    return first;
  }

  // ---- Calls ----------------------------------------------------------------

  std::optional<Tensor> call(const ast::Call &call) {
    const std::string &f = call.callee;
    if (f == "diff" || f == "simplify" || f == "expand" || f == "subs" || f == "taylor" ||
        f == "eval")
      return calculatorFunction(call);
    if (f == "if")
      return choice(call);
    std::vector<Tensor> args;
    for (const ast::ExprPtr &e : call.args) {
      auto value = eval(*e);
      if (!value)
        return std::nullopt;
      args.push_back(std::move(*value));
    }
    if (auto builtin = sema::findBuiltin(f))
      return builtinCall(*builtin, call, args);
    if (auto def = scope_.defs.find(f); def != scope_.defs.end())
      return callDef(*def->second, call, std::move(args));
    if (f == "omega" || f == "omega_body")
      return angularVelocity(call, args);
    return fail(call.calleeLocation,
                "unknown function '" + f +
                    "' (the REPL has the language's built-ins and diff, simplify, expand, subs, "
                    "taylor, eval)");
  }

  // if(condition, a, b), a and b of one shape, chosen entry by entry.
  std::optional<Tensor> choice(const ast::Call &call) {
    std::optional<sym::Condition> condition = conditionOf(*call.args[0]);
    auto a = eval(*call.args[1]), b = eval(*call.args[2]);
    if (!condition || !a || !b)
      return std::nullopt;
    if (a->rows != b->rows || a->cols != b->cols)
      return fail(call.location, std::string("if's values have different shapes (") +
                                     shapeName(*a) + " and " + shapeName(*b) + ")");
    for (size_t k = 0; k < a->v.size(); ++k)
      a->v[k] = sym::choose(*condition, a->v[k], b->v[k]);
    return a;
  }

  std::optional<sym::Condition> conditionOf(const ast::Expr &e) {
    if (e.kind == ast::ExprKind::Compare) {
      auto &c = static_cast<const ast::Compare &>(e);
      auto lhs = eval(*c.lhs), rhs = eval(*c.rhs);
      if (!lhs || !rhs)
        return std::nullopt;
      if (!lhs->isScalar() || !rhs->isScalar())
        return fail(c.location,
                    std::string("a comparison (") + ast::compareSpelling(c.op) + ") needs scalars");
      using C = sym::Comparison;
      static constexpr C ops[] = {C::Less, C::LessEqual, C::Greater, C::GreaterEqual};
      return sym::compare(ops[static_cast<int>(c.op)], lhs->v[0], rhs->v[0]);
    }
    auto &l = static_cast<const ast::Logic &>(e);
    using Kind = sym::Condition::Kind;
    sym::Condition result{l.op == ast::Logic::Op::And  ? Kind::And
                          : l.op == ast::Logic::Op::Or ? Kind::Or
                                                       : Kind::Not,
                          {},
                          {}};
    for (const ast::ExprPtr &operand : l.operands) {
      auto c = conditionOf(*operand);
      if (!c)
        return std::nullopt;
      result.operands.push_back(std::move(*c));
    }
    return result;
  }

  // omega(R), omega_body(R): the axial vectors of R'·Rᵀ and Rᵀ·R', as a
  // model has them (sema/ResolveFrames.cpp).
  std::optional<Tensor> angularVelocity(const ast::Call &call, const std::vector<Tensor> &args) {
    if (args.size() != 1)
      return fail(call.location,
                  call.callee + " takes 1 argument, " + std::to_string(args.size()) + " given");
    if (args[0].rows != 3 || args[0].cols != 3)
      return fail(call.args[0]->location,
                  call.callee + " expects a 3x3 rotation matrix, found " + shapeName(args[0]));
    if (!scope_.timeDerivative)
      return fail(call.location, call.callee + " differentiates along the motion and needs a "
                                               "model: load one with :load FILE");
    const Tensor &R = args[0];
    Tensor rate = map(R, scope_.timeDerivative);
    bool body = call.callee == "omega_body";
    auto at = [](const Tensor &m, int i, int j) { return m.v[static_cast<size_t>(i * 3 + j)]; };
    // W[i][j] = sum_k A[i][k] B[k][j] with A, B = R', Rᵀ (world) or Rᵀ, R' (body).
    auto skew = [&](int i, int j) {
      std::vector<Expr> terms;
      for (int k = 0; k < 3; ++k)
        terms.push_back(body ? at(R, k, i) * at(rate, k, j) : at(rate, i, k) * at(R, j, k));
      return c_.add(terms);
    };
    return Tensor{3, 0, {skew(2, 1), skew(0, 2), skew(1, 0)}};
  }

  // A built-in function: the language's shape rule (sema::builtinShape) and
  // implementation (mechanics::applyBuiltin), not a copy of them.
  std::optional<Tensor> builtinCall(sema::Builtin builtin, const ast::Call &call,
                                    const std::vector<Tensor> &args) {
    std::vector<sema::Shape> shapes;
    for (const Tensor &a : args)
      shapes.push_back(sema::Shape{a.rows, a.cols});
    auto shape = sema::builtinShape(builtin, shapes);
    if (auto *problem = std::get_if<sema::ShapeProblem>(&shape))
      return fail(problem->argument < 0
                      ? call.location
                      : call.args[static_cast<size_t>(problem->argument)]->location,
                  problem->message);
    // An inverse that does not exist is known here, where the matrix is.
    if ((builtin == sema::Builtin::Inv || builtin == sema::Builtin::Solve) &&
        mechanics::determinant(c_, args[0]).isZero())
      return fail(call.args[0]->location, std::string(sema::builtinName(builtin)) +
                                              " of a singular matrix (its determinant is 0)");
    return mechanics::applyBuiltin(c_, builtin, args);
  }

  // A def's body with its parameters bound to the arguments' values.
  std::optional<Tensor> callDef(const ast::DefDecl &def, const ast::Call &call,
                                std::vector<Tensor> args) {
    if (args.size() != def.params.size())
      return fail(call.location, def.name + " takes " + std::to_string(def.params.size()) +
                                     " argument" + (def.params.size() == 1 ? "" : "s") + ", not " +
                                     std::to_string(args.size()));
    if (defDepth_ >= 64)
      return fail(call.location, "defs nested more than 64 deep");
    std::vector<std::optional<Tensor>> shadowed;
    for (size_t i = 0; i < args.size(); ++i) {
      auto found = scope_.names.find(def.params[i]);
      shadowed.push_back(found == scope_.names.end() ? std::nullopt
                                                     : std::optional<Tensor>(found->second));
      scope_.names[def.params[i]] = args[i];
    }
    ++defDepth_;
    std::optional<Tensor> value = eval(*def.body);
    --defDepth_;
    for (size_t i = args.size(); i-- > 0;) {
      if (shadowed[i])
        scope_.names[def.params[i]] = *shadowed[i];
      else
        scope_.names.erase(def.params[i]);
    }
    return value;
  }

  // Whether e divides by zero (0^-k, as subs or taylor can produce).
  static bool dividesByZero(const Expr &e) {
    auto zeroBase = [](const sym::Node *base, const sym::Node *exponent) {
      return base->kind == sym::Kind::Number && base->num.isZero() &&
             exponent->kind == sym::Kind::Number && exponent->num.isNegative();
    };
    bool found = false;
    forEachNode(e, [&](const sym::Node *n) {
      if (n->kind == sym::Kind::Pow && zeroBase(n->ops[0], n->ops[1]))
        found = true;
      if (n->kind == sym::Kind::Mul)
        for (size_t i = 0; i + 1 < n->ops.size(); i += 2)
          found = found || zeroBase(n->ops[i], n->ops[i + 1]);
    });
    return found;
  }

  std::optional<Tensor> checkedDivisions(Tensor value, Location at, const std::string &what) {
    for (const Expr &e : value.v)
      if (dividesByZero(e))
        return fail(at, what);
    return value;
  }

  // The symbol an argument names: x, th1', t, a param or a free symbol.
  std::optional<Expr> symbolArgument(const ast::Expr &e, const std::string &function) {
    auto value = eval(e);
    if (!value)
      return std::nullopt;
    if (!value->isScalar() || value->v[0].kind() != sym::Kind::Symbol) {
      fail(e.location, function + ": expected a symbol (a coordinate, a velocity such as th1', "
                                  "a param, t or a free name)");
      return std::nullopt;
    }
    return value->v[0];
  }

  // (symbol, value) pairs after the first argument: name = value, ...
  std::optional<std::vector<std::pair<Expr, Tensor>>> pairs(const ast::Call &call, size_t from) {
    std::vector<std::pair<Expr, Tensor>> out;
    if ((call.args.size() - from) % 2 != 0)
      return fail(call.location, call.callee + " takes name = value pairs after the expression");
    for (size_t i = from; i + 1 < call.args.size(); i += 2) {
      auto symbol = symbolArgument(*call.args[i], call.callee);
      auto value = eval(*call.args[i + 1]);
      if (!symbol || !value)
        return std::nullopt;
      if (!value->isScalar())
        return fail(call.args[i + 1]->location, call.callee + ": a value must be a scalar");
      out.emplace_back(*symbol, *value);
    }
    return out;
  }

  // taylor(e, x, x0, n): sum over k <= n of e^(k)(x0) (x - x0)^k / k!.
  std::optional<Tensor> taylor(const ast::Call &call, const Tensor &value) {
    if (call.args.size() != 4)
      return fail(call.location, "taylor takes an expression, a symbol, the point and the "
                                 "order: taylor(e, x, 0, 5)");
    auto x = symbolArgument(*call.args[1], "taylor");
    auto at = eval(*call.args[2]);
    auto order = integer(*call.args[3]);
    if (!x || !at || !order)
      return std::nullopt;
    if (!at->isScalar())
      return fail(call.args[2]->location, "taylor: the point must be a scalar");
    if (*order < 0 || *order > 20)
      return fail(call.args[3]->location, "taylor: the order must be between 0 and 20");
    sym::Substitution atPoint;
    atPoint.set(*x, at->v[0]);
    Expr offset = *x - at->v[0];
    Series series;
    Tensor sum{value.rows, value.cols, {}};
    for (const Expr &e : value.v) {
      std::vector<Expr> terms;
      std::vector<SeriesTerm> ordered;
      Expr derivative = e;
      sym::Num factorial(1);
      for (long k = 0; k <= *order; ++k) {
        if (k > 0) {
          derivative = sym::diff(derivative, *x);
          factorial = factorial * sym::Num(k);
        }
        Expr coefficient = atPoint(derivative) / c_.number(factorial);
        if (coefficient.isZero())
          continue;
        Expr power = sym::pow(offset, k);
        terms.push_back(coefficient * power);
        ordered.push_back({coefficient, power});
      }
      sum.v.push_back(c_.add(terms));
      if (ordered.empty())
        ordered.push_back({c_.zero(), c_.one()});
      series.push_back(std::move(ordered));
    }
    auto checked = checkedDivisions(std::move(sum), call.location,
                                    "taylor: the expression or a derivative is not defined at "
                                    "the point");
    if (checked && series_ && &call == seriesInput_)
      *series_ = std::move(series);
    return checked;
  }

  std::optional<Tensor> calculatorFunction(const ast::Call &call) {
    const std::string &f = call.callee;
    if (call.args.empty())
      return fail(call.location, f + " needs an expression");
    auto value = eval(*call.args[0]);
    if (!value)
      return std::nullopt;
    if (f == "simplify" || f == "expand") {
      if (call.args.size() != 1)
        return fail(call.location, f + " takes one expression");
      return map(*value, f == "simplify" ? sym::readable : sym::expand);
    }
    if (f == "diff") {
      if (call.args.size() != 2 && call.args.size() != 3)
        return fail(call.location, "diff takes an expression, a symbol and optionally an order: "
                                   "diff(e, x) or diff(e, x, 2)");
      auto x = symbolArgument(*call.args[1], "diff");
      if (!x)
        return std::nullopt;
      long order = 1;
      if (call.args.size() == 3) {
        auto k = integer(*call.args[2]);
        if (!k)
          return std::nullopt;
        if (*k < 0 || *k > 20)
          return fail(call.args[2]->location, "diff: the order must be between 0 and 20");
        order = *k;
      }
      for (long k = 0; k < order; ++k)
        value = map(*value, [&](const Expr &e) { return sym::diff(e, *x); });
      return value;
    }
    if (f == "subs") {
      auto given = pairs(call, 1);
      if (!given)
        return std::nullopt;
      sym::Substitution substitution;
      for (const auto &[symbol, replacement] : *given)
        substitution.set(symbol, replacement[0]);
      return checkedDivisions(map(*value, [&](const Expr &e) { return substitution(e); }),
                              call.location, "subs: the substitution divides by zero");
    }
    if (f == "taylor")
      return taylor(call, *value);
    // eval(e, x = 1, ...): every symbol needs a number, from the pairs or
    // from the model (params, init state, t = 0).
    auto given = pairs(call, 1);
    if (!given)
      return std::nullopt;
    std::map<const sym::Node *, double> values = scope_.values;
    values[c_.time().node()] = values.count(c_.time().node()) ? values[c_.time().node()] : 0.0;
    for (const auto &[symbol, number] : *given) {
      auto v = numeric(number[0], values, call.location);
      if (!v)
        return std::nullopt;
      values[symbol.node()] = *v;
    }
    Tensor out{value->rows, value->cols, {}};
    for (const Expr &e : value->v) {
      auto v = numeric(e, values, call.location);
      if (!v)
        return std::nullopt;
      out.v.push_back(c_.number(sym::Num::inexact(*v)));
    }
    return out;
  }

  // The value of e with the symbols' values; an error names a missing one.
  std::optional<double> numeric(const Expr &e, const std::map<const sym::Node *, double> &values,
                                Location at) {
    // One input per symbol, found by what the program's map is given.
    std::vector<double> inputs;
    std::map<std::tuple<std::string, int, int>, int> byInfo;
    std::string missing;
    forEachNode(e, [&](const sym::Node *n) {
      if (n->kind != sym::Kind::Symbol || c_.symbolInfo(n).kind == sym::SymbolKind::Constant)
        return;
      const sym::SymbolInfo &info = c_.symbolInfo(n);
      auto found = values.find(n);
      if (found == values.end()) {
        if (missing.empty())
          missing = info.name;
        return;
      }
      byInfo[{info.name, static_cast<int>(info.kind), info.order}] =
          static_cast<int>(inputs.size());
      inputs.push_back(found->second);
    });
    if (!missing.empty()) {
      fail(at, "eval: no value for '" + missing + "' (give it: eval(e, " + missing + " = 1))");
      return std::nullopt;
    }
    sym::Program program({e}, [&](const sym::SymbolInfo &info) {
      auto found = byInfo.find({info.name, static_cast<int>(info.kind), info.order});
      return found == byInfo.end() ? -1 : found->second;
    });
    return program.evaluate(inputs)[0];
  }

  Scope &scope_;
  Diagnostics &diagnostics_;
  sym::Context &c_;
  int defDepth_ = 0;
  const ast::Expr *seriesInput_ = nullptr;
  Series *series_ = nullptr;
};

} // namespace

std::optional<Tensor> evaluate(const ast::Expr &expr, Scope &scope, Diagnostics &diagnostics,
                               Series *series) {
  Evaluator evaluator(scope, diagnostics);
  evaluator.recordSeries(expr, series);
  std::optional<Tensor> value = evaluator.eval(expr);
  if (value)
    for (const Expr &e : value->v)
      if (e.isNumber() && !std::isfinite(e->num.toDouble())) {
        diagnostics.error(expr.location, "the value is not a finite number (too large, or "
                                         "undefined, for double precision)");
        return std::nullopt;
      }
  return value;
}

std::string format(const Tensor &value, bool latex, const Series *series) {
  auto single = [&](const Expr &e) {
    if (e.isNumber() && !e->num.exact())
      return shortestNumber(e->num.toDouble());
    return latex ? sym::toLatex(e) : sym::toMech(e);
  };
  // Entry i, term by term when it is a series: a term's own sign becomes the
  // operator before it (+ binds loosest, so this is the same sum).
  auto one = [&](size_t i) {
    if (!series || i >= series->size() || (*series)[i].empty())
      return single(value.v[i]);
    std::string text;
    for (const SeriesTerm &term : (*series)[i]) {
      std::string shown = single(term.coefficient * term.power);
      if (text.empty())
        text = shown;
      else if (shown[0] == '-')
        text += " - " + shown.substr(1);
      else
        text += " + " + shown;
    }
    return text;
  };
  if (value.v.empty())
    return latex ? "\\begin{pmatrix}\\end{pmatrix}" : "[]";
  if (value.isScalar())
    return one(0);
  auto row = [&](size_t from, size_t count) {
    std::string text = latex ? "" : "[";
    for (size_t i = 0; i < count; ++i)
      text += (i ? (latex ? " & " : ", ") : "") + one(from + i);
    return text + (latex ? "" : "]");
  };
  if (value.cols == 0) {
    if (latex) {
      std::string text = "\\begin{pmatrix}";
      for (size_t i = 0; i < value.v.size(); ++i)
        text += (i ? " \\\\ " : "") + one(i);
      return text + "\\end{pmatrix}";
    }
    return row(0, value.v.size());
  }
  auto cols = static_cast<size_t>(value.cols);
  std::string text = latex ? "\\begin{pmatrix}" : "[";
  for (size_t i = 0; i < static_cast<size_t>(value.rows); ++i)
    text += (i ? (latex ? " \\\\ " : ", ") : "") + row(i * cols, cols);
  return text + (latex ? "\\end{pmatrix}" : "]");
}

} // namespace mech::repl
