// The search for steady motions (mechanics/SteadyMotion.h); their
// stability is in SteadyStability.cpp.
#include "mechanics/SteadyMotion.h"

#include "mechanics/Conservation.h"
#include "mechanics/Halton.h"
#include "mechanics/SteadyStability.h"
#include "symbolic/Diff.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

namespace mech::mechanics {

namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

// Residuals (scaled) below this count as a steady motion.
constexpr double kSteadyTolerance = 1e-10;
constexpr int kMaxIterations = 60;

// Whether q_j's position enters anything that decides the motion: M, f,
// Q^nc and the constraints. Structural (a term that cancels counts), which
// only costs a search dimension.
bool positionAppears(const Equations &eq, sym::Differentiator &d) {
  auto appears = [&](const sym::Expr &e) { return e && !d(e).isZero(); };
  for (size_t j = 0; j < eq.coordinates.size(); ++j) {
    if (appears(eq.f[j]) || appears(eq.Qnc[j]))
      return true;
    for (const sym::Expr &m : eq.M[j])
      if (appears(m))
        return true;
  }
  for (const Equations::Constraint &k : eq.constraints) {
    if (appears(k.holonomic ? k.phi : k.psi) || appears(k.gamma))
      return true;
    for (const sym::Expr &c : k.C)
      if (appears(c))
        return true;
  }
  return false;
}

// Zero columns for q_j, at two states in general position: in df/dq
// (which, at velocities in general position, carries M's dependence too)
// and dQnc/dq (dynamicsFree), and also in dpsi/dq and the holonomic
// constraints' C = dPhi/dq (ignorable).
void numericRoles(const Equations &eq, const Linearizer &linearizer, PositionRoles &roles) {
  size_t n = eq.coordinates.size();
  std::vector<bool> free(n, true), ignorable(n, true);
  for (int sample = 0; sample < 2; ++sample) {
    State s;
    for (size_t j = 0; j < n; ++j) {
      s.q.push_back(0.3 + 0.41 * std::sin(1.7 * static_cast<double>(j) + sample));
      s.qd.push_back(0.5 + 0.37 * std::cos(2.3 * static_cast<double>(j) + sample));
    }
    LinearSample l = linearizer.at(s);
    double scale = 0;
    for (const Matrix *m : {&l.K, &l.dQnc, &l.psiGradient, &l.C})
      for (const auto &row : *m)
        for (double v : row)
          scale = std::max(scale, std::abs(v));
    auto nonzero = [&](double v) { return !(std::abs(v) <= 1e-12 * scale); };
    for (size_t j = 0; j < n; ++j) {
      for (size_t i = 0; i < n; ++i)
        if (nonzero(l.K[i][j]) || nonzero(l.dQnc[i][j]))
          free[j] = false;
      for (size_t i = 0; i < l.C.size(); ++i)
        if (nonzero(l.psiGradient[i][j]) || (eq.constraints[i].holonomic && nonzero(l.C[i][j])))
          ignorable[j] = false;
    }
  }
  for (size_t j = 0; j < n; ++j) {
    roles.dynamicsFree[j] = roles.dynamicsFree[j] || free[j];
    roles.ignorable[j] = roles.ignorable[j] || (free[j] && ignorable[j]);
  }
}

// Into (-pi, pi], so that the same angle found from two sides is one.
double wrapAngle(double a) {
  double wrapped = std::remainder(a, 2 * M_PI);
  return wrapped <= -M_PI + 1e-6 ? wrapped + 2 * M_PI : wrapped;
}

// One search: the unknowns z are the positions searched, then the rates
// that momenta fix; everything else comes from the request.
class SteadySearch {
public:
  SteadySearch(const Equations &eq, const std::vector<double> &params, const SteadyRequest &request,
               const Conservation *conservation, const PositionRoles &roles,
               const Linearizer &linearizer)
      : eq_(eq), request_(request), evaluator_(eq, params), linearizer_(&linearizer),
        n_(eq.coordinates.size()), ignorable_(roles.ignorable), dynamicsFree_(roles.dynamicsFree) {
    if (conservation && !conservation->cyclic.empty()) {
      momenta_.emplace(eq, *conservation, params);
      for (size_t r : request.turning) {
        const std::vector<std::string> &names = momenta_->names();
        momentumIndex_.push_back(static_cast<size_t>(
            std::find(names.begin(), names.end(), "p_" + eq.coordinates[r]) - names.begin()));
      }
    }
    turning_.assign(n_, false);
    for (size_t r : request.turning)
      turning_[r] = true;
    for (size_t j = 0; j < n_; ++j)
      if (!turning_[j] && !ignorable_[j])
        searched_.push_back(j);
    for (size_t i = 0; i < request.turning.size(); ++i)
      if (!request.rates[i])
        unknownRates_.push_back(i);
    angle_ = angleCoordinates(eq);
    for (size_t i = 0; i < eq.constraints.size(); ++i)
      if (!eq.constraints[i].holonomic)
        velocityRows_.push_back(i);
  }

  int tierOf(size_t j) const { return ignorable_[j] ? 0 : dynamicsFree_[j] ? 1 : 2; }

  size_t unknowns() const { return searched_.size() + unknownRates_.size(); }
  const std::vector<size_t> &searched() const { return searched_; }
  const std::vector<bool> &ignorable() const { return ignorable_; }
  const std::vector<size_t> &dependent() const { return dependent_; }

  // Chooses the dependent speeds at the state of z by pivoting on the
  // velocity constraints' columns of the coordinates that do not turn: the
  // ignorable coordinates' first (a contact point's, a symmetric wheel's),
  // then those absent from the unconstrained dynamics (a heading), then the
  // rest. False when the velocity constraints are redundant there. The
  // holonomic constraints need none: the coordinates at rest keep them.
  bool chooseDependent(const VectorXd &z) {
    dependent_.clear();
    if (velocityRows_.empty())
      return true;
    LinearSample sample = linearizer_->at(positions(z));
    size_t m = velocityRows_.size();
    std::vector<size_t> order;
    for (int tier = 0; tier < 3; ++tier)
      for (size_t j = 0; j < n_; ++j)
        if (!turning_[j] && tierOf(j) == tier)
          order.push_back(j);
    MatrixXd chosen(static_cast<long>(m), 0);
    for (size_t j : order) {
      if (dependent_.size() == m)
        break;
      MatrixXd trial(static_cast<long>(m), chosen.cols() + 1);
      trial << chosen, columnOf(sample.C, velocityRows_, j);
      Eigen::ColPivHouseholderQR<MatrixXd> qr(trial);
      qr.setThreshold(1e-10);
      if (static_cast<long>(qr.rank()) == trial.cols()) {
        chosen = trial;
        dependent_.push_back(j);
      }
    }
    return dependent_.size() == m;
  }

  // The state of z: positions, the turning rates, the dependent speeds.
  // `holonomicRates`, when asked for, receives dPhi/dt of each holonomic
  // constraint there (zero on a steady motion).
  std::optional<State> state(const VectorXd &z,
                             std::vector<double> *holonomicRates = nullptr) const {
    State s = positions(z);
    s.qd.assign(n_, 0.0);
    for (size_t i = 0; i < request_.turning.size(); ++i)
      if (request_.rates[i])
        s.qd[request_.turning[i]] = *request_.rates[i];
    for (size_t k = 0; k < unknownRates_.size(); ++k)
      s.qd[request_.turning[unknownRates_[k]]] = z(static_cast<long>(searched_.size() + k));
    if (eq_.constraints.empty())
      return s;
    // psi at q' = 0 is the part of each constraint free of velocities.
    LinearSample sample = linearizer_->at(positions(z));
    auto known = [&](size_t i) {
      double v = sample.psi[i];
      for (size_t j = 0; j < n_; ++j)
        v += sample.C[i][j] * s.qd[j];
      return v;
    };
    size_t m = dependent_.size();
    if (m > 0) {
      MatrixXd CD(static_cast<long>(m), static_cast<long>(m));
      VectorXd rhs(static_cast<long>(m));
      for (size_t r = 0; r < m; ++r) {
        rhs(static_cast<long>(r)) = -known(velocityRows_[r]);
        for (size_t k = 0; k < m; ++k)
          CD(static_cast<long>(r), static_cast<long>(k)) =
              sample.C[velocityRows_[r]][dependent_[k]];
      }
      Eigen::FullPivLU<MatrixXd> lu(CD);
      if (!lu.isInvertible())
        return std::nullopt;
      VectorXd speeds = lu.solve(rhs);
      for (size_t k = 0; k < m; ++k)
        s.qd[dependent_[k]] = speeds(static_cast<long>(k));
    }
    if (holonomicRates)
      for (size_t i = 0; i < eq_.constraints.size(); ++i)
        if (eq_.constraints[i].holonomic)
          holonomicRates->push_back(known(i));
    return s;
  }

  // The conditions at z, unscaled: accelerations of the coordinates that
  // are not dependent, Phi of the holonomic constraints, p - mu for the
  // momenta given. Nullopt where the equations cannot be solved.
  struct Conditions {
    std::vector<double> accelerations, phi, momenta;
  };
  std::optional<Conditions> conditions(const VectorXd &z) const {
    std::vector<double> holonomicRates;
    std::optional<State> s = state(z, &holonomicRates);
    if (!s)
      return std::nullopt;
    Diagnostics scratch;
    std::optional<Evaluation> e = evaluator_.at(*s, scratch);
    if (!e || !e->qdd)
      return std::nullopt;
    Conditions c;
    for (size_t j = 0; j < n_; ++j)
      if (std::find(dependent_.begin(), dependent_.end(), j) == dependent_.end())
        c.accelerations.push_back((*e->qdd)[j]);
    for (size_t i = 0; i < eq_.constraints.size(); ++i)
      if (eq_.constraints[i].holonomic)
        c.phi.push_back(e->constraintResiduals[i]);
    // dPhi/dt in the units of Phi over one second, weighed like Phi.
    c.phi.insert(c.phi.end(), holonomicRates.begin(), holonomicRates.end());
    if (!unknownRates_.empty()) {
      std::vector<double> p = momentaAt(*s);
      for (size_t k : unknownRates_)
        c.momenta.push_back(p[k] - request_.momenta[k]);
    }
    for (const auto *part : {&c.accelerations, &c.phi, &c.momenta})
      for (double v : *part)
        if (!std::isfinite(v))
          return std::nullopt;
    return c;
  }

  // The momenta of the turning coordinates at a state (NaN where one is
  // not conserved).
  std::vector<double> momentaAt(const State &s) const {
    std::vector<double> p(request_.turning.size(), NAN);
    if (!momenta_)
      return p;
    std::vector<double> x(s.q);
    x.insert(x.end(), s.qd.begin(), s.qd.end());
    std::vector<double> values(momenta_->size()), scales(momenta_->size());
    momenta_->evaluate(s.t, x.data(), values.data(), scales.data());
    for (size_t i = 0; i < momentumIndex_.size(); ++i)
      if (momentumIndex_[i] < values.size())
        p[i] = values[momentumIndex_[i]];
    return p;
  }

  // The scales the conditions are judged on, from a sample of starts.
  void setScales(const std::vector<VectorXd> &starts) {
    for (size_t i = 0; i < std::min<size_t>(starts.size(), 32); ++i) {
      if (!chooseDependent(starts[i]))
        continue;
      std::optional<Conditions> c = conditions(starts[i]);
      if (!c)
        continue;
      for (double v : c->accelerations)
        accelerationScale_ = std::max(accelerationScale_, std::abs(v));
      for (double v : c->phi)
        phiScale_ = std::max(phiScale_, std::abs(v));
    }
    for (double mu : request_.momenta)
      momentumScale_ = std::max(momentumScale_, std::abs(mu));
  }

  std::optional<VectorXd> residual(const VectorXd &z) const {
    std::optional<Conditions> c = conditions(z);
    if (!c)
      return std::nullopt;
    VectorXd r(static_cast<long>(c->accelerations.size() + c->phi.size() + c->momenta.size()));
    long at = 0;
    for (double v : c->accelerations)
      r(at++) = v / accelerationScale_;
    for (double v : c->phi)
      r(at++) = v / phiScale_;
    for (double v : c->momenta)
      r(at++) = v / momentumScale_;
    return r;
  }

  // Central differences: Newton's direction only; the answer is judged on
  // the residual itself.
  std::optional<MatrixXd> jacobian(const VectorXd &z, long rows) const {
    MatrixXd J(rows, z.size());
    for (long k = 0; k < z.size(); ++k) {
      double h = 1e-6 * std::max(1.0, std::abs(z(k)));
      VectorXd a = z, b = z;
      a(k) += h;
      b(k) -= h;
      std::optional<VectorXd> ra = residual(a), rb = residual(b);
      if (!ra || !rb)
        return std::nullopt;
      J.col(k) = (*ra - *rb) / (2 * h);
    }
    return J;
  }

  // The rates that momenta fix, at the positions of z: the momenta are
  // affine in the rates (p = I w + b), so one linear solve meets them. A
  // start with the rates at 0 leaves the positions' conditions blind to
  // them (a centrifugal term w^2 has no slope at w = 0), and Gauss-Newton
  // from there misses motions (one of an orbit's two symmetric latitudes).
  void seedRates(VectorXd &z) const {
    if (unknownRates_.empty())
      return;
    auto count = static_cast<long>(unknownRates_.size());
    auto first = static_cast<long>(searched_.size());
    auto momentaOf = [&](const VectorXd &at) -> std::optional<VectorXd> {
      std::optional<State> s = state(at);
      if (!s)
        return std::nullopt;
      std::vector<double> all = momentaAt(*s);
      VectorXd p(count);
      for (long k = 0; k < count; ++k)
        p(k) = all[unknownRates_[static_cast<size_t>(k)]];
      return p;
    };
    VectorXd base = z;
    base.segment(first, count).setZero();
    std::optional<VectorXd> p0 = momentaOf(base);
    if (!p0 || !p0->allFinite())
      return;
    MatrixXd I(count, count);
    for (long k = 0; k < count; ++k) {
      VectorXd unit = base;
      unit(first + k) = 1;
      std::optional<VectorXd> p = momentaOf(unit);
      if (!p || !p->allFinite())
        return;
      I.col(k) = *p - *p0;
    }
    VectorXd target(count);
    for (long k = 0; k < count; ++k)
      target(k) = request_.momenta[unknownRates_[static_cast<size_t>(k)]];
    Eigen::FullPivLU<MatrixXd> lu(I);
    if (!lu.isInvertible())
      return;
    VectorXd rates = lu.solve(target - *p0);
    if (rates.allFinite())
      z.segment(first, count) = rates;
  }

  // Gauss-Newton from z with minimum-norm steps and backtracking; once
  // within the tolerance, a few more steps polish to rounding.
  std::optional<VectorXd> solve(VectorXd z) const {
    seedRates(z);
    std::optional<VectorXd> r = residual(z);
    int polish = 0;
    for (int iteration = 0; r && iteration < kMaxIterations; ++iteration) {
      if (r->lpNorm<Eigen::Infinity>() <= kSteadyTolerance && ++polish > 3)
        return z;
      std::optional<MatrixXd> J = jacobian(z, r->size());
      if (!J)
        return std::nullopt;
      Eigen::CompleteOrthogonalDecomposition<MatrixXd> cod(*J);
      cod.setThreshold(1e-12);
      VectorXd step = -cod.solve(*r);
      bool improved = false;
      for (double alpha = 1; alpha > 1e-6 && !improved; alpha /= 2) {
        std::optional<VectorXd> next = residual(z + alpha * step);
        if (next && next->norm() < r->norm()) {
          z += alpha * step;
          r = next;
          improved = true;
        }
      }
      if (!improved)
        break;
    }
    if (r && r->lpNorm<Eigen::Infinity>() <= kSteadyTolerance)
      return z;
    return std::nullopt;
  }

  // The coordinates among those searched that the conditions do not fix
  // at the solution z (a zero column of the Jacobian): put back to their
  // base values, as long as the state stays steady. Also how many
  // directions of the unknowns the conditions leave free (the rank
  // deficiency of the Jacobian): a continuous family.
  struct Family {
    std::vector<bool> arbitrary;
    size_t freeDirections = 0;
  };
  Family family(VectorXd &z) const {
    Family family{std::vector<bool>(n_, false), 0};
    std::optional<VectorXd> r = residual(z);
    std::optional<MatrixXd> J = r ? jacobian(z, r->size()) : std::nullopt;
    if (!J || J->cols() == 0)
      return family;
    Eigen::CompleteOrthogonalDecomposition<MatrixXd> cod(*J);
    cod.setThreshold(1e-7);
    family.freeDirections = static_cast<size_t>(J->cols() - cod.rank());
    double largest = 0;
    for (long k = 0; k < J->cols(); ++k)
      largest = std::max(largest, J->col(k).norm());
    for (size_t k = 0; k < searched_.size(); ++k) {
      if (J->col(static_cast<long>(k)).norm() > 1e-8 * largest)
        continue;
      VectorXd moved = z;
      moved(static_cast<long>(k)) = request_.base.q[searched_[k]];
      std::optional<VectorXd> still = residual(moved);
      if (still && still->lpNorm<Eigen::Infinity>() <= kSteadyTolerance) {
        z = moved;
        family.arbitrary[searched_[k]] = true;
      }
    }
    return family;
  }

  std::vector<VectorXd> starts() const {
    std::vector<VectorXd> points;
    size_t count = searched_.empty() ? 1 : request_.maxStarts;
    for (size_t i = 0; i < count; ++i) {
      VectorXd z = VectorXd::Zero(static_cast<long>(unknowns()));
      for (size_t k = 0; k < searched_.size(); ++k) {
        size_t j = searched_[k];
        z(static_cast<long>(k)) =
            request_.box.lo[j] + (request_.box.hi[j] - request_.box.lo[j]) * halton(i + 1, k);
      }
      points.push_back(z);
    }
    return points;
  }

  // Whether the positions found lie in the request's box (Newton may leave
  // it for a motion that belongs to a wider search).
  bool inBox(const VectorXd &z) const {
    for (size_t k = 0; k < searched_.size(); ++k) {
      size_t j = searched_[k];
      double slack = 1e-9 * (1 + std::abs(request_.box.hi[j] - request_.box.lo[j]));
      double v = z(static_cast<long>(k));
      if (v < request_.box.lo[j] - slack || v > request_.box.hi[j] + slack)
        return false;
    }
    return true;
  }

  // Starts at z's mirror images, one angle at a time: -a and a + pi.
  std::vector<VectorXd> mirrors(const VectorXd &z) const {
    std::vector<VectorXd> out;
    for (size_t k = 0; k < searched_.size(); ++k) {
      if (!angle_[searched_[k]])
        continue;
      auto at = static_cast<long>(k);
      for (double image : {-z(at), z(at) + M_PI}) {
        VectorXd start = z;
        start(at) = image;
        out.push_back(start);
      }
    }
    return out;
  }

  // Angles into (-pi, pi].
  void wrap(VectorXd &z) const {
    for (size_t k = 0; k < searched_.size(); ++k)
      if (angle_[searched_[k]])
        z(static_cast<long>(k)) = wrapAngle(z(static_cast<long>(k)));
  }

  State positions(const VectorXd &z) const {
    State s;
    s.t = request_.base.t;
    s.q = request_.base.q;
    for (size_t k = 0; k < searched_.size(); ++k)
      s.q[searched_[k]] = z(static_cast<long>(k));
    s.qd.assign(n_, 0.0);
    return s;
  }

private:
  static VectorXd columnOf(const Matrix &C, const std::vector<size_t> &rows, size_t j) {
    VectorXd c(static_cast<long>(rows.size()));
    for (size_t i = 0; i < rows.size(); ++i)
      c(static_cast<long>(i)) = C[rows[i]][j];
    return c;
  }

  const Equations &eq_;
  const SteadyRequest &request_;
  Evaluator evaluator_;
  const Linearizer *linearizer_;
  mutable std::optional<ConservedEvaluator> momenta_; // evaluate() keeps scratch
  std::vector<size_t> momentumIndex_; // per turning coordinate, into momenta_ (size(): none)
  size_t n_;
  std::vector<bool> turning_, ignorable_, dynamicsFree_, angle_;
  std::vector<size_t> searched_, unknownRates_, dependent_;
  std::vector<size_t> velocityRows_; // the constraints that are not holonomic
  double accelerationScale_ = 1e-300, phiScale_ = 1, momentumScale_ = 1e-300;
};

struct Found {
  VectorXd z;
  SteadyMotion motion;
};

bool sameMotion(const Found &a, const Found &b) {
  for (long k = 0; k < a.z.size(); ++k) {
    double x = a.z(k), y = b.z(k);
    if (std::abs(x - y) > 1e-6 * (1 + std::abs(x)))
      return false;
  }
  return a.motion.arbitrary == b.motion.arbitrary;
}

// The motion Newton finds from `start`, unless it leaves the box, is not
// steady, or is one of `found` already.
std::optional<Found> solveFrom(SteadySearch &search, const VectorXd &start,
                               const std::vector<Found> &found, const SteadyRequest &request) {
  if (!search.chooseDependent(start))
    return std::nullopt;
  std::optional<VectorXd> z = search.solve(start);
  if (!z)
    return std::nullopt;
  search.wrap(*z);
  if (!search.inBox(*z))
    return std::nullopt;
  Found f{*z, {}};
  SteadySearch::Family family = search.family(f.z);
  f.motion.arbitrary = family.arbitrary;
  size_t alongAxes = 0;
  for (size_t j : search.searched())
    alongAxes += f.motion.arbitrary[j];
  if (size_t free = family.freeDirections; free > alongAxes)
    f.motion.notes.push_back(
        "one of a continuous family: the conditions leave " + std::to_string(free - alongAxes) +
        " combination" + (free - alongAxes == 1 ? "" : "s") +
        " of the positions and the rates solved for free, so other members may be listed too");
  for (size_t j = 0; j < f.motion.arbitrary.size(); ++j)
    if (search.ignorable()[j])
      f.motion.arbitrary[j] = true;
  for (size_t r : request.turning)
    f.motion.arbitrary[r] = true;
  if (std::any_of(found.begin(), found.end(), [&](const Found &g) { return sameMotion(f, g); }))
    return std::nullopt;
  std::optional<State> s = search.state(f.z);
  if (!s)
    return std::nullopt;
  f.motion.state = *s;
  f.motion.dependentSpeeds = search.dependent();
  for (double p : search.momentaAt(*s))
    f.motion.momentum.push_back(std::isnan(p) ? std::nullopt : std::optional<double>(p));
  return f;
}

} // namespace

std::string verdictText(SteadyVerdict verdict) {
  switch (verdict) {
  case SteadyVerdict::Stable:
    return "stable";
  case SteadyVerdict::AsymptoticallyStable:
    return "asymptotically stable";
  case SteadyVerdict::Neutral:
    return "linearly stable (neutral), nonlinear stability undecided";
  case SteadyVerdict::Unstable:
    return "unstable";
  case SteadyVerdict::Undetermined:
    break;
  }
  return "stability undetermined";
}

SteadyMotionFinder::SteadyMotionFinder(const Equations &equations, std::vector<double> params)
    : equations_(equations), params_(std::move(params)), linearizer_(equations, params_) {
  for (const Equations::Constraint &k : equations.constraints)
    velocityConstraints_ = velocityConstraints_ || !k.holonomic;
  sym::Context &c = equations.L.context();
  for (size_t j = 0; j < equations.coordinates.size(); ++j) {
    sym::Differentiator byQ =
        sym::partial(c.coordinate(equations.coordinates[j], static_cast<int>(j)).q);
    roles_.ignorable.push_back(!positionAppears(equations, byQ));
  }
  roles_.dynamicsFree = roles_.ignorable;
  // A position that appears but cancels (a symmetric wheel's angle) shows
  // as zero columns at states in general position.
  numericRoles(equations, linearizer_, roles_);
  if (velocityConstraints_)
    return;
  conservation_ = findConserved(equations, /*forReading=*/false);
  for (const CyclicCoordinate &c : conservation_->cyclic)
    cyclic_.push_back(c.index);
}

std::string SteadyMotionFinder::whyNotTurning(size_t j) const {
  if (velocityConstraints_)
    return "";
  for (const auto &[name, why] : conservation_->notCyclic)
    if (name == equations_.coordinates[j])
      return why;
  return "";
}

std::optional<std::vector<SteadyMotion>> SteadyMotionFinder::find(const SteadyRequest &request,
                                                                  std::string &error) {
  for (size_t i = 0; i < request.turning.size(); ++i)
    if (!request.rates[i] && velocityConstraints_) {
      error = "momenta are given for the cyclic coordinates of models without velocity "
              "constraints; give the rate of '" +
              equations_.coordinates[request.turning[i]] + "' instead";
      return std::nullopt;
    }
  SteadySearch search(equations_, params_, request, conservation_ ? &*conservation_ : nullptr,
                      roles_, linearizer_);
  std::vector<VectorXd> starts = search.starts();
  search.setScales(starts);
  SteadyStability stability(equations_, params_, linearizer_, request.turning,
                            !velocityConstraints_);
  std::vector<Found> found;
  for (const VectorXd &start : starts) {
    if (request.cancelled && request.cancelled())
      break;
    if (std::optional<Found> f = solveFrom(search, start, found, request))
      found.push_back(std::move(*f));
  }
  // A motion's mirror images are tried too: a symmetric system has them,
  // and the starts may all fall on one side (an orbit in spherical
  // coordinates at th = -pi/2 but not at th = pi/2).
  for (size_t i = 0; i < found.size(); ++i)
    for (const VectorXd &start : search.mirrors(found[i].z)) {
      if (request.cancelled && request.cancelled())
        break;
      if (std::optional<Found> f = solveFrom(search, start, found, request))
        found.push_back(std::move(*f));
    }
  std::sort(found.begin(), found.end(), [](const Found &a, const Found &b) {
    return std::lexicographical_compare(a.z.begin(), a.z.end(), b.z.begin(), b.z.end());
  });
  std::vector<SteadyMotion> motions;
  for (Found &f : found) {
    stability.classify(f.motion);
    motions.push_back(std::move(f.motion));
  }
  return motions;
}

} // namespace mech::mechanics
