// Display forms: the normal form, the shorter reduction per atom, terms
// grouped by velocity monomial, checked against the original.
#include "symbolic/Readable.h"

#include "symbolic/NormalForm.h"
#include "symbolic/Print.h"
#include "symbolic/Simplify.h"
#include "symbolic/ZeroTest.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_set>

namespace mech::sym {

namespace {

bool isVelocityOrAcceleration(const Expr &v) {
  if (v.kind() != Kind::Symbol)
    return false;
  const SymbolInfo &info = v.context().symbolInfo(v.node());
  return info.kind == SymbolKind::Coord && info.order >= 1;
}

// The coordinates (order 0) an expression shows.
std::set<std::string> coordinatesShown(const Expr &e) {
  std::set<std::string> names;
  std::unordered_set<const Node *> seen;
  std::vector<const Node *> stack = {e.node()};
  while (!stack.empty()) {
    const Node *n = stack.back();
    stack.pop_back();
    if (!(n->mask & kHasCoord) || !seen.insert(n).second)
      continue;
    if (n->kind == Kind::Symbol) {
      const SymbolInfo &info = n->context->symbolInfo(n);
      if (info.kind == SymbolKind::Coord && info.order == 0)
        names.insert(info.name);
    }
    for (const Node *child : n->ops)
      stack.push_back(child);
  }
  return names;
}

size_t printedSize(const Expr &e) {
  return toMech(e).size();
}

// p with terms grouped by velocity monomial, each coefficient simplified.
Expr grouped(const NormalForm &form, const Polynomial &p) {
  std::map<Polynomial::Monomial, Polynomial> groups;
  for (const auto &[m, c] : p.terms) {
    Polynomial::Monomial velocity, rest;
    for (const auto &factor : m)
      (isVelocityOrAcceleration(form.variable(factor.first)) ? velocity : rest).push_back(factor);
    groups[velocity].terms.emplace(std::move(rest), c);
  }
  std::vector<Expr> terms;
  for (const auto &[velocity, coefficient] : groups)
    terms.push_back(simplify(form.toExpr(coefficient)) * form.monomialExpr(velocity));
  return form.context().add(terms);
}

// The angle atoms whose sine or cosine occurs in p.
std::vector<int> atomsIn(const NormalForm &form, const Polynomial &p) {
  std::set<int> atoms;
  for (const auto &[m, c] : p.terms)
    for (const auto &[v, e] : m)
      if (form.atomOf(v) >= 0)
        atoms.insert(form.atomOf(v));
  return {atoms.begin(), atoms.end()};
}

// The shortest display reached by choosing, atom by atom, which square is
// reduced.
Expr bestDisplay(NormalForm &form, const Polynomial &p) {
  Expr best = grouped(form, p);
  size_t bestSize = printedSize(best);
  std::vector<bool> sine(form.atomCount(), true);
  for (int atom : atomsIn(form, p)) {
    sine[atom] = false;
    Expr candidate = grouped(form, form.reducedAs(p, sine));
    size_t size = printedSize(candidate);
    if (size < bestSize) {
      best = candidate;
      bestSize = size;
    } else {
      sine[atom] = true;
    }
  }
  return best;
}

// Whether the candidate is the better display: it shows fewer coordinates,
// or the same ones and prints shorter.
bool better(const Expr &candidate, const Expr &baseline) {
  std::set<std::string> shown = coordinatesShown(candidate), before = coordinatesShown(baseline);
  if (shown != before)
    return std::includes(before.begin(), before.end(), shown.begin(), shown.end());
  return printedSize(candidate) < printedSize(baseline);
}

} // namespace

std::vector<Expr> readableForms(const std::vector<Expr> &exprs) {
  std::vector<Expr> result(exprs.size());
  NormalForm form(exprs);
  std::vector<Expr> differences;
  std::vector<size_t> replaced;
  for (size_t i = 0; i < exprs.size(); ++i) {
    const Expr &e = exprs[i];
    result[i] = simplify(e);
    if (result[i].isNumber() || result[i].kind() == Kind::Symbol)
      continue;
    std::optional<Polynomial> p = form.of(e);
    if (!p)
      continue; // too large for the normal form: the size guard prints it
    Expr candidate = bestDisplay(form, *p);
    if (candidate != result[i] && better(candidate, result[i])) {
      differences.push_back(candidate - e);
      replaced.push_back(i);
      result[i] = candidate;
    }
  }
  // The normal form is exact algebra; this guards its implementation.
  std::vector<bool> equal = areIdenticallyZero(differences);
  for (size_t k = 0; k < replaced.size(); ++k)
    if (!equal[k])
      result[replaced[k]] = simplify(exprs[replaced[k]]);
  return result;
}

Expr readable(const Expr &e) {
  return readableForms({e})[0];
}

} // namespace mech::sym
