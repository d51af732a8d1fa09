// The atoms of a family of arguments (the angles of sin/cos/tan, or the
// exponents of exp and the hyperbolic functions): every argument written as
// an integer combination of atoms, so that identities between functions of
// different arguments reduce to identities in the atoms' sin/cos (or exp).
//
// Each argument is split into rational multiples of base terms (symbols, or
// non-linear subexpressions taken whole) plus a constant; per base term the
// lcm D of its denominators makes base/D the atom (sin(th/2) and sin(th)
// share the atom th/2). An argument whose multiples do not fit in 64 bits,
// or that is not linear with exact coefficients, is an atom of its own:
// sound, it only loses relations. Used by the zero test and the normal form.
#pragma once

#include "symbolic/Expr.h"

#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

namespace mech::sym {

class AngleAtoms {
public:
  // An argument as sum over (atom index, integer multiple).
  struct Combination {
    std::vector<std::pair<int, int64_t>> terms;
  };

  // Records an argument; its combination is available after finish().
  void add(const Node *arg);
  // Assigns atom indices; add() may not be called afterwards.
  void finish();

  int atomCount() const { return static_cast<int>(atoms_.size()); }
  const Combination &combination(const Node *arg) const { return combinations_.at(arg); }
  // The combination of an argument that was added, or null.
  const Combination *find(const Node *arg) const {
    auto found = combinations_.find(arg);
    return found == combinations_.end() ? nullptr : &found->second;
  }
  // The atom as an expression: base/D, or the whole argument.
  Expr atom(int index) const { return atoms_[index]; }

private:
  using Linear = std::vector<std::pair<const Node *, Rational>>; // base (null: 1), coefficient
  static std::optional<Linear> linearise(const Node *arg);

  Context *context_ = nullptr;
  std::unordered_map<const Node *, std::optional<Linear>> linear_;
  std::vector<const Node *> order_;              // arguments in the order added
  std::map<const Node *, int64_t> denominators_; // by base; -1 when the lcm overflows
  std::map<const Node *, int> baseAtom_;
  std::unordered_map<const Node *, Combination> combinations_;
  std::vector<Expr> atoms_;
};

} // namespace mech::sym
