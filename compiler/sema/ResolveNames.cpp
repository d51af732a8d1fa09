// Names and scopes in the resolver: what a plain name or a callee means where
// it is used (a loop or sum index, a def parameter, a symbol of the model, a
// def, a built-in), references to symbols, shadowing of indices, and the
// "did you mean" suggestion for an unknown name.
#include "sema/Resolver.h"
#include "sema/ResolverInternal.h"

#include "support/EditDistance.h"

#include <algorithm>

namespace mech::sema {

const char *symbolKindName(SymbolKind kind) {
  switch (kind) {
  case SymbolKind::Param:
    return "param";
  case SymbolKind::Input:
    return "input";
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
  case SymbolKind::Event:
    return "event";
  case SymbolKind::Contact:
    return "contact";
  case SymbolKind::Friction:
    return "friction";
  case SymbolKind::Table:
    return "table";
  case SymbolKind::LoopIndex:
    return "loop variable";
  }
  return "name";
}

std::string aSymbolKind(SymbolKind kind) {
  std::string name = symbolKindName(kind);
  bool vowel = std::string("aeiou").find(name[0]) != std::string::npos;
  return (vowel ? "an " : "a ") + name;
}

std::string Resolver::suggestion(const std::string &name, const Env &env) const {
  // Past the error limit the message is dropped: no hint is searched for,
  // so that many unknown names cost no more than a hundred.
  if (diagnostics_.full())
    return "";
  ClosestName closest(name);
  auto consider = [&](const std::string &candidate) { closest.consider(candidate); };
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
  return closest.hint();
}

// The standard library's defs renamed so as not to take the names models
// give their bodies: a call of an old name says the new one.
std::string renamedNote(const std::string &callee) {
  static const std::map<std::string, std::string> renamed = {
      {"disk", "disk_axis"}, {"ring", "ring_axis"}, {"box", "box_tensor"}};
  std::string bare = callee.substr(callee.find('.') + 1);
  auto found = renamed.find(bare);
  if (found == renamed.end())
    return "";
  return " (inertia.mech's '" + bare + "' is now '" + found->second + "')";
}

namespace {

// For I.f where no file is imported as I.
std::string namespaceNote(const std::string &callee, const Env &env) {
  size_t dot = callee.find('.');
  if (dot == std::string::npos || env.defs == nullptr)
    return "";
  std::string prefix = callee.substr(0, dot + 1);
  for (const auto &[name, entry] : env.defs->defs)
    if (name.compare(0, prefix.size(), prefix) == 0)
      return "";
  return ": no file is imported as '" + callee.substr(0, dot) + "' (import \"file.mech\" as " +
         callee.substr(0, dot) + ")";
}

} // namespace

std::string Resolver::functionSuggestion(const std::string &name, const Env &env) const {
  if (diagnostics_.full())
    return "";
  ClosestName closest(name);
  for (const std::string &builtin : builtinNames())
    closest.consider(builtin);
  closest.consider("sum");
  closest.consider("omega");
  closest.consider("omega_body");
  if (env.defs)
    for (const auto &[def, entry] : env.defs->defs)
      closest.consider(def);
  return closest.hint();
}

ExprRef Resolver::reference(SymbolKind kind, int index, Location loc) {
  switch (kind) {
  case SymbolKind::Param:
  case SymbolKind::Input: {
    const Param &param = model_.params[static_cast<size_t>(index)];
    auto node =
        std::const_pointer_cast<Node>(make(ExprKind::Param, Shape::scalar(), param.dim, loc, {}));
    node->index = index;
    node->usesInput = param.input;
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
  case SymbolKind::Output:
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

// Inputs vary while the model runs: they may drive forces and be read in
// outputs, but positions, energies and constraints are differentiated along
// the motion, where an input's rate is unknown. A let is judged where it is
// used. `value` passes through unless that rule refuses it.
ExprRef Resolver::allowedInput(ExprRef value, const std::string &name, const Env &env) {
  if (value == nullptr || !value->usesInput || env.allowInputs)
    return value;
  bool isInput = value->kind == ExprKind::Param;
  diagnostics_.error(
      value->location,
      (isInput ? "input '" + name + "'" : "'" + name + "' uses an input and") +
          " can only be used in forces, torques, generalized forces, outputs and events" +
          (env.declaringKeyword == "param" ? " (a param is a constant)" : ""));
  return nullptr;
}

// Outputs observe the motion: other outputs may use them (in any order; a
// cycle is reported as a let's), nothing that shapes the motion. Only an
// output's value allows multipliers, so that flag marks where one is.
bool Resolver::outputAllowed(const std::string &name, Location loc, const Env &env) {
  if (env.allowMultipliers)
    return true;
  diagnostics_.error(loc,
                     "'" + name +
                         "' is an output: only other outputs and events can use it (for a value "
                         "that "
                         "other declarations use, write a let and use it in both)");
  return false;
}

// Indices and def parameters come first, innermost first; then the model's
// symbols; a def or a built-in named without a call is an error.
ExprRef Resolver::resolveName(const ast::Name &name, const Env &env) {
  for (auto it = env.indices.rbegin(); it != env.indices.rend(); ++it)
    if (it->first == name.name)
      return number(static_cast<double>(it->second), Rational(it->second), name.location);
  for (auto it = env.args.rbegin(); it != env.args.rend(); ++it)
    if (it->first == name.name)
      return it->second;
  if (env.modelNames) {
    auto found = symbols.find(name.name);
    if (found != symbols.end())
      return resolveSymbol(name, found->second, env);
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

// A family of params, coordinates or lets with one index running over
// consecutive values, named without an index: the vector of its members in
// the order of the index (`dot(w, v)` for `param w[1..3] = [...]`), when it
// has 2 or more. Null (nothing reported) otherwise.
ExprRef Resolver::familyVector(const ast::Name &name, const Symbol &symbol, const Env &env) {
  if (symbol.members.size() < 2 || symbol.members.begin()->first.size() != 1)
    return nullptr;
  long expected = symbol.members.begin()->first[0];
  std::vector<ExprRef> members;
  for (const auto &[indices, index] : symbol.members) {
    if (indices[0] != expected++)
      return nullptr;
    ExprRef member = reference(symbol.kind, index, name.location);
    if (!member || !member->shape.isScalar())
      return nullptr;
    members.push_back(allowedInput(member, name.name, env));
    if (!members.back())
      return nullptr;
  }
  DimInfo dim = members[0]->dim;
  for (size_t i = 1; i < members.size(); ++i) {
    auto combined = sumDimension(dim, members[i]->dim, name.location,
                                 "the members of '" + name.name + "' as a vector", true);
    if (!combined)
      return nullptr;
    dim = *combined;
  }
  const Shape shape = Shape::vector(static_cast<int>(members.size())); // before the move
  return make(ExprKind::Vector, shape, dim, name.location, std::move(members));
}

// A plain name that is a symbol of the model: a value, unless it is a family
// (which needs an index), a multiplier outside an output, or an item.
ExprRef Resolver::resolveSymbol(const ast::Name &name, const Symbol &symbol, const Env &env) {
  if (symbol.family && (symbol.kind == SymbolKind::Param || symbol.kind == SymbolKind::Coord ||
                        symbol.kind == SymbolKind::Let))
    if (ExprRef whole = familyVector(name, symbol, env))
      return whole;
  if (symbol.family) {
    diagnostics_.error(name.location, "'" + name.name + "' is an indexed family of " +
                                          symbolKindName(symbol.kind) + "s; write " + name.name +
                                          "[i]");
    return nullptr;
  }
  switch (symbol.kind) {
  case SymbolKind::Param:
  case SymbolKind::Input:
  case SymbolKind::Coord:
  case SymbolKind::Let:
  case SymbolKind::Term:
    return allowedInput(reference(symbol.kind, symbol.index, name.location), name.name, env);
  case SymbolKind::Output:
    if (!outputAllowed(name.name, name.location, env))
      return nullptr;
    return reference(symbol.kind, symbol.index, name.location);
  case SymbolKind::Constraint:
    if (!env.allowMultipliers) {
      diagnostics_.error(name.location, "the multiplier of constraint '" + name.name +
                                            "' can only be used in outputs and events");
      return nullptr;
    }
    return reference(symbol.kind, symbol.index, name.location);
  default:
    diagnostics_.error(name.location,
                       "'" + name.name + "' is " + aSymbolKind(symbol.kind) + ", not a value");
    return nullptr;
  }
}

// A callee is a def (unless a def parameter of that name hides it), else a
// built-in; sum without a range, a symbol and anything else are errors.
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
  if (isFrameFunction(call.callee)) {
    if (!ok)
      return nullptr;
    return resolveAngularVelocity(call, std::move(args));
  }
  if (call.callee == "sum") {
    diagnostics_.error(call.location, "sum takes an index and a range: sum(i in 1..n, expr)");
    return nullptr;
  }
  if (env.modelNames && symbols.count(call.callee) &&
      symbols.at(call.callee).kind == SymbolKind::Table)
    return ok ? resolveTableCall(call, symbols.at(call.callee).index, std::move(args)) : nullptr;
  if (env.modelNames && symbols.count(call.callee)) {
    diagnostics_.error(call.calleeLocation, "'" + call.callee + "' is " +
                                                aSymbolKind(symbols.at(call.callee).kind) +
                                                ", not a function (write * for a product)");
    return nullptr;
  }
  diagnostics_.error(call.calleeLocation,
                     "unknown function '" + call.callee + "'" + renamedNote(call.callee) +
                         namespaceNote(call.callee, env) + functionSuggestion(call.callee, env));
  return nullptr;
}

// A sum's index may not hide an enclosing index or a symbol of the model.
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

} // namespace mech::sema
