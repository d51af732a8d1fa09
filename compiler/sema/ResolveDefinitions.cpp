// Lets and defs in the resolver: both are expanded where they are used. A let
// is resolved on its first use (or at the end) and referenced after that; a
// def call is expanded with its arguments, once per distinct arguments
// (a call that failed included). Cycles
// and nesting deeper than kMaxDefinitionNesting are errors.
#include "sema/Resolver.h"

#include <algorithm>

namespace mech::sema {

// ---------------------------------------------------------------------------
// Lets

int Resolver::declareLet(std::string name, Location location, const ast::Expr *value,
                         const ast::Unit *unit, Bindings bindings, const FileScope *defs,
                         bool output) {
  model_.lets.push_back({std::move(name), location, nullptr, std::nullopt, output});
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
  if (pending.state == PendingLet::Pending && !resolvePendingLet(i, use))
    return nullptr;
  const ExprRef &value = model_.lets[i].value;
  if (!value)
    return nullptr;
  auto node = std::const_pointer_cast<Node>(make(ExprKind::Let, value->shape, value->dim, use, {}));
  node->index = index;
  node->coordOrder = value->coordOrder;
  node->usesTime = value->usesTime;
  node->usesMultiplier = value->usesMultiplier;
  node->usesInput = value->usesInput;
  return node;
}

// Resolves a let's value, in the scope it was declared in, at its first use;
// false when the nesting limit stops it.
bool Resolver::resolvePendingLet(size_t let, Location use) {
  PendingLet &pending = pendingLets_[let];
  if (!enterDefinition(use))
    return false;
  pending.state = PendingLet::Resolving;
  Env env;
  env.indices = pending.bindings;
  env.defs = pending.defs;
  env.declaringKeyword = "let";
  env.allowInputs = true; // checked where the let is used
  env.allowMultipliers = model_.lets[let].output;
  env.declaringName = model_.lets[let].name;
  env.declaringValue = pending.value;
  ExprRef value = resolve(*pending.value, env);
  std::optional<DeclaredUnit> declared;
  if (value && pending.unit)
    value = applyLetUnit(let, value, declared);
  model_.lets[let].value = value;
  if (value)
    model_.lets[let].unit = declared;
  pending.state = PendingLet::Done;
  --nesting_;
  return true;
}

void Resolver::resolveAllLets() {
  for (size_t i = 0; i < pendingLets_.size(); ++i)
    if (pendingLets_[i].state == PendingLet::Pending)
      letReference(static_cast<int>(i), model_.lets[i].location);
}

// ---------------------------------------------------------------------------
// Nesting

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

// ---------------------------------------------------------------------------
// Defs

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
  if (!result && diagnostics_.errorCount() > errorsBefore && !diagnostics_.all().empty()) {
    Diagnostic &last = const_cast<Diagnostic &>(diagnostics_.all().back());
    Diagnostics::addNote(last, call.location, "in the call of '" + decl.name + "' here");
  }
  // A failure is kept too (its error is reported once): defs that call one
  // another twice over form a DAG whose calls would otherwise be checked
  // again on every path, 2^depth times.
  defCache_[{&decl, key}] = {args, result};
  return result;
}

} // namespace mech::sema
