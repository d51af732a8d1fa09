// Exact forms among the velocity constraints: the symmetry test of their
// coefficients, and Φ written out where the coefficients are constant.
#include "mechanics/IntegrableConstraints.h"

#include "mechanics/Linearization.h"

#include "symbolic/Diff.h"
#include "symbolic/Print.h"
#include "symbolic/ZeroTest.h"

#include <cmath>

namespace mech::mechanics {

namespace {

constexpr unsigned kVaries = sym::kHasCoord | sym::kHasVelocity | sym::kHasTime | sym::kHasFree;

// b = psi - sum a_j q_j': the part of the constraint without velocities.
sym::Expr velocityFreePart(const Equations &eq, const Equations::Constraint &k) {
  sym::Context &context = k.psi.context();
  sym::Expr velocities = context.zero();
  for (size_t j = 0; j < k.C.size(); ++j)
    velocities =
        velocities + k.C[j] * context.coordinate(eq.coordinates[j], static_cast<int>(j)).qd;
  return k.psi - velocities;
}

// The nodes and weights of Gauss-Legendre quadrature on [0, 1]: the roots of
// the Legendre polynomial P_n by Newton's method from Chebyshev guesses.
struct Quadrature {
  std::vector<double> nodes, weights;
};

Quadrature gaussLegendre(int n) {
  Quadrature rule;
  for (int i = 0; i < n; ++i) {
    double x = std::cos(M_PI * (i + 0.75) / (n + 0.5)), derivative = 1;
    for (int iteration = 0; iteration < 100; ++iteration) {
      double p0 = 1, p1 = x; // P_0, P_1, then up to P_n by the recurrence
      for (int k = 2; k <= n; ++k) {
        double p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      derivative = n * (x * p1 - p0) / (x * x - 1);
      double step = p1 / derivative;
      x -= step;
      if (std::abs(step) < 1e-16)
        break;
    }
    rule.nodes.push_back((1 - x) / 2);
    rule.weights.push_back(1 / ((1 - x * x) * derivative * derivative));
  }
  return rule;
}

constexpr int kQuadraturePoints = 24;

} // namespace

LevelSets::LevelSets(const Equations &eq, std::vector<double> params)
    : n_(eq.coordinates.size()), m_(eq.constraints.size()), params_(std::move(params)) {
  layout_ = linearizationLayout(eq, params_.size());
  std::vector<sym::Expr> out;
  for (size_t i = 0; i < m_; ++i) {
    const Equations::Constraint &k = eq.constraints[i];
    if (!k.integrable || k.integral)
      continue;
    rows_.push_back(i);
    out.insert(out.end(), k.C.begin(), k.C.end());
  }
  coefficients_ = sym::Program(out, [this](const sym::SymbolInfo &s) { return layout_.index(s); });
}

std::vector<double> LevelSets::difference(const std::vector<double> &q,
                                          const std::vector<double> &q0, double t) const {
  static const Quadrature rule = gaussLegendre(kQuadraturePoints);
  std::vector<double> result(m_, 0.0);
  State state;
  state.t = t;
  state.qd.assign(n_, 0.0);
  state.q.resize(n_);
  for (size_t p = 0; p < rule.nodes.size(); ++p) {
    for (size_t j = 0; j < n_; ++j)
      state.q[j] = q0[j] + rule.nodes[p] * (q[j] - q0[j]);
    std::vector<double> a = coefficients_.evaluate(layout_.inputs(params_, state));
    for (size_t r = 0; r < rows_.size(); ++r)
      for (size_t j = 0; j < n_; ++j)
        result[rows_[r]] += rule.weights[p] * a[r * n_ + j] * (q[j] - q0[j]);
  }
  return result;
}

bool demandsMotion(const Equations &eq, const Equations::Constraint &k) {
  return !k.holonomic && !velocityFreePart(eq, k).isZero();
}

bool isExactForm(const Equations &eq, const Equations::Constraint &k) {
  if (k.holonomic)
    return false;
  sym::Context &context = k.psi.context();
  size_t n = k.C.size();
  std::vector<sym::Differentiator> byQ;
  for (size_t j = 0; j < n; ++j)
    byQ.push_back(sym::partial(context.coordinate(eq.coordinates[j], static_cast<int>(j)).q));
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j) {
      if (k.C[i].isZero() && k.C[j].isZero())
        continue;
      if (!sym::isIdenticallyZero(byQ[j](k.C[i]) - byQ[i](k.C[j])))
        return false;
    }
  sym::Expr b = velocityFreePart(eq, k);
  sym::Differentiator byT = sym::partial(context.time());
  for (size_t i = 0; i < n; ++i)
    if (!sym::isIdenticallyZero(byT(k.C[i]) - byQ[i](b)))
      return false;
  return true;
}

std::optional<sym::Expr> integratedForm(const Equations &eq, const Equations::Constraint &k) {
  if (k.holonomic || !k.gamma.isZero())
    return std::nullopt;
  // With constant a_j, gamma = -d(psi)/dt|q''=0 vanishes only for a
  // constant b: psi = d/dt(sum a_j q_j + b t).
  sym::Context &context = k.psi.context();
  std::vector<sym::Expr> terms;
  for (size_t j = 0; j < k.C.size(); ++j) {
    if (k.C[j].has(kVaries))
      return std::nullopt;
    terms.push_back(k.C[j] * context.coordinate(eq.coordinates[j], static_cast<int>(j)).q);
  }
  sym::Expr b = velocityFreePart(eq, k);
  if (b.has(kVaries))
    return std::nullopt;
  if (!b.isZero())
    terms.push_back(b * context.time());
  return context.add(terms);
}

std::string integrableNote(const Equations &, const Equations::Constraint &k) {
  // The derivation stored the integral (Equations::Constraint::integral).
  if (k.integral)
    return "'" + k.name + "' integrates to " + sym::toMech(*k.integral) +
           " = const: treated as holonomic";
  return "'" + k.name +
         "' is an exact form, the time derivative of a function of the coordinates: treated "
         "as holonomic";
}

} // namespace mech::mechanics
