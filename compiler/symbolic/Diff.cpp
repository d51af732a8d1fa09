// Chain rules, one per node kind.
#include "symbolic/Diff.h"

#include "support/Diagnostics.h"
#include "symbolic/MatrixFunctions.h"

namespace mech::sym {

namespace {

// f'(x) for a function of one argument, written in terms of x and of the
// node e = f(x) itself (tan, tanh and exp reuse e rather than rebuild it).
Expr outerDerivative(Fn fn, const Expr &x, const Expr &e, Context &c) {
  switch (fn) {
  case Fn::Sin:
    return apply(Fn::Cos, x);
  case Fn::Cos:
    return -apply(Fn::Sin, x);
  case Fn::Tan:
    return c.one() + pow(e, 2);
  case Fn::Asin:
    return pow(c.one() - pow(x, 2), c.rational(-1, 2));
  case Fn::Acos:
    return -pow(c.one() - pow(x, 2), c.rational(-1, 2));
  case Fn::Atan:
    return pow(c.one() + pow(x, 2), -1);
  case Fn::Sinh:
    return apply(Fn::Cosh, x);
  case Fn::Cosh:
    return apply(Fn::Sinh, x);
  case Fn::Tanh:
    return c.one() - pow(e, 2);
  case Fn::Exp:
    return e;
  case Fn::Log:
    return pow(x, -1);
  case Fn::Abs:
    return apply(Fn::Sign, x);
  case Fn::Sign:
    // Zero away from the jump, where the derivative is undefined.
    return c.zero();
  case Fn::Atan2:
  case Fn::Select:
  case Fn::Smooth:
  case Fn::Matrix:
  case Fn::Det:
  case Fn::InvEntry:
    // deriveFunction handles these before coming here.
    break;
  }
  return Expr();
}

} // namespace

Expr Differentiator::operator()(const Expr &e) {
  return derive(e.node());
}

Expr Differentiator::derive(const Node *n) {
  auto found = memo_.find(n);
  if (found != memo_.end())
    return found->second;
  Expr result;
  switch (n->kind) {
  case Kind::Number:
    result = n->context->zero();
    break;
  case Kind::Symbol:
    result = leaf_(n);
    break;
  case Kind::Add:
    result = deriveSum(n);
    break;
  case Kind::Mul:
    result = deriveProduct(n);
    break;
  case Kind::Pow:
    result = derivePower(n);
    break;
  case Kind::Func:
    result = deriveFunction(n);
    break;
  }
  memo_.emplace(n, result);
  return result;
}

// d(sum c_i t_i) = sum c_i t_i'; the operands alternate term, coefficient.
Expr Differentiator::deriveSum(const Node *n) {
  Context &c = *n->context;
  std::vector<Expr> terms;
  for (size_t i = 0; i < n->ops.size(); i += 2) {
    Expr d = derive(n->ops[i]);
    if (!d.isZero())
      terms.push_back(Expr(n->ops[i + 1]) * d);
  }
  return c.add(terms);
}

// d(c * prod b_i^e_i) = sum_i (e * d(b_i^e_i) / b_i^e_i): the product rule,
// one term per factor that depends on the variable.
Expr Differentiator::deriveProduct(const Node *n) {
  Context &c = *n->context;
  std::vector<Expr> terms;
  for (size_t i = 0; i < n->ops.size(); i += 2) {
    Expr base(n->ops[i]), exponent(n->ops[i + 1]);
    Expr factor = exponent.isOne() ? base : pow(base, exponent);
    Expr d = derive(factor.node());
    if (d.isZero())
      continue;
    std::vector<Expr> product = {c.number(n->num), d};
    for (size_t j = 0; j < n->ops.size(); j += 2)
      if (j != i)
        product.push_back(pow(Expr(n->ops[j]), Expr(n->ops[j + 1])));
    terms.push_back(c.mul(product));
  }
  return c.add(terms);
}

// d(b^e) = e b^(e-1) b' + b^e log(b) e'; either part is left out when its
// derivative is zero (so constant exponents never produce a log).
Expr Differentiator::derivePower(const Node *n) {
  Context &c = *n->context;
  Expr e(n);
  Expr base(n->ops[0]), exponent(n->ops[1]);
  Expr db = derive(base.node());
  Expr de = derive(exponent.node());
  std::vector<Expr> terms;
  if (!db.isZero())
    terms.push_back(c.mul({exponent, pow(base, exponent - c.one()), db}));
  if (!de.isZero())
    terms.push_back(c.mul({e, apply(Fn::Log, base), de}));
  return c.add(terms);
}

// f(x)' = f'(x) x'; atan2 has two arguments and its own rule.
Expr Differentiator::deriveFunction(const Node *n) {
  Context &c = *n->context;
  if (n->fn == Fn::Det || n->fn == Fn::InvEntry)
    return matrixFunctionDerivative(n, [this](const Node *entry) { return derive(entry); });
  if (n->fn == Fn::Matrix) // an operand of det and inv only, never a value
    internalError("the derivative of a packed matrix");
  Expr e(n);
  Expr x(n->ops[0]);
  Expr dx = derive(n->ops[0]);
  if (n->fn == Fn::Select) // piecewise: each branch's derivative where it holds
    return select(x, derive(n->ops[1]), derive(n->ops[2]));
  if (n->fn == Fn::Smooth)
    return c.function(Fn::Smooth, {dx});
  if (n->fn == Fn::Atan2) {
    // atan2(y, x)' = (x y' - y x') / (x^2 + y^2)
    Expr y = x, xx(n->ops[1]);
    Expr dy = dx, dxx = derive(n->ops[1]);
    return (xx * dy - y * dxx) / (pow(xx, 2) + pow(y, 2));
  }
  if (dx.isZero())
    return c.zero();
  return outerDerivative(n->fn, x, e, c) * dx;
}

Differentiator partial(const Expr &x) {
  const Node *target = x.node();
  Context *c = &x.context();
  return Differentiator([target, c](const Node *s) { return s == target ? c->one() : c->zero(); });
}

Differentiator totalTime(Context &context, bool dropAccelerations) {
  Context *c = &context;
  return Differentiator([c, dropAccelerations](const Node *s) {
    Expr d = c->symbolDerivative(s);
    if (dropAccelerations && d.has(kHasAcceleration))
      return c->zero();
    return d;
  });
}

Expr diff(const Expr &e, const Expr &x) {
  return partial(x)(e);
}

Expr timeDerivative(const Expr &e) {
  return totalTime(e.context())(e);
}

} // namespace mech::sym
