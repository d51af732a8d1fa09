// The trigonometric normal form: expansion with the reduction
// s^2 -> 1 - c^2 applied to every product, memoised per node.
#include "symbolic/NormalForm.h"

#include <algorithm>
#include <cstdlib>

namespace mech::sym {

namespace {

// Exponents beyond this are not expanded (they would overflow).
constexpr int32_t kMaxExponent = 1 << 20;

bool isTrig(Fn fn) {
  return fn == Fn::Sin || fn == Fn::Cos || fn == Fn::Tan;
}
bool isHyperbolic(Fn fn) {
  return fn == Fn::Sinh || fn == Fn::Cosh || fn == Fn::Tanh || fn == Fn::Exp;
}

// Exact (cos, sin) of an atom that is pi/D with D = 1 or 2.
std::optional<std::pair<int, int>> exactPoint(const Expr &atom) {
  auto [q, rest] = splitCoefficient(atom);
  if (rest.kind() != Kind::Symbol || rest.context().symbolInfo(rest.node()).name != "pi" ||
      rest.context().symbolInfo(rest.node()).kind != SymbolKind::Constant || !q.exact() ||
      q.rational().num() != 1)
    return std::nullopt;
  if (q.rational().den() == 1)
    return std::pair{-1, 0};
  if (q.rational().den() == 2)
    return std::pair{0, 1};
  return std::nullopt;
}

} // namespace

size_t Polynomial::MonomialHash::operator()(const Monomial &m) const {
  size_t h = 0x9e3779b97f4a7c15ull;
  for (const auto &[v, e] : m)
    h = (h ^ (static_cast<size_t>(v) * 0x100000001b3ull + static_cast<size_t>(e))) *
        0xff51afd7ed558ccdull;
  return h;
}

NormalForm::NormalForm(const std::vector<Expr> &exprs) {
  std::vector<const Node *> stack;
  std::unordered_map<const Node *, bool> seen;
  for (const Expr &e : exprs)
    stack.push_back(e.node());
  // A root is used once more than its parents account for: its form stays.
  for (const Expr &e : exprs)
    ++uses_[e.node()];
  while (!stack.empty()) {
    const Node *n = stack.back();
    stack.pop_back();
    if (!seen.emplace(n, true).second)
      continue;
    for (const Node *child : n->ops)
      ++uses_[child];
    context_ = n->context;
    if (n->kind == Kind::Func && isTrig(n->fn))
      angles_.add(n->ops[0]);
    else if (n->kind == Kind::Func && isHyperbolic(n->fn))
      exponents_.add(n->ops[0]);
    for (const Node *child : n->ops)
      stack.push_back(child);
  }
  angles_.finish();
  exponents_.finish();
  for (int a = 0; a < angles_.atomCount(); ++a) {
    Expr atom = angles_.atom(a);
    uint32_t s = variableIndex(apply(Fn::Sin, atom), a);
    uint32_t c = variableIndex(apply(Fn::Cos, atom), a);
    atomVariables_.push_back({s, c});
    reducedPartner_[s] = static_cast<int32_t>(c);
  }
}

uint32_t NormalForm::variableIndex(const Expr &v, int atom) {
  auto [it, inserted] =
      variableIds_.try_emplace(v.node(), static_cast<uint32_t>(variables_.size()));
  if (inserted) {
    variables_.push_back(v);
    variableAtom_.push_back(atom);
    reducedPartner_.push_back(-1);
  }
  return it->second;
}

Polynomial NormalForm::constant(const Num &c) const {
  Polynomial p;
  if (!c.isZero())
    p.terms.emplace(Polynomial::Monomial{}, c);
  return p;
}

Polynomial NormalForm::variablePoly(const Expr &v, int32_t exponent) {
  if (v.isNumber())
    return constant(v->num.pow(exponent));
  Polynomial p;
  addTerm(p, {{variableIndex(v), exponent}}, Num(1));
  return p;
}

// Adds c*m to p, rewriting a reduced variable's power r^k (k >= 2) as
// r^(k mod 2) * (1 - partner^2)^(k div 2).
void NormalForm::addTerm(Polynomial &p, Polynomial::Monomial m, const Num &c) const {
  if (++work_ > kMaxNormalFormWork)
    throw TooLarge{};
  if (c.isZero())
    return;
  for (size_t i = 0; i < m.size(); ++i) {
    int32_t partner = reducedPartner_[m[i].first];
    if (partner < 0 || m[i].second < 2)
      continue;
    int32_t half = m[i].second / 2;
    Polynomial::Monomial rest = m;
    if (m[i].second % 2)
      rest[i].second = 1;
    else
      rest.erase(rest.begin() + static_cast<long>(i));
    // (1 - x^2)^half = sum_j binom(half, j) (-x^2)^j
    Num binomial(1);
    for (int32_t j = 0; j <= half; ++j) {
      Polynomial::Monomial term = rest;
      auto at = std::lower_bound(term.begin(), term.end(), std::pair<uint32_t, int32_t>(partner, 0),
                                 [](const auto &x, const auto &y) { return x.first < y.first; });
      if (j > 0) {
        if (at != term.end() && at->first == static_cast<uint32_t>(partner)) {
          at->second += 2 * j;
          if (at->second == 0)
            term.erase(at);
        } else
          term.insert(at, {static_cast<uint32_t>(partner), 2 * j});
      }
      addTerm(p, std::move(term), j % 2 ? -(c * binomial) : c * binomial);
      binomial = binomial * Num(half - j) / Num(j + 1);
    }
    return;
  }
  auto [it, inserted] = p.terms.try_emplace(std::move(m), c);
  if (!inserted) {
    it->second = it->second + c;
    if (it->second.isZero())
      p.terms.erase(it);
  }
}

Polynomial NormalForm::sum(const Polynomial &a, const Polynomial &b, const Num &scale) const {
  Polynomial r = a;
  for (const auto &[m, c] : b.terms)
    addTerm(r, m, c * scale);
  checkSize(r);
  return r;
}

// The constant of a polynomial that is one, or nullptr.
static const Num *constantOf(const Polynomial &p) {
  if (p.terms.size() != 1 || !p.terms.begin()->first.empty())
    return nullptr;
  return &p.terms.begin()->second;
}

Polynomial NormalForm::scaled(const Polynomial &a, const Num &c) const {
  Polynomial r = a;
  scaleInPlace(r, c);
  return r;
}

void NormalForm::scaleInPlace(Polynomial &p, const Num &c) const {
  if (c.isOne())
    return;
  for (auto it = p.terms.begin(); it != p.terms.end();) {
    it->second = it->second * c;
    it = it->second.isZero() ? p.terms.erase(it) : std::next(it);
  }
}

Polynomial NormalForm::product(const Polynomial &a, const Polynomial &b) const {
  // A constant factor scales: no monomial is multiplied or reduced again.
  if (const Num *c = constantOf(a))
    return scaled(b, *c);
  if (const Num *c = constantOf(b))
    return scaled(a, *c);
  if (a.terms.size() * b.terms.size() > kMaxNormalFormTerms * 4)
    throw TooLarge{};
  Polynomial r;
  r.terms.reserve(std::max(a.terms.size(), b.terms.size()));
  for (const auto &[ma, ca] : a.terms)
    for (const auto &[mb, cb] : b.terms) {
      Polynomial::Monomial m;
      m.reserve(ma.size() + mb.size());
      size_t i = 0, j = 0;
      while (i < ma.size() || j < mb.size()) {
        if (j == mb.size() || (i < ma.size() && ma[i].first < mb[j].first))
          m.push_back(ma[i++]);
        else if (i == ma.size() || mb[j].first < ma[i].first)
          m.push_back(mb[j++]);
        else {
          int32_t e = ma[i].second + mb[j].second;
          if (e > kMaxExponent || e < -kMaxExponent)
            throw TooLarge{};
          if (e != 0)
            m.push_back({ma[i].first, e});
          ++i, ++j;
        }
      }
      addTerm(r, std::move(m), ca * cb);
    }
  checkSize(r);
  return r;
}

Polynomial NormalForm::power(const Polynomial &a, int64_t k) const {
  if (k == 0)
    return constant(Num(1));
  Polynomial r = a;
  for (int64_t i = 1; i < k; ++i)
    r = product(r, a);
  return r;
}

void NormalForm::checkSize(const Polynomial &p) const {
  if (p.terms.size() > kMaxNormalFormTerms)
    throw TooLarge{};
}

std::optional<Polynomial> NormalForm::of(const Expr &e) {
  work_ = 0;
  try {
    return convert(e.node());
  } catch (const TooLarge &) {
    return std::nullopt;
  }
}

const Polynomial &NormalForm::convert(const Node *n) {
  auto found = memo_.find(n);
  if (found != memo_.end())
    return found->second;
  Polynomial p;
  switch (n->kind) {
  case Kind::Number:
    p = constant(n->num);
    break;
  case Kind::Symbol:
    p = variablePoly(Expr(n));
    break;
  case Kind::Add:
    p = constant(n->num);
    for (size_t i = 0; i < n->ops.size(); i += 2) {
      // In place: a sum of k terms costs their sizes, not k copies.
      const Num &scale = n->ops[i + 1]->num;
      for (const auto &[m, c] : convert(n->ops[i]).terms)
        addTerm(p, m, scale.isOne() ? c : c * scale);
      checkSize(p);
    }
    break;
  case Kind::Mul: {
    Polynomial first, next;
    const Polynomial &f = factorOf(n->ops[0], n->ops[1], first);
    if (n->ops.size() == 2) {
      p = scaled(f, n->num);
      break;
    }
    p = product(f, factorOf(n->ops[2], n->ops[3], next));
    for (size_t i = 4; i < n->ops.size(); i += 2)
      p = product(p, factorOf(n->ops[i], n->ops[i + 1], next));
    scaleInPlace(p, n->num);
    break;
  }
  case Kind::Pow:
    p = factor(n->ops[0], n->ops[1]);
    break;
  case Kind::Func:
    p = function(n);
    break;
  }
  release(n);
  return memo_.emplace(n, std::move(p)).first->second;
}

// Forgets the forms of n's operands that no other parent will ask for: a
// chain's equations at n = 80 kept half a gigabyte of intermediate
// polynomials otherwise.
void NormalForm::release(const Node *n) {
  for (const Node *child : n->ops) {
    auto count = uses_.find(child);
    if (count != uses_.end() && count->second > 0 && --count->second == 0)
      memo_.erase(child);
  }
}

// base^exponent, without a copy when the exponent is 1 (the memoised form
// of the base itself); otherwise built in storage.
const Polynomial &NormalForm::factorOf(const Node *base, const Node *exponent,
                                       Polynomial &storage) {
  if (exponent->kind == Kind::Number && exponent->num.isOne())
    return convert(base);
  storage = factor(base, exponent);
  return storage;
}

// base^exponent: expanded for a natural exponent, a monomial inverted, any
// other power a variable of the normalised base.
Polynomial NormalForm::factor(const Node *base, const Node *exponent) {
  const Polynomial &b = convert(base);
  if (exponent->kind == Kind::Number && exponent->num.isInteger()) {
    int64_t k = exponent->num.rational().num();
    if (k >= 0 && k <= 64)
      return power(b, k);
    if (k < 0 && k >= -64 && b.terms.size() == 1 && b.terms.begin()->second.exact()) {
      const auto &[m, c] = *b.terms.begin();
      Polynomial::Monomial inverse = m;
      for (auto &[v, e] : inverse)
        if (std::abs(int64_t(e) * k) > kMaxExponent)
          throw TooLarge{};
        else
          e = static_cast<int32_t>(e * k);
      Polynomial r;
      addTerm(r, std::move(inverse), c.pow(k));
      return r;
    }
    if (k < 0 && k >= -64)
      return variablePoly(toExpr(b), static_cast<int32_t>(k));
  }
  return variablePoly(pow(toExpr(b), toExpr(convert(exponent))));
}

NormalForm::Circle NormalForm::atomPower(int atom, int64_t k) {
  auto found = powers_.find({atom, k});
  if (found != powers_.end())
    return found->second;
  Circle z{constant(Num(1)), {}};
  Circle unit;
  if (auto point = exactPoint(angles_.atom(atom))) {
    unit = {constant(Num(point->first)), constant(Num(point->second))};
  } else {
    auto [s, c] = atomVariables_[atom];
    unit = {variablePoly(variables_[c]), variablePoly(variables_[s])};
  }
  if (k < 0)
    unit.sin = sum({}, unit.sin, Num(-1)); // the inverse of a unit is its conjugate
  for (int64_t i = 0; i < (k < 0 ? -k : k); ++i)
    z = {sum(product(z.cos, unit.cos), product(z.sin, unit.sin), Num(-1)),
         sum(product(z.cos, unit.sin), product(z.sin, unit.cos))};
  return powers_.emplace(std::pair{atom, k}, std::move(z)).first->second;
}

NormalForm::Circle NormalForm::angle(const Node *arg) {
  Circle z{constant(Num(1)), {}};
  for (const auto &[atom, k] : angles_.combination(arg).terms) {
    if (k > 64 || k < -64)
      throw TooLarge{};
    Circle w = atomPower(atom, k);
    z = {sum(product(z.cos, w.cos), product(z.sin, w.sin), Num(-1)),
         sum(product(z.cos, w.sin), product(z.sin, w.cos))};
  }
  return z;
}

Polynomial NormalForm::function(const Node *n) {
  // A function of an argument the atoms were not taken from (in an
  // expression this form built itself, as cancelled() converts) is opaque:
  // sound, it only loses relations.
  if ((isTrig(n->fn) && !angles_.find(n->ops[0])) ||
      (isHyperbolic(n->fn) && !exponents_.find(n->ops[0])))
    return variablePoly(Expr(n));
  if (isTrig(n->fn)) {
    Circle z = angle(n->ops[0]);
    if (n->fn == Fn::Cos)
      return z.cos;
    if (n->fn == Fn::Sin)
      return z.sin;
    // tan: sin times the inverse of cos (a monomial or a variable)
    Polynomial inverse = z.cos.terms.size() == 1 ? Polynomial{} : variablePoly(toExpr(z.cos), -1);
    if (z.cos.terms.size() == 1) {
      const auto &[m, c] = *z.cos.terms.begin();
      Polynomial::Monomial inv = m;
      for (auto &[v, e] : inv)
        e = -e;
      addTerm(inverse, std::move(inv), Num(1) / c);
    }
    return product(z.sin, inverse);
  }
  if (isHyperbolic(n->fn)) {
    Polynomial e = constant(Num(1)), ie = constant(Num(1));
    for (const auto &[atom, k] : exponents_.combination(n->ops[0]).terms) {
      if (k > 64 || k < -64)
        throw TooLarge{};
      Expr x = apply(Fn::Exp, exponents_.atom(atom));
      e = product(e, variablePoly(x, static_cast<int32_t>(k)));
      ie = product(ie, variablePoly(x, static_cast<int32_t>(-k)));
    }
    Polynomial half = constant(Num(Rational::make(1, 2).value()));
    Polynomial sinh = product(sum(e, ie, Num(-1)), half), cosh = product(sum(e, ie), half);
    switch (n->fn) {
    case Fn::Exp:
      return e;
    case Fn::Sinh:
      return sinh;
    case Fn::Cosh:
      return cosh;
    default:
      return product(sinh, variablePoly(toExpr(cosh), -1));
    }
  }
  std::vector<Expr> args;
  for (const Node *a : n->ops)
    args.push_back(toExpr(convert(a)));
  return variablePoly(context_->function(n->fn, args));
}

Polynomial NormalForm::reducedAs(const Polynomial &p, const std::vector<bool> &sine) {
  std::vector<int32_t> saved = reducedPartner_;
  for (int a = 0; a < atomCount(); ++a) {
    auto [s, c] = atomVariables_[a];
    reducedPartner_[s] = sine[a] ? static_cast<int32_t>(c) : -1;
    reducedPartner_[c] = sine[a] ? -1 : static_cast<int32_t>(s);
  }
  Polynomial r;
  for (const auto &[m, c] : p.terms)
    addTerm(r, m, c);
  reducedPartner_ = std::move(saved);
  return r;
}

namespace {

// A graded lexicographic order on monomials, for the leading terms of the
// division.
bool monomialLess(const Polynomial::Monomial &a, const Polynomial::Monomial &b) {
  auto degree = [](const Polynomial::Monomial &m) {
    int64_t d = 0;
    for (const auto &[v, e] : m)
      d += e;
    return d;
  };
  int64_t da = degree(a), db = degree(b);
  if (da != db)
    return da < db;
  // Lexicographic: at the first variable whose exponents differ, the
  // smaller exponent is the smaller monomial.
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && a[i].first < b[j].first))
      return a[i].second < 0;
    if (i == a.size() || b[j].first < a[i].first)
      return b[j].second > 0;
    if (a[i].second != b[j].second)
      return a[i].second < b[j].second;
    ++i, ++j;
  }
  return false;
}

const std::pair<const Polynomial::Monomial, Num> &leading(const Polynomial &p) {
  auto best = p.terms.begin();
  for (auto it = p.terms.begin(); it != p.terms.end(); ++it)
    if (monomialLess(best->first, it->first))
      best = it;
  return *best;
}

// m / d when d divides m (d's exponents all positive), else nullopt.
std::optional<Polynomial::Monomial> dividedMonomial(const Polynomial::Monomial &m,
                                                    const Polynomial::Monomial &d) {
  Polynomial::Monomial q = m;
  for (const auto &[v, e] : d) {
    auto at = std::find_if(q.begin(), q.end(), [v = v](const auto &x) { return x.first == v; });
    if (at == q.end() || at->second < e)
      return std::nullopt;
    at->second -= e;
    if (at->second == 0)
      q.erase(at);
  }
  return q;
}

} // namespace

std::optional<Polynomial> NormalForm::quotient(const Polynomial &n, const Polynomial &d) const {
  if (d.terms.empty())
    return std::nullopt;
  const auto &[lead, leadCoef] = leading(d);
  Polynomial q, r = n;
  for (size_t step = 0; !r.terms.empty(); ++step) {
    if (step > kMaxNormalFormTerms)
      return std::nullopt;
    const auto &[m, c] = leading(r);
    std::optional<Polynomial::Monomial> t = dividedMonomial(m, lead);
    if (!t)
      return std::nullopt;
    Polynomial term;
    addTerm(term, *t, c / leadCoef);
    q = sum(q, term);
    r = sum(r, product(term, d), Num(-1));
  }
  return q;
}

Polynomial NormalForm::cancelled(const Polynomial &p) {
  try {
    for (uint32_t v = 0; v < variables_.size() && !p.terms.empty(); ++v) {
      if (variables_[v].kind() != Kind::Add)
        continue;
      // Every term must have v to a negative power.
      bool common = true;
      for (const auto &[m, c] : p.terms) {
        auto at = std::find_if(m.begin(), m.end(), [v](const auto &x) { return x.first == v; });
        common = common && at != m.end() && at->second < 0;
      }
      if (!common)
        continue;
      Polynomial d = convert(variables_[v].node());
      bool plain = true;
      for (const auto &[m, c] : d.terms)
        for (const auto &[w, e] : m)
          plain = plain && e > 0 && variableAtom_[w] < 0 && w != v;
      if (!plain)
        continue;
      Polynomial numerator;
      for (const auto &[m, c] : p.terms) {
        Polynomial::Monomial raised = m;
        for (auto it = raised.begin(); it != raised.end(); ++it)
          if (it->first == v && ++it->second == 0) {
            raised.erase(it);
            break;
          }
        addTerm(numerator, std::move(raised), c);
      }
      if (std::optional<Polynomial> q = quotient(numerator, d))
        return cancelled(*q);
    }
  } catch (const TooLarge &) {
  }
  return p;
}

Expr NormalForm::monomialExpr(const Polynomial::Monomial &m) const {
  std::vector<Expr> factors;
  for (const auto &[v, e] : m)
    factors.push_back(pow(variables_[v], e));
  return context_->mul(factors);
}

Expr NormalForm::toExpr(const Polynomial &p) const {
  std::vector<Expr> terms;
  for (const auto &[m, c] : p.terms)
    terms.push_back(context_->number(c) * monomialExpr(m));
  return context_->add(terms);
}

} // namespace mech::sym
