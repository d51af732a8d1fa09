// Differentiation: partial derivatives with respect to a symbol, and the
// total time derivative along the motion (q -> q', q' -> q'', t -> 1). One
// chain rule per node kind; each pass memoises on node identity, so a DAG is
// never walked as a tree.
#pragma once

#include "symbolic/Expr.h"

#include <functional>
#include <unordered_map>

namespace mech::sym {

// A reusable differentiator for one leaf rule; its memo persists across calls
// (differentiating M and f entries that share subexpressions costs once).
class Differentiator {
public:
  using LeafRule = std::function<Expr(const Node *symbol)>;
  explicit Differentiator(LeafRule leaf) : leaf_(std::move(leaf)) {}

  Expr operator()(const Expr &e);

private:
  // Memoised dispatch on the node kind to the chain rules below.
  Expr derive(const Node *n);
  Expr deriveSum(const Node *n);
  Expr deriveProduct(const Node *n);
  Expr derivePower(const Node *n);
  Expr deriveFunction(const Node *n);

  LeafRule leaf_;
  std::unordered_map<const Node *, Expr> memo_;
};

// d e / d x for a symbol x.
Expr diff(const Expr &e, const Expr &x);

// d e / dt along the motion.
Expr timeDerivative(const Expr &e);

// A differentiator with respect to the symbol x (keep it to reuse its memo).
Differentiator partial(const Expr &x);
// The total time derivative; with dropAccelerations, q'' counts as 0 (the
// part of d/dt that does not involve accelerations).
Differentiator totalTime(Context &context, bool dropAccelerations = false);

} // namespace mech::sym
