// Command-line values through the same parser and resolver as model text.
#include "sema/Values.h"

#include "sema/Resolver.h"
#include "syntax/Parser.h"

#include <cmath>

namespace mech::sema {

namespace {

// The params a value may use, families included (m[2]); an input has no
// value here.
void declareParamSymbols(const CheckedModel &scratch, Resolver &resolver) {
  for (size_t i = 0; i < scratch.params.size(); ++i) {
    const Param &param = scratch.params[i];
    if (param.input)
      continue;
    int index = static_cast<int>(i);
    if (param.family.empty()) {
      resolver.symbols.emplace(param.name,
                               Symbol{SymbolKind::Param, param.location, false, index, {}, {}});
      continue;
    }
    Symbol &family =
        resolver.symbols
            .emplace(param.family, Symbol{SymbolKind::Param, param.location, true, -1, {}, {}})
            .first->second;
    family.members[param.indices] = index;
  }
}

// A value's number: a finite constant scalar, or nullopt after an error.
std::optional<double> constantNumber(Resolver &resolver, const ExprRef &value,
                                     const std::string &name, Diagnostics &diagnostics) {
  std::optional<double> number =
      value->shape.isScalar() ? resolver.evaluateConstant(value) : std::nullopt;
  if (!number) {
    diagnostics.error(value->location, "the value of '" + name + "' must be a constant number");
    return std::nullopt;
  }
  // As for a value in the model: inf or nan would only fail later, far
  // from the option (a singular mass matrix, a time grid without end).
  if (!std::isfinite(*number)) {
    diagnostics.error(value->location, "the value of '" + name + "' is not finite");
    return std::nullopt;
  }
  return number;
}

} // namespace

std::optional<std::vector<Assignment>>
parseAssignments(Compilation &compilation, const std::string &origin, const std::string &text,
                 const CheckedModel *model, const std::string &shown, bool allowLists) {
  Diagnostics &diagnostics = compilation.diagnostics();
  const SourceFile &source = compilation.sources().add(assignmentSourceName(origin), text, shown);
  auto items = mech::parseAssignments(source, diagnostics);
  if (!items)
    return std::nullopt;
  // A scratch model holding only the params, so values can use them.
  CheckedModel scratch;
  if (model != nullptr)
    scratch.params = model->params;
  Resolver resolver(scratch, diagnostics);
  declareParamSymbols(scratch, resolver);
  Env env;
  std::vector<Assignment> result;
  bool ok = true;
  for (const ast::InitItem &item : *items) {
    Assignment a;
    a.name = item.name;
    a.primes = item.primes;
    a.location = item.location;
    for (const ast::ExprPtr &index : item.indices) {
      auto value = resolver.resolveInteger(*index, env, "an index");
      if (!value) {
        ok = false;
        continue;
      }
      a.indices.push_back(*value);
    }
    if (!a.indices.empty()) {
      a.name += "[";
      for (size_t k = 0; k < a.indices.size(); ++k)
        a.name += (k ? ", " : "") + std::to_string(a.indices[k]);
      a.name += "]";
    }
    // A list is resolved entry by entry: it may be longer than a geometric
    // vector.
    bool list = allowLists && item.value->kind == ast::ExprKind::Vector;
    std::vector<const ast::Expr *> entries{item.value.get()};
    if (list) {
      entries.clear();
      for (const ast::ExprPtr &element : static_cast<const ast::Vector &>(*item.value).elements)
        entries.push_back(element.get());
    }
    for (const ast::Expr *entry : entries) {
      ExprRef value = resolver.resolve(*entry, env);
      std::optional<double> number =
          value ? constantNumber(resolver, value, a.name, diagnostics) : std::nullopt;
      if (!number) {
        ok = false;
        break;
      }
      if (list && a.values.size() > 0 && a.dim.isKnown() && value->dim.isKnown() &&
          !(a.dim.dimension == value->dim.dimension)) {
        diagnostics.error(entry->location,
                          "the values of '" + a.name +
                              "' must have one dimension: " + a.dim.dimension.toString() + " and " +
                              value->dim.dimension.toString());
        ok = false;
        break;
      }
      (list ? a.values.emplace_back(*number) : a.value) = *number;
      a.dim = value->dim;
    }
    if (!ok)
      continue;
    result.push_back(a);
  }
  if (!ok)
    return std::nullopt;
  return result;
}

std::vector<ParamOverride> toOverrides(const std::vector<Assignment> &assignments) {
  std::vector<ParamOverride> overrides;
  for (const Assignment &a : assignments)
    overrides.push_back({a.name, a.value, a.values, a.dim, a.location, a.primes});
  return overrides;
}

} // namespace mech::sema
