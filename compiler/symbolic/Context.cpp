// The factories: canonical forms and interning.
#include "symbolic/CanonicalCheck.h"
#include "symbolic/Expr.h"
#include "symbolic/MatrixFunctions.h"

#include "support/Diagnostics.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>
#include <unordered_map>

namespace mech::sym {

const char *fnName(Fn fn) {
  switch (fn) {
#define MECH_SYM_FN_NAME(id, name, arity)                                                          \
  case Fn::id:                                                                                     \
    return name;
    MECH_SYM_FUNCS(MECH_SYM_FN_NAME)
#undef MECH_SYM_FN_NAME
  }
  return "?";
}

namespace {

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return h * 0xFF51AFD7ED558CCDull;
}

uint64_t hashString(const std::string &text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text)
    h = (h ^ c) * 1099511628211ull;
  return h;
}

int compareNum(const Num &a, const Num &b) {
  if (a.exact() != b.exact())
    return a.exact() ? -1 : 1;
  if (a.exact()) {
    if (a.rational() == b.rational())
      return 0;
    return a.rational() < b.rational() ? -1 : 1;
  }
  uint64_t x = std::bit_cast<uint64_t>(a.toDouble()), y = std::bit_cast<uint64_t>(b.toDouble());
  return x == y ? 0 : x < y ? -1 : 1;
}

int compareNodes(const Node *a, const Node *b) {
  if (a == b)
    return 0;
  if (a->hash != b->hash)
    return a->hash < b->hash ? -1 : 1;
  if (a->kind != b->kind)
    return a->kind < b->kind ? -1 : 1;
  if (a->fn != b->fn)
    return a->fn < b->fn ? -1 : 1;
  if (a->kind == Kind::Symbol) {
    const SymbolInfo &x = a->context->symbolInfo(a), &y = b->context->symbolInfo(b);
    if (x.name != y.name)
      return x.name < y.name ? -1 : 1;
    if (x.kind != y.kind)
      return x.kind < y.kind ? -1 : 1;
    return x.order < y.order ? -1 : x.order > y.order ? 1 : 0;
  }
  if (int c = compareNum(a->num, b->num))
    return c;
  if (a->ops.size() != b->ops.size())
    return a->ops.size() < b->ops.size() ? -1 : 1;
  for (size_t i = 0; i < a->ops.size(); ++i)
    if (int c = compareNodes(a->ops[i], b->ops[i]))
      return c;
  return 0;
}

} // namespace

bool canonicalLess(const Node *a, const Node *b) {
  return compareNodes(a, b) < 0;
}

bool Context::NodeEqual::operator()(const Node *a, const Node *b) const {
  // Children are interned, so a shallow comparison is a structural one.
  return a->kind == b->kind && a->fn == b->fn && a->symbol == b->symbol &&
         a->num.identical(b->num) && a->ops == b->ops;
}

Context::Context() {
  zero_ = integer(0);
  one_ = integer(1);
  pi_ = symbol("pi", SymbolKind::Constant);
  symbols_.back().value = M_PI;
  time_ = symbol("t", SymbolKind::Time);
}

const Node *Context::intern(Node &&candidate) {
#ifdef MECH_CHECK_CANONICAL
  checkCanonical(candidate, this);
#endif
  candidate.context = this;
  uint64_t h = mix(static_cast<uint64_t>(candidate.kind) + 1, static_cast<uint64_t>(candidate.fn));
  if (candidate.kind == Kind::Symbol) {
    const SymbolInfo &info = symbols_[candidate.symbol];
    h = mix(h, hashString(info.name));
    h = mix(h, static_cast<uint64_t>(info.kind) * 16 + static_cast<uint64_t>(info.order));
  }
  h = mix(h, candidate.num.hash());
  double size = 1;
  uint8_t mask = candidate.mask;
  for (const Node *op : candidate.ops) {
    h = mix(h, op->hash);
    size += op->treeSize;
    mask |= op->mask;
  }
  candidate.hash = h;
  candidate.treeSize = size;
  candidate.mask = mask;
  auto found = table_.find(&candidate);
  if (found != table_.end())
    return *found;
  if (arena_.size() >= workEnd_)
    throw WorkStopped{false, workEnd_};
  if (workStop_ && (arena_.size() & 1023) == 0 && workStop_())
    throw WorkStopped{true, 0};
  arena_.push_back(std::move(candidate));
  const Node *node = &arena_.back();
  table_.insert(node);
  return node;
}

Context::WorkLimit::WorkLimit(Context &context, size_t maxNewNodes, bool (*stop)())
    : context_(context) {
  context.workEnd_ = context.arena_.size() + maxNewNodes;
  context.workStop_ = stop;
}

Context::WorkLimit::~WorkLimit() {
  context_.workEnd_ = SIZE_MAX;
  context_.workStop_ = nullptr;
}

Expr Context::number(const Num &value) {
  Node n;
  n.kind = Kind::Number;
  n.num = value;
  return Expr(intern(std::move(n)));
}

Expr Context::rational(int64_t num, int64_t den) {
  auto q = Rational::make(num, den);
  if (!q)
    internalError("invalid rational");
  return number(Num(*q));
}

Expr Context::symbol(const std::string &name, SymbolKind kind, int index, int order) {
  auto found = symbolIds_.find({name, kind, order});
  if (found != symbolIds_.end()) {
    Node n;
    n.kind = Kind::Symbol;
    n.symbol = found->second;
    return Expr(intern(std::move(n)));
  }
  symbolIds_.emplace(std::make_tuple(name, kind, order), static_cast<uint32_t>(symbols_.size()));
  symbols_.push_back({name, kind, index, order, 0, {}});
  derivatives_.push_back(nullptr);
  Node n;
  n.kind = Kind::Symbol;
  n.symbol = static_cast<uint32_t>(symbols_.size() - 1);
  switch (kind) {
  case SymbolKind::Coord:
    n.mask = order == 0 ? kHasCoord : order == 1 ? kHasVelocity : kHasAcceleration;
    break;
  case SymbolKind::Time:
    n.mask = kHasTime;
    break;
  case SymbolKind::Multiplier:
    n.mask = kHasMultiplier;
    break;
  case SymbolKind::Param:
    n.mask = kHasParam;
    break;
  case SymbolKind::Free:
    n.mask = kHasFree;
    break;
  case SymbolKind::Constant:
    break;
  }
  return Expr(intern(std::move(n)));
}

Expr Context::restore(Kind kind, Fn fn, const Num &num, std::vector<const Node *> ops) {
  Node n;
  n.kind = kind;
  n.fn = fn;
  n.num = num;
  n.ops = std::move(ops);
  return Expr(intern(std::move(n)));
}

Context::Coordinate Context::coordinate(const std::string &name, int index) {
  Coordinate c;
  c.q = symbol(name, SymbolKind::Coord, index, 0);
  c.qd = symbol(name, SymbolKind::Coord, index, 1);
  c.qdd = symbol(name, SymbolKind::Coord, index, 2);
  derivatives_[c.q->symbol] = c.qd.node();
  derivatives_[c.qd->symbol] = c.qdd.node();
  return c;
}

Expr Context::symbolDerivative(const Node *s) {
  const SymbolInfo &info = symbols_[s->symbol];
  if (info.kind == SymbolKind::Time)
    return one_;
  if (info.kind != SymbolKind::Coord)
    return zero_;
  if (const Node *d = derivatives_[s->symbol])
    return Expr(d);
  internalError("derivative of order 3 of coordinate '" + info.name + "'");
}

// ---------------------------------------------------------------------------
// Add

std::pair<Num, Expr> splitCoefficient(const Expr &e) {
  if (e.kind() == Kind::Mul && !e->num.isOne())
    return {e->num, coefficientFree(e)};
  return {Num(1), e};
}

Expr coefficientFree(const Expr &e) {
  if (e.kind() != Kind::Mul || e->num.isOne())
    return e;
  std::vector<std::pair<const Node *, const Node *>> factors;
  for (size_t i = 0; i < e->ops.size(); i += 2)
    factors.push_back({e->ops[i], e->ops[i + 1]});
  return e.context().makeMul(Num(1), std::move(factors));
}

Expr Context::scaled(const Num &coef, const Node *term) {
  if (coef.isOne())
    return Expr(term);
  if (coef.isZero())
    return zero_;
  if (term->kind == Kind::Mul) {
    std::vector<std::pair<const Node *, const Node *>> factors;
    for (size_t i = 0; i < term->ops.size(); i += 2)
      factors.push_back({term->ops[i], term->ops[i + 1]});
    return makeMul(coef * term->num, std::move(factors));
  }
  if (term->kind == Kind::Pow)
    return makeMul(coef, {{term->ops[0], term->ops[1]}});
  return makeMul(coef, {{term, one_.node()}});
}

Expr Context::add(const std::vector<Expr> &terms) {
  Num constant(0);
  std::unordered_map<const Node *, Num> coefficients;
  std::vector<const Node *> order;
  auto accumulate = [&](const Node *term, const Num &coef) {
    auto [it, inserted] = coefficients.try_emplace(term, coef);
    if (inserted)
      order.push_back(term);
    else
      it->second = it->second + coef;
  };
  for (const Expr &t : terms) {
    switch (t.kind()) {
    case Kind::Number:
      constant = constant + t->num;
      break;
    case Kind::Add:
      constant = constant + t->num;
      for (size_t i = 0; i < t->ops.size(); i += 2)
        accumulate(t->ops[i], t->ops[i + 1]->num);
      break;
    default: {
      auto [coef, rest] = splitCoefficient(t);
      accumulate(rest.node(), coef);
    }
    }
  }
  std::vector<std::pair<const Node *, Num>> kept;
  for (const Node *term : order) {
    const Num &coef = coefficients.at(term);
    if (!coef.isZero())
      kept.push_back({term, coef});
  }
  if (kept.empty())
    return number(constant);
  if (kept.size() == 1 && constant.isZero())
    return scaled(kept[0].second, kept[0].first);
  std::sort(kept.begin(), kept.end(),
            [](const auto &a, const auto &b) { return canonicalLess(a.first, b.first); });
  Node n;
  n.kind = Kind::Add;
  n.num = constant;
  for (const auto &[term, coef] : kept) {
    n.ops.push_back(term);
    n.ops.push_back(number(coef).node());
  }
  return Expr(intern(std::move(n)));
}

// ---------------------------------------------------------------------------
// Mul and Pow

namespace {

// The numeric content of a sum: the positive gcd of its exact coefficients
// (and constant), negated when the leading term is negative, so that
// sum = content * primitive with a unique primitive. Nullopt when the sum
// has inexact coefficients or a content of 1.
std::optional<Num> contentOf(const Node *sum) {
  int64_t numerators = 0, denominators = 1;
  auto include = [&](const Num &c) {
    if (!c.exact())
      return false;
    const Rational &q = c.rational();
    if (q.isZero())
      return true;
    numerators = std::gcd(numerators, q.num() < 0 ? -q.num() : q.num());
    int64_t g = std::gcd(denominators, q.den());
    return !__builtin_mul_overflow(denominators / g, q.den(), &denominators);
  };
  if (!include(sum->num))
    return std::nullopt;
  for (size_t i = 0; i < sum->ops.size(); i += 2)
    if (!include(sum->ops[i + 1]->num))
      return std::nullopt;
  if (numerators == 0)
    return std::nullopt;
  bool negative = sum->ops[1]->num.isNegative();
  auto content = Rational::make(negative ? -numerators : numerators, denominators);
  if (!content || *content == Rational(1))
    return std::nullopt;
  return Num(*content);
}

} // namespace

Expr Context::primitive(const Node *sum, const Num &content) {
  std::vector<Expr> terms = {number(sum->num / content)};
  for (size_t i = 0; i < sum->ops.size(); i += 2)
    terms.push_back(scaled(sum->ops[i + 1]->num / content, sum->ops[i]));
  return add(terms);
}

Expr Context::makeMul(const Num &coef, std::vector<std::pair<const Node *, const Node *>> factors) {
  if (coef.isZero())
    return zero_;
  if (factors.empty())
    return number(coef);
  if (factors.size() == 1 && factors[0].second == one_.node() &&
      factors[0].first->kind == Kind::Add && !coef.isOne()) {
    // c*(a + b) = c*a + c*b: a number times a lone sum distributes.
    const Node *sum = factors[0].first;
    std::vector<Expr> terms = {number(coef * sum->num)};
    for (size_t i = 0; i < sum->ops.size(); i += 2)
      terms.push_back(scaled(coef * sum->ops[i + 1]->num, sum->ops[i]));
    return add(terms);
  }
  if (coef.isOne() && factors.size() == 1) {
    if (factors[0].second == one_.node())
      return Expr(factors[0].first);
    Node n;
    n.kind = Kind::Pow;
    n.ops = {factors[0].first, factors[0].second};
    return Expr(intern(std::move(n)));
  }
  std::sort(factors.begin(), factors.end(),
            [](const auto &a, const auto &b) { return canonicalLess(a.first, b.first); });
  Node n;
  n.kind = Kind::Mul;
  n.num = coef;
  for (const auto &[base, exponent] : factors) {
    n.ops.push_back(base);
    n.ops.push_back(exponent);
  }
  return Expr(intern(std::move(n)));
}

Expr Context::mul(const std::vector<Expr> &factors) {
  Num coef(1);
  std::unordered_map<const Node *, std::vector<Expr>> exponents;
  std::vector<const Node *> order;
  auto accumulate = [&](const Node *base, const Node *exponent) {
    auto [it, inserted] = exponents.try_emplace(base);
    if (inserted)
      order.push_back(base);
    it->second.push_back(Expr(exponent));
  };
  for (const Expr &f : factors) {
    switch (f.kind()) {
    case Kind::Number:
      coef = coef * f->num;
      break;
    case Kind::Mul:
      coef = coef * f->num;
      for (size_t i = 0; i < f->ops.size(); i += 2)
        accumulate(f->ops[i], f->ops[i + 1]);
      break;
    case Kind::Pow:
      accumulate(f->ops[0], f->ops[1]);
      break;
    default:
      accumulate(f.node(), one_.node());
    }
  }
  if (coef.isZero())
    return zero_;
  std::vector<std::pair<const Node *, const Node *>> kept;
  std::vector<Expr> extra; // factors whose combined power simplifies further
  bool several = order.size() > 1;
  for (const Node *base : order) {
    const std::vector<Expr> &list = exponents.at(base);
    Expr exponent = list.size() == 1 ? list[0] : add(list);
    if (exponent.isZero())
      continue;
    // (2x + 2y)*z is 2*(x + y)*z whichever way it was grouped: a sum raised
    // to an integer power gives its numeric content to the coefficient.
    if (base->kind == Kind::Add && (several || !exponent.isOne()) && exponent.isNumber() &&
        exponent->num.isInteger())
      if (auto content = contentOf(base)) {
        coef = coef * content->pow(exponent->num.rational().num());
        extra.push_back(power(primitive(base, *content), exponent));
        continue;
      }
    if (list.size() > 1 || base->kind == Kind::Number) {
      // x^a * x^b may collapse (x^1/2 * x^1/2 = x, 2^3 = 8): let power() decide.
      Expr combined = power(Expr(base), exponent);
      if (combined.kind() == Kind::Number) {
        coef = coef * combined->num;
        continue;
      }
      if (combined.kind() != Kind::Pow || combined->ops[0] != base) {
        extra.push_back(combined);
        continue;
      }
      exponent = Expr(combined->ops[1]);
    }
    kept.push_back({base, exponent.node()});
  }
  if (extra.empty())
    return makeMul(coef, std::move(kept));
  // Combine again with the coefficient as a factor: distributing it into a
  // lone sum here would hand the content back and forth between two sums.
  extra.push_back(number(coef));
  for (const auto &[base, exponent] : kept)
    extra.push_back(power(Expr(base), Expr(exponent)));
  return mul(extra);
}

namespace {

// The k-th root of a non-negative integer when it is an integer.
std::optional<int64_t> integerRoot(int64_t x, int64_t k) {
  if (k < 1 || k > 62)
    return std::nullopt;
  auto guess = static_cast<int64_t>(std::llround(std::pow(static_cast<double>(x), 1.0 / k)));
  for (int64_t r = std::max<int64_t>(0, guess - 1); r <= guess + 1; ++r) {
    int64_t value = 1;
    bool overflow = false;
    for (int64_t i = 0; i < k && !overflow; ++i)
      overflow = __builtin_mul_overflow(value, r, &value);
    if (!overflow && value == x)
      return r;
  }
  return std::nullopt;
}

// The k-th root of a positive rational when it is rational.
std::optional<Rational> exactRoot(const Rational &q, int64_t k) {
  auto num = integerRoot(q.num(), k), den = integerRoot(q.den(), k);
  if (!num || !den)
    return std::nullopt;
  return Rational::make(*num, *den);
}

} // namespace

Expr Context::power(const Expr &base, const Expr &exponent) {
  if (exponent.isZero())
    return one_;
  if (exponent.isOne())
    return base;
  bool integerExponent = exponent.isNumber() && exponent->num.isInteger();
  if (base.isNumber()) {
    const Num &b = base->num;
    if (b.isOne())
      return one_;
    if (b.isZero() && exponent.isNumber() && !exponent->num.isNegative())
      return zero_;
    if (integerExponent && !(b.isZero() && exponent->num.isNegative()))
      return number(b.pow(exponent->num.rational().num()));
    if (exponent.isNumber() && (!b.exact() || !exponent->num.exact()) && !b.isNegative())
      return number(Num::inexact(std::pow(b.toDouble(), exponent->num.toDouble())));
    // 25^(1/2) = 5, (8/27)^(2/3) = 4/9: an exact root is a number.
    if (exponent.isNumber() && exponent->num.exact() && b.exact() && !b.isNegative() &&
        !b.isZero()) {
      const Rational &e = exponent->num.rational();
      if (auto root = exactRoot(b.rational(), e.den()))
        return power(number(Num(*root)), integer(e.num()));
    }
    // 2^(3/2) = 2 * 2^(1/2): the integer part of the exponent is a factor.
    if (exponent.isNumber() && exponent->num.exact() && b.exact() && !b.isNegative() &&
        !b.isZero()) {
      const Rational &e = exponent->num.rational();
      int64_t whole = e.num() / e.den();
      if (e.num() < 0 && e.num() % e.den() != 0)
        --whole;
      if (whole != 0) {
        Num rest = exponent->num - Num(whole);
        return makeMul(b.pow(whole), {{base.node(), number(rest).node()}});
      }
    }
  }
  if (base.kind() == Kind::Add && integerExponent && !exponent.isOne())
    if (auto content = contentOf(base.node()))
      return mul({number(content->pow(exponent->num.rational().num())),
                  power(primitive(base.node(), *content), exponent)});
  if (base.kind() == Kind::Pow && integerExponent)
    return power(Expr(base->ops[0]), Expr(base->ops[1]) * exponent);
  if (base.kind() == Kind::Mul && integerExponent) {
    int64_t k = exponent->num.rational().num();
    std::vector<Expr> factors = {number(base->num.pow(k))};
    for (size_t i = 0; i < base->ops.size(); i += 2)
      factors.push_back(power(Expr(base->ops[i]), Expr(base->ops[i + 1]) * exponent));
    return mul(factors);
  }
  Node n;
  n.kind = Kind::Pow;
  n.ops = {base.node(), exponent.node()};
  return Expr(intern(std::move(n)));
}

// ---------------------------------------------------------------------------
// Functions

bool isNegativeForm(const Expr &e) {
  switch (e.kind()) {
  case Kind::Number:
    return e->num.isNegative();
  case Kind::Mul:
    return e->num.isNegative();
  case Kind::Add:
    return e->ops[1]->num.isNegative();
  default:
    return false;
  }
}

namespace {

bool isOdd(Fn fn) {
  return fn == Fn::Sin || fn == Fn::Tan || fn == Fn::Asin || fn == Fn::Atan || fn == Fn::Sinh ||
         fn == Fn::Tanh || fn == Fn::Sign;
}

bool isEven(Fn fn) {
  return fn == Fn::Cos || fn == Fn::Cosh || fn == Fn::Abs;
}

} // namespace

Expr Context::function(Fn fn, const std::vector<Expr> &args) {
  if (isMatrixFn(fn))
    return matrixFunction(fn, args);
  const Expr &x = args[0];
  if (fn == Fn::Select && (x.isNumber() || args[1] == args[2]))
    return !x.isNumber() || x->num.toDouble() > 0 ? args[1] : args[2];
  if (fn == Fn::Smooth && (x.isNumber() || x.kind() == Kind::Symbol))
    return x;
  if (fn != Fn::Atan2 && x.isNumber()) {
    const Num &v = x->num;
    if (v.exact()) {
      if (v.isZero() && (fn == Fn::Sin || fn == Fn::Tan || fn == Fn::Asin || fn == Fn::Atan ||
                         fn == Fn::Sinh || fn == Fn::Tanh || fn == Fn::Abs || fn == Fn::Sign))
        return zero_;
      if (v.isZero() && (fn == Fn::Cos || fn == Fn::Cosh || fn == Fn::Exp))
        return one_;
      if (v.isOne() && (fn == Fn::Log || fn == Fn::Acos))
        return zero_;
      if (fn == Fn::Abs)
        return number(v.isNegative() ? -v : v);
      if (fn == Fn::Sign)
        return integer(v.isNegative() ? -1 : 1);
    } else {
      return number(Num::inexact(evaluateFn(fn, v.toDouble(), 0)));
    }
  }
  if (fn == Fn::Atan2 && x.isNumber() && args[1].isNumber() &&
      (!x->num.exact() || !args[1]->num.exact()))
    return number(Num::inexact(evaluateFn(fn, x->num.toDouble(), args[1]->num.toDouble())));
  if (fn != Fn::Atan2 && isNegativeForm(x)) {
    if (isOdd(fn))
      return -function(fn, {-x});
    if (isEven(fn))
      return function(fn, {-x});
  }
  if (fn == Fn::Abs && x.kind() == Kind::Func && x->fn == Fn::Abs)
    return x;
  return functionNode(fn, args);
}

// The matrix functions have none of the rules above: a packed matrix is an
// operand, det and inv are folded only when the matrix is all numbers. The
// printer's name for a matrix (symbolic/SharedTerms.h), a free symbol, may
// stand in the matrix's place: such a node is printed, never evaluated.
Expr Context::matrixFunction(Fn fn, const std::vector<Expr> &args) {
  std::vector<const Node *> ops;
  for (const Expr &a : args)
    ops.push_back(a.node());
  if (ops.empty() || (fn != Fn::Matrix && ops.size() != (fn == Fn::Det ? 1u : 3u)))
    internalError("a matrix function with operands of the wrong shape");
  const Node *matrix = fn == Fn::Det ? ops[0] : fn == Fn::InvEntry ? ops[2] : nullptr;
  if (matrix != nullptr && matrix->kind == Kind::Symbol &&
      symbolInfo(matrix).kind == SymbolKind::Free)
    return functionNode(fn, args);
  if (!matrixOperandsFit(fn, ops))
    internalError("a matrix function with operands of the wrong shape");
  if (Expr folded = foldMatrixFunction(*this, fn, args))
    return folded;
  return functionNode(fn, args);
}

Expr Context::functionNode(Fn fn, const std::vector<Expr> &args) {
  Node n;
  n.kind = Kind::Func;
  n.fn = fn;
  for (const Expr &a : args)
    n.ops.push_back(a.node());
  return Expr(intern(std::move(n)));
}

// ---------------------------------------------------------------------------
// Operators

Expr operator+(const Expr &a, const Expr &b) {
  return a.context().add({a, b});
}
Expr operator-(const Expr &a, const Expr &b) {
  return a.context().add({a, a.context().mul({a.context().integer(-1), b})});
}
Expr operator*(const Expr &a, const Expr &b) {
  return a.context().mul({a, b});
}
Expr operator/(const Expr &a, const Expr &b) {
  return a.context().mul({a, a.context().power(b, a.context().integer(-1))});
}
Expr operator-(const Expr &a) {
  return a.context().mul({a.context().integer(-1), a});
}
Expr pow(const Expr &base, const Expr &exponent) {
  return base.context().power(base, exponent);
}
Expr pow(const Expr &base, int64_t exponent) {
  return base.context().power(base, base.context().integer(exponent));
}
Expr sqrt(const Expr &x) {
  return x.context().power(x, x.context().rational(1, 2));
}
Expr select(const Expr &g, const Expr &a, const Expr &b) {
  return g.context().function(Fn::Select, {g, a, b});
}
Expr apply(Fn fn, const Expr &x) {
  return x.context().function(fn, {x});
}
Expr atan2(const Expr &y, const Expr &x) {
  return y.context().function(Fn::Atan2, {y, x});
}

} // namespace mech::sym
