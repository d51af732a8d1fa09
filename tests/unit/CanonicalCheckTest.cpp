// The canonical-form rules (symbolic/CanonicalCheck.h) hold for what the
// factories build and refuse nodes written by hand that break them: each
// rule is shown to fire on a node that breaks it and only it.
#include "symbolic/CanonicalCheck.h"
#include "support/Diagnostics.h"

#include <catch2/catch.hpp>

using namespace mech;
using namespace mech::sym;

namespace {

Node node(Kind kind, Num num, std::vector<const Node *> ops) {
  Node n;
  n.kind = kind;
  n.num = num;
  n.ops = std::move(ops);
  return n;
}

} // namespace

TEST_CASE("canonical forms: the factories' nodes pass") {
  Context c;
  Expr x = c.symbol("x", SymbolKind::Free), y = c.symbol("y", SymbolKind::Free);
  Expr one = c.integer(1), two = c.integer(2), three = c.integer(3);
  for (const Expr &e : {x + y + one, two * x * y, pow(x, 3), sqrt(x + one), pow(x + y, 2) - x,
                        apply(Fn::Sin, x) * apply(Fn::Cos, y) / three}) {
    CHECK_NOTHROW(checkCanonical(*e.node(), &c));
    for (const Node *op : e->ops)
      CHECK_NOTHROW(checkCanonical(*op, &c));
  }
}

TEST_CASE("canonical forms: each broken rule is named") {
  Context c, other;
  Expr x = c.symbol("x", SymbolKind::Free), y = c.symbol("y", SymbolKind::Free);
  const Node *one = c.integer(1).node(), *two = c.integer(2).node(), *zero = c.integer(0).node();
  const Node *low = canonicalLess(x.node(), y.node()) ? x.node() : y.node();
  const Node *high = low == x.node() ? y.node() : x.node();
  auto broken = [&](const Node &n, const std::string &rule) {
    CHECK_THROWS_WITH(checkCanonical(n, &c), Catch::Contains(rule));
  };
  broken(node(Kind::Add, Num(1), {high, one, low, one}), "terms out of order");
  broken(node(Kind::Add, Num(0), {low, one}), "a sum of one term with coefficient 1");
  broken(node(Kind::Add, Num(1), {low, zero}), "not a nonzero number");
  broken(node(Kind::Add, Num(1), {two, one}), "a number or sum inside a sum");
  broken(node(Kind::Mul, Num(3), {high, one, low, one}), "bases out of order");
  broken(node(Kind::Mul, Num(1), {low, two}), "a product of one factor with coefficient 1");
  broken(node(Kind::Pow, Num(0), {low, one}), "exponent 0 or 1");
  broken(node(Kind::Pow, Num(0), {two, two}), "an integer power of a number");
  Expr z = other.symbol("z", SymbolKind::Free);
  broken(node(Kind::Add, Num(1), {z.node(), one}), "an operand from another context");
  // 0^-1 stays a power: a division by zero, reported later.
  const Node *minusOne = c.integer(-1).node();
  CHECK_NOTHROW(checkCanonical(node(Kind::Pow, Num(0), {zero, minusOne}), &c));
  // The same nodes in order pass.
  CHECK_NOTHROW(checkCanonical(node(Kind::Add, Num(1), {low, one, high, one}), &c));
  CHECK_NOTHROW(checkCanonical(node(Kind::Mul, Num(3), {low, one, high, two}), &c));
}
