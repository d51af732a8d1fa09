// Expression resolution: the one place where AST expressions become IR.
#include "sema/Resolver.h"

#include "support/EditDistance.h"

#include "sema/ModelPrinter.h"
#include "sema/Units.h"
#include "syntax/Printer.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace mech::sema {

const char *symbolKindName(SymbolKind kind) {
  switch (kind) {
  case SymbolKind::Param:
    return "param";
  case SymbolKind::Coord:
    return "coordinate";
  case SymbolKind::Let:
    return "let";
  case SymbolKind::Term:
    return "kinetic, potential or dissipation term";
  case SymbolKind::Constraint:
    return "constraint";
  case SymbolKind::Particle:
    return "particle";
  case SymbolKind::Body:
    return "body";
  case SymbolKind::Output:
    return "output";
  case SymbolKind::LoopIndex:
    return "loop variable";
  }
  return "name";
}

Resolver::Resolver(CheckedModel &model, Diagnostics &diagnostics)
    : model_(model), diagnostics_(diagnostics) {}

// ---------------------------------------------------------------------------
// Node construction

ExprRef Resolver::make(ExprKind kind, Shape shape, DimInfo dim, Location loc,
                       std::vector<ExprRef> children) {
  if (++nodeCount_ > kMaxNodes)
    throw ExpansionLimit{};
  auto node = std::make_shared<Node>();
  node->kind = kind;
  node->shape = shape;
  node->dim = dim;
  node->location = loc;
  for (const ExprRef &child : children) {
    node->coordOrder = std::max(node->coordOrder, child->coordOrder);
    node->usesTime = node->usesTime || child->usesTime;
    node->usesMultiplier = node->usesMultiplier || child->usesMultiplier;
  }
  node->children = std::move(children);
  return node;
}

ExprRef Resolver::number(double value, std::optional<Rational> exact, Location loc) {
  auto node = std::const_pointer_cast<Node>(
      make(ExprKind::Number, Shape::scalar(), DimInfo::pure(), loc, {}));
  node->value = value;
  node->exact = exact;
  return node;
}

std::optional<DimInfo> Resolver::sumDimension(const DimInfo &a, const DimInfo &b, Location loc,
                                              const std::string &context, bool plural) {
  if (a.isKnown() && b.isKnown()) {
    if (a.dimension == b.dimension)
      return a;
    diagnostics_.error(loc, context + (plural ? " mix" : " mixes") + " dimensions " +
                                a.dimension.toString() + " and " + b.dimension.toString());
    return std::nullopt;
  }
  if (a.isKnown())
    return a;
  if (b.isKnown())
    return b;
  if (a.state == DimInfo::Unchecked || b.state == DimInfo::Unchecked)
    return DimInfo::unchecked();
  return DimInfo::pure();
}

DimInfo Resolver::productDimension(const DimInfo &a, const DimInfo &b) {
  if (a.state == DimInfo::Unchecked || b.state == DimInfo::Unchecked)
    return DimInfo::unchecked();
  if (a.state == DimInfo::Pure && b.state == DimInfo::Pure)
    return DimInfo::pure();
  auto product = a.dimension.times(b.dimension);
  return product ? DimInfo::known(*product) : DimInfo::unchecked();
}

namespace {

DimInfo inverseDimension(const DimInfo &d) {
  if (d.state != DimInfo::Known)
    return d;
  auto inverse = Dimension().over(d.dimension);
  return inverse ? DimInfo::known(*inverse) : DimInfo::unchecked();
}

// Why a dimension could not be formed: an exponent left the limit.
std::string exponentLimitMessage(const DimInfo &operand, const std::string &operation) {
  return "the dimension of this " + operation + " leaves the limits (from " +
         operand.dimension.toString() +
         "): dimension exponents are rationals with numerator "
         "and denominator at most " +
         std::to_string(kMaxExponent) + " in magnitude";
}

bool isDimensionless(const DimInfo &d) {
  return !d.isKnown() || d.dimension.isDimensionless();
}

std::string describe(const DimInfo &d) {
  return d.dimension.toString();
}

} // namespace

std::string Resolver::suggestion(const std::string &name, const Env &env) const {
  // Past the error limit the message is dropped: no hint is searched for,
  // so that many unknown names cost no more than a hundred.
  if (diagnostics_.full())
    return "";
  std::string best;
  // Short names are too close to everything to suggest anything useful.
  int bestDistance = name.size() <= 2 ? 1 : name.size() <= 4 ? 2 : 3;
  auto consider = [&](const std::string &candidate) {
    // The distance is at least the difference in length: most candidates
    // are rejected without the dynamic-programming table.
    size_t longer = std::max(name.size(), candidate.size());
    size_t shorter = std::min(name.size(), candidate.size());
    if (candidate.size() <= 1 || longer - shorter >= static_cast<size_t>(bestDistance))
      return;
    int distance = editDistance(name, candidate);
    if (distance > 0 && distance < bestDistance)
      bestDistance = distance, best = candidate;
  };
  if (env.modelNames)
    for (const auto &[symbol, info] : symbols)
      consider(symbol);
  for (const auto &[index, value] : env.indices)
    consider(index);
  for (const auto &[arg, value] : env.args)
    consider(arg);
  if (env.defs)
    for (const auto &[def, entry] : env.defs->defs)
      consider(def);
  return best.empty() ? "" : " (did you mean '" + best + "'?)";
}

// ---------------------------------------------------------------------------
// Expressions

ExprRef Resolver::resolve(const ast::Expr &expr, const Env &env) {
  switch (expr.kind) {
  case ast::ExprKind::Number:
    return resolveNumber(static_cast<const ast::Number &>(expr));
  case ast::ExprKind::Time: {
    auto node = std::const_pointer_cast<Node>(make(
        ExprKind::Time, Shape::scalar(), DimInfo::known(Dimension::time()), expr.location, {}));
    node->usesTime = true;
    return node;
  }
  case ast::ExprKind::Pi:
    return make(ExprKind::Pi, Shape::scalar(), DimInfo::pure(), expr.location, {});
  case ast::ExprKind::Name:
    return resolveName(static_cast<const ast::Name &>(expr), env);
  case ast::ExprKind::Call:
    return resolveCall(static_cast<const ast::Call &>(expr), env);
  case ast::ExprKind::SumOver:
    return resolveSum(static_cast<const ast::SumOver &>(expr), env);
  case ast::ExprKind::Vector:
    return resolveVector(static_cast<const ast::Vector &>(expr), env);
  case ast::ExprKind::Add:
    return resolveAdd(static_cast<const ast::Add &>(expr), env);
  case ast::ExprKind::Mul:
    return resolveMul(static_cast<const ast::Mul &>(expr), env);
  case ast::ExprKind::Neg: {
    ExprRef operand = resolve(*static_cast<const ast::Neg &>(expr).operand, env);
    if (!operand)
      return nullptr;
    return make(ExprKind::Neg, operand->shape, operand->dim, expr.location, {operand});
  }
  case ast::ExprKind::Pow:
    return resolvePow(static_cast<const ast::Pow &>(expr), env);
  case ast::ExprKind::Prime:
    return resolvePrime(static_cast<const ast::Prime &>(expr), env);
  case ast::ExprKind::Component:
    return resolveComponent(static_cast<const ast::Component &>(expr), env);
  case ast::ExprKind::Index:
    return resolveIndex(static_cast<const ast::Index &>(expr), env);
  }
  internalError("unhandled expression kind in resolver");
}

ExprRef Resolver::resolveNumber(const ast::Number &literal) {
  double value = 0;
  auto [end, error] =
      std::from_chars(literal.text.data(), literal.text.data() + literal.text.size(), value);
  (void)end;
  if (error == std::errc::result_out_of_range || !std::isfinite(value)) {
    bool tiny = literal.text.find("e-") != std::string::npos ||
                literal.text.find("E-") != std::string::npos;
    if (!tiny) {
      diagnostics_.error(literal.location, "number " + literal.text + " is too large");
      return nullptr;
    }
    value = 0;
  }
  std::optional<Rational> exact = Rational::fromDecimal(literal.text);
  if (!literal.unit)
    return number(value, exact, literal.location);

  std::optional<UnitValue> unit = evaluateUnit(*literal.unit, diagnostics_);
  if (!unit)
    return nullptr;
  if (exact)
    exact = mul(*exact, unit->scale);
  ExprRef scaled = number(value * unit->scale.toDouble(), exact, literal.location);
  ExprRef result = scaled;
  if (unit->piPower != 0) {
    // deg is exactly pi/180: keep pi symbolic.
    ExprRef pi = make(ExprKind::Pi, Shape::scalar(), DimInfo::pure(), literal.location, {});
    if (unit->piPower != 1)
      pi = make(ExprKind::Pow, Shape::scalar(), DimInfo::pure(), literal.location,
                {pi, number(unit->piPower, Rational(unit->piPower), literal.location)});
    result = make(ExprKind::Mul, Shape::scalar(), DimInfo::pure(), literal.location, {scaled, pi});
  }
  auto node = std::const_pointer_cast<Node>(result);
  node->dim = DimInfo::known(unit->dimension);
  return node;
}

ExprRef Resolver::reference(SymbolKind kind, int index, Location loc) {
  switch (kind) {
  case SymbolKind::Param: {
    const Param &param = model_.params[static_cast<size_t>(index)];
    auto node =
        std::const_pointer_cast<Node>(make(ExprKind::Param, Shape::scalar(), param.dim, loc, {}));
    node->index = index;
    return node;
  }
  case SymbolKind::Coord: {
    const Coord &coord = model_.coords[static_cast<size_t>(index)];
    auto node =
        std::const_pointer_cast<Node>(make(ExprKind::Coord, Shape::scalar(), coord.dim, loc, {}));
    node->index = index;
    node->coordOrder = 0;
    return node;
  }
  case SymbolKind::Let:
  case SymbolKind::Term:
    return letReference(index, loc);
  case SymbolKind::Constraint: {
    const Constraint &constraint = model_.constraints[static_cast<size_t>(index)];
    auto node = std::const_pointer_cast<Node>(
        make(ExprKind::Multiplier, Shape::scalar(), constraint.multiplierDim, loc, {}));
    node->index = index;
    node->usesMultiplier = true;
    return node;
  }
  default:
    internalError("reference to a symbol that is not a value");
  }
}

ExprRef Resolver::resolveName(const ast::Name &name, const Env &env) {
  for (auto it = env.indices.rbegin(); it != env.indices.rend(); ++it)
    if (it->first == name.name)
      return number(static_cast<double>(it->second), Rational(it->second), name.location);
  for (auto it = env.args.rbegin(); it != env.args.rend(); ++it)
    if (it->first == name.name)
      return it->second;
  if (env.modelNames) {
    auto found = symbols.find(name.name);
    if (found != symbols.end()) {
      const Symbol &symbol = found->second;
      if (symbol.family) {
        diagnostics_.error(name.location, "'" + name.name + "' is an indexed family of " +
                                              symbolKindName(symbol.kind) + "s; write " +
                                              name.name + "[i]");
        return nullptr;
      }
      switch (symbol.kind) {
      case SymbolKind::Param:
      case SymbolKind::Coord:
      case SymbolKind::Let:
      case SymbolKind::Term:
        return reference(symbol.kind, symbol.index, name.location);
      case SymbolKind::Constraint:
        if (!env.allowMultipliers) {
          diagnostics_.error(name.location, "the multiplier of constraint '" + name.name +
                                                "' can only be used in an output");
          return nullptr;
        }
        return reference(symbol.kind, symbol.index, name.location);
      default:
        diagnostics_.error(name.location, "'" + name.name + "' is a " +
                                              symbolKindName(symbol.kind) + ", not a value");
        return nullptr;
      }
    }
  }
  if (env.defs && env.defs->defs.count(name.name)) {
    diagnostics_.error(name.location, "'" + name.name + "' is a def; call it with arguments: " +
                                          name.name + "(...)");
    return nullptr;
  }
  if (findBuiltin(name.name) || name.name == "sum") {
    diagnostics_.error(name.location,
                       "'" + name.name + "' is a function; call it: " + name.name + "(...)");
    return nullptr;
  }
  if (!env.modelNames) {
    // The same words as the check of library defs, so it is reported once.
    diagnostics_.error(name.location, "unknown name '" + name.name +
                                          "' (a def outside a model sees only its parameters)");
    return nullptr;
  }
  diagnostics_.error(name.location,
                     "unknown name '" + name.name + "'" + suggestion(name.name, env));
  return nullptr;
}

namespace {

// True when every leaf of e is a known unit symbol or a number: `[1/s]`
// written after something that is not a number.
bool looksLikeUnitPart(const ast::Expr &e);

bool mentionsUnitName(const ast::Expr &e) {
  switch (e.kind) {
  case ast::ExprKind::Name:
    return true;
  case ast::ExprKind::Mul:
    for (const auto &factor : static_cast<const ast::Mul &>(e).factors)
      if (mentionsUnitName(*factor.value))
        return true;
    return false;
  case ast::ExprKind::Pow:
    return mentionsUnitName(*static_cast<const ast::Pow &>(e).base);
  default:
    return false;
  }
}

bool looksLikeUnit(const ast::Expr &e) {
  return looksLikeUnitPart(e) && mentionsUnitName(e);
}

bool looksLikeUnitPart(const ast::Expr &e) {
  switch (e.kind) {
  case ast::ExprKind::Name: {
    std::vector<std::string> units = knownUnitSymbols();
    return std::find(units.begin(), units.end(), static_cast<const ast::Name &>(e).name) !=
           units.end();
  }
  case ast::ExprKind::Number:
    return true;
  case ast::ExprKind::Mul:
    for (const auto &factor : static_cast<const ast::Mul &>(e).factors)
      if (!looksLikeUnitPart(*factor.value))
        return false;
    return true;
  case ast::ExprKind::Pow:
    return looksLikeUnitPart(*static_cast<const ast::Pow &>(e).base);
  default:
    return false;
  }
}

std::string withoutSpaces(std::string text) {
  text.erase(std::remove(text.begin(), text.end(), ' '), text.end());
  return text;
}

} // namespace

void Resolver::reportMisplacedUnit(const ast::Index &index, const Env &env) {
  std::string unitText = withoutSpaces(formatExpr(*index.indices[0]));
  Diagnostic &d = diagnostics_.error(
      index.location, "a unit can only follow a number or the name in a param, coord or let "
                      "declaration");
  if (!env.declaringName.empty() && env.declaringValue != nullptr) {
    std::string whole = formatExpr(*env.declaringValue);
    std::string misplaced = formatExpr(index);
    std::string operand = formatExpr(*index.operand);
    size_t at = whole.find(misplaced);
    if (at != std::string::npos)
      whole.replace(at, misplaced.size(), operand);
    Diagnostics::addNote(d, {},
                         "write `" + env.declaringKeyword + " " + env.declaringName + " [" +
                             unitText + "] = " + whole + "`");
  } else {
    Diagnostics::addNote(d, {}, "put the unit on a number, as in `2 [" + unitText + "]`");
  }
}

ExprRef Resolver::resolveIndex(const ast::Index &index, const Env &env) {
  const ast::Name *base = index.operand->kind == ast::ExprKind::Name
                              ? static_cast<const ast::Name *>(index.operand.get())
                              : nullptr;
  const Symbol *symbol = nullptr;
  if (base != nullptr && env.modelNames) {
    bool shadowed = false;
    for (const auto &[name, value] : env.indices)
      shadowed = shadowed || name == base->name;
    for (const auto &[name, value] : env.args)
      shadowed = shadowed || name == base->name;
    auto found = symbols.find(base->name);
    if (!shadowed && found != symbols.end())
      symbol = &found->second;
  }
  if (symbol == nullptr || !symbol->family) {
    if (index.indices.size() == 1 && looksLikeUnit(*index.indices[0])) {
      reportMisplacedUnit(index, env);
      return nullptr;
    }
    if (base != nullptr && symbol == nullptr) {
      bool known = false;
      for (const auto &[name, value] : env.indices)
        known = known || name == base->name;
      for (const auto &[name, value] : env.args)
        known = known || name == base->name;
      if (!known) {
        diagnostics_.error(base->location,
                           "unknown name '" + base->name + "'" + suggestion(base->name, env));
        return nullptr;
      }
    }
    diagnostics_.error(index.location,
                       "only an indexed family can be indexed ('" + formatExpr(*index.operand) +
                           "' is not one); use .x, .y, .z for the components of a vector");
    return nullptr;
  }
  std::vector<long> key;
  bool ok = true;
  for (const ast::ExprPtr &e : index.indices) {
    std::optional<long> value = resolveInteger(*e, env, "an index");
    if (!value)
      ok = false;
    else
      key.push_back(*value);
  }
  if (!ok)
    return nullptr;
  auto member = symbol->members.find(key);
  if (member == symbol->members.end()) {
    std::string written;
    for (size_t i = 0; i < key.size(); ++i)
      written += (i > 0 ? ", " : "") + std::to_string(key[i]);
    std::string message = "'" + base->name + "[" + written + "]' does not exist";
    const std::vector<long> &first = symbol->members.begin()->first;
    const std::vector<long> &last = symbol->members.rbegin()->first;
    if (first.size() != key.size()) {
      message += ": '" + base->name + "' takes " + std::to_string(first.size()) + " index" +
                 (first.size() == 1 ? "" : "es");
    } else if (first.size() == 1) {
      message += ": the index of '" + base->name + "' runs over " + std::to_string(first[0]) +
                 ".." + std::to_string(last[0]);
    }
    diagnostics_.error(index.location, message);
    return nullptr;
  }
  if (symbol->kind == SymbolKind::Constraint && !env.allowMultipliers) {
    diagnostics_.error(index.location, "the multiplier of a constraint can only be used in an "
                                       "output");
    return nullptr;
  }
  if (symbol->kind != SymbolKind::Param && symbol->kind != SymbolKind::Coord &&
      symbol->kind != SymbolKind::Let && symbol->kind != SymbolKind::Term &&
      symbol->kind != SymbolKind::Constraint) {
    diagnostics_.error(index.location, "'" + base->name + "' is a family of " +
                                           symbolKindName(symbol->kind) + "s, not of values");
    return nullptr;
  }
  return reference(symbol->kind, member->second, index.location);
}

ExprRef Resolver::resolveCall(const ast::Call &call, const Env &env) {
  std::vector<ExprRef> args;
  bool ok = true;
  for (const ast::ExprPtr &arg : call.args) {
    ExprRef value = resolve(*arg, env);
    ok = ok && value != nullptr;
    args.push_back(value);
  }
  bool shadowedByValue = false;
  for (const auto &[name, value] : env.args)
    shadowedByValue = shadowedByValue || name == call.callee;
  if (!shadowedByValue && env.defs) {
    auto def = env.defs->defs.find(call.callee);
    if (def != env.defs->defs.end()) {
      if (!ok)
        return nullptr;
      return expandDef(def->second, call, std::move(args));
    }
  }
  if (auto builtin = findBuiltin(call.callee)) {
    if (!ok)
      return nullptr;
    return resolveBuiltin(*builtin, call, std::move(args));
  }
  if (call.callee == "sum") {
    diagnostics_.error(call.location, "sum takes an index and a range: sum(i in 1..n, expr)");
    return nullptr;
  }
  if (env.modelNames && symbols.count(call.callee)) {
    diagnostics_.error(call.calleeLocation, "'" + call.callee + "' is a " +
                                                symbolKindName(symbols.at(call.callee).kind) +
                                                ", not a function (write * for a product)");
    return nullptr;
  }
  diagnostics_.error(call.calleeLocation,
                     "unknown function '" + call.callee + "'" + suggestion(call.callee, env));
  return nullptr;
}

bool Resolver::enterDefinition(Location use) {
  if (nesting_ >= kMaxDefinitionNesting) {
    if (!nestingReported_)
      diagnostics_.error(use, "lets or defs nested more than " +
                                  std::to_string(kMaxDefinitionNesting) +
                                  " deep (each defined through the next)");
    nestingReported_ = true;
    return false;
  }
  ++nesting_;
  return true;
}

ExprRef Resolver::expandDef(const DefEntry &def, const ast::Call &call, std::vector<ExprRef> args) {
  const ast::DefDecl &decl = *def.decl;
  if (args.size() != decl.params.size()) {
    Diagnostic &d = diagnostics_.error(
        call.location, "'" + decl.name + "' takes " + std::to_string(decl.params.size()) +
                           " argument" + (decl.params.size() == 1 ? "" : "s") + ", " +
                           std::to_string(args.size()) + " given");
    Diagnostics::addNote(d, decl.location, "'" + decl.name + "' is defined here");
    return nullptr;
  }
  if (std::find(defStack_.begin(), defStack_.end(), &decl) != defStack_.end()) {
    Diagnostic &d = diagnostics_.error(call.location, "def '" + decl.name +
                                                          "' calls itself; defs are "
                                                          "expanded and cannot recurse");
    Diagnostics::addNote(d, decl.location, "'" + decl.name + "' is defined here");
    return nullptr;
  }
  std::vector<const Node *> key;
  for (const ExprRef &arg : args)
    key.push_back(arg.get());
  auto cached = defCache_.find({&decl, key});
  if (cached != defCache_.end())
    return cached->second.second;

  Env inner;
  inner.defs = def.scope;
  inner.modelNames = def.inModel;
  for (size_t i = 0; i < args.size(); ++i)
    inner.args.emplace_back(decl.params[i], args[i]);
  if (!enterDefinition(call.location))
    return nullptr;
  defStack_.push_back(&decl);
  int errorsBefore = diagnostics_.errorCount();
  ExprRef result = resolve(*decl.body, inner);
  defStack_.pop_back();
  --nesting_;
  if (!result) {
    if (diagnostics_.errorCount() > errorsBefore && !diagnostics_.all().empty()) {
      Diagnostic &last = const_cast<Diagnostic &>(diagnostics_.all().back());
      Diagnostics::addNote(last, call.location, "in the call of '" + decl.name + "' here");
    }
    return nullptr;
  }
  defCache_[{&decl, key}] = {args, result};
  return result;
}

ExprRef Resolver::resolveBuiltin(Builtin builtin, const ast::Call &call,
                                 std::vector<ExprRef> args) {
  const std::string name = builtinName(builtin);
  auto arity = [&](size_t n) {
    if (args.size() == n)
      return true;
    diagnostics_.error(call.location, name + " takes " + std::to_string(n) + " argument" +
                                          (n == 1 ? "" : "s") + ", " + std::to_string(args.size()) +
                                          " given");
    return false;
  };
  auto shapeError = [&](size_t i, const std::string &expected) {
    diagnostics_.error(call.args[i]->location,
                       name + " expects " + expected + ", found " + args[i]->shape.toString());
    return nullptr;
  };
  Location loc = call.location;
  auto makeCall = [&](Shape shape, DimInfo dim) {
    auto node = std::const_pointer_cast<Node>(make(ExprKind::Call, shape, dim, loc, args));
    node->builtin = builtin;
    return node;
  };
  switch (builtin) {
  case Builtin::Sin:
  case Builtin::Cos:
  case Builtin::Tan:
  case Builtin::Asin:
  case Builtin::Acos:
  case Builtin::Atan:
  case Builtin::Sinh:
  case Builtin::Cosh:
  case Builtin::Tanh:
  case Builtin::Exp:
  case Builtin::Log:
    if (!arity(1))
      return nullptr;
    if (!args[0]->shape.isScalar())
      return shapeError(0, "a scalar");
    if (!isDimensionless(args[0]->dim)) {
      diagnostics_.error(call.args[0]->location,
                         name + " needs a dimensionless argument, found " + describe(args[0]->dim));
      return nullptr;
    }
    return makeCall(Shape::scalar(), DimInfo::known(Dimension()));
  case Builtin::Sqrt: {
    if (!arity(1))
      return nullptr;
    if (!args[0]->shape.isScalar())
      return shapeError(0, "a scalar");
    DimInfo dim = args[0]->dim;
    if (dim.isKnown()) {
      auto root = dim.dimension.raisedTo(*Rational::make(1, 2));
      if (!root) {
        diagnostics_.error(loc, exponentLimitMessage(dim, "sqrt"));
        return nullptr;
      }
      dim = DimInfo::known(*root);
    }
    return makeCall(Shape::scalar(), dim);
  }
  case Builtin::Abs:
    if (!arity(1))
      return nullptr;
    if (!args[0]->shape.isScalar())
      return shapeError(0, "a scalar (use norm for a vector)");
    return makeCall(Shape::scalar(), args[0]->dim);
  case Builtin::Sign:
    if (!arity(1))
      return nullptr;
    if (!args[0]->shape.isScalar())
      return shapeError(0, "a scalar");
    return makeCall(Shape::scalar(), DimInfo::known(Dimension()));
  case Builtin::Atan2: {
    if (!arity(2))
      return nullptr;
    for (size_t i = 0; i < 2; ++i)
      if (!args[i]->shape.isScalar())
        return shapeError(i, "scalars");
    if (!sumDimension(args[0]->dim, args[1]->dim, loc, "atan2"))
      return nullptr;
    return makeCall(Shape::scalar(), DimInfo::known(Dimension()));
  }
  case Builtin::Dot:
  case Builtin::Cross: {
    if (!arity(2))
      return nullptr;
    for (size_t i = 0; i < 2; ++i)
      if (!args[i]->shape.isVector())
        return shapeError(i, "vectors");
    if (args[0]->shape != args[1]->shape) {
      diagnostics_.error(loc, name + " of vectors of different sizes (" +
                                  args[0]->shape.toString() + " and " + args[1]->shape.toString() +
                                  ")");
      return nullptr;
    }
    DimInfo dim = productDimension(args[0]->dim, args[1]->dim);
    if (builtin == Builtin::Dot)
      return makeCall(Shape::scalar(), dim);
    // The planar cross product is the scalar z-component.
    return makeCall(args[0]->shape.rows == 3 ? Shape::vector(3) : Shape::scalar(), dim);
  }
  case Builtin::Norm:
    if (!arity(1))
      return nullptr;
    if (!args[0]->shape.isVector())
      return shapeError(0, "a vector (use abs for a scalar)");
    return makeCall(Shape::scalar(), args[0]->dim);
  case Builtin::Transpose:
    if (!arity(1))
      return nullptr;
    if (!args[0]->shape.isMatrix())
      return shapeError(0, "a matrix");
    return makeCall(Shape::matrix(args[0]->shape.cols, args[0]->shape.rows), args[0]->dim);
  case Builtin::Diag: {
    if (args.size() < 2 || args.size() > 3) {
      diagnostics_.error(loc,
                         "diag takes 2 or 3 scalars, " + std::to_string(args.size()) + " given");
      return nullptr;
    }
    DimInfo dim = DimInfo::pure();
    for (size_t i = 0; i < args.size(); ++i) {
      if (!args[i]->shape.isScalar())
        return shapeError(i, "scalars");
      auto combined = sumDimension(dim, args[i]->dim, call.args[i]->location, "diag");
      if (!combined)
        return nullptr;
      dim = *combined;
    }
    int n = static_cast<int>(args.size());
    return makeCall(Shape::matrix(n, n), dim);
  }
  case Builtin::Det:
  case Builtin::Trace:
  case Builtin::Inv:
    if (!arity(1))
      return nullptr;
    return resolveSquareMatrixCall(builtin, call, args[0]);
  }
  internalError("unhandled builtin");
}

// det, trace and inv: the shape rule is shared with the REPL
// (squareMatrixProblem); the entries share one dimension (resolveVector), so
// det has it to the n-th power, trace keeps it and inv inverts it.
ExprRef Resolver::resolveSquareMatrixCall(Builtin builtin, const ast::Call &call, ExprRef matrix) {
  if (auto problem = squareMatrixProblem(builtin, matrix->shape)) {
    diagnostics_.error(call.args[0]->location, *problem);
    return nullptr;
  }
  DimInfo dim = matrix->dim;
  if (dim.isKnown() && builtin != Builtin::Trace) {
    auto power = builtin == Builtin::Det ? dim.dimension.raisedTo(Rational(matrix->shape.rows))
                                         : Dimension().over(dim.dimension);
    if (!power) {
      diagnostics_.error(call.location, exponentLimitMessage(dim, builtinName(builtin)));
      return nullptr;
    }
    dim = DimInfo::known(*power);
  }
  Shape shape = builtin == Builtin::Inv ? matrix->shape : Shape::scalar();
  auto node =
      std::const_pointer_cast<Node>(make(ExprKind::Call, shape, dim, call.location, {matrix}));
  node->builtin = builtin;
  return node;
}

void Resolver::checkShadowing(const std::string &name, Location loc, const Env &env) {
  std::string what;
  for (const auto &[index, value] : env.indices)
    if (index == name)
      what = "an enclosing index";
  if (what.empty() && env.modelNames && symbols.count(name))
    what = std::string("a ") + symbolKindName(symbols.at(name).kind);
  if (!what.empty())
    diagnostics_.error(loc, "index '" + name + "' shadows " + what + " of the same name");
}

ExprRef Resolver::resolveSum(const ast::SumOver &sum, const Env &env) {
  if (sum.function != "sum") {
    diagnostics_.error(sum.location, "only sum takes a range: sum(" + sum.index + " in a..b, ...)");
    return nullptr;
  }
  checkShadowing(sum.index, sum.indexLocation, env);
  std::optional<long> from = resolveInteger(*sum.from, env, "a range bound");
  std::optional<long> to = resolveInteger(*sum.to, env, "a range bound");
  if (!from || !to)
    return nullptr;
  if (*to - *from + 1 > kMaxRange) {
    diagnostics_.error(sum.location, "the range " + std::to_string(*from) + ".." +
                                         std::to_string(*to) + " has more than " +
                                         std::to_string(kMaxRange) + " members");
    return nullptr;
  }
  if (*to < *from)
    return number(0, Rational(0), sum.location);
  std::vector<ExprRef> terms;
  Env inner = env;
  inner.indices.emplace_back(sum.index, 0);
  DimInfo dim = DimInfo::pure();
  Shape shape;
  for (long i = *from; i <= *to; ++i) {
    inner.indices.back().second = i;
    ExprRef term = resolve(*sum.body, inner);
    if (!term)
      return nullptr;
    if (terms.empty())
      shape = term->shape;
    auto combined = sumDimension(dim, term->dim, sum.location, "the sum");
    if (!combined)
      return nullptr;
    dim = *combined;
    terms.push_back(term);
  }
  if (terms.size() == 1)
    return terms[0];
  return make(ExprKind::Add, shape, dim, sum.location, std::move(terms));
}

ExprRef Resolver::resolveVector(const ast::Vector &vector, const Env &env) {
  std::vector<ExprRef> elements;
  bool ok = true;
  for (const ast::ExprPtr &e : vector.elements) {
    ExprRef value = resolve(*e, env);
    ok = ok && value;
    elements.push_back(value);
  }
  if (!ok)
    return nullptr;
  size_t n = elements.size();
  if (n < 2 || n > 3) {
    diagnostics_.error(vector.location,
                       "a vector has 2 or 3 components, found " + std::to_string(n));
    return nullptr;
  }
  DimInfo dim = DimInfo::pure();
  for (size_t i = 0; i < n; ++i) {
    auto combined = sumDimension(dim, elements[i]->dim, vector.elements[i]->location,
                                 "the components of a vector", true);
    if (!combined)
      return nullptr;
    dim = *combined;
  }
  if (elements[0]->shape.isScalar()) {
    for (size_t i = 1; i < n; ++i)
      if (!elements[i]->shape.isScalar()) {
        diagnostics_.error(vector.elements[i]->location,
                           "the components of a vector must be scalars, found " +
                               elements[i]->shape.toString());
        return nullptr;
      }
    return make(ExprKind::Vector, Shape::vector(static_cast<int>(n)), dim, vector.location,
                std::move(elements));
  }
  // A matrix: a vector of rows of equal length.
  Shape row = elements[0]->shape;
  if (!row.isVector()) {
    diagnostics_.error(vector.elements[0]->location,
                       "a matrix row must be a vector, found " + row.toString());
    return nullptr;
  }
  std::vector<ExprRef> entries;
  for (size_t i = 0; i < n; ++i) {
    if (elements[i]->shape != row) {
      diagnostics_.error(vector.elements[i]->location,
                         "the rows of a matrix must have equal lengths: " + row.toString() +
                             " and " + elements[i]->shape.toString());
      return nullptr;
    }
    if (elements[i]->kind == ExprKind::Vector) {
      for (const ExprRef &entry : elements[i]->children)
        entries.push_back(entry);
    } else {
      for (int k = 0; k < row.rows; ++k) {
        auto component = std::const_pointer_cast<Node>(
            make(ExprKind::Component, Shape::scalar(), elements[i]->dim,
                 vector.elements[i]->location, {elements[i]}));
        component->index = k;
        entries.push_back(component);
      }
    }
  }
  return make(ExprKind::Matrix, Shape::matrix(static_cast<int>(n), row.rows), dim, vector.location,
              std::move(entries));
}

ExprRef Resolver::resolveAdd(const ast::Add &add, const Env &env) {
  std::vector<ExprRef> terms;
  terms.reserve(add.terms.size());
  bool ok = true;
  for (const ast::Add::Term &term : add.terms) {
    ExprRef value = resolve(*term.value, env);
    if (!value) {
      ok = false;
      continue;
    }
    if (term.negated)
      value = make(ExprKind::Neg, value->shape, value->dim, term.value->location, {value});
    terms.push_back(value);
  }
  if (!ok)
    return nullptr;
  Shape shape = terms[0]->shape;
  DimInfo dim = terms[0]->dim;
  for (size_t i = 1; i < terms.size(); ++i) {
    if (terms[i]->shape != shape) {
      diagnostics_.error(add.terms[i].value->location,
                         "cannot add " + shape.toString() + " and " + terms[i]->shape.toString());
      return nullptr;
    }
    auto combined = sumDimension(dim, terms[i]->dim, add.terms[i].value->location,
                                 add.terms[i].negated ? "this difference" : "this sum");
    if (!combined)
      return nullptr;
    dim = *combined;
  }
  return make(ExprKind::Add, shape, dim, add.location, std::move(terms));
}

ExprRef Resolver::resolveMul(const ast::Mul &mul, const Env &env) {
  std::vector<ExprRef> factors;
  bool ok = true;
  for (const ast::Mul::Factor &factor : mul.factors) {
    ExprRef value = resolve(*factor.value, env);
    if (!value) {
      ok = false;
      continue;
    }
    if (factor.divides) {
      if (!value->shape.isScalar()) {
        diagnostics_.error(factor.value->location, "cannot divide by " + value->shape.toString());
        ok = false;
        continue;
      }
      value =
          make(ExprKind::Pow, Shape::scalar(), inverseDimension(value->dim), factor.value->location,
               {value, number(-1, Rational(-1), factor.value->location)});
    }
    factors.push_back(value);
  }
  if (!ok)
    return nullptr;
  // Shapes are checked pairwise left to right; the node stays n-ary.
  Shape shape = factors[0]->shape;
  DimInfo dim = factors[0]->dim;
  for (size_t i = 1; i < factors.size(); ++i) {
    ExprRef probe = factors[i];
    Shape x = shape, y = probe->shape;
    if (x.isScalar()) {
      shape = y;
    } else if (y.isScalar()) {
      // shape stays
    } else if (x.isMatrix() && y.isVector() && x.cols == y.rows) {
      shape = Shape::vector(x.rows);
    } else if (x.isMatrix() && y.isMatrix() && x.cols == y.rows) {
      shape = Shape::matrix(x.rows, y.cols);
    } else {
      std::string hint = x.isVector() && y.isVector() ? " (use dot or cross)" : "";
      diagnostics_.error(mul.factors[i].value->location,
                         "cannot multiply " + x.toString() + " by " + y.toString() + hint);
      return nullptr;
    }
    DimInfo product = productDimension(dim, probe->dim);
    if (dim.isKnown() && probe->dim.isKnown() && !product.isKnown()) {
      diagnostics_.error(mul.factors[i].value->location, exponentLimitMessage(dim, "*"));
      return nullptr;
    }
    dim = product;
  }
  return make(ExprKind::Mul, shape, dim, mul.location, std::move(factors));
}

ExprRef Resolver::resolvePow(const ast::Pow &pow, const Env &env) {
  ExprRef base = resolve(*pow.base, env);
  ExprRef exponent = resolve(*pow.exponent, env);
  if (!base || !exponent)
    return nullptr;
  if (!base->shape.isScalar() || !exponent->shape.isScalar()) {
    diagnostics_.error(pow.location, "^ needs scalars, found " + base->shape.toString() + "^" +
                                         exponent->shape.toString());
    return nullptr;
  }
  if (!isDimensionless(exponent->dim)) {
    diagnostics_.error(pow.exponent->location,
                       "an exponent must be dimensionless, found " + describe(exponent->dim));
    return nullptr;
  }
  DimInfo dim = base->dim;
  if (base->dim.isKnown() && !base->dim.dimension.isDimensionless()) {
    std::optional<double> value = evaluateConstant(exponent);
    std::optional<Rational> exact;
    if (value && std::abs(*value * 2 - std::round(*value * 2)) < 1e-12 && std::abs(*value) < 1e6)
      exact = Rational::make(static_cast<int64_t>(std::round(*value * 2)), 2);
    if (!exact) {
      diagnostics_.error(pow.exponent->location, "the exponent of a quantity with dimension " +
                                                     describe(base->dim) +
                                                     " must be a constant integer or half-integer");
      return nullptr;
    }
    auto raised = base->dim.dimension.raisedTo(*exact);
    if (!raised) {
      diagnostics_.error(pow.exponent->location, exponentLimitMessage(base->dim, "^"));
      return nullptr;
    }
    dim = DimInfo::known(*raised);
  } else if (base->dim.state == DimInfo::Pure) {
    dim = DimInfo::pure();
  }
  return make(ExprKind::Pow, Shape::scalar(), dim, pow.location, {base, exponent});
}

ExprRef Resolver::resolvePrime(const ast::Prime &prime, const Env &env) {
  ExprRef value = resolve(*prime.operand, env);
  if (!value)
    return nullptr;
  if (value->usesMultiplier) {
    diagnostics_.error(prime.location, "a multiplier cannot be differentiated");
    return nullptr;
  }
  for (int i = 0; i < prime.order; ++i) {
    DimInfo dim = value->dim;
    if (dim.isKnown()) {
      auto rate = dim.dimension.over(Dimension::time());
      if (!rate) {
        diagnostics_.error(prime.location, exponentLimitMessage(dim, "'"));
        return nullptr;
      }
      dim = DimInfo::known(*rate);
    }
    auto node = std::const_pointer_cast<Node>(
        make(ExprKind::Derivative, value->shape, dim, prime.location, {value}));
    if (node->coordOrder >= 0)
      node->coordOrder += 1;
    value = node;
  }
  if (value->coordOrder > 2) {
    diagnostics_.error(prime.location, "this is a derivative of order " +
                                           std::to_string(value->coordOrder) +
                                           " of a coordinate; only q, q' and q'' exist");
    return nullptr;
  }
  return value;
}

ExprRef Resolver::resolveComponent(const ast::Component &component, const Env &env) {
  ExprRef value = resolve(*component.operand, env);
  if (!value)
    return nullptr;
  int axis = component.component == "x"   ? 0
             : component.component == "y" ? 1
             : component.component == "z" ? 2
                                          : -1;
  if (axis < 0) {
    diagnostics_.error(component.componentLocation,
                       "unknown component '" + component.component + "'; use .x, .y or .z");
    return nullptr;
  }
  if (!value->shape.isVector()) {
    diagnostics_.error(component.location, "." + component.component + " needs a vector, found " +
                                               value->shape.toString());
    return nullptr;
  }
  if (axis >= value->shape.rows) {
    diagnostics_.error(component.componentLocation, "a " + std::to_string(value->shape.rows) +
                                                        "-vector has no ." + component.component +
                                                        " component");
    return nullptr;
  }
  auto node = std::const_pointer_cast<Node>(
      make(ExprKind::Component, Shape::scalar(), value->dim, component.location, {value}));
  node->index = axis;
  return node;
}

// ---------------------------------------------------------------------------
// Constants

namespace {

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
  if (!e->shape.isScalar() || e->coordOrder >= 0 || e->usesTime || e->usesMultiplier)
    return std::nullopt;
  auto child = [&](size_t i) { return evaluateConstant(e->children[i]); };
  switch (e->kind) {
  case ExprKind::Number:
    return e->value;
  case ExprKind::Pi:
    return M_PI;
  case ExprKind::Param:
    return model_.params[static_cast<size_t>(e->index)].value;
  case ExprKind::Let: {
    const Let &let = model_.lets[static_cast<size_t>(e->index)];
    return let.value ? evaluateConstant(let.value) : std::nullopt;
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
  case ExprKind::Derivative:
    return 0.0;
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

// ---------------------------------------------------------------------------
// Lets

int Resolver::declareLet(std::string name, Location location, const ast::Expr *value,
                         const ast::Unit *unit, Bindings bindings, const FileScope *defs) {
  model_.lets.push_back({std::move(name), location, nullptr, std::nullopt});
  PendingLet pending;
  pending.value = value;
  pending.unit = unit;
  pending.bindings = std::move(bindings);
  pending.defs = defs;
  pendingLets_.push_back(std::move(pending));
  return static_cast<int>(model_.lets.size() - 1);
}

ExprRef Resolver::letReference(int index, Location use) {
  size_t i = static_cast<size_t>(index);
  PendingLet &pending = pendingLets_[i];
  if (pending.state == PendingLet::Resolving) {
    Diagnostic &d = diagnostics_.error(use, "'" + model_.lets[i].name +
                                                "' is defined in terms "
                                                "of itself");
    Diagnostics::addNote(d, model_.lets[i].location,
                         "'" + model_.lets[i].name + "' is defined here");
    return nullptr;
  }
  if (pending.state == PendingLet::Pending) {
    if (!enterDefinition(use))
      return nullptr;
    pending.state = PendingLet::Resolving;
    Env env;
    env.indices = pending.bindings;
    env.defs = pending.defs;
    env.declaringKeyword = "let";
    env.declaringName = model_.lets[i].name;
    env.declaringValue = pending.value;
    ExprRef value = resolve(*pending.value, env);
    std::optional<DeclaredUnit> declared;
    if (value && pending.unit) {
      std::optional<UnitValue> unit = evaluateUnit(*pending.unit, diagnostics_);
      if (unit)
        declared = DeclaredUnit{formatUnit(*pending.unit), unit->scaleAsDouble()};
      if (!unit) {
        value = nullptr;
      } else if (value->dim.isKnown()) {
        if (!(value->dim.dimension == unit->dimension)) {
          diagnostics_.error(pending.value->location,
                             "'" + model_.lets[i].name + "' is declared in [" +
                                 formatUnit(*pending.unit) + "] (" + unit->dimension.toString() +
                                 ") but its value has dimension " +
                                 value->dim.dimension.toString());
          value = nullptr;
        } else if (!(unit->scale == Rational(1)) || unit->piPower != 0) {
          diagnostics_.error(pending.unit->location,
                             "the value already has a unit; a unit on the name would rescale it "
                             "(remove one of the two)");
          value = nullptr;
        }
      } else {
        // A plain number or unchecked value is taken in the declared unit.
        Location loc = pending.unit->location;
        std::vector<ExprRef> factors = {
            value, number(unit->scaleAsDouble(),
                          unit->piPower == 0 ? std::optional(unit->scale) : std::nullopt, loc)};
        value = make(ExprKind::Mul, value->shape, DimInfo::known(unit->dimension), loc, factors);
      }
    }
    model_.lets[i].value = value;
    if (value)
      model_.lets[i].unit = declared;
    pending.state = PendingLet::Done;
    --nesting_;
  }
  const ExprRef &value = model_.lets[i].value;
  if (!value)
    return nullptr;
  auto node = std::const_pointer_cast<Node>(make(ExprKind::Let, value->shape, value->dim, use, {}));
  node->index = index;
  node->coordOrder = value->coordOrder;
  node->usesTime = value->usesTime;
  node->usesMultiplier = value->usesMultiplier;
  return node;
}

void Resolver::resolveAllLets() {
  for (size_t i = 0; i < pendingLets_.size(); ++i)
    if (pendingLets_[i].state == PendingLet::Pending)
      letReference(static_cast<int>(i), model_.lets[i].location);
}

} // namespace mech::sema
