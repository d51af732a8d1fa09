// The declaration walk of semantic analysis.
#include "sema/Analyzer.h"

#include "sema/Resolver.h"
#include "sema/Units.h"
#include "syntax/Printer.h"

#include <cmath>
#include <functional>
#include <set>

namespace mech::sema {

namespace {

std::string memberName(const std::string &name, const std::vector<long> &indices) {
  if (indices.empty())
    return name;
  std::string text = name + "[";
  for (size_t i = 0; i < indices.size(); ++i)
    text += (i > 0 ? ", " : "") + std::to_string(indices[i]);
  return text + "]";
}

bool mentions(const ast::Expr &e, const std::string &name) {
  switch (e.kind) {
  case ast::ExprKind::Name:
    return static_cast<const ast::Name &>(e).name == name;
  case ast::ExprKind::Add:
    for (const auto &t : static_cast<const ast::Add &>(e).terms)
      if (mentions(*t.value, name))
        return true;
    return false;
  case ast::ExprKind::Mul:
    for (const auto &f : static_cast<const ast::Mul &>(e).factors)
      if (mentions(*f.value, name))
        return true;
    return false;
  case ast::ExprKind::Neg:
    return mentions(*static_cast<const ast::Neg &>(e).operand, name);
  case ast::ExprKind::Pow: {
    auto &p = static_cast<const ast::Pow &>(e);
    return mentions(*p.base, name) || mentions(*p.exponent, name);
  }
  case ast::ExprKind::Call:
    for (const auto &a : static_cast<const ast::Call &>(e).args)
      if (mentions(*a, name))
        return true;
    return false;
  default:
    return false;
  }
}

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

// A bracket after a declared name that reads as a unit (`let d [cm] = ...`).
std::optional<ast::Unit> unitFromExpr(const ast::Expr &e) {
  ast::Unit unit;
  unit.location = e.location;
  bool hasSymbol = false;
  std::function<bool(const ast::Expr &, int)> walk = [&](const ast::Expr &x, int sign) {
    switch (x.kind) {
    case ast::ExprKind::Name: {
      auto &n = static_cast<const ast::Name &>(x);
      std::vector<std::string> known = knownUnitSymbols();
      if (std::find(known.begin(), known.end(), n.name) == known.end())
        return false;
      unit.factors.push_back({n.name, sign, n.location});
      hasSymbol = true;
      return true;
    }
    case ast::ExprKind::Number: {
      auto &n = static_cast<const ast::Number &>(x);
      if (n.text != "1" || n.unit)
        return false;
      unit.factors.push_back({"1", sign, n.location});
      return true;
    }
    case ast::ExprKind::Mul: {
      for (const auto &f : static_cast<const ast::Mul &>(x).factors)
        if (!walk(*f.value, f.divides ? -sign : sign))
          return false;
      return true;
    }
    case ast::ExprKind::Pow: {
      auto &p = static_cast<const ast::Pow &>(x);
      const ast::Expr *exponent = p.exponent.get();
      int s = 1;
      if (exponent->kind == ast::ExprKind::Neg) {
        s = -1;
        exponent = static_cast<const ast::Neg *>(exponent)->operand.get();
      }
      if (exponent->kind != ast::ExprKind::Number ||
          static_cast<const ast::Number *>(exponent)->text.find_first_not_of("0123456789") !=
              std::string::npos)
        return false;
      int k = clampedExponent(static_cast<const ast::Number *>(exponent)->text) * s;
      size_t before = unit.factors.size();
      if (!walk(*p.base, sign))
        return false;
      for (size_t i = before; i < unit.factors.size(); ++i)
        unit.factors[i].exponent = clampedExponentProduct(unit.factors[i].exponent, k);
      return true;
    }
    default:
      return false;
    }
  };
  if (!walk(e, 1) || !hasSymbol)
    return std::nullopt;
  return unit;
}

// One declaration to check, with the loop indices it was expanded under.
struct Instance {
  const ast::Decl *decl;
  Bindings bindings;
  std::string name; // the declared name after expansion, if any
  int slot = -1;    // its entry (constraint index) where declared early
};

class Analyzer {
public:
  Analyzer(Compilation &compilation, const LoadedFile &file, const ast::ModelDecl &modelDecl,
           const AnalysisOptions &options)
      : diagnostics_(compilation.diagnostics()), file_(file), modelDecl_(modelDecl),
        options_(options), model_(std::make_unique<CheckedModel>()),
        resolver_(*model_, diagnostics_) {
    model_->name = modelDecl.name;
    model_->location = modelDecl.location;
  }

  std::unique_ptr<CheckedModel> run() {
    collectDeclaredNames(modelDecl_.body);
    try {
      declareModelDefs();
      declareParams();
      applyOverrides();
      for (const ast::Decl &decl : modelDecl_.body)
        declare(decl, {}, {});
      checkLoopVariables();
      for (Instance &instance : instances_)
        check(instance);
      resolver_.resolveAllLets();
      checkGravityShapes();
    } catch (const ExpansionLimit &) {
      diagnostics_.error(modelDecl_.location,
                         "the model expands to more than " + std::to_string(kMaxNodes) +
                             " expression nodes; reduce the ranges of its for blocks, sums or "
                             "families");
    }
    return std::move(model_);
  }

private:
  // ---- names -------------------------------------------------------------

  Env baseEnv(const Bindings &bindings) const {
    Env env;
    env.indices = bindings;
    env.defs = &modelScope_;
    return env;
  }

  bool reservedName(const std::string &name, Location loc) {
    if (findBuiltin(name) || name == "sum") {
      diagnostics_.error(loc, "'" + name + "' is a built-in function and cannot be declared");
      return true;
    }
    if (modelScope_.defs.count(name)) {
      Diagnostic &d = diagnostics_.error(loc, "'" + name + "' is already a def");
      Diagnostics::addNote(d, modelScope_.defs.at(name).decl->location, "the def is here");
      return true;
    }
    return false;
  }

  // Declares a plain name or a member of a family; returns false on a clash.
  bool declareSymbol(const std::string &name, const std::vector<long> &indices, SymbolKind kind,
                     int index, Location loc) {
    if (reservedName(name, loc))
      return false;
    auto found = resolver_.symbols.find(name);
    if (found == resolver_.symbols.end()) {
      Symbol symbol{kind, loc, !indices.empty(), -1, {}, {}};
      if (indices.empty())
        symbol.index = index;
      else
        symbol.members[indices] = index;
      resolver_.symbols.emplace(name, std::move(symbol));
      return true;
    }
    Symbol &symbol = found->second;
    bool sameFamily = symbol.family && !indices.empty() && symbol.kind == kind &&
                      symbol.members.begin()->first.size() == indices.size() &&
                      !symbol.members.count(indices);
    if (sameFamily) {
      symbol.members[indices] = index;
      return true;
    }
    std::string previous =
        symbol.description.empty() ? symbolKindName(symbol.kind) : symbol.description;
    const char *article = std::string("aeiou").find(previous[0]) != std::string::npos ? "an" : "a";
    Diagnostic &d =
        diagnostics_.error(loc, "'" + memberName(name, indices) + "' is already declared (as " +
                                    article + " " + previous + ")");
    Diagnostics::addNote(d, symbol.location, "previous declaration is here");
    return false;
  }

  void declareModelDefs() {
    modelScope_ = file_.scope;
    for (const ast::Decl &decl : modelDecl_.body) {
      auto *def = std::get_if<ast::DefDecl>(&decl.node);
      if (def == nullptr)
        continue;
      if (findBuiltin(def->name) || def->name == "sum") {
        diagnostics_.error(def->location,
                           "'" + def->name + "' is a built-in function and cannot be redefined");
        continue;
      }
      auto existing = modelScope_.defs.find(def->name);
      if (existing != modelScope_.defs.end()) {
        Diagnostic &d =
            diagnostics_.error(def->location, "def '" + def->name + "' is already defined");
        Diagnostics::addNote(d, existing->second.decl->location, "the other definition is here");
        continue;
      }
      modelScope_.defs[def->name] = {def, &modelScope_, true};
    }
  }

  void declareParams() {
    for (const ast::Decl &decl : modelDecl_.body) {
      auto *params = std::get_if<ast::ParamDecl>(&decl.node);
      if (params == nullptr)
        continue;
      for (const ast::ParamItem &item : params->items)
        declareParam(item);
    }
  }

  void declareParam(const ast::ParamItem &item) {
    Env env = baseEnv({});
    env.declaringKeyword = "param";
    env.declaringName = item.name;
    env.declaringValue = item.value.get();
    ExprRef value = resolver_.resolve(*item.value, env);
    Param param;
    param.name = item.name;
    param.location = item.location;
    bool ok = value != nullptr;
    std::optional<double> number;
    if (ok) {
      if (!value->shape.isScalar()) {
        diagnostics_.error(item.value->location,
                           "a param is a scalar, found " + value->shape.toString());
        ok = false;
      } else if (!(number = resolver_.evaluateConstant(value))) {
        diagnostics_.error(item.value->location, "the value of param '" + item.name +
                                                     "' must be a constant (numbers, pi and "
                                                     "earlier params)");
        ok = false;
      }
    }
    param.dim = ok && value->dim.isKnown() ? value->dim : DimInfo::unchecked();
    if (ok && item.unit) {
      std::optional<UnitValue> unit = evaluateUnit(*item.unit, diagnostics_);
      if (!unit) {
        ok = false;
      } else if (value->dim.isKnown() && !value->dim.dimension.isDimensionless()) {
        diagnostics_.error(item.value->location, "the value of '" + item.name +
                                                     "' already has a unit (" +
                                                     value->dim.dimension.toString() +
                                                     "); write the unit either on "
                                                     "the name or on the number");
        ok = false;
      } else {
        *number *= unit->scaleAsDouble();
        param.dim = DimInfo::known(unit->dimension);
        param.unit = DeclaredUnit{formatUnit(*item.unit), unit->scaleAsDouble()};
      }
    } else if (ok) {
      param.unit = literalUnit(*item.value);
    }
    if (ok && !std::isfinite(*number)) {
      diagnostics_.error(item.value->location, "the value of '" + item.name + "' is not finite");
      ok = false;
    }
    param.value = ok ? *number : 0.0;
    for (const ParamOverride &override : options_.overrides)
      if (override.name == item.name && override.primes == 0) {
        if (param.dim.isKnown() && override.dim.isKnown() &&
            !(param.dim.dimension == override.dim.dimension))
          continue; // reported by applyOverrides
        param.value = override.value;
        param.overridden = true;
      }
    model_->params.push_back(param);
    declareSymbol(item.name, {}, SymbolKind::Param, static_cast<int>(model_->params.size() - 1),
                  item.location);
  }

  void applyOverrides() {
    for (const ParamOverride &override : options_.overrides) {
      auto found = resolver_.symbols.find(override.name);
      if (found == resolver_.symbols.end() || found->second.kind != SymbolKind::Param ||
          override.primes > 0) {
        std::string prefix = override.location.valid() ? "" : "--set " + override.name + ": ";
        diagnostics_.error(override.location, prefix + "'" + override.name +
                                                  "' is not a param of " + model_->name +
                                                  resolver_.suggestion(override.name, baseEnv({})));
        continue;
      }
      Param &param = model_->params[static_cast<size_t>(found->second.index)];
      if (param.dim.isKnown() && override.dim.isKnown() &&
          !(param.dim.dimension == override.dim.dimension))
        diagnostics_.error(override.location, "'" + override.name + "' has dimension " +
                                                  param.dim.dimension.toString() +
                                                  ", the value given has " +
                                                  override.dim.dimension.toString());
    }
  }

  // ---- declarations and for blocks -----------------------------------------

  struct LoopVariable {
    std::string name;
    Location location;
  };

  void declare(const ast::Decl &decl, const Bindings &bindings,
               const std::vector<LoopVariable> &loops) {
    bool inLoop = !loops.empty();
    const char *forbidden = std::holds_alternative<ast::ParamDecl>(decl.node)   ? "param"
                            : std::holds_alternative<ast::CoordDecl>(decl.node) ? "coord"
                            : std::holds_alternative<ast::DefDecl>(decl.node)   ? "def"
                                                                                : nullptr;
    if (inLoop && forbidden) {
      diagnostics_.error(decl.location, std::string(forbidden) +
                                            " declarations are not allowed inside a for block");
      return;
    }
    if (std::holds_alternative<ast::ParamDecl>(decl.node) ||
        std::holds_alternative<ast::DefDecl>(decl.node))
      return; // declared earlier
    if (auto *coords = std::get_if<ast::CoordDecl>(&decl.node)) {
      for (const ast::CoordItem &item : coords->items)
        declareCoord(item);
      return;
    }
    if (auto *loop = std::get_if<ast::ForDecl>(&decl.node)) {
      declareFor(*loop, bindings, loops);
      return;
    }
    if (auto *let = std::get_if<ast::LetDecl>(&decl.node)) {
      declareLet(*let, bindings, loops);
      return;
    }
    Instance instance{&decl, bindings, "", -1};
    const ast::DeclName *name = declaredName(decl);
    if (name != nullptr) {
      std::optional<std::vector<long>> indices = declaredIndices(*name, bindings, loops);
      if (!indices)
        return;
      instance.name = memberName(name->name, *indices);
      SymbolKind kind = symbolKindOf(decl);
      int slot = reserveSlot(decl);
      if (auto *energy = std::get_if<ast::EnergyDecl>(&decl.node))
        slot = resolver_.declareLet(instance.name, name->location, energy->value.get(), nullptr,
                                    bindings, &modelScope_);
      if (!declareSymbol(name->name, *indices, kind, slot, name->location))
        return;
      if (auto *energy = std::get_if<ast::EnergyDecl>(&decl.node))
        resolver_.symbols.at(name->name).description =
            energy->kind == ast::EnergyKind::Kinetic     ? "kinetic term"
            : energy->kind == ast::EnergyKind::Potential ? "potential term"
                                                         : "dissipation term";
      instance.slot = slot;
    } else if (std::holds_alternative<ast::ConstraintDecl>(decl.node)) {
      instance.slot = reserveSlot(decl);
      // c1, c2, ... skipping names the model declares itself, anywhere.
      do
        instance.name = "c" + std::to_string(++unnamedConstraints_);
      while (declaredNames_.count(instance.name) || resolver_.symbols.count(instance.name));
      model_->constraints[static_cast<size_t>(instance.slot)].name = instance.name;
      if (!resolver_.symbols.count(instance.name))
        resolver_.symbols.emplace(
            instance.name,
            Symbol{SymbolKind::Constraint, decl.location, false, instance.slot, {}, {}});
    }
    instances_.push_back(std::move(instance));
  }

  static const ast::DeclName *declaredName(const ast::Decl &decl) {
    if (auto *e = std::get_if<ast::EnergyDecl>(&decl.node))
      return e->name ? &*e->name : nullptr;
    if (auto *p = std::get_if<ast::ParticleDecl>(&decl.node))
      return &p->name;
    if (auto *b = std::get_if<ast::BodyDecl>(&decl.node))
      return &b->name;
    if (auto *c = std::get_if<ast::ConstraintDecl>(&decl.node))
      return c->name ? &*c->name : nullptr;
    if (auto *o = std::get_if<ast::OutputDecl>(&decl.node))
      return &o->name;
    return nullptr;
  }

  static SymbolKind symbolKindOf(const ast::Decl &decl) {
    if (std::holds_alternative<ast::EnergyDecl>(decl.node))
      return SymbolKind::Term;
    if (std::holds_alternative<ast::ParticleDecl>(decl.node))
      return SymbolKind::Particle;
    if (std::holds_alternative<ast::BodyDecl>(decl.node))
      return SymbolKind::Body;
    if (std::holds_alternative<ast::ConstraintDecl>(decl.node))
      return SymbolKind::Constraint;
    return SymbolKind::Output;
  }

  // Entries referenced by index from expressions exist before any expression
  // is resolved: named energy terms (as lets) and constraints (multipliers).
  int reserveSlot(const ast::Decl &decl) {
    if (std::holds_alternative<ast::ConstraintDecl>(decl.node)) {
      model_->constraints.push_back({});
      model_->constraints.back().location = decl.location;
      return static_cast<int>(model_->constraints.size() - 1);
    }
    return -1;
  }

  std::optional<std::vector<long>> declaredIndices(const ast::DeclName &name,
                                                   const Bindings &bindings,
                                                   const std::vector<LoopVariable> &loops) {
    for (const LoopVariable &loop : loops) {
      bool found = false;
      for (const ast::ExprPtr &index : name.indices)
        found = found || mentions(*index, loop.name);
      if (!found) {
        std::string hint = name.name + "[" + loops.back().name + "]";
        if (loops.size() > 1) {
          hint = name.name + "[";
          for (size_t i = 0; i < loops.size(); ++i)
            hint += (i > 0 ? ", " : "") + loops[i].name;
          hint += "]";
        }
        diagnostics_.error(name.location, "'" + name.name +
                                              "' is declared inside a for block and must carry "
                                              "its index '" +
                                              loop.name + "': write " + hint);
        return std::nullopt;
      }
    }
    std::vector<long> indices;
    Env env = baseEnv(bindings);
    for (const ast::ExprPtr &index : name.indices) {
      std::optional<long> value = resolver_.resolveInteger(*index, env, "an index");
      if (!value)
        return std::nullopt;
      indices.push_back(*value);
    }
    return indices;
  }

  std::optional<std::pair<long, long>> range(const ast::Range &r, const Bindings &bindings,
                                             Location where) {
    Env env = baseEnv(bindings);
    std::optional<long> from = resolver_.resolveInteger(*r.from, env, "a range bound");
    std::optional<long> to = resolver_.resolveInteger(*r.to, env, "a range bound");
    if (!from || !to)
      return std::nullopt;
    if (*to - *from + 1 > kMaxRange) {
      diagnostics_.error(where, "the range " + std::to_string(*from) + ".." + std::to_string(*to) +
                                    " has more than " + std::to_string(kMaxRange) + " members");
      return std::nullopt;
    }
    return std::make_pair(*from, *to);
  }

  void declareCoord(const ast::CoordItem &item) {
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

  void declareLet(const ast::LetDecl &let, const Bindings &bindings,
                  const std::vector<LoopVariable> &loops) {
    if (let.family) {
      if (!loops.empty() || !let.target.indices.empty()) {
        diagnostics_.error(let.target.location, "a let family x[k in a..b] cannot be declared "
                                                "inside a for block");
        return;
      }
      Env env = baseEnv(bindings);
      resolverShadowCheck(*let.familyIndex, let.familyIndexLocation);
      auto bounds = range(*let.family, bindings, let.target.location);
      if (!bounds)
        return;
      for (long i = bounds->first; i <= bounds->second; ++i) {
        Bindings inner = bindings;
        inner.emplace_back(*let.familyIndex, i);
        int index = resolver_.declareLet(memberName(let.target.name, {i}), let.target.location,
                                         let.value.get(), let.unit ? &*let.unit : nullptr, inner,
                                         &modelScope_);
        if (!declareSymbol(let.target.name, {i}, SymbolKind::Let, index, let.target.location))
          return;
      }
      return;
    }
    // `let d [cm] = 30` parses as an index; a bracket that reads as a unit and
    // mentions no loop variable is the unit on the name.
    const ast::Unit *unit = let.unit ? &*let.unit : nullptr;
    ast::DeclName target;
    target.name = let.target.name;
    target.location = let.target.location;
    for (const ast::ExprPtr &index : let.target.indices)
      target.indices.push_back(cloneIndex(*index));
    if (!unit && target.indices.size() == 1) {
      bool loopIndex = false;
      for (const LoopVariable &loop : loops)
        loopIndex = loopIndex || mentions(*target.indices[0], loop.name);
      if (!loopIndex)
        if (auto converted = unitFromExpr(*target.indices[0])) {
          convertedUnits_.push_back(std::make_unique<ast::Unit>(*converted));
          unit = convertedUnits_.back().get();
          target.indices.clear();
        }
    }
    std::optional<std::vector<long>> indices = declaredIndices(target, bindings, loops);
    if (!indices)
      return;
    int index = resolver_.declareLet(memberName(let.target.name, *indices), let.target.location,
                                     let.value.get(), unit, bindings, &modelScope_);
    declareSymbol(let.target.name, *indices, SymbolKind::Let, index, let.target.location);
  }

  void resolverShadowCheck(const std::string &name, Location loc) {
    loopVariables_.push_back({name, loc});
  }

  void declareFor(const ast::ForDecl &loop, const Bindings &bindings,
                  const std::vector<LoopVariable> &loops) {
    for (const LoopVariable &outer : loops)
      if (outer.name == loop.index) {
        diagnostics_.error(loop.indexLocation,
                           "loop variable '" + loop.index + "' shadows an enclosing one");
        return;
      }
    loopVariables_.push_back({loop.index, loop.indexLocation});
    auto bounds = range(loop.range, bindings, loop.indexLocation);
    if (!bounds)
      return;
    std::vector<LoopVariable> inner = loops;
    inner.push_back({loop.index, loop.indexLocation});
    for (long i = bounds->first; i <= bounds->second; ++i) {
      Bindings innerBindings = bindings;
      innerBindings.emplace_back(loop.index, i);
      int errorsBefore = diagnostics_.errorCount();
      for (const ast::Decl &decl : loop.body)
        declare(decl, innerBindings, inner);
      // Report a faulty body once, not once per iteration.
      if (diagnostics_.errorCount() > errorsBefore)
        return;
    }
  }

  // Loop variables (and let family indices) may not shadow another name.
  void checkLoopVariables() {
    std::set<std::pair<int, int>> reported;
    for (const LoopVariable &loop : loopVariables_) {
      if (!reported.insert({loop.location.line, loop.location.column}).second)
        continue;
      std::string what;
      auto found = resolver_.symbols.find(loop.name);
      if (found != resolver_.symbols.end())
        what = std::string("the ") + symbolKindName(found->second.kind) + " '" + loop.name + "'";
      else if (modelScope_.defs.count(loop.name))
        what = "the def '" + loop.name + "'";
      if (what.empty())
        continue;
      Diagnostic &d =
          diagnostics_.error(loop.location, "loop variable '" + loop.name + "' shadows " + what);
      if (found != resolver_.symbols.end())
        Diagnostics::addNote(d, found->second.location, "'" + loop.name + "' is declared here");
    }
  }

  // ---- checks per declaration ----------------------------------------------

  ExprRef resolve(const ast::Expr &e, const Instance &instance, bool allowMultipliers = false) {
    Env env = baseEnv(instance.bindings);
    env.allowMultipliers = allowMultipliers;
    return resolver_.resolve(e, env);
  }

  // Checks that a value has the expected dimension, where it is known.
  bool expectDimension(const ExprRef &value, const Location &loc, const std::string &what,
                       const Dimension &expected, const std::string &expectedName) {
    if (!value->dim.isKnown() || value->dim.dimension == expected)
      return true;
    diagnostics_.error(loc, what + " has dimension " + value->dim.dimension.toString() + ", " +
                                expectedName + " (" + expected.toString() + ") was expected");
    return false;
  }

  bool expectShape(const ExprRef &value, const Location &loc, const std::string &what,
                   bool (*predicate)(const Shape &), const std::string &expected) {
    if (predicate(value->shape))
      return true;
    diagnostics_.error(loc, what + " must be " + expected + ", found " + value->shape.toString());
    return false;
  }

  static bool isScalar(const Shape &s) { return s.isScalar(); }
  static bool isVector(const Shape &s) { return s.isVector(); }
  static bool isPosition(const Shape &s) { return s.isScalar() || s.isVector(); }
  static bool is3Vector(const Shape &s) { return s.isVector() && s.rows == 3; }
  static bool is3x3(const Shape &s) { return s.isMatrix() && s.rows == 3 && s.cols == 3; }

  // Energies may not depend on more than the given derivative order.
  bool expectOrder(const ExprRef &value, const Location &loc, const std::string &what,
                   int maxOrder) {
    if (value->coordOrder <= maxOrder)
      return true;
    const char *found = value->coordOrder == 1 ? "velocities" : "accelerations";
    diagnostics_.error(loc, what + " depends on " + std::string(found) +
                                (maxOrder == 0 ? "; it may depend only on the coordinates and t"
                                               : "; it may depend only on coordinates, "
                                                 "velocities and t"));
    return false;
  }

  // Product of two dimensions must be work, where both are known.
  bool expectWork(const ExprRef &a, const ExprRef &b, const Location &loc,
                  const std::string &what) {
    // A plain number adapts, as it does in a sum.
    if (a->dim.state == DimInfo::Pure || b->dim.state == DimInfo::Pure)
      return true;
    DimInfo product = Resolver::productDimension(a->dim, b->dim);
    if (!product.isKnown() || product.dimension == Dimension::energy())
      return true;
    diagnostics_.error(loc, what + ": " + a->dim.dimension.toString() + " times " +
                                b->dim.dimension.toString() + " is " +
                                product.dimension.toString() + ", not work (" +
                                Dimension::energy().toString() + ")");
    return false;
  }

  void check(const Instance &instance) {
    const ast::Decl &decl = *instance.decl;
    std::visit([&](const auto &node) { checkDecl(node, instance); }, decl.node);
  }

  template <typename T> void checkDecl(const T &, const Instance &) {}

  void checkDecl(const ast::EnergyDecl &e, const Instance &instance) {
    // A named term is a let, so that other expressions can refer to it.
    ExprRef value;
    if (instance.slot >= 0) {
      if (resolver_.letReference(instance.slot, instance.decl->location))
        value = model_->lets[static_cast<size_t>(instance.slot)].value;
    } else {
      value = resolve(*e.value, instance);
    }
    if (!value)
      return;
    const char *total = e.kind == ast::EnergyKind::Kinetic     ? "T"
                        : e.kind == ast::EnergyKind::Potential ? "V"
                                                               : "D";
    std::string what = instance.name.empty() || instance.name == total
                           ? std::string(total)
                           : "'" + instance.name + "' (part of " + total + ")";
    if (!expectShape(value, e.value->location, what, isScalar, "a scalar"))
      return;
    bool ok = true;
    if (e.kind == ast::EnergyKind::Dissipation)
      ok = expectDimension(value, e.value->location, what, Dimension::power(), "a power");
    else
      ok = expectDimension(value, e.value->location, what, Dimension::energy(), "an energy");
    ok = ok &&
         expectOrder(value, e.value->location, what, e.kind == ast::EnergyKind::Potential ? 0 : 1);
    if (!ok)
      return;
    Term term{instance.name, decl(instance).location, value};
    if (e.kind == ast::EnergyKind::Kinetic)
      model_->kinetic.push_back(term);
    else if (e.kind == ast::EnergyKind::Potential)
      model_->potential.push_back(term);
    else
      model_->dissipation.push_back(term);
  }

  const ast::Decl &decl(const Instance &instance) { return *instance.decl; }

  void checkDecl(const ast::ForceDecl &f, const Instance &instance) {
    ExprRef force = resolve(*f.force, instance), point = resolve(*f.point, instance);
    if (!force || !point)
      return;
    if (!expectShape(force, f.force->location, "a force", isPosition, "a vector or a scalar"))
      return;
    if (force->shape != point->shape) {
      diagnostics_.error(f.point->location, "the force is " + force->shape.toString() +
                                                " but its point of application is " +
                                                point->shape.toString());
      return;
    }
    bool ok = expectDimension(force, f.force->location, "the force", Dimension::force(), "a force");
    ok = expectDimension(point, f.point->location, "the point of application", Dimension::length(),
                         "a length") &&
         ok;
    ok = ok && expectOrder(force, f.force->location, "the force", 1);
    ok = ok && expectOrder(point, f.point->location, "the point of application", 0);
    if (ok)
      model_->forces.push_back({instance.decl->location, force, point});
  }

  void checkDecl(const ast::TorqueDecl &t, const Instance &instance) {
    ExprRef moment = resolve(*t.moment, instance), angle = resolve(*t.angle, instance);
    if (!moment || !angle)
      return;
    if (moment->shape != angle->shape) {
      diagnostics_.error(t.angle->location, "the moment is " + moment->shape.toString() +
                                                " but the angle is " + angle->shape.toString());
      return;
    }
    bool ok = expectWork(moment, angle, t.moment->location, "the torque does not do work");
    ok = ok && expectOrder(moment, t.moment->location, "the moment", 1);
    ok = ok && expectOrder(angle, t.angle->location, "the angle", 0);
    if (ok)
      model_->torques.push_back({instance.decl->location, moment, angle});
  }

  void checkDecl(const ast::GeneralizedDecl &g, const Instance &instance) {
    ExprRef value = resolve(*g.value, instance);
    ExprRef coordinate = resolve(*g.coordinate, instance);
    if (!value || !coordinate)
      return;
    if (coordinate->kind != ExprKind::Coord) {
      diagnostics_.error(g.coordinate->location,
                         "a generalized force acts on a coordinate, found '" +
                             formatExpr(*g.coordinate) + "'");
      return;
    }
    if (!expectShape(value, g.value->location, "a generalized force", isScalar, "a scalar"))
      return;
    bool ok = expectWork(value, coordinate, g.value->location,
                         "the generalized force on '" +
                             model_->coords[static_cast<size_t>(coordinate->index)].name +
                             "' does not do work");
    ok = ok && expectOrder(value, g.value->location, "the generalized force", 1);
    if (ok)
      model_->generalized.push_back({instance.decl->location, value, coordinate->index});
  }

  void checkDecl(const ast::ParticleDecl &p, const Instance &instance) {
    ExprRef mass = resolve(*p.mass, instance), position = resolve(*p.position, instance);
    if (!mass || !position)
      return;
    bool ok = expectShape(mass, p.mass->location, "a mass", isScalar, "a scalar");
    ok = expectShape(position, p.position->location, "a position", isPosition,
                     "a vector or a scalar") &&
         ok;
    if (!ok)
      return;
    ok = expectDimension(mass, p.mass->location, "the mass", Dimension::mass(), "a mass");
    ok = expectDimension(position, p.position->location, "the position", Dimension::length(),
                         "a length") &&
         ok;
    ok = ok && expectOrder(mass, p.mass->location, "the mass", 0);
    ok = ok && expectOrder(position, p.position->location, "the position", 0);
    if (ok)
      model_->particles.push_back({instance.name, instance.decl->location, mass, position});
  }

  void checkDecl(const ast::BodyDecl &b, const Instance &instance) {
    ExprRef mass = resolve(*b.mass, instance), position = resolve(*b.position, instance);
    ExprRef orientation = resolve(*b.orientation, instance);
    ExprRef inertia = resolve(*b.inertia, instance);
    if (!mass || !position || !orientation || !inertia)
      return;
    bool planar = b.kind == ast::BodyKind::Planar;
    bool ok = expectShape(mass, b.mass->location, "a mass", isScalar, "a scalar");
    if (planar) {
      ok = expectShape(position, b.position->location, "the position of a planar body", isVector,
                       "a vector") &&
           ok;
      ok = expectShape(orientation, b.orientation->location, "the angle of a planar body", isScalar,
                       "a scalar") &&
           ok;
      ok = expectShape(inertia, b.inertia->location, "the inertia of a planar body", isScalar,
                       "a scalar (the moment of inertia about the centre of mass)") &&
           ok;
    } else {
      ok = expectShape(position, b.position->location, "the position of a spatial body", is3Vector,
                       "a 3-vector") &&
           ok;
      ok = expectShape(orientation, b.orientation->location, "the rotation of a spatial body",
                       is3x3, "a 3x3 matrix") &&
           ok;
      ok = expectShape(inertia, b.inertia->location, "the inertia of a spatial body", is3x3,
                       "a 3x3 tensor") &&
           ok;
    }
    if (!ok)
      return;
    Dimension inertiaDim = *Dimension::mass().times(*Dimension::length().raisedTo(Rational(2)));
    ok = expectDimension(mass, b.mass->location, "the mass", Dimension::mass(), "a mass");
    ok = expectDimension(position, b.position->location, "the position", Dimension::length(),
                         "a length") &&
         ok;
    ok = expectDimension(orientation, b.orientation->location,
                         planar ? "the angle" : "the rotation", Dimension(), "a pure number") &&
         ok;
    ok = expectDimension(inertia, b.inertia->location, "the inertia", inertiaDim,
                         "a moment of inertia") &&
         ok;
    for (const auto &[value, loc] :
         {std::pair{mass, b.mass->location}, std::pair{position, b.position->location},
          std::pair{orientation, b.orientation->location}, std::pair{inertia, b.inertia->location}})
      ok = ok && expectOrder(value, loc, "a body's mass, position, orientation or inertia", 0);
    if (ok)
      model_->bodies.push_back(
          {instance.name, instance.decl->location, planar, mass, position, orientation, inertia});
  }

  void checkDecl(const ast::GravityDecl &g, const Instance &instance) {
    ExprRef acceleration = resolve(*g.acceleration, instance);
    if (!acceleration)
      return;
    if (!expectShape(acceleration, g.acceleration->location, "gravity", isPosition,
                     "a vector or a scalar"))
      return;
    Dimension expected = *Dimension::length().over(*Dimension::time().raisedTo(Rational(2)));
    bool ok = expectDimension(acceleration, g.acceleration->location, "gravity", expected,
                              "an acceleration");
    ok = ok && expectOrder(acceleration, g.acceleration->location, "gravity", 0);
    if (ok)
      model_->gravity.push_back({instance.decl->location, acceleration});
  }

  void checkDecl(const ast::SpringDecl &s, const Instance &instance) {
    ExprRef stiffness = resolve(*s.stiffness, instance);
    ExprRef from = resolve(*s.from, instance), to = resolve(*s.to, instance);
    ExprRef rest = s.rest ? resolve(*s.rest, instance)
                          : resolver_.number(0, Rational(0), instance.decl->location);
    if (!stiffness || !from || !to || !rest)
      return;
    bool ok = expectShape(stiffness, s.stiffness->location, "the stiffness", isScalar, "a scalar");
    ok =
        expectShape(from, s.from->location, "a spring's end", isPosition, "a vector or a scalar") &&
        ok;
    if (s.rest)
      ok = expectShape(rest, s.rest->location, "the rest length", isScalar, "a scalar") && ok;
    if (!ok)
      return;
    if (from->shape != to->shape) {
      diagnostics_.error(s.to->location,
                         "the spring's ends differ in shape: " + from->shape.toString() + " and " +
                             to->shape.toString());
      return;
    }
    auto length =
        resolver_.sumDimension(from->dim, to->dim, s.to->location, "the spring's ends", true);
    if (!length)
      return;
    if (s.rest && !resolver_.sumDimension(*length, rest->dim, s.rest->location,
                                          "the rest length and the spring's length", true))
      return;
    DimInfo energy =
        Resolver::productDimension(stiffness->dim, Resolver::productDimension(*length, *length));
    if (energy.isKnown() && !(energy.dimension == Dimension::energy())) {
      diagnostics_.error(s.stiffness->location,
                         "a stiffness of " + stiffness->dim.dimension.toString() +
                             " over a length of " + length->dimension.toString() +
                             " does not give an energy");
      return;
    }
    ok = expectOrder(stiffness, s.stiffness->location, "the stiffness", 0);
    ok = ok && expectOrder(from, s.from->location, "a spring's end", 0);
    ok = ok && expectOrder(to, s.to->location, "a spring's end", 0);
    ok = ok && expectOrder(rest, instance.decl->location, "the rest length", 0);
    if (ok)
      model_->springs.push_back({instance.decl->location, stiffness, from, to, rest});
  }

  void checkDecl(const ast::ConstraintDecl &c, const Instance &instance) {
    Constraint &constraint = model_->constraints[static_cast<size_t>(instance.slot)];
    constraint.name = instance.name;
    Location where = c.name ? c.name->location : instance.decl->location;
    constraint.location = where;
    ExprRef lhs = resolve(*c.lhs, instance), rhs = resolve(*c.rhs, instance);
    if (!lhs || !rhs)
      return;
    if (!lhs->shape.isScalar() || !rhs->shape.isScalar()) {
      diagnostics_.error(instance.decl->location,
                         "a constraint relates two scalars, found " + lhs->shape.toString() +
                             " == " + rhs->shape.toString() + " (write one per component)");
      return;
    }
    auto dim = resolver_.sumDimension(lhs->dim, rhs->dim, c.rhs->location,
                                      "constraint '" + instance.name + "'");
    if (!dim)
      return;
    int order = std::max(lhs->coordOrder, rhs->coordOrder);
    if (order < 0) {
      diagnostics_.error(where,
                         "constraint '" + instance.name + "' does not depend on any coordinate");
      return;
    }
    if (order > 1) {
      diagnostics_.error(where, "constraint '" + instance.name +
                                    "' involves accelerations; a constraint relates positions "
                                    "(holonomic) or velocities (nonholonomic)");
      return;
    }
    // C^T lambda is a generalized force: lambda is work (holonomic) or power
    // (nonholonomic) over the dimension of the constraint function.
    Dimension numerator = order == 0 ? Dimension::energy() : Dimension::power();
    constraint.multiplierDim =
        dim->isKnown() ? DimInfo::known(*numerator.over(dim->dimension)) : DimInfo::unchecked();
    constraint.lhs = lhs;
    constraint.rhs = rhs;
  }

  void checkDecl(const ast::InitDecl &init, const Instance &instance) {
    for (const ast::InitItem &item : init.items) {
      Env env = baseEnv(instance.bindings);
      ast::Name target(item.location, item.name);
      ExprRef coordinate;
      if (item.indices.empty()) {
        auto found = resolver_.symbols.find(item.name);
        if (found != resolver_.symbols.end() && found->second.kind != SymbolKind::Coord) {
          diagnostics_.error(item.location, "'" + item.name + "' is a " +
                                                symbolKindName(found->second.kind) +
                                                ", not a coordinate");
          continue;
        }
        if (found == resolver_.symbols.end()) {
          diagnostics_.error(item.location, "unknown coordinate '" + item.name + "'" +
                                                resolver_.suggestion(item.name, env));
          continue;
        }
        coordinate = resolver_.resolve(target, env);
      } else {
        auto found = resolver_.symbols.find(item.name);
        if (found == resolver_.symbols.end() || found->second.kind != SymbolKind::Coord) {
          diagnostics_.error(item.location, "unknown coordinate family '" + item.name + "'");
          continue;
        }
        ast::Index index(item.location, std::make_unique<ast::Name>(item.location, item.name));
        for (const ast::ExprPtr &e : item.indices)
          index.indices.push_back(cloneIndex(*e));
        coordinate = resolver_.resolve(index, env);
      }
      if (!coordinate)
        continue;
      if (item.primes > 1) {
        diagnostics_.error(item.location, "init sets a coordinate or its velocity, not a "
                                          "derivative of order " +
                                              std::to_string(item.primes));
        continue;
      }
      ExprRef value = resolver_.resolve(*item.value, env);
      if (!value)
        continue;
      std::optional<double> number =
          value->shape.isScalar() ? resolver_.evaluateConstant(value) : std::nullopt;
      if (!number) {
        diagnostics_.error(item.value->location,
                           "an initial value must be a constant (numbers, pi and params)");
        continue;
      }
      const Coord &coord = model_->coords[static_cast<size_t>(coordinate->index)];
      DimInfo expected = coord.dim;
      if (expected.isKnown() && item.primes == 1)
        expected = DimInfo::known(*expected.dimension.over(Dimension::time()));
      if (!resolver_.sumDimension(expected, value->dim, item.value->location,
                                  "the initial value of '" + coord.name +
                                      std::string(item.primes, '\'') + "'"))
        continue;
      for (const Initial &previous : model_->initial)
        if (previous.coord == coordinate->index && previous.order == item.primes) {
          Diagnostic &d =
              diagnostics_.error(item.location, "'" + coord.name + std::string(item.primes, '\'') +
                                                    "' is initialised twice");
          Diagnostics::addNote(d, previous.location, "previous init is here");
          number.reset();
          break;
        }
      if (number)
        model_->initial.push_back({coordinate->index, item.primes, *number, item.location});
    }
  }

  // Init items keep their index expressions in the AST; they are resolved
  // through a temporary Index node that needs its own copies.
  static ast::ExprPtr cloneIndex(const ast::Expr &e) {
    switch (e.kind) {
    case ast::ExprKind::Number: {
      auto &n = static_cast<const ast::Number &>(e);
      auto copy = std::make_unique<ast::Number>(n.location, n.text);
      copy->unit = n.unit;
      return copy;
    }
    case ast::ExprKind::Name: {
      auto &n = static_cast<const ast::Name &>(e);
      return std::make_unique<ast::Name>(n.location, n.name);
    }
    case ast::ExprKind::Neg: {
      auto &n = static_cast<const ast::Neg &>(e);
      return std::make_unique<ast::Neg>(n.location, cloneIndex(*n.operand));
    }
    case ast::ExprKind::Add: {
      auto &a = static_cast<const ast::Add &>(e);
      auto copy = std::make_unique<ast::Add>(a.location);
      for (const auto &t : a.terms)
        copy->terms.push_back({t.negated, cloneIndex(*t.value)});
      return copy;
    }
    case ast::ExprKind::Mul: {
      auto &m = static_cast<const ast::Mul &>(e);
      auto copy = std::make_unique<ast::Mul>(m.location);
      for (const auto &f : m.factors)
        copy->factors.push_back({f.divides, cloneIndex(*f.value)});
      return copy;
    }
    case ast::ExprKind::Pow: {
      auto &p = static_cast<const ast::Pow &>(e);
      return std::make_unique<ast::Pow>(p.location, cloneIndex(*p.base), cloneIndex(*p.exponent));
    }
    default: {
      // Anything else is not a valid index; keep its location for the error.
      return std::make_unique<ast::Name>(e.location, formatExpr(e));
    }
    }
  }

  void checkDecl(const ast::OutputDecl &o, const Instance &instance) {
    ExprRef value = resolve(*o.value, instance, /*allowMultipliers=*/true);
    if (!value)
      return;
    if (!expectShape(value, o.value->location, "an output", isScalar,
                     "a scalar (write one output per component, e.g. p.x)"))
      return;
    model_->outputs.push_back({instance.name, instance.decl->location, value});
  }

  void checkGravityShapes() {
    for (const Gravity &g : model_->gravity) {
      auto mismatch = [&](const std::string &kind, const std::string &name, const ExprRef &r) {
        if (r->shape == g.acceleration->shape)
          return false;
        diagnostics_.error(g.location, "gravity is " + g.acceleration->shape.toString() + " but " +
                                           kind + " '" + name + "' is at " + r->shape.toString());
        return true;
      };
      bool reported = false;
      for (const Particle &p : model_->particles)
        if (!reported)
          reported = mismatch("particle", p.name, p.position);
      for (const Body &b : model_->bodies)
        if (!reported)
          reported = mismatch("body", b.name, b.position);
    }
  }

  Diagnostics &diagnostics_;
  const LoadedFile &file_;
  const ast::ModelDecl &modelDecl_;
  const AnalysisOptions &options_;
  std::unique_ptr<CheckedModel> model_;
  Resolver resolver_;
  FileScope modelScope_;
  std::vector<Instance> instances_;
  std::vector<LoopVariable> loopVariables_;
  int unnamedConstraints_ = 0;
  std::set<std::string> declaredNames_;

  void collectDeclaredNames(const std::vector<ast::Decl> &decls) {
    for (const ast::Decl &decl : decls) {
      if (auto *loop = std::get_if<ast::ForDecl>(&decl.node))
        collectDeclaredNames(loop->body);
      else if (const ast::DeclName *name = declaredName(decl))
        declaredNames_.insert(name->name);
    }
  }
  std::vector<std::unique_ptr<ast::Unit>> convertedUnits_;
};

// Names in a library def must be its parameters, sum indices, defs or
// built-ins: checked once, since such a def is expanded only where called.
class DefBodyChecker {
public:
  DefBodyChecker(Diagnostics &diagnostics, const FileScope &scope)
      : diagnostics_(diagnostics), scope_(scope) {}

  void check(const ast::DefDecl &def) {
    std::set<std::string> seen;
    for (size_t i = 0; i < def.params.size(); ++i) {
      if (!seen.insert(def.params[i]).second)
        diagnostics_.error(def.paramLocations[i], "parameter '" + def.params[i] +
                                                      "' appears twice in def '" + def.name + "'");
    }
    names_ = std::vector<std::string>(def.params.begin(), def.params.end());
    walk(*def.body);
  }

private:
  bool known(const std::string &name) const {
    return std::find(names_.begin(), names_.end(), name) != names_.end();
  }

  void walk(const ast::Expr &e) {
    switch (e.kind) {
    case ast::ExprKind::Name: {
      auto &n = static_cast<const ast::Name &>(e);
      if (!known(n.name))
        diagnostics_.error(n.location, "unknown name '" + n.name +
                                           "' (a def outside a model sees only its parameters)");
      return;
    }
    case ast::ExprKind::Call: {
      auto &c = static_cast<const ast::Call &>(e);
      auto def = scope_.defs.find(c.callee);
      if (def != scope_.defs.end()) {
        if (def->second.decl->params.size() != c.args.size())
          diagnostics_.error(c.location, "'" + c.callee + "' takes " +
                                             std::to_string(def->second.decl->params.size()) +
                                             " arguments, " + std::to_string(c.args.size()) +
                                             " given");
      } else if (!findBuiltin(c.callee)) {
        diagnostics_.error(c.calleeLocation, "unknown function '" + c.callee + "'");
      }
      for (const auto &arg : c.args)
        walk(*arg);
      return;
    }
    case ast::ExprKind::SumOver: {
      auto &s = static_cast<const ast::SumOver &>(e);
      walk(*s.from);
      walk(*s.to);
      names_.push_back(s.index);
      walk(*s.body);
      names_.pop_back();
      return;
    }
    case ast::ExprKind::Vector:
      for (const auto &x : static_cast<const ast::Vector &>(e).elements)
        walk(*x);
      return;
    case ast::ExprKind::Add:
      for (const auto &t : static_cast<const ast::Add &>(e).terms)
        walk(*t.value);
      return;
    case ast::ExprKind::Mul:
      for (const auto &f : static_cast<const ast::Mul &>(e).factors)
        walk(*f.value);
      return;
    case ast::ExprKind::Neg:
      walk(*static_cast<const ast::Neg &>(e).operand);
      return;
    case ast::ExprKind::Pow:
      walk(*static_cast<const ast::Pow &>(e).base);
      walk(*static_cast<const ast::Pow &>(e).exponent);
      return;
    case ast::ExprKind::Prime:
      walk(*static_cast<const ast::Prime &>(e).operand);
      return;
    case ast::ExprKind::Component:
      walk(*static_cast<const ast::Component &>(e).operand);
      return;
    case ast::ExprKind::Index: {
      auto &x = static_cast<const ast::Index &>(e);
      diagnostics_.error(x.location, "a def outside a model cannot index a family");
      return;
    }
    default:
      return;
    }
  }

  Diagnostics &diagnostics_;
  const FileScope &scope_;
  std::vector<std::string> names_;
};

} // namespace

namespace {

Analysis analyze(Compilation &compilation, const LoadedFile *file, const AnalysisOptions &options,
                 int errorsBefore) {
  Analysis analysis;
  analysis.file = file;
  if (file != nullptr && file->ast) {
    DefBodyChecker checker(compilation.diagnostics(), file->scope);
    for (const ast::TopItem &item : file->ast->items) {
      if (auto *def = std::get_if<ast::DefDecl>(&item.node)) {
        ++analysis.defCount;
        checker.check(*def);
      }
    }
    int models = 0;
    for (const ast::TopItem &item : file->ast->items) {
      auto *model = std::get_if<ast::ModelDecl>(&item.node);
      if (model == nullptr)
        continue;
      if (++models > 1) {
        compilation.diagnostics().error(model->location, "a file holds at most one model ('" +
                                                             model->name + "' is the second)");
        continue;
      }
      Analyzer analyzer(compilation, *file, *model, options);
      analysis.model = analyzer.run();
    }
  }
  analysis.ok =
      file != nullptr && file->ast && compilation.diagnostics().errorCount() == errorsBefore;
  if (!analysis.ok)
    analysis.model.reset();
  return analysis;
}

} // namespace

Analysis analyzeLoaded(Compilation &compilation, const LoadedFile *file,
                       const AnalysisOptions &options) {
  // Errors reported while the file and its imports were loaded count too.
  int loadErrors = file != nullptr ? file->loadErrors : 0;
  return analyze(compilation, file, options, compilation.diagnostics().errorCount() - loadErrors);
}

Analysis analyzeFile(Compilation &compilation, const std::string &path,
                     const AnalysisOptions &options) {
  int errorsBefore = compilation.diagnostics().errorCount();
  const LoadedFile *file = compilation.loadRoot(path);
  return analyze(compilation, file, options, errorsBefore);
}

} // namespace mech::sema
