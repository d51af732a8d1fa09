// Params and coordinates in the analyzer: a param's value (a finite constant,
// its unit on the name or on the literal) and its replacement by an override
// (--set, the REPL); a coordinate's unit (coherent SI only) and the members
// of a coordinate family.
#include "sema/AnalyzerInternal.h"

#include "sema/Units.h"
#include "syntax/Printer.h"

#include <cmath>

namespace mech::sema {

namespace {

// The unit of a param's default that is one literal with a unit (`40 [N/m]`,
// `-3 [cm]`): the unit the param is declared in.
std::optional<DeclaredUnit> literalUnit(const ast::Expr &value) {
  const ast::Expr *e = &value;
  if (e->kind == ast::ExprKind::Neg)
    e = static_cast<const ast::Neg *>(e)->operand.get();
  if (e->kind != ast::ExprKind::Number || !static_cast<const ast::Number *>(e)->unit)
    return std::nullopt;
  const ast::Unit &unit = *static_cast<const ast::Number *>(e)->unit;
  Diagnostics scratch; // its errors were reported when the literal was resolved
  std::optional<UnitValue> scale = evaluateUnit(unit, scratch);
  if (!scale)
    return std::nullopt;
  return DeclaredUnit{formatUnit(unit), scale->scaleAsDouble()};
}

} // namespace

// ---------------------------------------------------------------------------
// Params

// Params are declared before anything else, in order: a param's value may use
// only the params before it.
void Analyzer::declareParams() {
  for (const ast::Decl &decl : modelDecl_.body) {
    auto *params = std::get_if<ast::ParamDecl>(&decl.node);
    if (params == nullptr)
      continue;
    for (const ast::ParamItem &item : params->items)
      declareParam(item);
  }
  for (const ast::Decl &decl : modelDecl_.body)
    if (auto *inputs = std::get_if<ast::InputDecl>(&decl.node))
      for (const ast::InputItem &item : inputs->items)
        declareInput(item);
}

// An input is a param of value 0 that only forces and outputs may read;
// its unit, on the name, gives its dimension and the scale of plain numbers
// given for it (as `param m [g] = 200`).
void Analyzer::declareInput(const ast::InputItem &item) {
  Param input;
  input.name = item.name;
  input.location = item.location;
  input.input = true;
  input.dim = DimInfo::unchecked();
  if (item.unit) {
    std::optional<UnitValue> unit = evaluateUnit(*item.unit, diagnostics_);
    if (unit) {
      input.dim = DimInfo::known(unit->dimension);
      input.unit = DeclaredUnit{formatUnit(*item.unit), unit->scaleAsDouble()};
    }
  }
  model_->params.push_back(input);
  declareSymbol(item.name, {}, SymbolKind::Input, static_cast<int>(model_->params.size() - 1),
                item.location);
}

void Analyzer::declareParam(const ast::ParamItem &item) {
  Env env = baseEnv({});
  env.declaringKeyword = "param";
  env.declaringName = item.name;
  env.declaringValue = item.value.get();
  ExprRef value = resolver_.resolve(*item.value, env);
  Param param;
  param.name = item.name;
  param.location = item.location;
  std::optional<double> number = paramValue(item, value);
  bool ok = number.has_value();
  param.dim = ok && value->dim.isKnown() ? value->dim : DimInfo::unchecked();
  ok = ok && applyParamUnit(item, value, *number, param);
  if (ok && !std::isfinite(*number)) {
    diagnostics_.error(item.value->location, "the value of '" + item.name + "' is not finite");
    ok = false;
  }
  param.value = ok ? *number : 0.0;
  applyOverride(param);
  model_->params.push_back(param);
  declareSymbol(item.name, {}, SymbolKind::Param, static_cast<int>(model_->params.size() - 1),
                item.location);
}

// The value of a param's default: a scalar constant; nullopt after an error.
std::optional<double> Analyzer::paramValue(const ast::ParamItem &item, const ExprRef &value) {
  if (value == nullptr)
    return std::nullopt;
  if (!value->shape.isScalar()) {
    diagnostics_.error(item.value->location,
                       "a param is a scalar, found " + value->shape.toString());
    return std::nullopt;
  }
  std::optional<double> number = resolver_.evaluateConstant(value);
  if (!number)
    diagnostics_.error(item.value->location, "the value of param '" + item.name +
                                                 "' must be a constant (numbers, pi and "
                                                 "earlier params)");
  return number;
}

// A unit on the name (`param m [g] = 200`) scales a plain number to SI; a
// unit on the literal is the unit the param is shown in. False after an error.
bool Analyzer::applyParamUnit(const ast::ParamItem &item, const ExprRef &value, double &number,
                              Param &param) {
  if (!item.unit) {
    param.unit = literalUnit(*item.value);
    return true;
  }
  std::optional<UnitValue> unit = evaluateUnit(*item.unit, diagnostics_);
  if (!unit)
    return false;
  if (value->dim.isKnown() && !value->dim.dimension.isDimensionless()) {
    diagnostics_.error(item.value->location, "the value of '" + item.name +
                                                 "' already has a unit (" +
                                                 value->dim.dimension.toString() +
                                                 "); write the unit either on "
                                                 "the name or on the number");
    return false;
  }
  number *= unit->scaleAsDouble();
  param.dim = DimInfo::known(unit->dimension);
  param.unit = DeclaredUnit{formatUnit(*item.unit), unit->scaleAsDouble()};
  return true;
}

// An override of the param's dimension replaces its value; one of another
// dimension is reported by applyOverrides.
void Analyzer::applyOverride(Param &param) {
  for (const ParamOverride &override : options_.overrides)
    if (override.name == param.name && override.primes == 0) {
      if (param.dim.isKnown() && override.dim.isKnown() &&
          !(param.dim.dimension == override.dim.dimension))
        continue; // reported by applyOverrides
      param.value = override.value;
      param.overridden = true;
    }
}

// Overrides that name no param, or give a value of another dimension.
void Analyzer::applyOverrides() {
  for (const ParamOverride &override : options_.overrides) {
    auto found = resolver_.symbols.find(override.name);
    if (found != resolver_.symbols.end() && found->second.kind == SymbolKind::Input) {
      std::string prefix = override.location.valid() ? "" : "--set " + override.name + ": ";
      diagnostics_.error(override.location, prefix + "'" + override.name +
                                                "' is an input, not a param; give its value "
                                                "with --input");
      continue;
    }
    if (found == resolver_.symbols.end() || found->second.kind != SymbolKind::Param ||
        override.primes > 0) {
      std::string prefix = override.location.valid() ? "" : "--set " + override.name + ": ";
      diagnostics_.error(override.location, prefix + "'" + override.name + "' is not a param of " +
                                                model_->name +
                                                resolver_.suggestion(override.name, baseEnv({})));
      continue;
    }
    Param &param = model_->params[static_cast<size_t>(found->second.index)];
    if (param.dim.isKnown() && override.dim.isKnown() &&
        !(param.dim.dimension == override.dim.dimension))
      diagnostics_.error(override.location,
                         "'" + override.name + "' has dimension " + param.dim.dimension.toString() +
                             ", the value given has " + override.dim.dimension.toString());
  }
}

// ---------------------------------------------------------------------------
// Coordinates

void Analyzer::declareCoord(const ast::CoordItem &item) {
  DimInfo dim = DimInfo::unchecked();
  std::optional<DeclaredUnit> declared;
  if (item.unit) {
    std::optional<UnitValue> unit = evaluateUnit(*item.unit, diagnostics_);
    if (!unit)
      return;
    if (!(unit->scale == Rational(1)) || unit->piPower != 0) {
      diagnostics_.error(item.unit->location,
                         "a coordinate is measured in coherent SI units; [" +
                             formatUnit(*item.unit) + "] would rescale it (write [" +
                             (unit->dimension.isDimensionless() ? std::string("rad")
                                                                : unit->dimension.toString()) +
                             "])");
      return;
    }
    dim = DimInfo::known(unit->dimension);
    declared = DeclaredUnit{formatUnit(*item.unit), 1};
  }
  auto add = [&](const std::vector<long> &indices) {
    Coord coord;
    coord.name = memberName(item.name, indices);
    coord.family = item.name;
    coord.indices = indices;
    coord.location = item.location;
    coord.dim = dim;
    coord.unit = declared;
    model_->coords.push_back(coord);
    declareSymbol(item.name, indices, SymbolKind::Coord,
                  static_cast<int>(model_->coords.size() - 1), item.location);
  };
  if (!item.family) {
    add({});
    return;
  }
  auto bounds = range(*item.family, {}, item.location);
  if (!bounds)
    return;
  if (bounds->second < bounds->first) {
    diagnostics_.error(item.location, "the family '" + item.name + "' is empty (" +
                                          std::to_string(bounds->first) + ".." +
                                          std::to_string(bounds->second) + ")");
    return;
  }
  for (long i = bounds->first; i <= bounds->second; ++i)
    add({i});
}

} // namespace mech::sema
