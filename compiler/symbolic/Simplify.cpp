// Rewrites over the DAG, bottom-up, memoised per pass.
#include "symbolic/Simplify.h"

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <unordered_map>

namespace mech::sym {

namespace {

// Rebuilds a node from rewritten children through the canonical factories;
// the node itself when no child changed (as Halide's IRMutator does), so a
// pass over a form that is already simplified interns nothing.
Expr rebuild(const Node *n, const std::function<Expr(const Node *)> &child) {
  if (n->kind == Kind::Number || n->kind == Kind::Symbol)
    return Expr(n);
  std::vector<Expr> kids;
  kids.reserve(n->ops.size());
  bool same = true;
  for (size_t i = 0; i < n->ops.size(); ++i) {
    // A sum's odd operands are its numeric coefficients.
    Expr k = n->kind == Kind::Add && i % 2 ? Expr(n->ops[i]) : child(n->ops[i]);
    same = same && k.node() == n->ops[i];
    kids.push_back(std::move(k));
  }
  if (same)
    return Expr(n);
  Context &c = *n->context;
  switch (n->kind) {
  case Kind::Add: {
    std::vector<Expr> terms = {c.number(n->num)};
    for (size_t i = 0; i < kids.size(); i += 2)
      terms.push_back(kids[i + 1] * kids[i]);
    return c.add(terms);
  }
  case Kind::Mul: {
    std::vector<Expr> factors = {c.number(n->num)};
    for (size_t i = 0; i < kids.size(); i += 2)
      factors.push_back(pow(kids[i], kids[i + 1]));
    return c.mul(factors);
  }
  case Kind::Pow:
    return pow(kids[0], kids[1]);
  case Kind::Func:
    return c.function(n->fn, kids);
  default:
    return Expr(n);
  }
}

class Pass {
public:
  explicit Pass(std::function<Expr(const Expr &)> rule) : rule_(std::move(rule)) {}
  Expr operator()(const Node *n) {
    auto found = memo_.find(n);
    if (found != memo_.end())
      return found->second;
    Expr rebuilt = rebuild(n, [this](const Node *child) { return (*this)(child); });
    Expr result = rule_(rebuilt);
    memo_.emplace(n, result);
    return result;
  }

private:
  std::function<Expr(const Expr &)> rule_;
  std::unordered_map<const Node *, Expr> memo_;
};

std::vector<Expr> termsOf(const Expr &e) {
  std::vector<Expr> terms;
  if (e.kind() != Kind::Add) {
    terms.push_back(e);
    return terms;
  }
  Context &c = e.context();
  if (!e->num.isZero())
    terms.push_back(c.number(e->num));
  for (size_t i = 0; i < e->ops.size(); i += 2)
    terms.push_back(Expr(e->ops[i + 1]) * Expr(e->ops[i]));
  return terms;
}

// --- expand ---------------------------------------------------------------

Expr distribute(const Expr &e) {
  Context &c = e.context();
  if (e.kind() == Kind::Add) {
    // c*(a + b) inside a sum is a product too.
    std::vector<Expr> terms = {c.number(e->num)};
    bool changed = false;
    for (size_t i = 0; i < e->ops.size(); i += 2) {
      Expr term = Expr(e->ops[i + 1]) * Expr(e->ops[i]);
      Expr expanded = term.kind() == Kind::Mul ? distribute(term) : term;
      changed = changed || expanded != term;
      terms.push_back(expanded);
    }
    return changed ? c.add(terms) : e;
  }
  if (e.kind() != Kind::Mul && e.kind() != Kind::Pow)
    return e;
  std::vector<std::vector<Expr>> sums;
  std::vector<Expr> others = {c.number(e.kind() == Kind::Mul ? e->num : Num(1))};
  size_t count = 1;
  for (size_t i = 0; i < e->ops.size(); i += 2) {
    Expr base(e->ops[i]), exponent(e->ops[i + 1]);
    if (base.kind() == Kind::Add && exponent.isNumber() && exponent->num.isInteger() &&
        exponent->num.rational().num() >= 1 && exponent->num.rational().num() <= 4) {
      for (int64_t k = 0; k < exponent->num.rational().num(); ++k) {
        sums.push_back(termsOf(base));
        count *= sums.back().size();
      }
    } else {
      others.push_back(pow(base, exponent));
    }
  }
  if (sums.empty() || count > kMaxExpandedTerms)
    return e;
  std::vector<Expr> products = {c.mul(others)};
  for (const std::vector<Expr> &sum : sums) {
    std::vector<Expr> next;
    for (const Expr &p : products)
      for (const Expr &t : sum)
        next.push_back(p * t);
    products = std::move(next);
  }
  return c.add(products);
}

// --- trig -----------------------------------------------------------------

struct TrigFactor {
  Fn fn;
  const Node *arg;
  size_t position; // index of the pair in the term's factor list
};

struct TermShape {
  Num coef;
  std::vector<std::pair<const Node *, const Node *>> factors; // base, exponent
};

TermShape shapeOf(const Expr &t) {
  TermShape shape;
  auto [coef, rest] = splitCoefficient(t);
  shape.coef = coef;
  if (rest.kind() == Kind::Mul) {
    for (size_t i = 0; i < rest->ops.size(); i += 2)
      shape.factors.push_back({rest->ops[i], rest->ops[i + 1]});
  } else if (rest.kind() == Kind::Pow) {
    shape.factors.push_back({rest->ops[0], rest->ops[1]});
  } else if (!rest.isOne()) {
    shape.factors.push_back({rest.node(), rest.context().one().node()});
  }
  return shape;
}

// The term without the factors at the given positions, coefficient 1.
Expr restOf(const TermShape &shape, std::initializer_list<size_t> skip, Context &c) {
  std::vector<Expr> factors = {c.one()};
  for (size_t i = 0; i < shape.factors.size(); ++i)
    if (std::find(skip.begin(), skip.end(), i) == skip.end())
      factors.push_back(pow(Expr(shape.factors[i].first), Expr(shape.factors[i].second)));
  return c.mul(factors);
}

bool isTrig(const Node *base, Fn fn) {
  return base->kind == Kind::Func && base->fn == fn;
}

bool exponentIs(const Node *e, int64_t k) {
  return e->kind == Kind::Number && e->num.exact() && e->num.rational() == Rational(k);
}

// The state of one round over a sum: its terms, their shapes, which terms an
// identity has consumed, and the terms the identities produced.
struct TrigSum {
  Context &c;
  std::vector<Expr> terms;
  std::vector<TermShape> shapes;
  std::vector<bool> used;
  std::vector<Expr> produced;

  explicit TrigSum(const Expr &sum) : c(sum.context()), terms(termsOf(sum)) {
    for (const Expr &t : terms)
      shapes.push_back(shapeOf(t));
    used.assign(terms.size(), false);
  }
};

// sin^2 x + cos^2 x = 1, with a common rest and coefficient.
void pythagoras(TrigSum &s) {
  Context &c = s.c;
  std::map<std::pair<const Node *, const Node *>, size_t> cosSquares; // (arg, rest) -> term
  for (size_t i = 0; i < s.terms.size(); ++i)
    for (size_t k = 0; k < s.shapes[i].factors.size(); ++k) {
      auto [base, exponent] = s.shapes[i].factors[k];
      if (isTrig(base, Fn::Cos) && exponentIs(exponent, 2))
        cosSquares[{base->ops[0], restOf(s.shapes[i], {k}, c).node()}] = i;
    }
  for (size_t i = 0; i < s.terms.size() && !cosSquares.empty(); ++i) {
    if (s.used[i])
      continue;
    for (size_t k = 0; k < s.shapes[i].factors.size(); ++k) {
      auto [base, exponent] = s.shapes[i].factors[k];
      if (!isTrig(base, Fn::Sin) || !exponentIs(exponent, 2))
        continue;
      Expr rest = restOf(s.shapes[i], {k}, c);
      auto match = cosSquares.find({base->ops[0], rest.node()});
      if (match == cosSquares.end() || s.used[match->second] ||
          !s.shapes[match->second].coef.identical(s.shapes[i].coef))
        continue;
      s.used[i] = s.used[match->second] = true;
      s.produced.push_back(c.number(s.shapes[i].coef) * rest);
      break;
    }
  }
}

// A product of two first powers of sin/cos in one term, with the rest of the
// term; each unordered pair is listed in both orders so a lookup needs one key.
struct TrigPair {
  size_t term;
  Fn first, second;
  const Node *a, *b; // arguments of first and second
  const Node *rest;
};

// The sin/cos pairs of the terms no identity has consumed yet, from terms
// with two to four such factors (the pairs grow quadratically).
std::vector<TrigPair> trigPairs(const TrigSum &s) {
  std::vector<TrigPair> pairs;
  for (size_t i = 0; i < s.terms.size(); ++i) {
    if (s.used[i])
      continue;
    const TermShape &shape = s.shapes[i];
    std::vector<size_t> trig;
    for (size_t k = 0; k < shape.factors.size(); ++k) {
      auto [base, exponent] = shape.factors[k];
      if ((isTrig(base, Fn::Sin) || isTrig(base, Fn::Cos)) && exponentIs(exponent, 1))
        trig.push_back(k);
    }
    if (trig.size() < 2 || trig.size() > 4)
      continue;
    for (size_t x = 0; x < trig.size(); ++x)
      for (size_t y = x + 1; y < trig.size(); ++y) {
        const Node *f = shape.factors[trig[x]].first, *g = shape.factors[trig[y]].first;
        Expr rest = restOf(shape, {trig[x], trig[y]}, s.c);
        pairs.push_back({i, f->fn, g->fn, f->ops[0], g->ops[0], rest.node()});
        pairs.push_back({i, g->fn, f->fn, g->ops[0], f->ops[0], rest.node()});
      }
  }
  return pairs;
}

using PairKey = std::tuple<Fn, Fn, const Node *, const Node *, const Node *>;

// The angle addition formulas: cos a cos b -/+ sin a sin b = cos(a +/- b) and
// sin a cos b +/- sin b cos a = sin(a +/- b), for pairs with a common rest.
void angleSums(TrigSum &s, const std::vector<TrigPair> &pairs) {
  Context &c = s.c;
  std::map<PairKey, size_t> index;
  for (size_t p = 0; p < pairs.size(); ++p)
    index.emplace(
        std::make_tuple(pairs[p].first, pairs[p].second, pairs[p].a, pairs[p].b, pairs[p].rest), p);
  for (const TrigPair &p : pairs) {
    if (s.used[p.term])
      continue;
    Fn outer = Fn::Cos;
    PairKey partner;
    if (p.first == Fn::Cos && p.second == Fn::Cos) {
      // c cos a cos b + d sin a sin b
      outer = Fn::Cos;
      partner = {Fn::Sin, Fn::Sin, p.a, p.b, p.rest};
    } else if (p.first == Fn::Sin && p.second == Fn::Cos) {
      // c sin a cos b + d sin b cos a
      outer = Fn::Sin;
      partner = {Fn::Sin, Fn::Cos, p.b, p.a, p.rest};
    } else {
      continue;
    }
    auto match = index.find(partner);
    if (match == index.end() || s.used[pairs[match->second].term] ||
        pairs[match->second].term == p.term)
      continue;
    const Num &c1 = s.shapes[p.term].coef;
    const Num &c2 = s.shapes[pairs[match->second].term].coef;
    Expr a(p.a), b(p.b), rest(p.rest);
    // cos(a - b) has equal coefficients, sin(a - b) opposite ones.
    bool equal = c2.identical(c1), opposite = c2.identical(-c1);
    Expr angle;
    if (outer == Fn::Cos ? equal : opposite)
      angle = a - b;
    else if (outer == Fn::Cos ? opposite : equal)
      angle = a + b;
    else
      continue;
    s.used[p.term] = s.used[pairs[match->second].term] = true;
    s.produced.push_back(c.number(c1) * apply(outer, angle) * rest);
  }
}

// One round of the identities on a sum; returns the sum unchanged when none applies.
Expr trigRound(const Expr &sum) {
  TrigSum s(sum);
  pythagoras(s);
  angleSums(s, trigPairs(s));
  if (s.produced.empty())
    return sum;
  for (size_t i = 0; i < s.terms.size(); ++i)
    if (!s.used[i])
      s.produced.push_back(s.terms[i]);
  return s.c.add(s.produced);
}

Expr trigRule(const Expr &e) {
  if (e.kind() != Kind::Add)
    return e;
  Expr current = e;
  for (int round = 0; round < 8; ++round) {
    Expr next = trigRound(current);
    if (next == current || next.kind() != Kind::Add)
      return next;
    current = next;
  }
  return current;
}

// --- collect --------------------------------------------------------------

bool isParameterFactor(const Node *base) {
  if (base->kind == Kind::Symbol) {
    SymbolKind kind = base->context->symbolInfo(base).kind;
    return kind == SymbolKind::Param || kind == SymbolKind::Constant;
  }
  return false;
}

// Takes out the parameter factors and rational content common to all terms.
Expr factorCommon(const Expr &sum) {
  if (sum.kind() != Kind::Add || !sum->num.isZero())
    return sum;
  Context &c = sum.context();
  std::vector<TermShape> shapes;
  for (const Expr &t : termsOf(sum))
    shapes.push_back(shapeOf(t));
  std::map<const Node *, Num> common; // base -> smallest exponent
  bool first = true;
  for (const TermShape &shape : shapes) {
    std::map<const Node *, Num> here;
    for (auto [base, exponent] : shape.factors)
      if (isParameterFactor(base) && exponent->kind == Kind::Number && exponent->num.exact() &&
          !exponent->num.isNegative())
        here[base] = exponent->num;
    if (first) {
      common = here;
      first = false;
      continue;
    }
    for (auto it = common.begin(); it != common.end();) {
      auto found = here.find(it->first);
      if (found == here.end()) {
        it = common.erase(it);
        continue;
      }
      if (found->second.rational() < it->second.rational())
        it->second = found->second;
      ++it;
    }
  }
  // The rational content, negative when every coefficient is.
  bool exact = true, allNegative = true;
  int64_t numerators = 0, denominators = 1;
  for (const TermShape &shape : shapes) {
    if (!shape.coef.exact()) {
      exact = false;
      break;
    }
    const Rational &q = shape.coef.rational();
    allNegative = allNegative && q.num() < 0;
    numerators = std::gcd(numerators, q.num() < 0 ? -q.num() : q.num());
    int64_t g = std::gcd(denominators, q.den());
    if (__builtin_mul_overflow(denominators / g, q.den(), &denominators)) {
      exact = false;
      break;
    }
  }
  Num content(1);
  if (exact && numerators != 0)
    content = Num(*Rational::make(allNegative ? -numerators : numerators, denominators));
  if (common.empty() && content.isOne())
    return sum;
  std::vector<Expr> factor = {c.number(content)};
  for (const auto &[base, exponent] : common)
    factor.push_back(pow(Expr(base), c.number(exponent)));
  Expr f = c.mul(factor);
  std::vector<Expr> reduced;
  for (const Expr &t : termsOf(sum))
    reduced.push_back(t / f);
  return f * c.add(reduced);
}

Expr collectRule(const Expr &e) {
  if (e.kind() != Kind::Add)
    return e;
  Context &c = e.context();
  // Group terms by their non-parameter part.
  std::map<const Node *, std::vector<Expr>> groups;
  std::vector<const Node *> order;
  for (const Expr &t : termsOf(e)) {
    TermShape shape = shapeOf(t);
    std::vector<Expr> parameters = {c.number(shape.coef)}, rest = {c.one()};
    for (auto [base, exponent] : shape.factors)
      (isParameterFactor(base) ? parameters : rest).push_back(pow(Expr(base), Expr(exponent)));
    Expr key = c.mul(rest);
    if (!groups.count(key.node()))
      order.push_back(key.node());
    groups[key.node()].push_back(c.mul(parameters));
  }
  if (order.size() == termsOf(e).size())
    return factorCommon(e);
  std::vector<Expr> terms;
  for (const Node *key : order) {
    const std::vector<Expr> &parameters = groups.at(key);
    Expr coefficient = parameters.size() == 1 ? parameters[0] : factorCommon(c.add(parameters));
    terms.push_back(coefficient * Expr(key));
  }
  return factorCommon(c.add(terms));
}

} // namespace

Expr expand(const Expr &e) {
  Pass pass(distribute);
  return pass(e.node());
}

Expr simplifyTrig(const Expr &e) {
  Pass pass(trigRule);
  return pass(e.node());
}

Expr collectParameters(const Expr &e) {
  Pass pass(collectRule);
  return pass(e.node());
}

Expr collectParametersOfSum(const Expr &e) {
  return collectRule(e);
}

Expr simplify(const Expr &e) {
  return collectParameters(simplifyTrig(expand(e)));
}

} // namespace mech::sym
