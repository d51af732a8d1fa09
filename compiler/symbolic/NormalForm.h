// A normal form of trigonometric expressions: a (Laurent) polynomial in
// variables, where each angle atom (see AngleAtoms.h) contributes the two
// variables sin(atom) and cos(atom), each exponent atom the variable
// exp(atom), and every other symbol or opaque subexpression (sqrt, abs, a
// sum under a negative power, ...) one variable of its own, normalised
// inside. Products are expanded, and per angle atom one of sin^2 and cos^2
// is rewritten through sin^2 + cos^2 = 1 (the "reduced" one), so that it
// occurs at most to the first power. For polynomials in the variables this
// is canonical ({s^2 + c^2 - 1} is a Groebner basis: the leading monomials
// s_i^2 are coprime), so an expression that does not depend on an angle
// has a normal form without that angle's variables: T of the heavy top
// shows neither phi nor psi. Negative powers are not reduced (sound, not
// canonical: the zero test decides what this form cannot).
#pragma once

#include "symbolic/AngleAtoms.h"
#include "symbolic/Expr.h"
#include "symbolic/Monomial.h"

#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

namespace mech::sym {

// Normal forms larger than this many terms are not built.
inline constexpr size_t kMaxNormalFormTerms = 20000;
// One normal form (NormalForm::of) inserts at most this many terms (about
// half a second), counting the work of nodes not memoised already: the
// size cap alone lets a few thousand nodes of powers of sums take minutes.
// The Whipple bicycle's largest takes 660,000, a 80-link chain's 94,000.
inline constexpr size_t kMaxNormalFormWork = 5000000;

struct Polynomial {
  // (variable, non-zero exponent), sorted by variable.
  using Monomial = sym::Monomial;
  struct MonomialHash {
    size_t operator()(const Monomial &m) const;
  };
  std::unordered_map<Monomial, Num, MonomialHash> terms;
};

class NormalForm {
public:
  // Atoms are found once over all the expressions given, so that their
  // normal forms share variables.
  explicit NormalForm(const std::vector<Expr> &exprs);

  // The normal form with the sine of every angle atom reduced; nullopt
  // beyond kMaxNormalFormTerms terms.
  std::optional<Polynomial> of(const Expr &e);

  // The normal form of p (a normal form of this object) with, per angle
  // atom, sin^2 reduced where sine[atom] and cos^2 otherwise.
  Polynomial reducedAs(const Polynomial &p, const std::vector<bool> &sine);

  // p with a sum denominator that every term has cancelled where the
  // numerator is an exact multiple of it: (x^2 - 1)/(x - 1) -> x + 1. The
  // division is in the plain polynomial ring, so only denominators without
  // sin/cos of an atom are tried (the reduction does not interfere).
  Polynomial cancelled(const Polynomial &p);

  Expr toExpr(const Polynomial &p) const;
  Expr monomialExpr(const Polynomial::Monomial &m) const;
  Expr variable(uint32_t v) const { return variables_[v]; }
  // The angle atom a variable is the sine or cosine of, or -1.
  int atomOf(uint32_t v) const { return variableAtom_[v]; }
  int atomCount() const { return angles_.atomCount(); }
  Context &context() const { return *context_; }

private:
  struct TooLarge {};
  struct Circle {
    Polynomial cos, sin;
  };

  const Polynomial &convert(const Node *n);
  Polynomial factor(const Node *base, const Node *exponent);
  const Polynomial &factorOf(const Node *base, const Node *exponent, Polynomial &storage);
  Polynomial function(const Node *n);
  Circle angle(const Node *arg);
  Circle atomPower(int atom, int64_t k);
  Polynomial variablePoly(const Expr &v, int32_t exponent = 1);
  uint32_t variableIndex(const Expr &v, int atom = -1);

  Polynomial constant(const Num &c) const;
  void addTerm(Polynomial &p, Polynomial::Monomial m, const Num &c) const;
  Polynomial sum(const Polynomial &a, const Polynomial &b, const Num &scale = Num(1)) const;
  Polynomial scaled(const Polynomial &a, const Num &c) const;
  void scaleInPlace(Polynomial &p, const Num &c) const;
  Polynomial product(const Polynomial &a, const Polynomial &b) const;
  Polynomial power(const Polynomial &a, int64_t k) const;
  void checkSize(const Polynomial &p) const;
  std::optional<Polynomial> quotient(const Polynomial &n, const Polynomial &d) const;

  Context *context_ = nullptr;
  AngleAtoms angles_, exponents_;
  std::vector<Expr> variables_;
  std::vector<int> variableAtom_;
  std::unordered_map<const Node *, uint32_t> variableIds_;
  std::vector<std::pair<uint32_t, uint32_t>> atomVariables_; // (sin, cos) by atom
  std::vector<int32_t>
      reducedPartner_; // by variable: the other of its pair when it is reduced, else -1
  void release(const Node *n);

  mutable size_t work_ = 0; // terms inserted by the current of()
  std::unordered_map<const Node *, Polynomial> memo_;
  // How many parents (and roots) will still ask for each node's form.
  std::unordered_map<const Node *, uint32_t> uses_;
  std::map<std::pair<int, int64_t>, Circle> powers_;
};

} // namespace mech::sym
