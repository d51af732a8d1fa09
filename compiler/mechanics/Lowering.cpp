// One lowering rule per sema IR kind.
#include "mechanics/Lowering.h"

#include "mechanics/Builtins.h"
#include "mechanics/TableLaws.h"
#include "support/Diagnostics.h"
#include "symbolic/Print.h"

namespace mech::mechanics {

using sym::Expr;

Lowering::Lowering(const sema::CheckedModel &model, sym::Context &context)
    : model_(model), context_(context), timeDerivative_(sym::totalTime(context)) {
  for (size_t i = 0; i < model.params.size(); ++i)
    params_.push_back(
        context.symbol(model.params[i].name, sym::SymbolKind::Param, static_cast<int>(i)));
  for (size_t i = 0; i < model.coords.size(); ++i)
    coordinates_.push_back(context.coordinate(model.coords[i].name, static_cast<int>(i)));
  for (size_t i = 0; i < model.constraints.size(); ++i)
    multipliers_.push_back(context.symbol(model.constraints[i].name, sym::SymbolKind::Multiplier,
                                          static_cast<int>(i)));
}

Expr Lowering::scalar(const sema::ExprRef &e) {
  Tensor t = lower(e);
  if (!t.isScalar())
    internalError("a scalar was expected in lowering");
  return t.v[0];
}

Tensor Lowering::lower(const sema::ExprRef &e) {
  auto found = memo_.find(e.get());
  if (found != memo_.end())
    return found->second;
  Tensor result = lowerNode(*e);
  memo_.emplace(e.get(), result);
  return result;
}

Tensor Lowering::product(const Tensor &a, const Tensor &b) {
  return tensorProduct(context_, a, b);
}

Tensor tensorProduct(sym::Context &context, const Tensor &a, const Tensor &b) {
  if (a.isScalar() || b.isScalar()) {
    const Tensor &s = a.isScalar() ? a : b;
    Tensor t = a.isScalar() ? b : a;
    for (Expr &x : t.v)
      x = s.v[0] * x;
    return t;
  }
  // Matrix times vector or matrix (sema checked the shapes).
  int n = a.cols, rows = a.rows;
  int cols = b.cols == 0 ? 0 : b.cols;
  int width = cols == 0 ? 1 : cols;
  Tensor t{rows, cols, {}};
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < width; ++j) {
      std::vector<Expr> terms;
      for (int k = 0; k < n; ++k)
        terms.push_back(a.v[static_cast<size_t>(i * n + k)] *
                        b.v[static_cast<size_t>(k * width + j)]);
      t.v.push_back(context.add(terms));
    }
  return t;
}

Tensor Lowering::child(const sema::Node &n, size_t i) {
  return lower(n.children[i]);
}

// Leaves, lets and the structural kinds here; sums, products and calls,
// which build the most, in their own rules below.
Tensor Lowering::lowerNode(const sema::Node &n) {
  using K = sema::ExprKind;
  sym::Context &c = context_;
  switch (n.kind) {
  case K::Number:
    if (n.exact)
      return Tensor::scalar(c.number(sym::Num(*n.exact)));
    return Tensor::scalar(c.number(sym::Num::inexact(n.value)));
  case K::Pi:
    return Tensor::scalar(c.pi());
  case K::Time:
    return Tensor::scalar(c.time());
  case K::Param:
    return Tensor::scalar(params_[static_cast<size_t>(n.index)]);
  case K::Coord:
    return Tensor::scalar(coordinates_[static_cast<size_t>(n.index)].q);
  case K::Multiplier:
    return Tensor::scalar(multipliers_[static_cast<size_t>(n.index)]);
  case K::Let: {
    auto found = lets_.find(n.index);
    if (found != lets_.end())
      return found->second;
    Tensor value = lower(model_.lets[static_cast<size_t>(n.index)].value);
    lets_.emplace(n.index, value);
    return value;
  }
  case K::Neg: {
    Tensor t = child(n, 0);
    for (Expr &x : t.v)
      x = -x;
    return t;
  }
  case K::Add:
    return lowerSum(n);
  case K::Mul:
    return lowerMul(n);
  case K::Pow:
    return Tensor::scalar(sym::pow(child(n, 0).v[0], child(n, 1).v[0]));
  case K::Vector:
  case K::Matrix: {
    Tensor t{n.shape.rows, n.shape.cols, {}};
    for (size_t i = 0; i < n.children.size(); ++i)
      t.v.push_back(child(n, i).v[0]);
    return t;
  }
  case K::Component:
    return Tensor::scalar(child(n, 0).v[static_cast<size_t>(n.index)]);
  case K::Derivative: {
    Tensor t = child(n, 0);
    for (Expr &x : t.v)
      x = timeDerivative_(x);
    return t;
  }
  case K::Call:
    break;
  case K::TableCall: {
    Expr x = child(n, 0).v[0];
    const sema::Table &table = model_.tables[static_cast<size_t>(n.index)];
    Tensor value = Tensor::scalar(tableLaw(table, x));
    notePiecewise(value, n.location);
    std::string name = table.name;
    for (size_t at = 0; (at = name.find('_', at)) != std::string::npos; at += 2)
      name.replace(at, 1, "\\_");
    tableCalls_.push_back({value.v[0], table.name + "(" + sym::toMech(x) + ")",
                           "\\operatorname{" + name + "}\\left(" + sym::toLatex(x) + "\\right)"});
    return value;
  }
  case K::Compare:
  case K::Logic:
    internalError("a condition lowered outside if");
  }
  return lowerCall(n);
}

// Component by component, each one n-ary sum over the terms.
Tensor Lowering::lowerSum(const sema::Node &n) {
  Tensor t = child(n, 0);
  std::vector<std::vector<Expr>> columns(t.v.size());
  for (size_t i = 0; i < n.children.size(); ++i) {
    Tensor term = child(n, i);
    for (size_t k = 0; k < t.v.size(); ++k)
      columns[k].push_back(term.v[k]);
  }
  for (size_t k = 0; k < t.v.size(); ++k)
    t.v[k] = context_.add(columns[k]);
  return t;
}

Tensor Lowering::lowerMul(const sema::Node &n) {
  // Scalars multiply in one n-ary product; matrices fold left to right.
  bool allScalar = true;
  for (const auto &f : n.children)
    allScalar = allScalar && f->shape.isScalar();
  if (allScalar) {
    std::vector<Expr> factors;
    for (size_t i = 0; i < n.children.size(); ++i)
      factors.push_back(child(n, i).v[0]);
    return Tensor::scalar(context_.mul(factors));
  }
  Tensor t = child(n, 0);
  for (size_t i = 1; i < n.children.size(); ++i)
    t = product(t, child(n, i));
  return t;
}

// if's condition (sema's Compare and Logic nodes) for sym::choose.
sym::Condition Lowering::lowerCondition(const sema::Node &n) {
  if (n.kind == sema::ExprKind::Compare) {
    using C = sym::Comparison;
    static constexpr C ops[] = {C::Less, C::LessEqual, C::Greater, C::GreaterEqual};
    return sym::compare(ops[n.index], child(n, 0).v[0], child(n, 1).v[0]);
  }
  using Kind = sym::Condition::Kind;
  static constexpr Kind kinds[] = {Kind::And, Kind::Or, Kind::Not};
  sym::Condition c{kinds[n.index], {}, {}};
  for (const sema::ExprRef &operand : n.children)
    c.operands.push_back(lowerCondition(*operand));
  return c;
}

// Built-in functions: their one implementation (mechanics/Builtins.h), on
// the lowered arguments.
Tensor Lowering::lowerCall(const sema::Node &n) {
  using B = sema::Builtin;
  if (n.builtin == B::If) {
    sym::Condition condition = lowerCondition(*n.children[0]);
    Tensor a = child(n, 1), b = child(n, 2);
    for (size_t k = 0; k < a.v.size(); ++k)
      a.v[k] = sym::choose(condition, a.v[k], b.v[k]);
    notePiecewise(a, n.location);
    return a;
  }
  std::vector<Tensor> args;
  for (size_t i = 0; i < n.children.size(); ++i)
    args.push_back(child(n, i));
  Tensor result = applyBuiltin(context_, n.builtin, args);
  if (n.builtin == B::Min || n.builtin == B::Max || n.builtin == B::Clamp || n.builtin == B::Abs ||
      n.builtin == B::Sign)
    notePiecewise(result, n.location);
  return result;
}

void Lowering::notePiecewise(const Tensor &t, Location at) {
  std::vector<const sym::Node *> pending;
  for (const sym::Expr &x : t.v)
    pending.push_back(x.node());
  while (!pending.empty()) {
    const sym::Node *node = pending.back();
    pending.pop_back();
    if (!walked_.insert(node).second)
      continue;
    if (node->kind == sym::Kind::Func &&
        (node->fn == sym::Fn::Select || node->fn == sym::Fn::Abs || node->fn == sym::Fn::Sign))
      piecewiseAt_.emplace(node, at);
    pending.insert(pending.end(), node->ops.begin(), node->ops.end());
  }
}

} // namespace mech::mechanics
