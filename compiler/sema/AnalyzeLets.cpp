// Lets in the analyzer: a let's name and its indices inside for blocks, a
// let family x[k in a..b], and the unit a let may carry on its name:
// `let d [cm] = 30` parses as an index, and a bracket that reads as a unit
// is taken as one. Their values are resolved on first use
// (ResolveDefinitions.cpp).
#include "sema/AnalyzerInternal.h"

#include "sema/Units.h"

#include <algorithm>
#include <functional>

namespace mech::sema {

namespace {

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

} // namespace

void Analyzer::declareLet(const ast::LetDecl &let, const Bindings &bindings,
                          const std::vector<LoopVariable> &loops) {
  if (let.family) {
    declareLetFamily(let, bindings, loops);
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
      loopIndex = loopIndex || mentionsName(*target.indices[0], loop.name);
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

// `let x[k in a..b] = ...`: one let per k, each resolved with k bound.
void Analyzer::declareLetFamily(const ast::LetDecl &let, const Bindings &bindings,
                                const std::vector<LoopVariable> &loops) {
  if (!loops.empty() || !let.target.indices.empty()) {
    diagnostics_.error(let.target.location, "a let family x[k in a..b] cannot be declared "
                                            "inside a for block");
    return;
  }
  recordLoopVariable(*let.familyIndex, let.familyIndexLocation);
  auto bounds = range(*let.family, bindings, let.target.location);
  if (!bounds)
    return;
  for (long i = bounds->first; i <= bounds->second; ++i) {
    Bindings inner = bindings;
    inner.emplace_back(*let.familyIndex, i);
    int index =
        resolver_.declareLet(memberName(let.target.name, {i}), let.target.location, let.value.get(),
                             let.unit ? &*let.unit : nullptr, inner, &modelScope_);
    if (!declareSymbol(let.target.name, {i}, SymbolKind::Let, index, let.target.location))
      return;
  }
}

} // namespace mech::sema
