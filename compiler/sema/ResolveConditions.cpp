// A table's call, and the condition of if(cond, a, b), in the resolver: comparisons of scalars
// of one dimension, joined by `and`, `or` and `not`. The grammar allows a
// condition only as if's first argument; its value is a truth, not a
// quantity (mechanics/Lowering turns the choice into the engine's select).
#include "sema/Resolver.h"
#include "sema/ResolverInternal.h"

namespace mech::sema {

ExprRef Resolver::resolveComparison(const ast::Compare &compare, const Env &env) {
  ExprRef lhs = resolve(*compare.lhs, env), rhs = resolve(*compare.rhs, env);
  if (!lhs || !rhs)
    return nullptr;
  for (const auto &[side, at] : {std::pair{&lhs, compare.lhs.get()}, {&rhs, compare.rhs.get()}})
    if (!(*side)->shape.isScalar()) {
      diagnostics_.error(at->location, std::string("a comparison (") +
                                           ast::compareSpelling(compare.op) +
                                           ") needs scalars, found " + (*side)->shape.toString());
      return nullptr;
    }
  if (!sumDimension(lhs->dim, rhs->dim, compare.location, "this comparison"))
    return nullptr;
  auto node = std::const_pointer_cast<Node>(
      make(ExprKind::Compare, Shape::scalar(), DimInfo::pure(), compare.location, {lhs, rhs}));
  using Op = ast::Compare::Op;
  node->index = compare.op == Op::Less        ? 0
                : compare.op == Op::LessEqual ? 1
                : compare.op == Op::Greater   ? 2
                                              : 3;
  return node;
}

ExprRef Resolver::resolveLogic(const ast::Logic &logic, const Env &env) {
  std::vector<ExprRef> operands;
  for (const ast::ExprPtr &operand : logic.operands) {
    ExprRef value = resolve(*operand, env);
    if (!value)
      return nullptr;
    operands.push_back(value);
  }
  auto node = std::const_pointer_cast<Node>(
      make(ExprKind::Logic, Shape::scalar(), DimInfo::pure(), logic.location, operands));
  node->index = logic.op == ast::Logic::Op::And ? 0 : logic.op == ast::Logic::Op::Or ? 1 : 2;
  return node;
}

ExprRef Resolver::resolveTableCall(const ast::Call &call, int index, std::vector<ExprRef> args) {
  if (index < 0 || static_cast<size_t>(index) >= model_.tables.size())
    return nullptr; // its declaration was in error
  const Table &table = model_.tables[static_cast<size_t>(index)];
  if (args.size() != 1) {
    diagnostics_.error(call.location, "table " + table.name + " takes 1 argument, " +
                                          std::to_string(args.size()) + " given");
    return nullptr;
  }
  if (!args[0]->shape.isScalar()) {
    diagnostics_.error(call.args[0]->location, "table " + table.name + " expects a scalar, found " +
                                                   args[0]->shape.toString());
    return nullptr;
  }
  if (!sumDimension(table.argumentDim, args[0]->dim, call.args[0]->location,
                    "the argument of table " + table.name + " (" + table.argument + ")"))
    return nullptr;
  auto node = std::const_pointer_cast<Node>(
      make(ExprKind::TableCall, Shape::scalar(), table.dim, call.location, std::move(args)));
  node->index = index;
  return node;
}

} // namespace mech::sema
