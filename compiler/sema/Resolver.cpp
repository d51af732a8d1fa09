// Expression resolution: the one place where AST expressions become IR. This
// file holds node construction and the dispatch over expression kinds; the
// rules of each kind are in the Resolve*.cpp file of their concern.
#include "sema/Resolver.h"

#include <algorithm>

namespace mech::sema {

Resolver::Resolver(CheckedModel &model, Diagnostics &diagnostics)
    : model_(model), diagnostics_(diagnostics) {}

// ---------------------------------------------------------------------------
// Node construction

ExprRef Resolver::make(ExprKind kind, Shape shape, DimInfo dim, Location loc,
                       std::vector<ExprRef> children) {
  if (++nodeCount_ > kMaxNodes)
    throw ExpansionLimit{};
  auto node = std::make_shared<Node>();
  node->kind = kind;
  node->shape = shape;
  node->dim = dim;
  node->location = loc;
  for (const ExprRef &child : children) {
    node->treeSize += child->treeSize;
    node->coordOrder = std::max(node->coordOrder, child->coordOrder);
    node->usesTime = node->usesTime || child->usesTime;
    node->usesMultiplier = node->usesMultiplier || child->usesMultiplier;
    node->usesInput = node->usesInput || child->usesInput;
  }
  if (node->treeSize > kMaxTreeSize)
    throw ExpansionLimit{true, loc};
  node->children = std::move(children);
  return node;
}

ExprRef Resolver::number(double value, std::optional<Rational> exact, Location loc) {
  auto node = std::const_pointer_cast<Node>(
      make(ExprKind::Number, Shape::scalar(), DimInfo::pure(), loc, {}));
  node->value = value;
  node->exact = exact;
  return node;
}

// ---------------------------------------------------------------------------
// Expressions

ExprRef Resolver::resolve(const ast::Expr &expr, const Env &env) {
  switch (expr.kind) {
  case ast::ExprKind::Number:
    return resolveNumber(static_cast<const ast::Number &>(expr));
  case ast::ExprKind::Time: {
    DimInfo dim = env.plainTime ? DimInfo::pure() : DimInfo::known(Dimension::time());
    auto node = std::const_pointer_cast<Node>(
        make(ExprKind::Time, Shape::scalar(), dim, expr.location, {}));
    node->usesTime = true;
    return node;
  }
  case ast::ExprKind::Pi:
    return make(ExprKind::Pi, Shape::scalar(), DimInfo::pure(), expr.location, {});
  case ast::ExprKind::Name:
    return resolveName(static_cast<const ast::Name &>(expr), env);
  case ast::ExprKind::Call:
    return resolveCall(static_cast<const ast::Call &>(expr), env);
  case ast::ExprKind::SumOver:
    return resolveSum(static_cast<const ast::SumOver &>(expr), env);
  case ast::ExprKind::Vector:
    return resolveVector(static_cast<const ast::Vector &>(expr), env);
  case ast::ExprKind::Add:
    return resolveAdd(static_cast<const ast::Add &>(expr), env);
  case ast::ExprKind::Mul:
    return resolveMul(static_cast<const ast::Mul &>(expr), env);
  case ast::ExprKind::Neg: {
    ExprRef operand = resolve(*static_cast<const ast::Neg &>(expr).operand, env);
    if (!operand)
      return nullptr;
    return make(ExprKind::Neg, operand->shape, operand->dim, expr.location, {operand});
  }
  case ast::ExprKind::Pow:
    return resolvePow(static_cast<const ast::Pow &>(expr), env);
  case ast::ExprKind::Prime:
    return resolvePrime(static_cast<const ast::Prime &>(expr), env);
  case ast::ExprKind::Component:
    return resolveComponent(static_cast<const ast::Component &>(expr), env);
  case ast::ExprKind::Index:
    return resolveIndex(static_cast<const ast::Index &>(expr), env);
  case ast::ExprKind::Colon:
    diagnostics_.error(expr.location,
                       "':' stands for a whole row or column and can only be an index");
    return nullptr;
  case ast::ExprKind::Compare:
    return resolveComparison(static_cast<const ast::Compare &>(expr), env);
  case ast::ExprKind::Logic:
    return resolveLogic(static_cast<const ast::Logic &>(expr), env);
  }
  internalError("unhandled expression kind in resolver");
}

} // namespace mech::sema
