// Initial values in the analyzer: `init q = ...` and `init q' = ...` set a
// coordinate (or a member of a coordinate family) or its velocity to a
// constant of the matching dimension, once each.
#include "sema/AnalyzerInternal.h"

namespace mech::sema {

void Analyzer::checkDecl(const ast::InitDecl &init, const Instance &instance) {
  for (const ast::InitItem &item : init.items)
    checkInitItem(item, instance);
}

void Analyzer::checkInitItem(const ast::InitItem &item, const Instance &instance) {
  Env env = baseEnv(instance.bindings);
  ExprRef coordinate = initTarget(item, env, "init sets");
  if (!coordinate)
    return;
  ExprRef value = resolver_.resolve(*item.value, env);
  if (!value)
    return;
  std::optional<double> number =
      value->shape.isScalar() ? resolver_.evaluateConstant(value) : std::nullopt;
  if (!number) {
    diagnostics_.error(item.value->location,
                       "an initial value must be a constant (numbers, pi and params)");
    return;
  }
  const Coord &coord = model_->coords[static_cast<size_t>(coordinate->index)];
  if (!resolver_.sumDimension(stateDimension(coord, item.primes), value->dim, item.value->location,
                              "the initial value of '" + coord.name +
                                  std::string(item.primes, '\'') + "'"))
    return;
  for (const Initial &previous : model_->initial)
    if (previous.coord == coordinate->index && previous.order == item.primes) {
      Diagnostic &d =
          diagnostics_.error(item.location, "'" + coord.name + std::string(item.primes, '\'') +
                                                "' is initialised twice");
      Diagnostics::addNote(d, previous.location, "previous init is here");
      return;
    }
  model_->initial.push_back({coordinate->index, item.primes, *number, item.location});
}

// The coordinate an init item or a reset sets: a plain coordinate or a
// member of a coordinate family, itself or its velocity (`sets` starts the
// message about a higher derivative: "init sets"); null after an error.
ExprRef Analyzer::initTarget(const ast::InitItem &item, const Env &env, const char *sets) {
  ExprRef coordinate = coordinateNamed(item, env);
  if (coordinate && item.primes > 1) {
    diagnostics_.error(item.location, std::string(sets) +
                                          " a coordinate or its velocity, not a derivative of "
                                          "order " +
                                          std::to_string(item.primes));
    return nullptr;
  }
  return coordinate;
}

// The coordinate an init item names; null after an error.
ExprRef Analyzer::coordinateNamed(const ast::InitItem &item, const Env &env) {
  auto found = resolver_.symbols.find(item.name);
  if (item.indices.empty()) {
    if (found != resolver_.symbols.end() && found->second.kind != SymbolKind::Coord) {
      diagnostics_.error(item.location, "'" + item.name + "' is " +
                                            aSymbolKind(found->second.kind) + ", not a coordinate");
      return nullptr;
    }
    if (found == resolver_.symbols.end()) {
      diagnostics_.error(item.location, "unknown coordinate '" + item.name + "'" +
                                            resolver_.suggestion(item.name, env));
      return nullptr;
    }
    // A family named alone is a vector in expressions, not one coordinate.
    if (found->second.family) {
      diagnostics_.error(item.location, "'" + item.name +
                                            "' is an indexed family of coordinates; write " +
                                            item.name + "[i]");
      return nullptr;
    }
    ast::Name target(item.location, item.name);
    return resolver_.resolve(target, env);
  }
  if (found == resolver_.symbols.end() || found->second.kind != SymbolKind::Coord) {
    diagnostics_.error(item.location, "unknown coordinate family '" + item.name + "'");
    return nullptr;
  }
  ast::Index index(item.location, std::make_unique<ast::Name>(item.location, item.name));
  for (const ast::ExprPtr &e : item.indices)
    index.indices.push_back(cloneIndex(*e));
  return resolver_.resolve(index, env);
}

// The dimension of a coordinate (order 0) or of its velocity (order 1).
DimInfo Analyzer::stateDimension(const Coord &coord, int order) {
  if (coord.dim.isKnown() && order == 1)
    return DimInfo::known(*coord.dim.dimension.over(Dimension::time()));
  return coord.dim;
}

} // namespace mech::sema
