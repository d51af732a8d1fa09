// Chain rules, one per node kind.
#include "symbolic/Diff.h"

#include "support/Diagnostics.h"

namespace mech::sym {

Expr Differentiator::operator()(const Expr &e) {
  return derive(e.node());
}

Expr Differentiator::derive(const Node *n) {
  auto found = memo_.find(n);
  if (found != memo_.end())
    return found->second;
  Context &c = *n->context;
  Expr e(n);
  Expr result;
  switch (n->kind) {
  case Kind::Number:
    result = c.zero();
    break;
  case Kind::Symbol:
    result = leaf_(n);
    break;
  case Kind::Add: {
    std::vector<Expr> terms;
    for (size_t i = 0; i < n->ops.size(); i += 2) {
      Expr d = derive(n->ops[i]);
      if (!d.isZero())
        terms.push_back(Expr(n->ops[i + 1]) * d);
    }
    result = c.add(terms);
    break;
  }
  case Kind::Mul: {
    // d(c * prod b_i^e_i) = sum_i (e * d(b_i^e_i) / b_i^e_i)
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
    result = c.add(terms);
    break;
  }
  case Kind::Pow: {
    Expr base(n->ops[0]), exponent(n->ops[1]);
    Expr db = derive(base.node());
    Expr de = derive(exponent.node());
    std::vector<Expr> terms;
    if (!db.isZero())
      terms.push_back(c.mul({exponent, pow(base, exponent - c.one()), db}));
    if (!de.isZero())
      terms.push_back(c.mul({e, apply(Fn::Log, base), de}));
    result = c.add(terms);
    break;
  }
  case Kind::Func: {
    Expr x(n->ops[0]);
    Expr dx = derive(n->ops[0]);
    if (n->fn == Fn::Atan2) {
      // atan2(y, x)' = (x y' - y x') / (x^2 + y^2)
      Expr y = x, xx(n->ops[1]);
      Expr dy = dx, dxx = derive(n->ops[1]);
      result = (xx * dy - y * dxx) / (pow(xx, 2) + pow(y, 2));
      break;
    }
    if (dx.isZero()) {
      result = c.zero();
      break;
    }
    Expr outer;
    switch (n->fn) {
    case Fn::Sin:
      outer = apply(Fn::Cos, x);
      break;
    case Fn::Cos:
      outer = -apply(Fn::Sin, x);
      break;
    case Fn::Tan:
      outer = c.one() + pow(e, 2);
      break;
    case Fn::Asin:
      outer = pow(c.one() - pow(x, 2), c.rational(-1, 2));
      break;
    case Fn::Acos:
      outer = -pow(c.one() - pow(x, 2), c.rational(-1, 2));
      break;
    case Fn::Atan:
      outer = pow(c.one() + pow(x, 2), -1);
      break;
    case Fn::Sinh:
      outer = apply(Fn::Cosh, x);
      break;
    case Fn::Cosh:
      outer = apply(Fn::Sinh, x);
      break;
    case Fn::Tanh:
      outer = c.one() - pow(e, 2);
      break;
    case Fn::Exp:
      outer = e;
      break;
    case Fn::Log:
      outer = pow(x, -1);
      break;
    case Fn::Abs:
      outer = apply(Fn::Sign, x);
      break;
    case Fn::Sign:
      // Zero away from the jump, where the derivative is undefined.
      outer = c.zero();
      break;
    case Fn::Atan2:
      break;
    }
    result = outer * dx;
    break;
  }
  }
  memo_.emplace(n, result);
  return result;
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
