// Substitution of symbols (or any subexpressions) by expressions, memoised on
// node identity; unchanged subtrees are returned as they are.
#pragma once

#include "symbolic/Expr.h"

#include <unordered_map>

namespace mech::sym {

class Substitution {
public:
  void set(const Expr &from, const Expr &to) { map_[from.node()] = to; }
  Expr operator()(const Expr &e);

private:
  Expr apply(const Node *n);
  std::unordered_map<const Node *, Expr> map_;
  std::unordered_map<const Node *, Expr> memo_;
};

} // namespace mech::sym
