// Constants in the resolver: the value of an expression made of numbers, pi,
// params and constant lets (for params, initial values and exponents), and
// integer constants for ranges and indices, whose params become structural.
#include "sema/Resolver.h"

#include "sema/ModelPrinter.h"

#include <algorithm>
#include <cmath>

namespace mech::sema {

namespace {

// A param that fixes a range or an index fixes the model's structure: it
// cannot be changed without analysing the model again.
void markStructural(const ExprRef &e, CheckedModel &model) {
  if (e->kind == ExprKind::Param)
    model.params[static_cast<size_t>(e->index)].structural = true;
  if (e->kind == ExprKind::Let && model.lets[static_cast<size_t>(e->index)].value)
    markStructural(model.lets[static_cast<size_t>(e->index)].value, model);
  for (const ExprRef &child : e->children)
    markStructural(child, model);
}

} // namespace

std::optional<long> Resolver::resolveInteger(const ast::Expr &expr, const Env &env,
                                             const char *what) {
  ExprRef value = resolve(expr, env);
  if (!value)
    return std::nullopt;
  std::optional<double> number = value->shape.isScalar() ? evaluateConstant(value) : std::nullopt;
  if (!number) {
    diagnostics_.error(expr.location, std::string(what) +
                                          " must be a constant integer (made of numbers, params "
                                          "and indices)");
    return std::nullopt;
  }
  if (value->dim.isKnown() && !value->dim.dimension.isDimensionless()) {
    diagnostics_.error(expr.location, std::string(what) + " must be dimensionless, found " +
                                          value->dim.dimension.toString());
    return std::nullopt;
  }
  double rounded = std::round(*number);
  if (std::abs(*number - rounded) > 1e-9) {
    diagnostics_.error(expr.location,
                       std::string(what) + " must be an integer, found " + formatNumber(*number));
    return std::nullopt;
  }
  if (std::abs(rounded) > 1e15) {
    diagnostics_.error(expr.location,
                       std::string(what) + " of " + formatNumber(*number) + " is out of range");
    return std::nullopt;
  }
  markStructural(value, model_);
  return static_cast<long>(rounded);
}

std::optional<double> Resolver::evaluateConstant(const ExprRef &e) {
  return evaluateScalar(model_, e, std::nullopt);
}

// min, max, clamp, if (its condition a truth, 1 or 0) and smooth.
static std::optional<double> piecewiseValue(Builtin builtin, const std::vector<double> &args) {
  switch (builtin) {
  case Builtin::Min:
    return *std::min_element(args.begin(), args.end());
  case Builtin::Max:
    return *std::max_element(args.begin(), args.end());
  case Builtin::Clamp:
    return std::min(std::max(args[0], args[1]), args[2]);
  case Builtin::If:
    return args[0] > 0 ? args[1] : args[2];
  case Builtin::Smooth:
    return args[0];
  default:
    return std::nullopt;
  }
}

std::optional<double> evaluateScalar(const CheckedModel &model, const ExprRef &e,
                                     std::optional<double> time) {
  if (!e->shape.isScalar() || e->coordOrder >= 0 || (e->usesTime && !time) || e->usesMultiplier ||
      e->usesInput)
    return std::nullopt;
  auto child = [&](size_t i) { return evaluateScalar(model, e->children[i], time); };
  switch (e->kind) {
  case ExprKind::Number:
    return e->value;
  case ExprKind::Pi:
    return M_PI;
  case ExprKind::Time:
    return *time;
  case ExprKind::Param:
    return model.params[static_cast<size_t>(e->index)].value;
  case ExprKind::Let: {
    const Let &let = model.lets[static_cast<size_t>(e->index)];
    return let.value ? evaluateScalar(model, let.value, time) : std::nullopt;
  }
  case ExprKind::Neg: {
    auto x = child(0);
    return x ? std::optional(-*x) : std::nullopt;
  }
  case ExprKind::Add:
  case ExprKind::Mul: {
    double result = e->kind == ExprKind::Add ? 0 : 1;
    for (size_t i = 0; i < e->children.size(); ++i) {
      auto x = child(i);
      if (!x)
        return std::nullopt;
      result = e->kind == ExprKind::Add ? result + *x : result * *x;
    }
    return result;
  }
  case ExprKind::Pow: {
    auto x = child(0), y = child(1);
    if (!x || !y)
      return std::nullopt;
    return std::pow(*x, *y);
  }
  case ExprKind::Compare: { // a truth: 1 or 0
    auto x = child(0), y = child(1);
    if (!x || !y)
      return std::nullopt;
    const bool holds = e->index == 0   ? *x < *y
                       : e->index == 1 ? *x <= *y
                       : e->index == 2 ? *x > *y
                                       : *x >= *y;
    return holds ? 1.0 : 0.0;
  }
  case ExprKind::Logic: {
    std::vector<double> truths;
    for (size_t i = 0; i < e->children.size(); ++i) {
      auto x = child(i);
      if (!x)
        return std::nullopt;
      truths.push_back(*x);
    }
    if (e->index == 2)
      return truths[0] > 0 ? 0.0 : 1.0;
    bool all = true, any = false;
    for (double truth : truths)
      all = all && truth > 0, any = any || truth > 0;
    return (e->index == 0 ? all : any) ? 1.0 : 0.0;
  }
  case ExprKind::TableCall: {
    auto x = child(0);
    return x ? std::optional(model.tables[static_cast<size_t>(e->index)].value(*x)) : std::nullopt;
  }
  case ExprKind::Derivative: // of a constant; t' is not one
    return e->usesTime ? std::nullopt : std::optional(0.0);
  case ExprKind::Call: {
    std::vector<double> args;
    for (size_t i = 0; i < e->children.size(); ++i) {
      auto x = child(i);
      if (!x)
        return std::nullopt;
      args.push_back(*x);
    }
    if (e->builtin == Builtin::Sqrt)
      return std::sqrt(args[0]);
    if (auto value = piecewiseValue(e->builtin, args))
      return value;
    if (static_cast<int>(e->builtin) <= static_cast<int>(Builtin::Sign))
      return evaluateElementary(static_cast<ElementaryFunction>(e->builtin), args[0],
                                args.size() > 1 ? args[1] : 0.0);
    switch (e->builtin) {
    default:
      return std::nullopt;
    }
  }
  default:
    return std::nullopt;
  }
}

} // namespace mech::sema
