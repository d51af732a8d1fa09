// Helpers shared by the symbolic engine's tests: numeric evaluation through
// sym::Program, a structural dump in storage order, DAG queries, a seeded
// random expression generator, central finite differences, and a converter
// from parsed .mech text back to canonical expressions.
#pragma once

#include "support/Diagnostics.h"
#include "support/Rational.h"
#include "symbolic/Expr.h"
#include "symbolic/MatrixFunctions.h"
#include "symbolic/Piecewise.h"
#include "symbolic/Print.h"
#include "symbolic/Program.h"
#include "syntax/Parser.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unordered_set>
#include <vector>

namespace Catch {
template <> struct StringMaker<mech::sym::Expr> {
  static std::string convert(const mech::sym::Expr &e) {
    return e ? "'" + mech::sym::toMech(e) + "'" : std::string("(null)");
  }
};
} // namespace Catch

namespace mech::symtest {

using sym::Context;
using sym::Expr;
using sym::Fn;
using sym::Kind;
using sym::Node;
using sym::Num;
using sym::SymbolInfo;
using sym::SymbolKind;

// ---------------------------------------------------------------------------
// Evaluation

// An ordered list of symbols with values; symbol i reads input i.
class Inputs {
public:
  Inputs() = default;
  Inputs(std::initializer_list<Expr> symbols) {
    for (const Expr &s : symbols)
      add(s);
  }

  void add(const Expr &symbol) {
    REQUIRE(symbol.kind() == Kind::Symbol);
    const SymbolInfo &info = symbol.context().symbolInfo(symbol.node());
    keys_.push_back({info.name, info.kind, info.order});
    symbols_.push_back(symbol);
  }

  int index(const SymbolInfo &info) const {
    for (size_t i = 0; i < keys_.size(); ++i)
      if (keys_[i] == std::make_tuple(info.name, info.kind, info.order))
        return static_cast<int>(i);
    return -1;
  }

  sym::Program::InputMap map() const {
    return [this](const SymbolInfo &info) { return index(info); };
  }

  size_t size() const { return symbols_.size(); }
  const std::vector<Expr> &symbols() const { return symbols_; }

private:
  std::vector<std::tuple<std::string, SymbolKind, int>> keys_;
  std::vector<Expr> symbols_;
};

inline double evaluate(const Expr &e, const Inputs &inputs, const std::vector<double> &values) {
  sym::Program program({e}, inputs.map());
  return program.evaluate(values)[0];
}

// |got - expected| within rel * max(1, |expected|).
inline bool close(double got, double expected, double rel = 1e-12) {
  return std::isfinite(got) && std::abs(got - expected) <= rel * std::max(1.0, std::abs(expected));
}

// ---------------------------------------------------------------------------
// DAG queries

template <typename Visit> void forEachNode(const Expr &e, Visit visit) {
  std::unordered_set<const Node *> seen;
  std::vector<const Node *> stack = {e.node()};
  while (!stack.empty()) {
    const Node *n = stack.back();
    stack.pop_back();
    if (!seen.insert(n).second)
      continue;
    visit(n);
    for (const Node *op : n->ops)
      stack.push_back(op);
  }
}

inline bool contains(const Expr &e, const Expr &symbol) {
  bool found = false;
  forEachNode(e, [&](const Node *n) { found = found || n == symbol.node(); });
  return found;
}

// True when some product has two or more sin/cos factors.
inline bool hasTrigProduct(const Expr &e) {
  bool found = false;
  forEachNode(e, [&](const Node *n) {
    if (n->kind != Kind::Mul)
      return;
    int trig = 0;
    for (size_t i = 0; i < n->ops.size(); i += 2) {
      const Node *base = n->ops[i];
      if (base->kind == Kind::Func && (base->fn == Fn::Sin || base->fn == Fn::Cos))
        ++trig;
    }
    found = found || trig >= 2;
  });
  return found;
}

// The node tree in storage order, with symbols by name: equal across
// contexts exactly when the stored forms are equal.
inline std::string structure(const Node *n) {
  auto num = [](const Num &v) { return (v.exact() ? "" : "~") + v.toString(); };
  switch (n->kind) {
  case Kind::Number:
    return num(n->num);
  case Kind::Symbol: {
    const SymbolInfo &s = n->context->symbolInfo(n);
    return s.name + std::string(static_cast<size_t>(s.order), '\'');
  }
  case Kind::Add:
  case Kind::Mul:
  case Kind::Pow:
  case Kind::Func: {
    std::string out = n->kind == Kind::Add   ? "Add[" + num(n->num)
                      : n->kind == Kind::Mul ? "Mul[" + num(n->num)
                      : n->kind == Kind::Pow ? std::string("Pow[")
                                             : std::string(sym::fnName(n->fn)) + "[";
    for (size_t i = 0; i < n->ops.size(); ++i)
      out += (i || n->kind == Kind::Add || n->kind == Kind::Mul ? " " : "") + structure(n->ops[i]);
    return out + "]";
  }
  }
  return "?";
}

inline std::string structure(const Expr &e) {
  return structure(e.node());
}

// ---------------------------------------------------------------------------
// Random expressions

// Small deterministic helpers over a fixed-seed engine.
class Random {
public:
  explicit Random(uint32_t seed) : engine_(seed) {}
  int pick(int n) { return static_cast<int>(engine_() % static_cast<uint32_t>(n)); }
  bool chance(int percent) { return pick(100) < percent; }
  double uniform(double lo, double hi) {
    return lo + (hi - lo) * (static_cast<double>(engine_()) / 4294967296.0);
  }

private:
  std::mt19937 engine_;
};

// Builds random expressions of bounded depth from every node kind and every
// function. With `domainSafe`, arguments of log, sqrt, fractional and
// symbolic powers are positive by construction and those of asin/acos lie
// in (-1, 1); coefficients are always exact rationals.
class ExpressionGenerator {
public:
  // With `matrices`, det and inverse entries of packed 5x5 matrices
  // (symbolic/MatrixFunctions.h) are generated too.
  ExpressionGenerator(Context &c, Random &random, std::vector<Expr> leaves, bool domainSafe,
                      bool matrices = false)
      : c_(c), random_(random), leaves_(std::move(leaves)), safe_(domainSafe), matrices_(matrices) {
  }

  Expr generate(int depth) {
    if (depth <= 0 || random_.chance(20))
      return leaf();
    int d = depth - 1;
    // Operands are generated one statement at a time, so that the sequence
    // does not depend on the compiler's order of evaluation.
    switch (random_.pick(16)) {
    case 0: {
      Expr a = generate(d);
      return a + generate(d);
    }
    case 1: {
      Expr a = generate(d);
      return a - generate(d);
    }
    case 2: {
      Expr a = generate(d);
      return a * generate(d);
    }
    case 3: {
      Expr a = generate(d);
      return a / (safe_ ? positive(d) : generate(d));
    }
    case 4:
      return -generate(d);
    case 5: {
      static const int64_t powers[] = {2, 3, 4, -1, -2, -3};
      int64_t k = powers[random_.pick(6)];
      return sym::pow(k < 0 && safe_ ? positive(d) : generate(d), k);
    }
    case 6: {
      static const int64_t fractions[][2] = {{1, 2}, {-1, 2}, {1, 3}, {3, 2}, {-3, 2}, {2, 3}};
      const int64_t *f = fractions[random_.pick(6)];
      return sym::pow(safe_ ? positive(d) : generate(d), c_.rational(f[0], f[1]));
    }
    case 7:
      return sym::sqrt(safe_ ? positive(d) : generate(d));
    case 8: {
      Expr base = safe_ ? positive(d) : generate(d);
      return sym::pow(base, generate(d));
    }
    case 9: {
      Expr y = generate(d);
      return sym::atan2(y, generate(d));
    }
    case 10: {
      Fn fn = random_.chance(50) ? Fn::Asin : Fn::Acos;
      return sym::apply(fn, safe_ ? bounded(d) : generate(d));
    }
    case 11:
      return sym::apply(Fn::Log, safe_ ? positive(d) : generate(d));
    case 12: { // a piecewise choice
      Expr g = generate(d);
      Expr a = generate(d);
      return sym::select(g, a, generate(d));
    }
    case 13:
      return c_.function(Fn::Smooth, {generate(d)});
    case 15:
      if (matrices_)
        return matrixFunction(d);
      [[fallthrough]];
    default: {
      static const Fn any[] = {Fn::Sin,  Fn::Cos, Fn::Tan, Fn::Atan, Fn::Sinh, Fn::Cosh,
                               Fn::Tanh, Fn::Exp, Fn::Abs, Fn::Sign, Fn::Sin,  Fn::Cos};
      Fn fn = any[random_.pick(12)];
      return sym::apply(fn, generate(d));
    }
    }
  }

private:
  // det or an entry of the inverse of a 5x5 matrix with two entries of the
  // inputs, diagonally dominant (each diagonal entry at least 5, each row's
  // other entries at most 3.2 in all), so that both stay well conditioned.
  Expr matrixFunction(int d) {
    std::vector<Expr> entries;
    for (int k = 0; k < 25; ++k)
      entries.push_back(k % 6 == 0 ? c_.integer(6) : c_.rational(1 + k % 3, 7));
    size_t first = static_cast<size_t>(random_.pick(25));
    Expr g = generate(d);
    entries[first] = entries[first] + sym::apply(Fn::Sin, g);
    size_t second = static_cast<size_t>(random_.pick(25));
    Expr h = generate(d);
    entries[second] = entries[second] + sym::apply(Fn::Cos, h) / c_.integer(2);
    Expr packed = sym::packMatrix(c_, entries);
    if (random_.chance(50))
      return sym::packedDeterminant(packed);
    int i = random_.pick(5);
    return sym::packedInverseEntry(packed, i, random_.pick(5));
  }

  Expr leaf() {
    if (random_.chance(30))
      return number();
    return leaves_[static_cast<size_t>(random_.pick(static_cast<int>(leaves_.size())))];
  }

  Expr number() {
    static const int64_t dens[] = {1, 1, 1, 2, 3, 4, 5};
    int64_t num = random_.pick(9) - 4;
    int64_t den = dens[random_.pick(7)];
    return c_.rational(num == 0 ? 1 : num, den);
  }

  // Positive for every value of the inputs.
  Expr positive(int depth) {
    Expr g = generate(depth);
    switch (random_.pick(5)) {
    case 0:
      return c_.one() + sym::pow(g, 2);
    case 1:
      return sym::apply(Fn::Exp, g);
    case 2:
      return sym::apply(Fn::Cosh, g);
    case 3:
      return c_.rational(1, 2) + sym::apply(Fn::Abs, g);
    default:
      return c_.integer(2) + sym::apply(Fn::Sin, g);
    }
  }

  // Inside (-1, 1) for every value of the inputs.
  Expr bounded(int depth) {
    Expr g = generate(depth);
    switch (random_.pick(3)) {
    case 0:
      return sym::apply(Fn::Sin, g) / c_.integer(2);
    case 1:
      return c_.rational(3, 4) * sym::apply(Fn::Tanh, g);
    default:
      return sym::apply(Fn::Cos, g) / c_.integer(3);
    }
  }

  Context &c_;
  Random &random_;
  std::vector<Expr> leaves_;
  bool safe_;
  bool matrices_;
};

// ---------------------------------------------------------------------------
// Finite differences

// f'(x0) by central differences with steps h and h/2 (h = 1e-5, scaled by
// |x0|), combined by Richardson extrapolation. Returns nullopt when the two
// steps disagree (a kink, pole or overflow nearby), so that the point says
// nothing either way.
struct Difference {
  double value;     // extrapolated derivative
  double tolerance; // for comparison with an exact derivative
};

inline std::optional<Difference> centralDifference(const std::function<double(double)> &f,
                                                   double x0) {
  double h = 1e-5 * std::max(1.0, std::abs(x0));
  double magnitude = 0;
  auto g = [&](double x) {
    double v = f(x);
    magnitude = std::max(magnitude, std::abs(v));
    return v;
  };
  double d1 = (g(x0 + h) - g(x0 - h)) / (2 * h);
  double d2 = (g(x0 + h / 2) - g(x0 - h / 2)) / h;
  if (!std::isfinite(d1) || !std::isfinite(d2) || !std::isfinite(magnitude))
    return std::nullopt;
  // Rounding in f, amplified by the division by h.
  double noise = 64 * 2.2e-16 * std::max(1.0, magnitude) / h;
  if (std::abs(d1 - d2) > 1e-3 * (1 + std::abs(d2)) + noise)
    return std::nullopt;
  double value = (4 * d2 - d1) / 3;
  return Difference{value, 1e-6 * std::max(1.0, std::abs(value)) + noise};
}

// The same for output 0 of a program, with respect to input `input`.
inline std::optional<Difference> centralDifference(const sym::Program &program,
                                                   std::vector<double> point, size_t input) {
  std::vector<double> out(program.outputs().size()), scratch;
  return centralDifference(
      [&](double x) {
        point[input] = x;
        program.evaluate(point.data(), out.data(), scratch);
        return out[0];
      },
      point[input]);
}

// True when every intermediate value of the program at `point` is finite
// and moderate, so that finite differences are meaningful there.
inline bool wellConditioned(const sym::Program &program, const std::vector<double> &point,
                            double limit = 1e6) {
  std::vector<double> out(program.outputs().size()), scratch;
  program.evaluate(point.data(), out.data(), scratch);
  for (double v : scratch)
    if (!std::isfinite(v) || std::abs(v) > limit)
      return false;
  return true;
}

// ---------------------------------------------------------------------------
// Parsed text -> canonical expression

// Resolves names to the symbols of one context: plain names, and the
// coordinates whose primes are velocities and accelerations.
class AstConverter {
public:
  explicit AstConverter(Context &c) : c_(c) {}

  void name(const Expr &symbol) {
    names_[symbol.context().symbolInfo(symbol.node()).name] = symbol;
  }
  void coordinate(const std::string &name, const Context::Coordinate &q) { coordinates_[name] = q; }

  // The canonical form of `text`; throws std::runtime_error when it does not
  // parse or uses something the converter does not know.
  Expr parse(const std::string &text) {
    SourceFile source("roundtrip.mech", text);
    Diagnostics diagnostics;
    ast::ExprPtr tree = parseExpression(source, diagnostics);
    if (!tree || diagnostics.hasErrors())
      throw std::runtime_error("does not parse: " + text);
    return convert(*tree);
  }

  Expr convert(const ast::Expr &e) {
    switch (e.kind) {
    case ast::ExprKind::Number: {
      const auto &n = static_cast<const ast::Number &>(e);
      if (auto q = Rational::fromDecimal(n.text))
        return c_.number(Num(*q));
      return c_.number(Num::inexact(std::stod(n.text)));
    }
    case ast::ExprKind::Time:
      return c_.time();
    case ast::ExprKind::Pi:
      return c_.pi();
    case ast::ExprKind::Name: {
      const std::string &name = static_cast<const ast::Name &>(e).name;
      if (auto it = coordinates_.find(name); it != coordinates_.end())
        return it->second.q;
      if (auto it = names_.find(name); it != names_.end())
        return it->second;
      throw std::runtime_error("unknown name " + name);
    }
    case ast::ExprKind::Prime: {
      const auto &p = static_cast<const ast::Prime &>(e);
      if (p.operand->kind != ast::ExprKind::Name)
        throw std::runtime_error("prime of a non-name");
      const std::string &name = static_cast<const ast::Name &>(*p.operand).name;
      auto it = coordinates_.find(name);
      if (it == coordinates_.end() || p.order < 1 || p.order > 2)
        throw std::runtime_error("prime of " + name);
      return p.order == 1 ? it->second.qd : it->second.qdd;
    }
    case ast::ExprKind::Call: {
      const auto &call = static_cast<const ast::Call &>(e);
      if (call.callee == "if" && call.args[0]->kind == ast::ExprKind::Compare) {
        const auto &test = static_cast<const ast::Compare &>(*call.args[0]);
        static const sym::Comparison ops[] = {sym::Comparison::Less, sym::Comparison::LessEqual,
                                              sym::Comparison::Greater,
                                              sym::Comparison::GreaterEqual};
        return sym::choose(
            sym::compare(ops[static_cast<int>(test.op)], convert(*test.lhs), convert(*test.rhs)),
            convert(*call.args[1]), convert(*call.args[2]));
      }
      std::vector<Expr> args;
      for (const ast::ExprPtr &a : call.args)
        args.push_back(convert(*a));
      if (call.callee == "sqrt" && args.size() == 1)
        return sym::sqrt(args[0]);
      if ((call.callee == "min" || call.callee == "max") && args.size() == 2)
        return call.callee == "min" ? sym::minimum(args[0], args[1])
                                    : sym::maximum(args[0], args[1]);
#define MECH_TEST_FN(id, spelling, arity)                                                          \
  if (call.callee == spelling && args.size() == arity)                                             \
    return c_.function(Fn::id, args);
      MECH_SYM_FUNCS(MECH_TEST_FN)
#undef MECH_TEST_FN
      throw std::runtime_error("unknown function " + call.callee);
    }
    case ast::ExprKind::Add: {
      const auto &add = static_cast<const ast::Add &>(e);
      std::vector<Expr> terms;
      for (const auto &t : add.terms)
        terms.push_back(t.negated ? -convert(*t.value) : convert(*t.value));
      return c_.add(terms);
    }
    case ast::ExprKind::Mul: {
      const auto &mul = static_cast<const ast::Mul &>(e);
      std::vector<Expr> factors;
      for (const auto &f : mul.factors)
        factors.push_back(f.divides ? sym::pow(convert(*f.value), -1) : convert(*f.value));
      return c_.mul(factors);
    }
    case ast::ExprKind::Neg:
      return -convert(*static_cast<const ast::Neg &>(e).operand);
    case ast::ExprKind::Pow: {
      const auto &p = static_cast<const ast::Pow &>(e);
      return sym::pow(convert(*p.base), convert(*p.exponent));
    }
    default:
      throw std::runtime_error(std::string("unsupported expression kind ") +
                               ast::exprKindName(e.kind));
    }
  }

private:
  Context &c_;
  std::map<std::string, Expr> names_;
  std::map<std::string, Context::Coordinate> coordinates_;
};

} // namespace mech::symtest
