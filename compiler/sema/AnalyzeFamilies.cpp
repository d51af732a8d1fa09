// For blocks and families in the analyzer: a for block's body declared once
// per value of its variable, the indices a name declared inside carries (one
// per enclosing block), ranges, and the copies of index expressions that
// init items and let targets are resolved through.
#include "sema/AnalyzerInternal.h"

#include "syntax/Printer.h"

namespace mech::sema {

// True when e names `name` anywhere (a declared index mentions a loop
// variable).
bool mentionsName(const ast::Expr &e, const std::string &name) {
  switch (e.kind) {
  case ast::ExprKind::Name:
    return static_cast<const ast::Name &>(e).name == name;
  case ast::ExprKind::Add:
    for (const auto &t : static_cast<const ast::Add &>(e).terms)
      if (mentionsName(*t.value, name))
        return true;
    return false;
  case ast::ExprKind::Mul:
    for (const auto &f : static_cast<const ast::Mul &>(e).factors)
      if (mentionsName(*f.value, name))
        return true;
    return false;
  case ast::ExprKind::Neg:
    return mentionsName(*static_cast<const ast::Neg &>(e).operand, name);
  case ast::ExprKind::Pow: {
    auto &p = static_cast<const ast::Pow &>(e);
    return mentionsName(*p.base, name) || mentionsName(*p.exponent, name);
  }
  case ast::ExprKind::Call:
    for (const auto &a : static_cast<const ast::Call &>(e).args)
      if (mentionsName(*a, name))
        return true;
    return false;
  default:
    return false;
  }
}

// Init items and let targets keep their index expressions in the AST; they
// are resolved through a temporary Index node that needs its own copies.
ast::ExprPtr cloneIndex(const ast::Expr &e) {
  switch (e.kind) {
  case ast::ExprKind::Number: {
    auto &n = static_cast<const ast::Number &>(e);
    auto copy = std::make_unique<ast::Number>(n.location, n.text);
    copy->unit = n.unit;
    return copy;
  }
  case ast::ExprKind::Name: {
    auto &n = static_cast<const ast::Name &>(e);
    return std::make_unique<ast::Name>(n.location, n.name);
  }
  case ast::ExprKind::Neg: {
    auto &n = static_cast<const ast::Neg &>(e);
    return std::make_unique<ast::Neg>(n.location, cloneIndex(*n.operand));
  }
  case ast::ExprKind::Add: {
    auto &a = static_cast<const ast::Add &>(e);
    auto copy = std::make_unique<ast::Add>(a.location);
    for (const auto &t : a.terms)
      copy->terms.push_back({t.negated, cloneIndex(*t.value)});
    return copy;
  }
  case ast::ExprKind::Mul: {
    auto &m = static_cast<const ast::Mul &>(e);
    auto copy = std::make_unique<ast::Mul>(m.location);
    for (const auto &f : m.factors)
      copy->factors.push_back({f.divides, cloneIndex(*f.value)});
    return copy;
  }
  case ast::ExprKind::Pow: {
    auto &p = static_cast<const ast::Pow &>(e);
    return std::make_unique<ast::Pow>(p.location, cloneIndex(*p.base), cloneIndex(*p.exponent));
  }
  default: {
    // Anything else is not a valid index; keep its location for the error.
    return std::make_unique<ast::Name>(e.location, formatExpr(e));
  }
  }
}

// A name declared inside for blocks must carry the index of each.
bool Analyzer::carriesLoopIndices(const ast::DeclName &name,
                                  const std::vector<LoopVariable> &loops) {
  for (const LoopVariable &loop : loops) {
    bool found = false;
    for (const ast::ExprPtr &index : name.indices)
      found = found || mentionsName(*index, loop.name);
    if (!found) {
      std::string hint = name.name + "[" + loops.back().name + "]";
      if (loops.size() > 1) {
        hint = name.name + "[";
        for (size_t i = 0; i < loops.size(); ++i)
          hint += (i > 0 ? ", " : "") + loops[i].name;
        hint += "]";
      }
      diagnostics_.error(name.location, "'" + name.name +
                                            "' is declared inside a for block and must carry "
                                            "its index '" +
                                            loop.name + "': write " + hint);
      return false;
    }
  }
  return true;
}

// The indices of a declared family member, under the loop indices bound.
std::optional<std::vector<long>> Analyzer::declaredIndices(const ast::DeclName &name,
                                                           const Bindings &bindings,
                                                           const std::vector<LoopVariable> &loops) {
  if (!carriesLoopIndices(name, loops))
    return std::nullopt;
  std::vector<long> indices;
  Env env = baseEnv(bindings);
  for (const ast::ExprPtr &index : name.indices) {
    std::optional<long> value = resolver_.resolveInteger(*index, env, "an index");
    if (!value)
      return std::nullopt;
    indices.push_back(*value);
  }
  return indices;
}

// The bounds of a range a..b, integer constants, of at most kMaxRange members.
std::optional<std::pair<long, long>> Analyzer::range(const ast::Range &r, const Bindings &bindings,
                                                     Location where) {
  Env env = baseEnv(bindings);
  std::optional<long> from = resolver_.resolveInteger(*r.from, env, "a range bound");
  std::optional<long> to = resolver_.resolveInteger(*r.to, env, "a range bound");
  if (!from || !to)
    return std::nullopt;
  if (*to - *from + 1 > kMaxRange) {
    diagnostics_.error(where, "the range " + std::to_string(*from) + ".." + std::to_string(*to) +
                                  " has more than " + std::to_string(kMaxRange) + " members");
    return std::nullopt;
  }
  return std::make_pair(*from, *to);
}

// The range of a declared family (coord th[1..n], param m[1..n]); an
// empty one is an error.
std::optional<std::pair<long, long>> Analyzer::familyRange(const std::string &name,
                                                           const ast::Range &r, Location where) {
  auto bounds = range(r, {}, where);
  if (bounds && bounds->second < bounds->first) {
    diagnostics_.error(where, "the family '" + name + "' is empty (" +
                                  std::to_string(bounds->first) + ".." +
                                  std::to_string(bounds->second) + ")");
    return std::nullopt;
  }
  return bounds;
}

// A for block: its body declared once per value of its variable.
void Analyzer::declareFor(const ast::ForDecl &loop, const Bindings &bindings,
                          const std::vector<LoopVariable> &loops) {
  for (const LoopVariable &outer : loops)
    if (outer.name == loop.index) {
      diagnostics_.error(loop.indexLocation,
                         "loop variable '" + loop.index + "' shadows an enclosing one");
      return;
    }
  recordLoopVariable(loop.index, loop.indexLocation);
  auto bounds = range(loop.range, bindings, loop.indexLocation);
  if (!bounds)
    return;
  std::vector<LoopVariable> inner = loops;
  inner.push_back({loop.index, loop.indexLocation});
  for (long i = bounds->first; i <= bounds->second; ++i) {
    Bindings innerBindings = bindings;
    innerBindings.emplace_back(loop.index, i);
    int errorsBefore = diagnostics_.errorCount();
    for (const ast::Decl &decl : loop.body)
      declare(decl, innerBindings, inner);
    // Report a faulty body once, not once per iteration.
    if (diagnostics_.errorCount() > errorsBefore)
      return;
  }
}

// Loop variables are checked for shadowing once all names are declared
// (checkLoopVariables).
void Analyzer::recordLoopVariable(const std::string &name, Location loc) {
  loopVariables_.push_back({name, loc});
}

} // namespace mech::sema
