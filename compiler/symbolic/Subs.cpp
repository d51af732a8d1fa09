// Substitution by rebuilding through the canonical factories.
#include "symbolic/Subs.h"

namespace mech::sym {

Expr Substitution::operator()(const Expr &e) {
  return apply(e.node());
}

Expr Substitution::apply(const Node *n) {
  auto mapped = map_.find(n);
  if (mapped != map_.end())
    return mapped->second;
  auto found = memo_.find(n);
  if (found != memo_.end())
    return found->second;
  if (const Node *stand = rule_ ? rule_(n) : nullptr) {
    Expr result = apply(stand);
    memo_.emplace(n, result);
    return result;
  }
  Context &c = *n->context;
  Expr result(n);
  switch (n->kind) {
  case Kind::Number:
  case Kind::Symbol:
    break;
  case Kind::Add: {
    std::vector<Expr> terms = {c.number(n->num)};
    bool changed = false;
    for (size_t i = 0; i < n->ops.size(); i += 2) {
      Expr t = apply(n->ops[i]);
      changed = changed || t.node() != n->ops[i];
      terms.push_back(Expr(n->ops[i + 1]) * t);
    }
    if (changed)
      result = c.add(terms);
    break;
  }
  case Kind::Mul:
  case Kind::Pow: {
    std::vector<Expr> factors = {c.number(n->kind == Kind::Mul ? n->num : Num(1))};
    bool changed = false;
    for (size_t i = 0; i < n->ops.size(); i += 2) {
      Expr b = apply(n->ops[i]), e = apply(n->ops[i + 1]);
      changed = changed || b.node() != n->ops[i] || e.node() != n->ops[i + 1];
      factors.push_back(pow(b, e));
    }
    if (changed)
      result = c.mul(factors);
    break;
  }
  case Kind::Func: {
    std::vector<Expr> args;
    bool changed = false;
    for (const Node *a : n->ops) {
      args.push_back(apply(a));
      changed = changed || args.back().node() != a;
    }
    if (changed)
      result = c.function(n->fn, args);
    break;
  }
  }
  memo_.emplace(n, result);
  return result;
}

} // namespace mech::sym
