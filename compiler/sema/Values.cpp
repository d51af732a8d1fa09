// Command-line values through the same parser and resolver as model text.
#include "sema/Values.h"

#include "sema/Resolver.h"
#include "syntax/Parser.h"

#include <cmath>

namespace mech::sema {

std::optional<std::vector<Assignment>>
parseAssignments(Compilation &compilation, const std::string &origin, const std::string &text,
                 const CheckedModel *model, const std::string &shown) {
  Diagnostics &diagnostics = compilation.diagnostics();
  const SourceFile &source = compilation.sources().add("<" + origin + ">", text, shown);
  auto items = mech::parseAssignments(source, diagnostics);
  if (!items)
    return std::nullopt;
  // A scratch model holding only the params, so values can use them.
  CheckedModel scratch;
  if (model != nullptr)
    scratch.params = model->params;
  Resolver resolver(scratch, diagnostics);
  for (size_t i = 0; i < scratch.params.size(); ++i)
    if (!scratch.params[i].input) // an input has no value here
      resolver.symbols.emplace(
          scratch.params[i].name,
          Symbol{
              SymbolKind::Param, scratch.params[i].location, false, static_cast<int>(i), {}, {}});
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
    ExprRef value = resolver.resolve(*item.value, env);
    if (!value) {
      ok = false;
      continue;
    }
    std::optional<double> number =
        value->shape.isScalar() ? resolver.evaluateConstant(value) : std::nullopt;
    if (!number) {
      diagnostics.error(item.value->location,
                        "the value of '" + a.name + "' must be a constant number");
      ok = false;
      continue;
    }
    // As for a value in the model: inf or nan would only fail later, far
    // from the option (a singular mass matrix, a time grid without end).
    if (!std::isfinite(*number)) {
      diagnostics.error(item.value->location, "the value of '" + a.name + "' is not finite");
      ok = false;
      continue;
    }
    a.value = *number;
    a.dim = value->dim;
    result.push_back(a);
  }
  if (!ok)
    return std::nullopt;
  return result;
}

std::vector<ParamOverride> toOverrides(const std::vector<Assignment> &assignments) {
  std::vector<ParamOverride> overrides;
  for (const Assignment &a : assignments)
    overrides.push_back({a.name, a.value, a.dim, a.location, a.primes});
  return overrides;
}

} // namespace mech::sema
