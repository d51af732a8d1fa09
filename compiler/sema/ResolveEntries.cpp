// Entries of vectors and matrices in the resolver: v[i], W[i, j], a row
// W[i, :] (or W[i]) and a column W[:, j], counted from 1 as in the
// textbooks. Members of indexed families (th[2]) are ResolveFamilies.cpp's.
#include "sema/Resolver.h"
#include "sema/ResolverInternal.h"

#include "syntax/Printer.h"

namespace mech::sema {

namespace {

bool isColon(const ast::Expr &e) {
  return e.kind == ast::ExprKind::Colon;
}

std::string describeEntry(const ast::Index &index, const Shape &shape) {
  return "'" + formatExpr(index) + "' does not exist: '" + formatExpr(*index.operand) + "' is " +
         shape.toString() + " (entries count from 1)";
}

} // namespace

// Entry `flat` (row-major) of value: the literal's own entry when value is
// written out, otherwise a Component node.
ExprRef Resolver::entry(const ExprRef &value, int flat, Location loc) {
  if ((value->kind == ExprKind::Vector || value->kind == ExprKind::Matrix) &&
      static_cast<size_t>(flat) < value->children.size())
    return value->children[static_cast<size_t>(flat)];
  auto node = std::const_pointer_cast<Node>(
      make(ExprKind::Component, Shape::scalar(), value->dim, loc, {value}));
  node->index = flat;
  return node;
}

// One index of an entry: a constant integer from 1 to size, or 0 for `:`.
std::optional<long> Resolver::entryIndex(const ast::Index &index, size_t which, long size,
                                         const Env &env, const Shape &shape) {
  const ast::Expr &e = *index.indices[which];
  if (isColon(e))
    return 0;
  std::optional<long> k = resolveInteger(e, env, "an index");
  if (!k)
    return std::nullopt;
  if (*k < 1 || *k > size) {
    diagnostics_.error(e.location, describeEntry(index, shape));
    return std::nullopt;
  }
  return k;
}

ExprRef Resolver::resolveEntry(const ast::Index &index, const Env &env) {
  ExprRef value = resolve(*index.operand, env);
  if (!value)
    return nullptr;
  const Shape shape = value->shape;
  size_t given = index.indices.size();
  if (shape.isScalar() || given > (shape.isMatrix() ? 2u : 1u)) {
    diagnostics_.error(index.location,
                       shape.isScalar()
                           ? "'" + formatExpr(*index.operand) +
                                 "' is a scalar: only vectors and matrices have entries, and "
                                 "only indexed families have members"
                           : "'" + formatExpr(*index.operand) + "' is " + shape.toString() +
                                 ": it takes " + (shape.isMatrix() ? "two indices" : "one index"));
    return nullptr;
  }
  if (shape.isVector()) {
    std::optional<long> i = entryIndex(index, 0, shape.rows, env, shape);
    if (!i)
      return nullptr;
    return *i == 0 ? value : entry(value, static_cast<int>(*i - 1), index.location);
  }
  std::optional<long> row = entryIndex(index, 0, shape.rows, env, shape);
  std::optional<long> col =
      given == 2 ? entryIndex(index, 1, shape.cols, env, shape) : std::optional<long>(0);
  if (!row || !col)
    return nullptr;
  if (*row > 0 && *col > 0)
    return entry(value, static_cast<int>((*row - 1) * shape.cols + *col - 1), index.location);
  if (*row == 0 && *col == 0)
    return value;
  // A row or a column: a vector of its entries.
  std::vector<ExprRef> entries;
  int count = *row > 0 ? shape.cols : shape.rows;
  for (int k = 0; k < count; ++k) {
    int flat = *row > 0 ? static_cast<int>(*row - 1) * shape.cols + k
                        : k * shape.cols + static_cast<int>(*col - 1);
    entries.push_back(entry(value, flat, index.location));
  }
  return make(ExprKind::Vector, Shape::vector(count), value->dim, index.location,
              std::move(entries));
}

} // namespace mech::sema
