// Atoms of arguments: linear decomposition and common denominators.
#include "symbolic/AngleAtoms.h"

#include <numeric>

namespace mech::sym {

namespace {

// lcm(a, b) for a >= 0 (0: none yet); -1 when it does not fit.
int64_t lcmOrOverflow(int64_t a, int64_t b) {
  if (a <= 0)
    return a < 0 ? a : b;
  int64_t g = std::gcd(a, b), r = 0;
  return __builtin_mul_overflow(a / g, b, &r) ? -1 : r;
}

} // namespace

void AngleAtoms::add(const Node *arg) {
  if (linear_.count(arg))
    return;
  context_ = arg->context;
  order_.push_back(arg);
  linear_.emplace(arg, linearise(arg));
  if (const auto &l = linear_.at(arg))
    for (const auto &[base, q] : *l)
      denominators_[base] = lcmOrOverflow(denominators_[base], q.den());
}

void AngleAtoms::finish() {
  for (auto &[base, d] : denominators_)
    if (d > 0) {
      baseAtom_[base] = atomCount();
      Expr over = context_->rational(1, d);
      atoms_.push_back(base ? Expr(base) * over : over);
    }
  // In the order added, so that atom indices do not depend on pointers.
  for (const Node *arg : order_) {
    const auto &l = linear_.at(arg);
    Combination c;
    bool ok = l.has_value();
    for (size_t i = 0; ok && i < l->size(); ++i) {
      const auto &[base, q] = (*l)[i];
      int64_t d = denominators_.at(base), k = 0;
      ok = d > 0 && !__builtin_mul_overflow(q.num(), d / q.den(), &k);
      if (ok)
        c.terms.push_back({baseAtom_.at(base), k});
    }
    if (!ok) {
      c.terms = {{atomCount(), 1}};
      atoms_.push_back(Expr(arg));
    }
    combinations_.emplace(arg, std::move(c));
  }
}

std::optional<AngleAtoms::Linear> AngleAtoms::linearise(const Node *arg) {
  Linear l;
  auto term = [&l](const Node *t, const Num &coef) {
    if (!coef.exact())
      return false;
    if (t->kind == Kind::Number) {
      if (!t->num.exact())
        return false;
      auto product = mul(coef.rational(), t->num.rational());
      if (!product)
        return false;
      l.push_back({nullptr, *product});
    } else {
      auto [c, rest] = splitCoefficient(Expr(t));
      if (!c.exact())
        return false;
      auto product = mul(coef.rational(), c.rational());
      if (!product)
        return false;
      l.push_back({rest.node(), *product});
    }
    return true;
  };
  if (arg->kind != Kind::Add)
    return term(arg, Num(1)) ? std::optional(l) : std::nullopt;
  if (!arg->num.isZero() && !term(Expr(arg).context().number(arg->num).node(), Num(1)))
    return std::nullopt;
  for (size_t i = 0; i < arg->ops.size(); i += 2)
    if (!term(arg->ops[i], arg->ops[i + 1]->num))
      return std::nullopt;
  return l;
}

} // namespace mech::sym
