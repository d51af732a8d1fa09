// The rules of the canonical forms (symbolic/CanonicalCheck.h):
// - Add: constant + c1*t1 + ... with at least one term, every c nonzero and a
//   number, every t neither a number nor a sum nor a scaled product, the
//   terms in canonical order, and no lone term with coefficient 1 and
//   constant 0 (that is the term itself);
// - Mul: coefficient * b1^e1 * ... with a nonzero coefficient, the bases in
//   canonical order, and not a lone power with coefficient 1 (a Pow or the
//   base itself);
// - Pow: b^e with e neither 0 nor 1, b not 1, and no integer power of a
//   number, a power or a product (those multiply out), except 0^-k, which
//   stands for a division by zero.
#include "symbolic/CanonicalCheck.h"

#include "support/Diagnostics.h"

#include <string>

namespace mech::sym {

namespace {

void require(bool rule, const char *what) {
  if (!rule)
    internalError(std::string("non-canonical expression: ") + what);
}

bool isIntegerNumber(const Node *n) {
  return n->kind == Kind::Number && n->num.isInteger();
}

void checkAdd(const Node &n) {
  require(n.ops.size() >= 2 && n.ops.size() % 2 == 0, "a sum without terms");
  for (size_t i = 0; i < n.ops.size(); i += 2) {
    const Node *term = n.ops[i], *coefficient = n.ops[i + 1];
    require(coefficient->kind == Kind::Number && !coefficient->num.isZero(),
            "a sum's coefficient is not a nonzero number");
    require(term->kind != Kind::Number && term->kind != Kind::Add, "a number or sum inside a sum");
    require(term->kind != Kind::Mul || term->num.isOne(), "a scaled product as a sum's term");
    if (i > 0)
      require(canonicalLess(n.ops[i - 2], term), "a sum's terms out of order or repeated");
  }
  require(n.ops.size() > 2 || !n.num.isZero() || !n.ops[1]->num.isOne(),
          "a sum of one term with coefficient 1");
}

void checkMul(const Node &n) {
  require(n.ops.size() >= 2 && n.ops.size() % 2 == 0, "a product without factors");
  require(!n.num.isZero(), "a product with coefficient 0");
  for (size_t i = 2; i < n.ops.size(); i += 2)
    require(canonicalLess(n.ops[i - 2], n.ops[i]), "a product's bases out of order or repeated");
  require(n.ops.size() > 2 || !n.num.isOne(), "a product of one factor with coefficient 1");
}

void checkPow(const Node &n) {
  require(n.ops.size() == 2, "a power without base and exponent");
  const Node *base = n.ops[0], *exponent = n.ops[1];
  require(!(exponent->kind == Kind::Number && (exponent->num.isZero() || exponent->num.isOne())),
          "a power with exponent 0 or 1");
  require(!(base->kind == Kind::Number && base->num.isOne()), "a power of 1");
  // 0^-k stays a power: it stands for the division by zero that a later
  // pass reports.
  bool divisionByZero =
      base->kind == Kind::Number && base->num.isZero() && exponent->num.isNegative();
  if (isIntegerNumber(exponent) && !divisionByZero)
    require(base->kind != Kind::Number && base->kind != Kind::Pow && base->kind != Kind::Mul,
            "an integer power of a number, power or product");
}

} // namespace

void checkCanonical(const Node &candidate, const Context *context) {
  for (const Node *op : candidate.ops)
    require(op->context == context, "an operand from another context");
  switch (candidate.kind) {
  case Kind::Add:
    return checkAdd(candidate);
  case Kind::Mul:
    return checkMul(candidate);
  case Kind::Pow:
    return checkPow(candidate);
  default:
    return;
  }
}

} // namespace mech::sym
