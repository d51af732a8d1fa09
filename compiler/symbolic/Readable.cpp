// Display forms: the normal form, the lighter reduction per atom, terms
// grouped by velocity monomial, checked against the original.
#include "symbolic/Readable.h"

#include "symbolic/NormalForm.h"
#include "symbolic/Simplify.h"
#include "symbolic/ZeroTest.h"

#include <map>
#include <optional>
#include <set>

namespace mech::sym {

namespace {

bool isVelocityOrAcceleration(const Expr &v) {
  if (v.kind() != Kind::Symbol)
    return false;
  const SymbolInfo &info = v.context().symbolInfo(v.node());
  return info.kind == SymbolKind::Coord && info.order >= 1;
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
  return collectParameters(form.context().add(terms));
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

// A measure of a polynomial's printed length: its factors written out.
size_t weight(const Polynomial &p) {
  size_t w = 0;
  for (const auto &[m, c] : p.terms)
    w += 1 + m.size();
  return w;
}

// The display of the lightest normal form reached by choosing, atom by
// atom, which square is reduced (weighed on the polynomial, so that only
// the chosen form is built as an expression).
Expr bestDisplay(NormalForm &form, const Polynomial &p) {
  Polynomial best = p;
  size_t bestWeight = weight(p);
  std::vector<bool> sine(form.atomCount(), true);
  for (int atom : atomsIn(form, p)) {
    sine[atom] = false;
    Polynomial candidate = form.reducedAs(p, sine);
    if (size_t w = weight(candidate); w < bestWeight) {
      best = std::move(candidate);
      bestWeight = w;
    } else {
      sine[atom] = true;
    }
  }
  return grouped(form, best);
}

} // namespace

std::vector<Expr> readableForms(const std::vector<Expr> &exprs) {
  std::vector<Expr> result(exprs.size());
  NormalForm form(exprs);
  std::vector<Expr> differences;
  std::vector<size_t> replaced;
  for (size_t i = 0; i < exprs.size(); ++i) {
    const Expr &e = exprs[i];
    std::optional<Polynomial> p;
    if (!e.isNumber() && e.kind() != Kind::Symbol)
      p = form.of(e);
    if (!p) {
      result[i] = simplify(e); // too large for the normal form: the size guard prints it
      continue;
    }
    result[i] = bestDisplay(form, *p);
    differences.push_back(result[i] - e);
    replaced.push_back(i);
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
