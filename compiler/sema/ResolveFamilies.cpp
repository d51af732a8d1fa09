// Indexed families and sums in the resolver: a member of a family named by
// its indices (x[i], k[i, j]) and sum(i in a..b, ...) expanded into its terms.
// The for blocks that declare families are expanded by the analyzer
// (AnalyzeFamilies.cpp).
#include "sema/Resolver.h"
#include "sema/ResolverInternal.h"

#include "syntax/Printer.h"

namespace mech::sema {

namespace {

void reportMissingMember(Diagnostics &diagnostics, const ast::Index &index,
                         const std::string &family, const Symbol &symbol,
                         const std::vector<long> &key) {
  std::string written;
  for (size_t i = 0; i < key.size(); ++i)
    written += (i > 0 ? ", " : "") + std::to_string(key[i]);
  std::string message = "'" + family + "[" + written + "]' does not exist";
  const std::vector<long> &first = symbol.members.begin()->first;
  const std::vector<long> &last = symbol.members.rbegin()->first;
  if (first.size() != key.size()) {
    message += ": '" + family + "' takes " + std::to_string(first.size()) + " index" +
               (first.size() == 1 ? "" : "es");
  } else if (first.size() == 1) {
    message += ": the index of '" + family + "' runs over " + std::to_string(first[0]) + ".." +
               std::to_string(last[0]);
  }
  diagnostics.error(index.location, message);
}

bool isValueKind(SymbolKind kind) {
  return kind == SymbolKind::Param || kind == SymbolKind::Input || kind == SymbolKind::Output ||
         kind == SymbolKind::Coord || kind == SymbolKind::Let || kind == SymbolKind::Term ||
         kind == SymbolKind::Constraint;
}

} // namespace

ExprRef Resolver::resolveIndex(const ast::Index &index, const Env &env) {
  const ast::Name *base = index.operand->kind == ast::ExprKind::Name
                              ? static_cast<const ast::Name *>(index.operand.get())
                              : nullptr;
  const Symbol *symbol = indexedSymbol(base, env);
  if (symbol == nullptr || !symbol->family) {
    // Brackets the grammar did not take as a unit for its exponent
    // (1 [m^(1/2)]) say so rather than be read as an entry.
    if (reportFractionalUnit(diagnostics_, index))
      return nullptr;
    // An entry of a vector or matrix, unless the bracket is a misplaced
    // unit (`l [m]`) or the name is unknown.
    bool unit = index.indices.size() == 1 && looksLikeUnit(*index.indices[0]) &&
                !namesInScope(*index.indices[0], env);
    bool unknown = base != nullptr && symbol == nullptr && !namesInScope(*base, env);
    if (!unit && !unknown)
      return resolveEntry(index, env);
    reportNotAFamily(index, base, symbol, env);
    return nullptr;
  }
  std::optional<std::vector<long>> key = resolveIndices(index, env);
  if (!key)
    return nullptr;
  auto member = symbol->members.find(*key);
  if (member == symbol->members.end()) {
    reportMissingMember(diagnostics_, index, base->name, *symbol, *key);
    return nullptr;
  }
  if (symbol->kind == SymbolKind::Constraint && !env.allowMultipliers) {
    diagnostics_.error(index.location, "the multiplier of a constraint can only be used in an "
                                       "output");
    return nullptr;
  }
  if (!isValueKind(symbol->kind)) {
    diagnostics_.error(index.location, "'" + base->name + "' is a family of " +
                                           symbolKindName(symbol->kind) + "s, not of values");
    return nullptr;
  }
  if (symbol->kind == SymbolKind::Output && !outputAllowed(base->name, index.location, env))
    return nullptr;
  return allowedInput(reference(symbol->kind, member->second, index.location), base->name, env);
}

// The model's symbol an indexed name refers to, unless an index or a def
// parameter of that name hides it; null when there is none.
const Symbol *Resolver::indexedSymbol(const ast::Name *base, const Env &env) const {
  if (base == nullptr || !env.modelNames)
    return nullptr;
  bool shadowed = false;
  for (const auto &[name, value] : env.indices)
    shadowed = shadowed || name == base->name;
  for (const auto &[name, value] : env.args)
    shadowed = shadowed || name == base->name;
  auto found = symbols.find(base->name);
  if (!shadowed && found != symbols.end())
    return &found->second;
  return nullptr;
}

// Brackets after something that is not a family: a misplaced unit, an
// unknown name, or an attempt to index a value.
void Resolver::reportNotAFamily(const ast::Index &index, const ast::Name *base,
                                const Symbol *symbol, const Env &env) {
  if (index.indices.size() == 1 && looksLikeUnit(*index.indices[0])) {
    reportMisplacedUnit(index, env);
    return;
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
      return;
    }
  }
  diagnostics_.error(index.location,
                     "only an indexed family can be indexed ('" + formatExpr(*index.operand) +
                         "' is not one); use .x, .y, .z for the components of a vector");
}

// True when some name in e is a symbol, an index or a def parameter in env
// (`v[m]` with a param m is an entry, not a unit).
bool Resolver::namesInScope(const ast::Expr &e, const Env &env) const {
  switch (e.kind) {
  case ast::ExprKind::Name: {
    const std::string &name = static_cast<const ast::Name &>(e).name;
    for (const auto &[index, value] : env.indices)
      if (index == name)
        return true;
    for (const auto &[arg, value] : env.args)
      if (arg == name)
        return true;
    return env.modelNames && symbols.count(name) > 0;
  }
  case ast::ExprKind::Mul:
    for (const auto &f : static_cast<const ast::Mul &>(e).factors)
      if (namesInScope(*f.value, env))
        return true;
    return false;
  case ast::ExprKind::Pow:
    return namesInScope(*static_cast<const ast::Pow &>(e).base, env);
  default:
    return false;
  }
}

// Every index is resolved (and each error reported) before giving up.
std::optional<std::vector<long>> Resolver::resolveIndices(const ast::Index &index, const Env &env) {
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
    return std::nullopt;
  return key;
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

} // namespace mech::sema
