// Substitution of symbols (or any subexpressions) by expressions, memoised on
// node identity; unchanged subtrees are returned as they are.
#pragma once

#include "symbolic/Expr.h"

#include <functional>
#include <unordered_map>

namespace mech::sym {

class Substitution {
public:
  // A rule names, for a node, the expression that stands for it and is
  // itself substituted in turn (a choice by its branch); null: none.
  using Rule = std::function<const Node *(const Node *)>;

  void set(const Expr &from, const Expr &to) { map_[from.node()] = to; }
  void setRule(Rule rule) { rule_ = std::move(rule); }
  Expr operator()(const Expr &e);

private:
  Expr apply(const Node *n);
  Rule rule_;
  std::unordered_map<const Node *, Expr> map_;
  std::unordered_map<const Node *, Expr> memo_;
};

} // namespace mech::sym
