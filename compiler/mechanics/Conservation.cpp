// The symbolic decisions and the numeric evaluation of the first integrals.
#include "mechanics/Conservation.h"

#include "symbolic/Diff.h"
#include "symbolic/Print.h"
#include "symbolic/Readable.h"
#include "symbolic/Simplify.h"
#include "symbolic/Subs.h"
#include "symbolic/ZeroTest.h"

#include <cmath>
#include <cstdint>
#include <map>
#include <tuple>

namespace mech::mechanics {

using sym::Expr;

namespace {

// The additive terms of e, expanded unless `cheap` (e itself when it is not
// a sum).
std::vector<Expr> additiveTerms(const Expr &e, bool cheap = false) {
  Expr x = cheap ? e : sym::expand(e);
  if (x.kind() != sym::Kind::Add)
    return {x};
  std::vector<Expr> terms = {x.context().number(x->num)};
  for (size_t i = 0; i < x->ops.size(); i += 2)
    terms.push_back(Expr(x->ops[i]) * Expr(x->ops[i + 1]));
  return terms;
}

// The simplifier misses identities of deep trigonometric products (a heavy
// top's Euler angles), so an expression it leaves nonzero is also tested
// at random points, params included (a polynomial identity test): zero up
// to rounding, relative to the sizes of its terms, at every point. A value
// that is not finite counts as nonzero, so the test only ever errs towards
// "not conserved".
// For each expression, whether it vanishes at the random points: one CSE'd
// program for all of them, so that n derivatives of a large L that share
// most of their subexpressions are evaluated together.
// A choice, abs or sign of a varying argument is an unknown of its own
// there: the random points would all fall on one of its branches.
std::vector<bool> vanishAtRandomPoints(const std::vector<Expr> &expressions, bool cheap) {
  std::vector<Expr> outputs, unknowns;
  std::vector<size_t> ends;
  sym::Substitution opaque;
  opaque.setRule([&unknowns](const sym::Node *n) -> const sym::Node * {
    if (n->kind != sym::Kind::Func || n->mask == 0 ||
        (n->fn != sym::Fn::Select && n->fn != sym::Fn::Abs && n->fn != sym::Fn::Sign))
      return nullptr;
    unknowns.push_back(n->context->symbol("choice" + std::to_string(unknowns.size()),
                                          sym::SymbolKind::Free,
                                          static_cast<int>(unknowns.size())));
    return unknowns.back().node();
  });
  for (const Expr &e : expressions) {
    std::vector<Expr> terms = additiveTerms(opaque(e), cheap);
    outputs.insert(outputs.end(), terms.begin(), terms.end());
    ends.push_back(outputs.size());
  }
  std::map<std::tuple<int, int, int>, int> slots;
  sym::Program program(outputs, [&](const sym::SymbolInfo &s) {
    auto key = std::make_tuple(static_cast<int>(s.kind), s.index, s.order);
    return slots.emplace(key, static_cast<int>(slots.size())).first->second;
  });
  uint64_t state = 0x9e3779b97f4a7c15ull;
  auto uniform = [&state](double lo, double hi) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * static_cast<double>(state >> 11) * (1.0 / 9007199254740992.0);
  };
  std::vector<bool> vanish(expressions.size(), true);
  for (int point = 0; point < 4; ++point) {
    std::vector<double> inputs(slots.size());
    for (double &x : inputs)
      x = uniform(0.3, 1.7);
    std::vector<double> values = program.evaluate(inputs);
    for (size_t k = 0, begin = 0; k < expressions.size(); begin = ends[k++]) {
      double sum = 0, size = 0;
      for (size_t i = begin; i < ends[k]; ++i) {
        sum += values[i];
        size += std::abs(values[i]);
      }
      if (!std::isfinite(size) || std::abs(sum) > 1e-10 * size)
        vanish[k] = false;
    }
  }
  return vanish;
}

bool vanishesAtRandomPoints(const Expr &e, bool cheap) {
  return vanishAtRandomPoints({e}, cheap)[0];
}

// Expressions up to this size (written as trees) are expanded for the
// numeric test even in a simulation's summary.
constexpr double kExpandableTreeSize = 20000;

// Zero: proven by the exact zero test (which cancels sin^2 + cos^2 from a
// rotating frame), else at random points (for what the test cannot decide).
// Without `symbolic` (for a simulation's summary, where the simplifier's
// and the expansion's cost would delay the first step: seconds for a
// 40-link chain) the random points decide alone, scaled by the unexpanded
// terms.
struct Vanishes {
  bool symbolic = true;
  bool operator()(const Expr &e) const {
    if (e.isZero())
      return true;
    if (symbolic)
      return sym::isIdenticallyZero(e) || vanishesAtRandomPoints(e, false);
    // Unexpanded, a product whose factor cancels (sin^2 + cos^2 - 1 from a
    // rotating frame) is one term: its value is rounding noise with nothing
    // to compare it with. The exact zero test decides it in one pass over
    // the DAG (no expansion: dL/dt of a body turned at a prescribed rate);
    // the expanded terms give the scale for what it cannot decide, where
    // that is affordable.
    return vanishesAtRandomPoints(e, true) || sym::isIdenticallyZero(e) ||
           (e.kind() != sym::Kind::Add && e->treeSize <= kExpandableTreeSize &&
            vanishesAtRandomPoints(e, false));
  }
};

bool dependsOnTime(const Expr &e, const Vanishes &vanishes) {
  return e.has(sym::kHasTime) && !vanishes(sym::diff(e, e.context().time()));
}

// Why column j of the constraints is not zero: the first constraint acting on q_j.
std::string constraintOn(const Equations &eq, size_t j, const Vanishes &vanishes) {
  for (const Equations::Constraint &k : eq.constraints)
    if (!vanishes(k.C[j]))
      return k.name;
  return "";
}

} // namespace

Conservation findConserved(const Equations &eq, bool forReading) {
  Conservation result;
  Vanishes vanishes{forReading};
  auto readable = [forReading](const Expr &e) { return forReading ? sym::readable(e) : e; };
  size_t n = eq.coordinates.size();
  sym::Context &c = eq.L.context();
  std::vector<sym::Context::Coordinate> q;
  for (size_t j = 0; j < n; ++j)
    q.push_back(c.coordinate(eq.coordinates[j], static_cast<int>(j)));

  // dL/dq_j is the derivation's force minus Q^nc_j; for a simulation's
  // summary, the coordinates whose dL/dq is plainly nonzero at random points
  // are sorted out all at once (a 200-link chain has 200 large derivatives).
  std::vector<Expr> dLdq(n);
  for (size_t j = 0; j < n; ++j)
    dLdq[j] = eq.force[j] - eq.Qnc[j];
  std::vector<bool> mayVanish =
      forReading ? std::vector<bool>(n, true) : vanishAtRandomPoints(dLdq, /*cheap=*/true);
  for (size_t j = 0; j < n; ++j) {
    std::string why;
    if (!mayVanish[j] || !vanishes(dLdq[j]))
      why = "it appears in L";
    else if (!vanishes(eq.Qnc[j]))
      why = "a non-conservative force acts on it (Qnc = " + sym::toMech(readable(eq.Qnc[j])) + ")";
    else if (std::string k = constraintOn(eq, j, vanishes); !k.empty())
      why = "constraint '" + k + "' acts on it";
    if (why.empty())
      result.cyclic.push_back({j, eq.coordinates[j], readable(eq.momentum[j])});
    else
      result.notCyclic.push_back({eq.coordinates[j], why});
  }

  // dh/dt = -dL/dt|explicit + sum (Q^nc_j + (C^T lambda)_j) q_j', and along
  // the motion (C^T lambda).q' = lambda.(C q') = -lambda.(psi at q' = 0).
  if (dependsOnTime(eq.L, vanishes))
    result.noEnergyIntegral.push_back("L depends explicitly on t");
  std::vector<Expr> power;
  for (size_t j = 0; j < n; ++j)
    power.push_back(eq.Qnc[j] * q[j].qd);
  if (!vanishes(c.add(power)))
    result.noEnergyIntegral.push_back("the non-conservative forces do work");
  sym::Substitution atRest;
  for (size_t j = 0; j < n; ++j)
    atRest.set(q[j].qd, c.zero());
  for (const Equations::Constraint &k : eq.constraints)
    if (!vanishes(atRest(k.psi)))
      result.noEnergyIntegral.push_back(
          "constraint '" + k.name + "' " +
          (k.holonomic ? "moves with t" : "is not homogeneous in the velocities") +
          ", so its reaction does work");

  result.T2 = readable(eq.T2);
  result.T1 = readable(eq.T1);
  result.T0 = readable(eq.T0);
  if (result.noEnergyIntegral.empty()) {
    result.energyIntegral = readable(eq.T2 - eq.T0 + eq.V);
    result.energyIsTPlusV = vanishes(eq.T1) && vanishes(eq.T0);
  }
  return result;
}

std::vector<ConservedQuantity> conservedQuantities(const Conservation &conservation) {
  std::vector<ConservedQuantity> list;
  for (const CyclicCoordinate &k : conservation.cyclic)
    list.push_back({"p_" + k.coordinate, k.momentum});
  if (conservation.energyIntegral)
    list.push_back({"h", conservation.energyIntegral});
  return list;
}

ConservedEvaluator::ConservedEvaluator(const Equations &equations, const Conservation &conservation,
                                       std::vector<double> params) {
  layout_.params = params.size();
  layout_.coordinates = equations.coordinates.size();
  layout_.multipliers = equations.constraints.size();
  std::vector<Expr> values, terms;
  for (const ConservedQuantity &k : conservedQuantities(conservation)) {
    names_.push_back(k.name);
    values.push_back(k.value);
    // The additive terms of the expanded form give the scale; past the
    // size that is expanded, those of the form as derived (expanding the
    // energy of a 200-link chain makes n^3 / 3 products, seconds before the
    // first step).
    std::vector<Expr> parts = additiveTerms(k.value, k.value->treeSize > kExpandableTreeSize);
    terms.insert(terms.end(), parts.begin(), parts.end());
    termCounts_.push_back(parts.size());
  }
  values.insert(values.end(), terms.begin(), terms.end());
  program_ = sym::Program(values, [this](const sym::SymbolInfo &s) { return layout_.index(s); });
  inputs_.assign(layout_.size(), 0.0);
  std::copy(params.begin(), params.end(), inputs_.begin());
  outputs_.resize(values.size());
}

void ConservedEvaluator::evaluate(double t, const double *x, double *values, double *scales) {
  std::copy(x, x + 2 * layout_.coordinates, inputs_.begin() + static_cast<long>(layout_.params));
  inputs_[layout_.time()] = t;
  program_.evaluate(inputs_.data(), outputs_.data(), scratch_);
  size_t at = names_.size();
  for (size_t i = 0; i < names_.size(); ++i) {
    values[i] = outputs_[i];
    scales[i] = 0;
    for (size_t k = 0; k < termCounts_[i]; ++k)
      scales[i] += std::abs(outputs_[at++]);
  }
}

} // namespace mech::mechanics
