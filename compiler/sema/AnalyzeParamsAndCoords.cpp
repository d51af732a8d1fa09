// Params and coordinates in the analyzer: a param's value (a finite constant,
// its unit on the name or on the literal) and its replacement by an override
// (--set, the REPL); a coordinate's unit (coherent SI only) and the members
// of a coordinate family.
#include "sema/AnalyzerInternal.h"
#include "sema/ResolverInternal.h"

#include "sema/Units.h"
#include "syntax/Printer.h"

#include <algorithm>
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
  if (item.family) {
    declareParamFamily(item);
    return;
  }
  // `param w = [1, 2, 3]`: a list of numbers is the family w[1..3], which
  // named alone is the vector (Resolver::familyVector).
  if (item.value->kind == ast::ExprKind::Vector) {
    auto &list = static_cast<const ast::Vector &>(*item.value);
    if (list.elements.size() >= 2 &&
        std::none_of(list.elements.begin(), list.elements.end(),
                     [](const ast::ExprPtr &e) { return e->kind == ast::ExprKind::Vector; })) {
      declareParamMembers(item, 1, static_cast<long>(list.elements.size()));
      return;
    }
  }
  Env env = baseEnv({});
  env.declaringKeyword = "param";
  env.declaringName = item.name;
  env.declaringValue = item.value.get();
  addParam(item, item.name, {}, resolver_.resolve(*item.value, env), 0, 1);
}

// `param m[k in a..b] = e(k)`: e resolved once per k; `param c[a..b] = v`:
// one value for every member, or a vector with one entry per member.
void Analyzer::declareParamFamily(const ast::ParamItem &item) {
  if (auto bounds = familyRange(item.name, *item.family, item.location))
    declareParamMembers(item, bounds->first, bounds->second);
}

// The members first..last of a family of params, their values from the
// item (an expression of the index, a list, or one value for all).
void Analyzer::declareParamMembers(const ast::ParamItem &item, long first, long last) {
  const std::optional<std::pair<long, long>> bounds = std::pair{first, last};
  long count = bounds->second - bounds->first + 1;
  Env env = baseEnv({}); // no hint on misplaced units: it would drop the family's range
  // A list gives one value per member, resolved one by one (a list may be
  // longer than the 2- and 3-vectors of geometry).
  std::vector<ExprRef> values;
  if (item.familyIndex) {
    recordLoopVariable(*item.familyIndex, item.familyIndexLocation);
  } else if (item.value->kind == ast::ExprKind::Vector) {
    auto &list = static_cast<const ast::Vector &>(*item.value);
    if (static_cast<long>(list.elements.size()) != count) {
      // The members are still declared (value 0), so that their uses are
      // not reported as unknown names too; a family given whole from
      // outside (`--set n=1 --set "l=[0.6]"`) needs no default.
      if (!familyOverridden(item.name, count))
        diagnostics_.error(item.value->location,
                           "the family '" + item.name + "' has " + std::to_string(count) +
                               " members, the list gives " + std::to_string(list.elements.size()) +
                               " values");
      values.assign(static_cast<size_t>(count), nullptr);
    } else {
      for (const ast::ExprPtr &element : list.elements)
        values.push_back(resolver_.resolve(*element, env));
    }
  } else {
    values.assign(static_cast<size_t>(count), resolver_.resolve(*item.value, env));
  }
  // After one report the remaining members are declared with value 0 and
  // no report of their own.
  bool failed = false;
  for (long i = bounds->first; i <= bounds->second; ++i) {
    ExprRef value;
    if (failed) {
      value = nullptr;
    } else if (item.familyIndex) {
      env.indices = {{*item.familyIndex, i}};
      value = resolver_.resolve(*item.value, env);
    } else {
      value = values[static_cast<size_t>(i - bounds->first)];
    }
    int errorsBefore = diagnostics_.errorCount();
    if (value && !item.unit && i > bounds->first) {
      const DimInfo &previous = model_->params.back().dim;
      if (previous.isKnown() && value->dim.isKnown() &&
          !(previous.dimension == value->dim.dimension)) {
        diagnostics_.error(value->location,
                           "the members of '" + item.name +
                               "' must have one dimension: " + describeDimension(previous) +
                               " and " + describeDimension(value->dim));
        value = nullptr;
      }
    }
    addParam(item, memberName(item.name, {i}), {i}, value, i - bounds->first, count);
    failed = failed || diagnostics_.errorCount() > errorsBefore;
  }
}

// True when a --set gives the whole family of `count` members (one value
// for all, or a list of that length): its default is then not needed.
bool Analyzer::familyOverridden(const std::string &family, long count) const {
  for (const ParamOverride &override : options_.overrides)
    if (override.name == family && override.primes == 0 &&
        (override.values.empty() || override.values.size() == static_cast<size_t>(count)))
      return true;
  return false;
}

// One param (or member `ordinal` of a family of `count`), its value checked,
// its unit applied and any override given from outside taking its place.
void Analyzer::addParam(const ast::ParamItem &item, const std::string &name,
                        const std::vector<long> &indices, const ExprRef &value, long ordinal,
                        long count) {
  Param param;
  param.name = name;
  param.location = item.location;
  param.dim = DimInfo::unchecked();
  if (!indices.empty()) {
    param.family = item.name;
    param.indices = indices;
  }
  std::optional<double> number = paramValue(item, name, value);
  bool ok = number.has_value();
  if (!value && item.unit) // no default (given from outside): the unit still holds
    if (std::optional<UnitValue> unit = evaluateUnit(*item.unit, diagnostics_)) {
      param.dim = DimInfo::known(unit->dimension);
      param.unit = DeclaredUnit{formatUnit(*item.unit), unit->scaleAsDouble()};
    }
  if (value)
    param.dim = ok && value->dim.isKnown() ? value->dim : DimInfo::unchecked();
  ok = ok && applyParamUnit(item, value, *number, param);
  if (ok && !std::isfinite(*number)) {
    diagnostics_.error(value->location, "the value of '" + name + "' is not finite");
    ok = false;
  }
  param.value = ok ? *number : 0.0;
  applyOverride(param, ordinal, count);
  model_->params.push_back(param);
  declareSymbol(item.name, indices, SymbolKind::Param, static_cast<int>(model_->params.size() - 1),
                item.location);
}

// The value of a param's default: a scalar constant; nullopt after an error.
std::optional<double> Analyzer::paramValue(const ast::ParamItem &item, const std::string &name,
                                           const ExprRef &value) {
  if (value == nullptr)
    return std::nullopt;
  if (!value->shape.isScalar()) {
    diagnostics_.error(
        item.value->location,
        "a param is a scalar, found " + value->shape.toString() +
            (item.family ? ""
                         : "; a family of params is declared as " + item.name + "[1..n] = [...]"));
    return std::nullopt;
  }
  std::optional<double> number = resolver_.evaluateConstant(value);
  if (!number)
    diagnostics_.error(value->location, "the value of param '" + name +
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

// An override of the param's dimension replaces its value: first those
// naming the param's family (one value for all, or the list's entry
// `ordinal` of `count`), then those naming the param itself, which win.
// One of another dimension or a list of another length is reported by
// applyOverrides.
void Analyzer::applyOverride(Param &param, long ordinal, long count) {
  for (int pass = 0; pass < 2; ++pass)
    for (const ParamOverride &override : options_.overrides) {
      const std::string &target = pass == 0 ? param.family : param.name;
      if (target.empty() || override.name != target || override.primes != 0)
        continue;
      if (param.dim.isKnown() && override.dim.isKnown() &&
          !(param.dim.dimension == override.dim.dimension))
        continue;
      if (!override.values.empty() && (pass == 1 || override.values.size() != size_t(count)))
        continue;
      param.value =
          override.values.empty() ? override.value : override.values[static_cast<size_t>(ordinal)];
      param.overridden = true;
    }
}

// The params an override names: the param itself, a member of a family
// (m[2]) or the whole family (m); empty when it names none.
std::vector<const Param *> Analyzer::overrideTargets(const ParamOverride &override) const {
  std::vector<const Param *> targets;
  for (const Param &param : model_->params)
    if (!param.input && (param.name == override.name || param.family == override.name))
      targets.push_back(&param);
  return targets;
}

// Overrides that name no param, or give a value of another dimension, or a
// list that does not match the family.
void Analyzer::applyOverrides() {
  for (const ParamOverride &override : options_.overrides) {
    std::string prefix = override.location.valid() ? "" : "--set " + override.name + ": ";
    auto found = resolver_.symbols.find(override.name);
    if (found != resolver_.symbols.end() && found->second.kind == SymbolKind::Input) {
      diagnostics_.error(override.location, prefix + "'" + override.name +
                                                "' is an input, not a param; give its value "
                                                "with --input");
      continue;
    }
    std::vector<const Param *> targets = overrideTargets(override);
    std::string base = override.name.substr(0, override.name.find('['));
    auto family = resolver_.symbols.find(base);
    if (targets.empty() && base != override.name && family != resolver_.symbols.end() &&
        family->second.kind == SymbolKind::Param && family->second.family) {
      const auto &members = family->second.members;
      diagnostics_.error(override.location,
                         prefix + "'" + override.name + "' does not exist: the index of '" + base +
                             "' runs over " + std::to_string(members.begin()->first[0]) + ".." +
                             std::to_string(members.rbegin()->first[0]));
      continue;
    }
    if (targets.empty() || override.primes > 0) {
      diagnostics_.error(override.location, prefix + "'" + override.name + "' is not a param of " +
                                                model_->name +
                                                resolver_.suggestion(base, baseEnv({})));
      continue;
    }
    const Param &param = *targets.front();
    bool isFamily = targets.size() > 1 || !param.family.empty();
    if (!override.values.empty() && (param.name == override.name || !isFamily)) {
      diagnostics_.error(override.location, prefix + "'" + override.name +
                                                "' is one param; a list of values sets a "
                                                "family of params");
      continue;
    }
    if (!override.values.empty() && override.values.size() != targets.size()) {
      diagnostics_.error(override.location, prefix + "the family '" + override.name + "' has " +
                                                std::to_string(targets.size()) +
                                                " members, the list gives " +
                                                std::to_string(override.values.size()) + " values");
      continue;
    }
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
  auto bounds = familyRange(item.name, *item.family, item.location);
  if (!bounds)
    return;
  for (long i = bounds->first; i <= bounds->second; ++i)
    add({i});
}

} // namespace mech::sema
