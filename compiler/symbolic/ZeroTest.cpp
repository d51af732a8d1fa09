// The randomized zero test: atoms found once per expression, then the DAG
// evaluated modulo a prime at random points, memoised per trial.
#include "symbolic/ZeroTest.h"

#include "symbolic/AngleAtoms.h"
#include "symbolic/Diff.h"
#include "symbolic/Simplify.h"

#include <cmath>
#include <map>
#include <unordered_map>

namespace mech::sym {

namespace {

using u64 = uint64_t;
using u128 = unsigned __int128;

// Arithmetic modulo a prime below 2^62, so that sums of two residues fit.
struct Field {
  u64 p;
  u64 add(u64 a, u64 b) const { return (a + b) % p; }
  u64 sub(u64 a, u64 b) const { return (a + p - b) % p; }
  u64 mul(u64 a, u64 b) const { return static_cast<u64>(static_cast<u128>(a) * b % p); }
  u64 pow(u64 a, u64 k) const {
    u64 r = 1;
    for (; k; k >>= 1, a = mul(a, a))
      if (k & 1)
        r = mul(r, a);
    return r;
  }
  u64 inv(u64 a) const { return pow(a, p - 2); } // a non-zero
  u64 fromInt(int64_t v) const {
    u64 m = static_cast<u64>(v < 0 ? -(v + 1) : v) % p; // no overflow at INT64_MIN
    return v < 0 ? sub(0, add(m, 1)) : m;
  }
};

// 2^61 - 1 and 2^62 - 57, both prime.
constexpr u64 kPrimes[2] = {(u64(1) << 61) - 1, (u64(1) << 62) - 57};

// A Gaussian number re + i im modulo p: the point (cos, sin) of an angle.
struct Gauss {
  u64 re, im;
};

struct DivisionByZero {};

bool isTrig(Fn fn) {
  return fn == Fn::Sin || fn == Fn::Cos || fn == Fn::Tan;
}
bool isHyperbolic(Fn fn) {
  return fn == Fn::Sinh || fn == Fn::Cosh || fn == Fn::Tanh || fn == Fn::Exp;
}
bool isIntegerNumber(const Node *n) {
  return n->kind == Kind::Number && n->num.isInteger();
}

// A small deterministic generator (splitmix64), so that answers repeat.
class Random {
public:
  explicit Random(u64 seed) : state_(seed) {}
  u64 next() {
    u64 z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

private:
  u64 state_;
};

class ZeroTest {
public:
  explicit ZeroTest(const std::vector<Expr> &roots) {
    for (const Expr &e : roots)
      collect(e.node());
    angles_.finish();
    exponents_.finish();
  }

  // Per root, whether every trial evaluates it to 0. A root whose trials
  // keep dividing by 0 is not proven zero. Trials share one memo, so a batch
  // costs one evaluation of the union of the DAGs per trial.
  std::vector<bool> run(const std::vector<Expr> &roots, int trials) {
    std::vector<bool> zero(roots.size(), true);
    u64 seed = 0x5eed;
    for (const Expr &e : roots)
      seed = seed * 31 + e->hash;
    Random random(seed);
    for (int trial = 0; trial < trials; ++trial) {
      std::vector<size_t> pending;
      for (size_t i = 0; i < roots.size(); ++i)
        if (zero[i])
          pending.push_back(i);
      field_ = Field{kPrimes[trial % 2]};
      for (int attempt = 0; attempt < 8 && !pending.empty(); ++attempt) {
        draw(random);
        std::vector<size_t> retry;
        for (size_t i : pending) {
          try {
            if (value(roots[i].node()) != 0)
              zero[i] = false;
          } catch (const DivisionByZero &) {
            retry.push_back(i);
          }
        }
        pending = std::move(retry);
      }
      for (size_t i : pending)
        zero[i] = false; // undecided: treated as not proven zero
    }
    return zero;
  }

private:
  void collect(const Node *n) {
    if (!seen_.insert({n, 0}).second)
      return;
    if (n->kind == Kind::Func && isTrig(n->fn))
      angles_.add(n->ops[0]);
    else if (n->kind == Kind::Func && isHyperbolic(n->fn))
      exponents_.add(n->ops[0]);
    if (opaque(n))
      return; // its children are never evaluated
    for (const Node *child : n->ops)
      collect(child);
  }

  static bool opaque(const Node *n) {
    if (n->kind == Kind::Pow)
      return !isIntegerNumber(n->ops[1]);
    return n->kind == Kind::Func && !isTrig(n->fn) && !isHyperbolic(n->fn);
  }

  void draw(Random &random) {
    memo_.clear();
    free_.clear();
    circle_.assign(angles_.atomCount(), {});
    for (Gauss &g : circle_) {
      u64 u, d;
      do {
        u = random.next() % field_.p;
        d = field_.add(1, field_.mul(u, u));
      } while (d == 0);
      u64 inv = field_.inv(d);
      g = {field_.mul(field_.sub(1, field_.mul(u, u)), inv), field_.mul(field_.mul(2, u), inv)};
    }
    exp_.assign(exponents_.atomCount(), 0);
    for (u64 &e : exp_)
      do
        e = random.next() % field_.p;
      while (e == 0);
    random_ = &random;
  }

  u64 freeValue(const Node *a, const Node *b) {
    auto [it, inserted] = free_.insert({{a, b}, 0});
    if (inserted)
      it->second = random_->next() % field_.p;
    return it->second;
  }

  u64 inverse(u64 v) const {
    if (v == 0)
      throw DivisionByZero{};
    return field_.inv(v);
  }

  u64 number(const Num &num) const {
    if (num.exact())
      return field_.mul(field_.fromInt(num.rational().num()),
                        inverse(field_.fromInt(num.rational().den())));
    double d = num.toDouble();
    if (!std::isfinite(d))
      throw DivisionByZero{}; // not a field element: undecided
    int exponent = 0;
    double mantissa = std::frexp(d, &exponent); // d = mantissa * 2^exponent, |mantissa| < 1
    int64_t m = static_cast<int64_t>(std::ldexp(mantissa, 53));
    exponent -= 53;
    u64 scale = field_.pow(2, static_cast<u64>(std::abs(exponent)));
    return exponent >= 0 ? field_.mul(field_.fromInt(m), scale)
                         : field_.mul(field_.fromInt(m), inverse(scale));
  }

  u64 power(u64 base, int64_t k) const {
    u64 r = field_.pow(base, static_cast<u64>(k < 0 ? -(k + 1) : k) + (k < 0 ? 1 : 0));
    return k < 0 ? inverse(r) : r;
  }

  u64 factor(const Node *base, const Node *exp) {
    if (!isIntegerNumber(exp))
      return freeValue(base, exp);
    return power(value(base), exp->num.rational().num());
  }

  Gauss angle(const Node *arg) const {
    Gauss z{1, 0};
    for (const auto &[atom, k] : angles_.combination(arg).terms) {
      Gauss g = circle_[atom];
      if (k < 0)
        g.im = field_.sub(0, g.im); // the inverse of a unit is its conjugate
      u64 n = static_cast<u64>(k < 0 ? -(k + 1) : k) + (k < 0 ? 1 : 0);
      for (Gauss w = g; n; n >>= 1, w = times(w, w))
        if (n & 1)
          z = times(z, w);
    }
    return z;
  }

  Gauss times(Gauss a, Gauss b) const {
    return {field_.sub(field_.mul(a.re, b.re), field_.mul(a.im, b.im)),
            field_.add(field_.mul(a.re, b.im), field_.mul(a.im, b.re))};
  }

  u64 exponential(const Node *arg) const {
    u64 r = 1;
    for (const auto &[atom, k] : exponents_.combination(arg).terms)
      r = field_.mul(r, power(exp_[atom], k));
    return r;
  }

  u64 function(const Node *n) {
    const Node *arg = n->ops[0];
    if (isTrig(n->fn)) {
      Gauss z = angle(arg);
      if (n->fn == Fn::Cos)
        return z.re;
      return n->fn == Fn::Sin ? z.im : field_.mul(z.im, inverse(z.re));
    }
    u64 e = exponential(arg), ie = inverse(e), half = field_.inv(2);
    u64 sinh = field_.mul(field_.sub(e, ie), half), cosh = field_.mul(field_.add(e, ie), half);
    switch (n->fn) {
    case Fn::Exp:
      return e;
    case Fn::Sinh:
      return sinh;
    case Fn::Cosh:
      return cosh;
    default:
      return field_.mul(sinh, inverse(cosh));
    }
  }

  u64 value(const Node *n) {
    auto found = memo_.find(n);
    if (found != memo_.end())
      return found->second;
    u64 v = 0;
    switch (n->kind) {
    case Kind::Number:
      v = number(n->num);
      break;
    case Kind::Symbol:
      v = freeValue(n, nullptr);
      break;
    case Kind::Add:
      v = number(n->num);
      for (size_t i = 0; i < n->ops.size(); i += 2)
        v = field_.add(v, field_.mul(number(n->ops[i + 1]->num), value(n->ops[i])));
      break;
    case Kind::Mul:
      v = number(n->num);
      for (size_t i = 0; i < n->ops.size(); i += 2)
        v = field_.mul(v, factor(n->ops[i], n->ops[i + 1]));
      break;
    case Kind::Pow:
      v = factor(n->ops[0], n->ops[1]);
      break;
    case Kind::Func:
      v = opaque(n) ? freeValue(n, nullptr) : function(n);
      break;
    }
    memo_.emplace(n, v);
    return v;
  }

  std::unordered_map<const Node *, int> seen_;
  AngleAtoms angles_, exponents_;
  Field field_{kPrimes[0]};
  Random *random_ = nullptr;
  std::vector<Gauss> circle_;
  std::vector<u64> exp_;
  std::map<std::pair<const Node *, const Node *>, u64> free_;
  std::unordered_map<const Node *, u64> memo_;
};

} // namespace

std::vector<bool> areIdenticallyZero(const std::vector<Expr> &exprs, int trials) {
  std::vector<bool> zero(exprs.size(), false);
  std::vector<Expr> open;
  std::vector<size_t> where;
  for (size_t i = 0; i < exprs.size(); ++i) {
    if (exprs[i].isNumber() || exprs[i].kind() == Kind::Symbol)
      zero[i] = exprs[i].isZero();
    else {
      open.push_back(exprs[i]);
      where.push_back(i);
    }
  }
  if (open.empty())
    return zero;
  std::vector<bool> decided = ZeroTest(open).run(open, trials);
  for (size_t i = 0; i < open.size(); ++i)
    zero[where[i]] = decided[i];
  return zero;
}

bool isIdenticallyZero(const Expr &e) {
  return areIdenticallyZero({e})[0];
}

bool areEqual(const Expr &a, const Expr &b) {
  return isIdenticallyZero(a - b);
}

Expr zeroIfIdenticallyZero(const Expr &e) {
  return !e.isZero() && isIdenticallyZero(e) ? e.context().zero() : e;
}

void zeroIdenticallyZero(std::vector<Expr> &exprs) {
  std::vector<bool> zero = areIdenticallyZero(exprs);
  for (size_t i = 0; i < exprs.size(); ++i)
    if (zero[i] && !exprs[i].isZero())
      exprs[i] = exprs[i].context().zero();
}

bool dependsOnTime(const Expr &e) {
  if (!e.has(kHasTime))
    return false;
  if (isIdenticallyZero(diff(e, e.context().time())))
    return false;
  return simplifyTrig(expand(e)).has(kHasTime);
}

} // namespace mech::sym
