// Display forms: the normal form, the lighter reduction per atom, terms
// grouped by velocity monomial, checked against the original.
#include "symbolic/Readable.h"

#include "symbolic/NormalForm.h"
#include "symbolic/Print.h"
#include "symbolic/SharedTerms.h"
#include "symbolic/Simplify.h"
#include "symbolic/ZeroTest.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

namespace mech::sym {

namespace {

bool isVelocityOrAcceleration(const Expr &v) {
  if (v.kind() != Kind::Symbol)
    return false;
  const SymbolInfo &info = v.context().symbolInfo(v.node());
  return info.kind == SymbolKind::Coord && info.order >= 1;
}

// A group's coefficient, expanded already: angle sums recognised where it
// has sines or cosines, parameters collected.
Expr coefficientForm(const Expr &e) {
  bool trigonometric = false;
  for (size_t i = 0; e.kind() == Kind::Add && i < e->ops.size() && !trigonometric; i += 2)
    trigonometric = e->ops[i]->mask & kHasCoord;
  return collectParameters(trigonometric ? simplifyTrig(e) : e);
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
    terms.push_back(coefficientForm(form.toExpr(coefficient)) * form.monomialExpr(velocity));
  // The coefficients are collected already: only the sum of the groups is.
  return collectParametersOfSum(form.context().add(terms));
}

// The monomial common to every term of p: each variable that all terms
// have with the same sign, to its power nearest 0 (1/(x - 2) of
// x^2/(x - 2) - 1/(x - 2)). Only compound variables (sums under a
// negative power, roots, other functions): symbols are left to the velocity
// grouping and the parameter collection, angle variables to the
// trigonometric rules.
Polynomial::Monomial commonFactor(const NormalForm &form, const Polynomial &p) {
  Polynomial::Monomial common;
  bool first = true;
  for (const auto &[m, c] : p.terms) {
    if (first) {
      for (const auto &factor : m)
        if (form.variable(factor.first).kind() != Kind::Symbol && form.atomOf(factor.first) < 0)
          common.push_back(factor);
      first = false;
      continue;
    }
    Polynomial::Monomial kept;
    for (const auto &[v, e] : common) {
      auto at = std::find_if(m.begin(), m.end(), [v = v](const auto &x) { return x.first == v; });
      if (at != m.end() && (at->second > 0) == (e > 0))
        kept.push_back({v, e > 0 ? std::min(e, at->second) : std::max(e, at->second)});
    }
    common = std::move(kept);
  }
  return common;
}

// The angle atoms whose cosine occurs squared (or to a higher power) in p,
// reduced with sin^2 -> 1 - cos^2: only for these does reducing cos^2
// instead give another form. Trying every atom cost the chain's forcing
// n^3 term insertions.
std::vector<int> atomsWithChoice(const NormalForm &form, const Polynomial &p) {
  std::set<int> atoms;
  for (const auto &[m, c] : p.terms)
    for (const auto &[v, e] : m)
      if (e >= 2 && form.atomOf(v) >= 0 && form.variable(v).kind() == Kind::Func &&
          form.variable(v)->fn == Fn::Cos)
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
Expr bestDisplay(NormalForm &form, const Polynomial &normal) {
  Polynomial p = form.cancelled(normal);
  Polynomial best = p;
  size_t bestWeight = weight(p);
  std::vector<bool> sine(form.atomCount(), true);
  for (int atom : atomsWithChoice(form, p)) {
    sine[atom] = false;
    Polynomial candidate = form.reducedAs(p, sine);
    if (size_t w = weight(candidate); w < bestWeight) {
      best = std::move(candidate);
      bestWeight = w;
    } else {
      sine[atom] = true;
    }
  }
  // A common factor is written once, in front of the grouped sum.
  Polynomial::Monomial common = commonFactor(form, best);
  if (common.empty() || best.terms.size() < 2)
    return grouped(form, best);
  Polynomial rest;
  for (const auto &[m, c] : best.terms) {
    Polynomial::Monomial divided;
    size_t k = 0;
    for (const auto &factor : m) {
      while (k < common.size() && common[k].first < factor.first)
        ++k;
      int32_t e = factor.second -
                  (k < common.size() && common[k].first == factor.first ? common[k].second : 0);
      if (e != 0)
        divided.push_back({factor.first, e});
    }
    rest.terms.emplace(std::move(divided), c);
  }
  return form.monomialExpr(common) * grouped(form, rest);
}

// The coordinates (order 0) an expression shows.
std::set<std::string> coordinatesShown(const Expr &e) {
  std::set<std::string> names;
  std::unordered_map<const Node *, bool> seen;
  std::vector<const Node *> stack = {e.node()};
  while (!stack.empty()) {
    const Node *n = stack.back();
    stack.pop_back();
    if (!(n->mask & kHasCoord) || !seen.emplace(n, true).second)
      continue;
    if (n->kind == Kind::Symbol && n->context->symbolInfo(n).order == 0)
      names.insert(n->context->symbolInfo(n).name);
    for (const Node *child : n->ops)
      stack.push_back(child);
  }
  return names;
}

// Whether the form is the better display than the plain one: it shows
// fewer coordinates, or the same ones and prints shorter.
bool better(const Expr &form, const Expr &plain) {
  std::set<std::string> shown = coordinatesShown(form), before = coordinatesShown(plain);
  if (shown != before)
    return std::includes(before.begin(), before.end(), shown.begin(), shown.end());
  return toMech(form).size() < toMech(plain).size();
}

} // namespace

std::vector<Expr> readableForms(const std::vector<Expr> &exprs,
                                const std::vector<Expr> &equivalents) {
  std::vector<Expr> result(exprs.size());
  std::vector<Expr> normalised = exprs;
  for (size_t i = 0; i < equivalents.size() && i < exprs.size(); ++i)
    if (equivalents[i])
      normalised[i] = equivalents[i];
  NormalForm form(normalised);
  std::vector<Expr> differences;
  std::vector<size_t> replaced;
  for (size_t i = 0; i < exprs.size(); ++i) {
    const Expr &e = exprs[i];
    std::optional<Polynomial> p;
    if (!e.isNumber() && e.kind() != Kind::Symbol)
      p = form.of(normalised[i]);
    if (!p) {
      result[i] = simplify(e); // too large for the normal form: the size guard prints it
      continue;
    }
    if (static_cast<double>(p->terms.size()) > kMaxDisplayedTree / 4) {
      // Its display would exceed the size guard (SharedTerms.h), which
      // prints the derivation's DAG through names instead: no display work.
      result[i] = e;
      continue;
    }
    result[i] = bestDisplay(form, *p);
    // Expansion can lengthen what was short (sin(5*a) as a quintic in
    // sin(a)): where the form grew past the input, the plain simplify is
    // kept unless the form shows fewer coordinates or prints shorter.
    if (result[i]->treeSize > e->treeSize) {
      Expr plain = simplify(e);
      if (!better(result[i], plain)) {
        result[i] = plain;
        continue;
      }
    }
    differences.push_back(result[i] - e);
    replaced.push_back(i);
  }
  // The normal form is exact algebra; this guards its implementation, so
  // one trial is enough (a wrong form passes with probability d/2^61).
  std::vector<bool> equal = areIdenticallyZero(differences, 1);
  for (size_t k = 0; k < replaced.size(); ++k)
    if (!equal[k])
      result[replaced[k]] = simplify(exprs[replaced[k]]);
  return result;
}

Expr readable(const Expr &e) {
  return readableForms({e})[0];
}

} // namespace mech::sym
