// Declarations in the analyzer: each declaration of the model's body, under
// the loop indices of its enclosing for blocks, sent to what declares it
// (coordinates, for blocks, lets), or declared here by its name (terms,
// particles, bodies, constraints, outputs) and kept as an instance for the
// checks; unnamed constraints are named c1, c2, ...
#include "sema/AnalyzerInternal.h"

namespace mech::sema {

// A declaration, under the loop indices of its enclosing for blocks: params
// and defs were declared first; the others declare their names here and are
// kept, as instances, for the checks that resolve their values.
void Analyzer::declare(const ast::Decl &decl, const Bindings &bindings,
                       const std::vector<LoopVariable> &loops) {
  bool inLoop = !loops.empty();
  const char *forbidden = std::holds_alternative<ast::ParamDecl>(decl.node)   ? "param"
                          : std::holds_alternative<ast::InputDecl>(decl.node) ? "input"
                          : std::holds_alternative<ast::CoordDecl>(decl.node) ? "coord"
                          : std::holds_alternative<ast::DefDecl>(decl.node)   ? "def"
                                                                              : nullptr;
  if (inLoop && forbidden) {
    diagnostics_.error(decl.location,
                       std::string(forbidden) + " declarations are not allowed inside a for block");
    return;
  }
  if (inLoop && std::holds_alternative<ast::TableDecl>(decl.node)) {
    diagnostics_.error(decl.location, "table declarations are not allowed inside a for block");
    return;
  }
  if (std::holds_alternative<ast::ParamDecl>(decl.node) ||
      std::holds_alternative<ast::InputDecl>(decl.node) ||
      std::holds_alternative<ast::DefDecl>(decl.node) ||
      std::holds_alternative<ast::TableDecl>(decl.node))
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
  if (const ast::DeclName *name = declaredName(decl)) {
    if (!declareNamed(*name, instance, loops))
      return;
  } else if (std::holds_alternative<ast::ConstraintDecl>(decl.node)) {
    nameUnnamedConstraint(instance);
  }
  instances_.push_back(std::move(instance));
}

// A named term, particle, body, constraint or output, possibly a member of a
// family: its symbol, and the entry expressions refer to it by. False when
// its indices or its name are in error.
bool Analyzer::declareNamed(const ast::DeclName &name, Instance &instance,
                            const std::vector<LoopVariable> &loops) {
  const ast::Decl &decl = *instance.decl;
  std::optional<std::vector<long>> indices = declaredIndices(name, instance.bindings, loops);
  if (!indices)
    return false;
  instance.name = memberName(name.name, *indices);
  SymbolKind kind = symbolKindOf(decl);
  int slot = reserveSlot(decl);
  if (auto *energy = std::get_if<ast::EnergyDecl>(&decl.node))
    slot = resolver_.declareLet(instance.name, name.location, energy->value.get(), nullptr,
                                instance.bindings, &modelScope_);
  if (auto *output = std::get_if<ast::OutputDecl>(&decl.node))
    slot = resolver_.declareLet(instance.name, name.location, output->value.get(), nullptr,
                                instance.bindings, &modelScope_, /*output=*/true);
  if (!declareSymbol(name.name, *indices, kind, slot, name.location))
    return false;
  if (auto *energy = std::get_if<ast::EnergyDecl>(&decl.node))
    resolver_.symbols.at(name.name).description =
        energy->kind == ast::EnergyKind::Kinetic     ? "kinetic term"
        : energy->kind == ast::EnergyKind::Potential ? "potential term"
                                                     : "dissipation term";
  instance.slot = slot;
  return true;
}

// An unnamed constraint is c1, c2, ... skipping names the model declares
// itself, anywhere.
void Analyzer::nameUnnamedConstraint(Instance &instance) {
  instance.slot = reserveSlot(*instance.decl);
  do
    instance.name = "c" + std::to_string(++unnamedConstraints_);
  while (declaredNames_.count(instance.name) || resolver_.symbols.count(instance.name));
  model_->constraints[static_cast<size_t>(instance.slot)].name = instance.name;
  if (!resolver_.symbols.count(instance.name))
    resolver_.symbols.emplace(
        instance.name,
        Symbol{SymbolKind::Constraint, instance.decl->location, false, instance.slot, {}, {}});
}

SymbolKind Analyzer::symbolKindOf(const ast::Decl &decl) {
  if (std::holds_alternative<ast::EnergyDecl>(decl.node))
    return SymbolKind::Term;
  if (std::holds_alternative<ast::ParticleDecl>(decl.node))
    return SymbolKind::Particle;
  if (std::holds_alternative<ast::BodyDecl>(decl.node))
    return SymbolKind::Body;
  if (std::holds_alternative<ast::ConstraintDecl>(decl.node))
    return SymbolKind::Constraint;
  if (std::holds_alternative<ast::EventDecl>(decl.node))
    return SymbolKind::Event;
  if (std::holds_alternative<ast::ContactDecl>(decl.node))
    return SymbolKind::Contact;
  if (std::holds_alternative<ast::FrictionDecl>(decl.node))
    return SymbolKind::Friction;
  return SymbolKind::Output;
}

// Entries referenced by index from expressions exist before any expression
// is resolved: named energy terms (as lets) and constraints (multipliers).
int Analyzer::reserveSlot(const ast::Decl &decl) {
  if (std::holds_alternative<ast::ConstraintDecl>(decl.node)) {
    model_->constraints.push_back({});
    model_->constraints.back().location = decl.location;
    return static_cast<int>(model_->constraints.size() - 1);
  }
  return -1;
}

} // namespace mech::sema
