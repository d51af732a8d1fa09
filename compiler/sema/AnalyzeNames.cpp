// Names and scopes in the analyzer: the model's symbol table (declared
// names, family members, clashes with built-ins and defs), the defs a model
// sees (its file's, its imports', its own), the names a model declares
// anywhere, loop variables that would shadow a name, and the names a def
// outside a model may use.
#include "sema/AnalyzerInternal.h"
#include "sema/ResolverInternal.h"

#include "support/EditDistance.h"

#include <algorithm>

namespace mech::sema {

std::string memberName(const std::string &name, const std::vector<long> &indices) {
  if (indices.empty())
    return name;
  std::string text = name + "[";
  for (size_t i = 0; i < indices.size(); ++i)
    text += (i > 0 ? ", " : "") + std::to_string(indices[i]);
  return text + "]";
}

Env Analyzer::baseEnv(const Bindings &bindings) const {
  Env env;
  env.indices = bindings;
  env.defs = &modelScope_;
  return env;
}

bool Analyzer::reservedName(const std::string &name, Location loc) {
  if (findBuiltin(name) || name == "sum") {
    diagnostics_.error(loc, "'" + name + "' is a built-in function and cannot be declared");
    return true;
  }
  if (modelScope_.defs.count(name)) {
    const ast::ImportDecl *import = modelScope_.defs.at(name).import;
    std::string hint = import ? ", imported from " + import->path +
                                    "; import it under a name (import \"" + import->path +
                                    "\" as N) and call N." + name + "(...)"
                              : "";
    Diagnostic &d = diagnostics_.error(loc, "'" + name + "' is already a def" + hint);
    Diagnostics::addNote(d, modelScope_.defs.at(name).decl->location, "the def is here");
    return true;
  }
  return false;
}

// Declares a plain name or a member of a family; returns false on a clash.
bool Analyzer::declareSymbol(const std::string &name, const std::vector<long> &indices,
                             SymbolKind kind, int index, Location loc) {
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

void Analyzer::declareModelDefs() {
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

void Analyzer::collectDeclaredNames(const std::vector<ast::Decl> &decls) {
  for (const ast::Decl &decl : decls) {
    if (auto *loop = std::get_if<ast::ForDecl>(&decl.node))
      collectDeclaredNames(loop->body);
    else if (const ast::DeclName *name = declaredName(decl))
      declaredNames_.insert(name->name);
  }
}

const ast::DeclName *Analyzer::declaredName(const ast::Decl &decl) {
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
  if (auto *e = std::get_if<ast::EventDecl>(&decl.node))
    return &e->name;
  if (auto *c = std::get_if<ast::ContactDecl>(&decl.node))
    return &c->name;
  if (auto *f = std::get_if<ast::FrictionDecl>(&decl.node))
    return &f->name;
  return nullptr;
}

// Loop variables (and let family indices) may not shadow another name.
void Analyzer::checkLoopVariables() {
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

namespace {

// The walk behind checkLibraryDef, with the names in scope at each point.
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
      } else if (!findBuiltin(c.callee) && !isFrameFunction(c.callee)) {
        ClosestName closest(c.callee);
        for (const std::string &builtin : builtinNames())
          closest.consider(builtin);
        for (const auto &[name, entry] : scope_.defs)
          closest.consider(name);
        diagnostics_.error(c.calleeLocation, "unknown function '" + c.callee + "'" +
                                                 renamedNote(c.callee) + closest.hint());
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
    case ast::ExprKind::Compare:
      walk(*static_cast<const ast::Compare &>(e).lhs);
      walk(*static_cast<const ast::Compare &>(e).rhs);
      return;
    case ast::ExprKind::Logic:
      for (const auto &operand : static_cast<const ast::Logic &>(e).operands)
        walk(*operand);
      return;
    case ast::ExprKind::Index: {
      // Entries of a parameter's vector or matrix (W[i, j]) are fine; a
      // family of a model is out of sight.
      auto &x = static_cast<const ast::Index &>(e);
      if (x.operand->kind == ast::ExprKind::Name &&
          !known(static_cast<const ast::Name &>(*x.operand).name)) {
        diagnostics_.error(x.location, "a def outside a model cannot index a family");
        return;
      }
      walk(*x.operand);
      for (const auto &i : x.indices)
        walk(*i);
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

void checkLibraryDef(Diagnostics &diagnostics, const FileScope &scope, const ast::DefDecl &def) {
  DefBodyChecker(diagnostics, scope).check(def);
}

} // namespace mech::sema
