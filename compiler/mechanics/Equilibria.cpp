// The search for equilibria and their classification. Newton works on
// z = (q, lambda) with F(z) = (f + C^T lambda, Phi) and the Jacobian
// [[-K + sum lambda_i Hess(Phi_i), C^T], [C, 0]]; its steps are minimum-norm
// least-squares steps, so that a singular Jacobian (a family of equilibria)
// does not stop it. The start points are a Halton sequence: deterministic,
// and spread evenly over the box for any count.
#include "mechanics/Equilibria.h"

#include "mechanics/Halton.h"
#include "mechanics/IntegrableConstraints.h"
#include "mechanics/MatrixRows.h"

#include "mechanics/ConstraintProjection.h"

#include "symbolic/ZeroTest.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <utility>

namespace mech::mechanics {

namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

constexpr double kTwoPi = 6.283185307179586476925286766559;
constexpr int kMaxIterations = 60;
// Residuals below these fractions of the forces (or constraint values) seen
// over the box count as zero.
constexpr double kResidualTolerance = 1e-10;
// Eigenvalues below this fraction of the largest entry involved count as zero.
constexpr double kZeroEigenvalue = 1e-8;
constexpr double kSameEquilibrium = 1e-6;

using mechanics::toEigen; // beside the vectors' overload below

VectorXd toEigen(const std::vector<double> &v) {
  return Eigen::Map<const VectorXd>(v.data(), static_cast<long>(v.size()));
}

std::vector<double> toStd(const VectorXd &v) {
  return {v.data(), v.data() + v.size()};
}

Matrix toRows(const MatrixXd &x) {
  Matrix out(static_cast<size_t>(x.rows()));
  for (long i = 0; i < x.rows(); ++i)
    for (long j = 0; j < x.cols(); ++j)
      out[static_cast<size_t>(i)].push_back(x(i, j));
  return out;
}

// The constraints that move: Phi depends on t explicitly, or an integrable
// velocity constraint asks for motion (s' == v0).
std::vector<size_t> movingConstraints(const Equations &equations) {
  std::vector<size_t> moving;
  for (size_t i = 0; i < equations.constraints.size(); ++i) {
    const Equations::Constraint &k = equations.constraints[i];
    if (k.holonomic ? sym::dependsOnTime(k.phi) : demandsMotion(equations, k))
      moving.push_back(i);
  }
  return moving;
}

// The residual F and Jacobian J of the Newton system at z = (q, lambda).
struct NewtonSample {
  VectorXd F;
  MatrixXd J;
  double forceNorm = 0, phiNorm = 0;
};

class System {
public:
  System(const Linearizer &linearizer, double t, const std::vector<double> &reference)
      : lin_(linearizer), n_(linearizer.coordinates()), m_(linearizer.constraintCount()), t_(t),
        moving_(movingConstraints(linearizer.equations())), constant_(m_, 0.0),
        levels_(linearizer.equations(), linearizer.params()), reference_(reference) {
    // An integrable constraint with constant coefficients keeps its
    // integral at the reference's value, as a holonomic constraint.
    if (reference.size() == n_)
      for (size_t i = 0; i < m_; ++i)
        if (linearizer.equations().constraints[i].integral)
          constant_[i] = sample(toEigen(reference)).phi[i];
  }

  size_t n() const { return n_; }
  size_t m() const { return m_; }
  bool moving() const { return !moving_.empty(); }
  // Rest against a moving constraint is admissible only where dPhi/dt = 0:
  // those rows join Phi = 0, scaled by `weight` to Phi's units and size.
  void weighAdmissibility(double weight) { psiWeight_ = weight; }

  LinearSample sample(const VectorXd &q) const {
    State state;
    state.t = t_;
    state.q = toStd(q);
    state.qd.assign(n_, 0.0);
    return lin_.at(state);
  }

  NewtonSample at(const VectorXd &z) const {
    auto n = static_cast<long>(n_), m = static_cast<long>(m_);
    auto p = static_cast<long>(moving_.size());
    LinearSample s = sample(z.head(n));
    NewtonSample r;
    r.F.resize(n + m + p);
    r.J = MatrixXd::Zero(n + m + p, n + m);
    MatrixXd C = toEigen(s.C, m_, n_);
    VectorXd lambda = z.tail(m);
    r.F.head(n) = toEigen(s.f) + C.transpose() * lambda;
    r.F.segment(n, m) = toEigen(s.phi) - toEigen(constant_);
    std::vector<double> level;
    if (!levels_.empty() && reference_.size() == n_)
      level = levels_.difference(toStd(z.head(n)), reference_, t_);
    r.J.topLeftCorner(n, n) = -toEigen(s.K, n_, n_);
    for (size_t i = 0; i < m_; ++i)
      r.J.topLeftCorner(n, n) += lambda(static_cast<long>(i)) * toEigen(s.phiHessian[i], n_, n_);
    r.J.topRightCorner(n, m) = C.transpose();
    r.J.block(n, 0, m, n) = C;
    // An integrable constraint whose integral is not written out keeps the
    // reference's level set through the line integral of its coefficients;
    // without a reference, each start keeps its own (its row asks only that
    // rest be admissible).
    for (size_t i = 0; i < m_; ++i) {
      const Equations::Constraint &k = lin_.equations().constraints[i];
      if (!k.integrable || k.integral)
        continue;
      if (level.empty())
        r.J.row(n + static_cast<long>(i)).setZero();
      else
        r.F(n + static_cast<long>(i)) = level[i];
    }
    for (long k = 0; k < p; ++k) {
      size_t i = moving_[static_cast<size_t>(k)];
      r.F(n + m + k) = psiWeight_ * s.psi[i];
      for (long j = 0; j < n; ++j)
        r.J(n + m + k, j) = psiWeight_ * s.psiGradient[i][static_cast<size_t>(j)];
    }
    r.forceNorm = r.F.head(n).norm();
    r.phiNorm = r.F.tail(m + p).norm();
    return r;
  }

  // The multipliers that best balance f at q: C^T lambda = -f.
  VectorXd multipliers(const VectorXd &q) const {
    if (m_ == 0)
      return VectorXd();
    LinearSample s = sample(q);
    MatrixXd C = toEigen(s.C, m_, n_);
    return C.transpose().completeOrthogonalDecomposition().solve(-toEigen(s.f));
  }

private:
  const Linearizer &lin_;
  size_t n_, m_;
  double t_;
  std::vector<size_t> moving_;
  std::vector<double> constant_; // per constraint: what Phi keeps (0 unless integrable)
  LevelSets levels_;
  std::vector<double> reference_;
  double psiWeight_ = 1;
};

// Newton with backtracking from z; true when the residual falls below the
// tolerances.
bool newton(const System &system, VectorXd &z, double forceTol, double phiTol) {
  NewtonSample s = system.at(z);
  auto merit = [](const NewtonSample &x, double ft, double pt) {
    return x.forceNorm / ft + x.phiNorm / pt;
  };
  for (int iteration = 0; iteration < kMaxIterations; ++iteration) {
    if (s.forceNorm <= forceTol && s.phiNorm <= phiTol) {
      // Polish while the residual keeps falling: a simple root needs a step
      // or two, a degenerate one (W ~ q^4) converges only linearly, and
      // stopping at the tolerance would leave it visibly off.
      for (int polish = 0; polish < 4 * kMaxIterations; ++polish) {
        VectorXd step = s.J.completeOrthogonalDecomposition().solve(s.F);
        NewtonSample p = system.at(z - step);
        if (!p.F.allFinite() || merit(p, forceTol, phiTol) > merit(s, forceTol, phiTol))
          break;
        z -= step;
        s = p;
        if (step.norm() <= 1e-15 * (1 + z.norm()))
          break;
      }
      return true;
    }
    VectorXd step = s.J.completeOrthogonalDecomposition().solve(s.F);
    if (!step.allFinite())
      return false;
    double alpha = 1;
    bool accepted = false;
    for (int halving = 0; halving < 12; ++halving, alpha /= 2) {
      VectorXd trial = z - alpha * step;
      NewtonSample t = system.at(trial);
      if (t.F.allFinite() && merit(t, forceTol, phiTol) < merit(s, forceTol, phiTol)) {
        z = trial;
        s = t;
        accepted = true;
        break;
      }
    }
    if (!accepted)
      return false;
  }
  return s.forceNorm <= forceTol && s.phiNorm <= phiTol;
}

// The representative of an angle in the box: the equivalent value of
// smallest magnitude inside it (pi rather than -pi), or nullopt.
std::optional<double> wrapAngle(double x, double lo, double hi) {
  double base = std::remainder(x, kTwoPi); // in [-pi, pi]
  std::optional<double> best;
  for (int k = -3; k <= 3; ++k) {
    double candidate = base + k * kTwoPi;
    if (candidate < lo - 1e-9 || candidate > hi + 1e-9)
      continue;
    if (!best || std::abs(candidate) < std::abs(*best) - 1e-9 ||
        (std::abs(std::abs(candidate) - std::abs(*best)) <= 1e-9 && candidate > *best))
      best = candidate;
  }
  return best;
}

double maxAbs(const MatrixXd &m) {
  return m.size() == 0 ? 0.0 : m.cwiseAbs().maxCoeff();
}

// An orthonormal basis of the null space of the rows of R (n columns).
MatrixXd nullSpace(const MatrixXd &R, size_t n) {
  auto N = static_cast<long>(n);
  if (R.rows() == 0)
    return MatrixXd::Identity(N, N);
  Eigen::JacobiSVD<MatrixXd> svd(R, Eigen::ComputeFullV);
  double largest = svd.singularValues().size() > 0 ? svd.singularValues()(0) : 0;
  long rank = 0;
  for (long i = 0; i < svd.singularValues().size(); ++i)
    if (svd.singularValues()(i) > 1e-10 * largest)
      ++rank;
  return svd.matrixV().rightCols(N - rank);
}

} // namespace

std::vector<bool> angleCoordinates(const Equations &equations) {
  std::vector<bool> angles;
  for (const sema::DimInfo &d : equations.coordinateDims)
    angles.push_back(d.isKnown() && d.dimension.isDimensionless());
  angles.resize(equations.coordinates.size(), false);
  return angles;
}

Box defaultBox(const Equations &equations) {
  Box box;
  for (bool angle : angleCoordinates(equations)) {
    box.lo.push_back(angle ? -M_PI : -kDefaultHalfWidth);
    box.hi.push_back(angle ? M_PI : kDefaultHalfWidth);
  }
  return box;
}

bool dependsOnTime(const Equations &equations) {
  if (equations.hasExplicitTime)
    return true;
  for (const sym::Expr &q : equations.Qnc)
    if (sym::dependsOnTime(q))
      return true;
  return false;
}

namespace {

// Deterministic start points spread evenly over the box (Halton).
std::vector<VectorXd> startPoints(const Box &box, size_t n, size_t count) {
  std::vector<VectorXd> starts;
  for (size_t i = 0; i < count; ++i) {
    VectorXd q(static_cast<long>(n));
    for (size_t j = 0; j < n; ++j)
      q(static_cast<long>(j)) = box.lo[j] + (box.hi[j] - box.lo[j]) * halton(i + 1, j);
    starts.push_back(q);
  }
  return starts;
}

// The residuals below which Newton has found a state of rest.
struct Tolerances {
  double force = 0, phi = 0;
};

// The scales that residuals are judged against: the largest forces and
// constraint values over (a sample of) the box. Also weighs the rows of a
// moving constraint's admissibility against Phi's.
Tolerances residualTolerances(System &system, const std::vector<VectorXd> &starts) {
  double forceScale = 0, phiScale = 0;
  for (size_t i = 0; i < std::min<size_t>(starts.size(), 64); ++i) {
    LinearSample s = system.sample(starts[i]);
    for (double v : s.f)
      forceScale = std::max(forceScale, std::abs(v));
    for (double v : s.phi)
      phiScale = std::max(phiScale, std::abs(v));
  }
  // With no applied force anywhere in the box, only rounding in the
  // reactions C^T lambda remains: judge it on the scale of one unit.
  Tolerances tol;
  tol.force = forceScale > 0 ? kResidualTolerance * forceScale + 1e-300 : kResidualTolerance;
  tol.phi = kResidualTolerance * std::max(phiScale, 1.0);
  if (system.moving()) {
    double psiScale = 0;
    for (size_t i = 0; i < std::min<size_t>(starts.size(), 64); ++i)
      for (double v : system.sample(starts[i]).psi)
        psiScale = std::max(psiScale, std::abs(v));
    system.weighAdmissibility(std::max(phiScale, 1.0) / std::max(psiScale, 1.0));
  }
  return tol;
}

// Marks the coordinates along which the equilibrium at z is a family: a
// direction the Jacobian does not see, with F still zero away from z (a
// cyclic coordinate). False at a singular point of the model (V = -k/r at
// r = 0), which is not a state of rest whatever the residual's rounding says.
bool markFamilies(const System &system, const VectorXd &z, const Box &box, const Tolerances &tol,
                  Equilibrium &e) {
  size_t n = system.n();
  NewtonSample here = system.at(z);
  if (!here.F.allFinite() || !here.J.allFinite())
    return false;
  Eigen::JacobiSVD<MatrixXd> svd(here.J, Eigen::ComputeFullV);
  double largest = svd.singularValues()(0);
  for (long k = 0; k < svd.singularValues().size(); ++k) {
    if (svd.singularValues()(k) > 1e-8 * largest && largest > 0)
      continue;
    VectorXd v = svd.matrixV().col(k).head(static_cast<long>(n));
    long j = 0;
    if (v.size() == 0 || v.cwiseAbs().maxCoeff(&j) < 0.9)
      continue;
    bool free = true;
    for (double shift : {0.37, -1.13, 2.71}) {
      VectorXd moved = z;
      moved(j) += shift * (box.hi[static_cast<size_t>(j)] - box.lo[static_cast<size_t>(j)]);
      NewtonSample s = system.at(moved);
      free = free && s.forceNorm <= 10 * tol.force && s.phiNorm <= 10 * tol.phi;
    }
    e.arbitrary[static_cast<size_t>(j)] = free;
  }
  return true;
}

// Brings e's coordinates to their representatives in the box (angles
// wrapped, a family's free coordinate at 0 or the nearest bound); false
// when e lies outside it.
bool placeInBox(Equilibrium &e, const Box &box, const std::vector<bool> &angles) {
  bool inside = true;
  for (size_t j = 0; j < e.q.size(); ++j) {
    if (e.arbitrary[j]) {
      e.q[j] = std::clamp(0.0, box.lo[j], box.hi[j]);
    } else if (angles[j]) {
      auto wrapped = wrapAngle(e.q[j], box.lo[j], box.hi[j]);
      inside = inside && wrapped.has_value();
      if (wrapped)
        e.q[j] = *wrapped;
    } else {
      double slack = 1e-9 * (box.hi[j] - box.lo[j]);
      inside = inside && e.q[j] >= box.lo[j] - slack && e.q[j] <= box.hi[j] + slack;
    }
  }
  return inside;
}

// The same family, at the same place (angles modulo 2 pi) on its fixed
// coordinates.
bool sameEquilibrium(const Equilibrium &e, const Equilibrium &other,
                     const std::vector<bool> &angles) {
  if (other.arbitrary != e.arbitrary)
    return false;
  for (size_t j = 0; j < e.q.size(); ++j) {
    if (e.arbitrary[j])
      continue;
    double d = e.q[j] - other.q[j];
    if (angles[j])
      d = std::remainder(d, kTwoPi);
    if (std::abs(d) > kSameEquilibrium * (1 + std::abs(e.q[j])))
      return false;
  }
  return true;
}

// The list in lexicographic order of q, so that it does not depend on which
// start found what.
void sortEquilibria(std::vector<Equilibrium> &found, const Box &box) {
  // Rounding noise (-1e-17 for 0) must not decide the order of the list.
  for (Equilibrium &e : found)
    for (size_t j = 0; j < e.q.size(); ++j)
      if (std::abs(e.q[j]) <= 1e-12 * std::max(1.0, box.hi[j] - box.lo[j]))
        e.q[j] = 0;
  std::sort(found.begin(), found.end(), [](const Equilibrium &a, const Equilibrium &b) {
    for (size_t j = 0; j < a.q.size(); ++j)
      if (std::abs(a.q[j] - b.q[j]) > kSameEquilibrium * (1 + std::abs(a.q[j])))
        return a.q[j] < b.q[j];
    return false;
  });
}

} // namespace

std::optional<std::vector<Equilibrium>> findEquilibria(const Linearizer &linearizer,
                                                       const EquilibriaOptions &options,
                                                       Diagnostics &diagnostics, Location where) {
  const Equations &eq = linearizer.equations();
  // An integrable velocity constraint holds its Phi at the start's value:
  // at rest its row of C balances the forces as a holonomic one's does, and
  // each start's Newton iteration keeps to its own level set (C dq = 0).
  auto velocityConstraint =
      std::find_if(eq.constraints.begin(), eq.constraints.end(),
                   [](const auto &c) { return !c.holonomic && !c.integrable; });
  if (velocityConstraint != eq.constraints.end()) {
    Diagnostic &d =
        diagnostics.error(where, "equilibria of models with nonholonomic "
                                 "constraints are not supported (constraint '" +
                                     velocityConstraint->name + "' involves velocities)");
    Diagnostics::addNote(d, velocityConstraint->location,
                         "it is not an exact form (the time derivative of a function of the "
                         "coordinates), so it does not reduce to a position constraint");
    return std::nullopt;
  }
  System system(linearizer, options.t, options.reference);
  size_t n = system.n(), m = system.m();
  if (n == 0)
    return std::vector<Equilibrium>{};
  std::vector<bool> angles = angleCoordinates(eq);
  // An angle that an integrable constraint ties to its constant (a wheel's
  // turn, s - r*phi) is not periodic there: phi + 2 pi is another state.
  for (const Equations::Constraint &k : eq.constraints)
    for (size_t j = 0; k.integral && j < angles.size(); ++j)
      angles[j] = angles[j] && k.C[j].isZero();
  const Box &box = options.box;
  size_t count = std::min(options.maxStarts, std::max<size_t>(64, 64 * n));
  std::vector<VectorXd> starts = startPoints(box, n, count);
  Tolerances tol = residualTolerances(system, starts);

  std::vector<Equilibrium> found;
  // Where the last new equilibrium turned up in the sequence of starts: one
  // found late means that more starts could find more.
  size_t lastNew = 0, index = 0;
  bool stopped = false;
  for (const VectorXd &start : starts) {
    if (options.cancelled && options.cancelled()) {
      stopped = true;
      diagnostics.warning(where, "interrupted: the search stopped after " + std::to_string(index) +
                                     " of " + std::to_string(starts.size()) + " start points");
      break;
    }
    ++index;
    VectorXd z(static_cast<long>(n + m));
    z.head(static_cast<long>(n)) = start;
    z.tail(static_cast<long>(m)) = system.multipliers(start);
    if (!newton(system, z, tol.force, tol.phi))
      continue;
    Equilibrium e;
    e.q = toStd(z.head(static_cast<long>(n)));
    e.lambda = toStd(z.tail(static_cast<long>(m)));
    e.arbitrary.assign(n, false);
    if (!markFamilies(system, z, box, tol, e) || !placeInBox(e, box, angles))
      continue;
    auto same = [&](const Equilibrium &other) { return sameEquilibrium(e, other, angles); };
    if (std::none_of(found.begin(), found.end(), same)) {
      found.push_back(e);
      lastNew = index;
    }
  }
  if (!stopped && lastNew > starts.size() / 2)
    diagnostics.warning(where, "the search may have missed equilibria: start point " +
                                   std::to_string(lastNew) + " of " +
                                   std::to_string(starts.size()) +
                                   " still found a new one; narrow the box with --in");
  sortEquilibria(found, box);
  // Whether the forces are a potential's gradient is a property of the
  // equations, decided once for every equilibrium found.
  PositionalForces positional = positionalForces(linearizer.equations());
  for (Equilibrium &e : found)
    classify(linearizer, options.t, e, positional);
  return found;
}

namespace {

// The matrices of the motion near q*, on the tangent space: the null space
// of C without the directions of a family (moving along it is neutral, not
// a question of stability).
struct Tangent {
  MatrixXd basis;     // orthonormal, n x r
  MatrixXd curvature; // -sum lambda_i Hess(Phi_i)
  MatrixXd K;         // with the curvature, on all coordinates
  MatrixXd Hr, Kr, Mr, Dr;
  // The same on the null space of C alone, the family's directions kept:
  // the motion, in which a free coordinate recoils and drifts.
  MatrixXd free, Kf, Mf, Df;
  long r() const { return basis.cols(); }
  long familyDirections() const { return free.cols() - basis.cols(); }
};

Tangent tangentSpace(const LinearSample &s, const Equilibrium &e,
                     const PositionalForces &positional, size_t m, size_t n) {
  auto N = static_cast<long>(n);
  MatrixXd rows = toEigen(s.C, m, n);
  // The family's directions E (its arbitrary coordinates) that stay on the
  // constraints, E y with C E y = 0, are not perturbations: they are left
  // out. Those that leave them change the constant of an integrable
  // constraint and lead to another level set's equilibrium.
  MatrixXd E(N, 0);
  for (size_t j = 0; j < n; ++j)
    if (e.arbitrary[j]) {
      E.conservativeResize(N, E.cols() + 1);
      E.col(E.cols() - 1) = VectorXd::Unit(N, static_cast<long>(j));
    }
  MatrixXd free = nullSpace(rows, n);
  if (E.cols() > 0) {
    MatrixXd along = E * nullSpace(rows * E, static_cast<size_t>(E.cols()));
    rows.conservativeResize(rows.rows() + along.cols(), N);
    rows.bottomRows(along.cols()) = along.transpose();
  }
  MatrixXd basis = nullSpace(rows, n);
  MatrixXd curvature = MatrixXd::Zero(N, N); // -sum lambda_i Hess(Phi_i)
  for (size_t i = 0; i < m; ++i)
    curvature -= e.lambda[i] * toEigen(s.phiHessian[i], n, n);
  MatrixXd H = toEigen(s.H, n, n) + curvature;
  // Positional forces with a symmetric Jacobian are a potential's gradient:
  // W - U has the Hessian H - dQ/dq.
  if (positional.conservative) {
    MatrixXd dQ = toEigen(s.dQnc, n, n);
    H -= (dQ + dQ.transpose()) / 2;
  }
  MatrixXd K = toEigen(s.K, n, n) + curvature;
  MatrixXd Hr = basis.transpose() * H * basis, Kr = basis.transpose() * K * basis;
  MatrixXd Mr = basis.transpose() * toEigen(s.M, n, n) * basis;
  MatrixXd Dr = basis.transpose() * toEigen(s.D, n, n) * basis;
  Hr = (Hr + Hr.transpose()) / 2;
  MatrixXd Kf = free.transpose() * K * free, Mf = free.transpose() * toEigen(s.M, n, n) * free;
  MatrixXd Df = free.transpose() * toEigen(s.D, n, n) * free;
  return {std::move(basis), std::move(curvature), std::move(K),  std::move(Hr),
          std::move(Kr),    std::move(Mr),        std::move(Dr), std::move(free),
          std::move(Kf),    std::move(Mf),        std::move(Df)};
}

// What the criteria of stability are judged on.
struct Criteria {
  double zero = 0;   // Hessian eigenvalues below this count as zero
  double lowest = 0; // the Hessian's smallest eigenvalue
  bool dirichlet = false, potentialOnly = false, hasDamping = false;
};

// The reduced Hessian's eigenvalues (into e) and whether Lagrange-Dirichlet
// applies.
Criteria stabilityCriteria(const Equations &eq, const LinearSample &s, const Tangent &tangent,
                           const PositionalForces &positional, size_t n, Equilibrium &e) {
  const MatrixXd &Hr = tangent.Hr, &Dr = tangent.Dr;
  long r = tangent.r();
  e.hessianEigenvalues.clear();
  // Eigen's solvers do not take empty matrices (a family with no other
  // direction leaves none).
  Eigen::SelfAdjointEigenSolver<MatrixXd> hessian;
  if (r > 0) {
    hessian.compute(Hr);
    e.hessianEigenvalues = toStd(hessian.eigenvalues());
  }
  Criteria criteria;
  double scale = std::max({maxAbs(Hr), maxAbs(toEigen(s.H, n, n)), maxAbs(tangent.curvature)});
  criteria.zero = kZeroEigenvalue * scale + 1e-300;
  criteria.lowest = r > 0 ? hessian.eigenvalues().minCoeff() : 0;

  // Lagrange-Dirichlet needs the non-potential forces to vanish at rest near
  // q* (only velocity-dependent ones: damping) and to dissipate, not feed,
  // energy (the symmetric part of D positive semi-definite).
  double forces =
      positional.conservative ? 0 : maxAbs(toEigen(s.Qnc)) + maxAbs(toEigen(s.dQnc, n, n));
  MatrixXd damping = (Dr + Dr.transpose()) / 2;
  bool dissipative =
      r == 0 || Eigen::SelfAdjointEigenSolver<MatrixXd>(damping).eigenvalues().minCoeff() >=
                    -kZeroEigenvalue * (maxAbs(Dr) + 1e-300);
  criteria.dirichlet = forces <= kZeroEigenvalue * (scale + 1e-300) && dissipative;
  criteria.potentialOnly =
      eq.T1.isZero() &&
      ((positional.conservative && eq.D.isZero()) ||
       std::all_of(eq.Qnc.begin(), eq.Qnc.end(), [](const sym::Expr &q) { return q.isZero(); }));
  // Damping anywhere, a free coordinate's friction included.
  criteria.hasDamping = maxAbs(tangent.Df) > 0;
  return criteria;
}

// Eigenvalues of A this close to 0 (relative to the largest) are the
// family's: a double zero of a drifting coordinate splits by about the
// square root of rounding.
constexpr double kFamilyZero = 1e-6;

// The eigenvalues of the linearized system's A on the tangent space (into
// e, by modulus), the family's coordinates free: their zeros are counted
// (at most two per direction: a position and its drift) and set apart.
// Where the family's directions have no inertia of their own (a spherical
// pendulum's azimuth at the pole), they are held, with a note. False when
// the reduced mass matrix is singular.
bool linearize(const Tangent &tangent, Equilibrium &e) {
  e.eigenvalues.clear();
  e.familyZeros = 0;
  Matrix A;
  long directions = tangent.familyDirections();
  if (directions > 0)
    A = stateMatrix(toRows(tangent.Mf), toRows(tangent.Kf), toRows(tangent.Df));
  if (A.empty()) {
    if (directions > 0)
      e.notes.push_back("eigenvalues of A with the arbitrary coordinates held (they have no "
                        "inertia of their own here)");
    directions = 0;
    A = stateMatrix(toRows(tangent.Mr), toRows(tangent.Kr), toRows(tangent.Dr));
  }
  if (A.empty())
    return false;
  e.eigenvalues = eigenvaluesOf(A);
  std::sort(e.eigenvalues.begin(), e.eigenvalues.end(), [](auto a, auto b) {
    return std::abs(a) < std::abs(b) || (std::abs(a) == std::abs(b) && a.imag() < b.imag());
  });
  double largest = 0;
  for (auto lambda : e.eigenvalues)
    largest = std::max(largest, std::abs(lambda));
  while (e.familyZeros < e.eigenvalues.size() &&
         e.familyZeros < 2 * static_cast<size_t>(directions) &&
         std::abs(e.eigenvalues[e.familyZeros]) <= kFamilyZero * largest + 1e-300)
    ++e.familyZeros;
  return true;
}

// W'' vanishes along the one direction u: the sign of W'' on either side
// decides, as the first non-vanishing higher derivative would (even and
// positive: minimum).
void judgeByHigherDerivatives(const Linearizer &linearizer, const State &state, const VectorXd &u,
                              size_t n, Equilibrium &e) {
  double h = 1e-3, side[2];
  for (int k = 0; k < 2; ++k) {
    State shifted = state;
    for (size_t j = 0; j < n; ++j)
      shifted.q[j] += (k == 0 ? h : -h) * u(static_cast<long>(j));
    LinearSample near = linearizer.at(shifted);
    side[k] = u.dot(toEigen(near.H, n, n) * u);
  }
  double tiny = 1e-12 * (std::abs(side[0]) + std::abs(side[1])) + 1e-14;
  if (side[0] > tiny && side[1] > tiny) {
    e.stable = true;
    e.criterion = "Lagrange-Dirichlet (higher derivatives of W: minimum)";
  } else if (side[0] < -tiny || side[1] < -tiny) {
    e.stable = false;
    e.criterion = "higher derivatives of W: no minimum";
  } else {
    e.stable = std::nullopt;
    e.criterion = "W is too flat near the equilibrium to tell";
  }
}

// The verdict from the eigenvalues of A (already in e).
// The family's zeros do not count: moving along the family is neutral.
void judgeByEigenvalues(Equilibrium &e) {
  std::vector<std::complex<double>> own(e.eigenvalues.begin() + static_cast<long>(e.familyZeros),
                                        e.eigenvalues.end());
  double size = 0, rightmost = -INFINITY;
  for (auto lambda : own) {
    size = std::max(size, std::abs(lambda));
    rightmost = std::max(rightmost, lambda.real());
  }
  double axis = 1e-9 * size + 1e-300;
  if (rightmost > axis) {
    // A real eigenvalue > 0 grows without oscillating (divergence); a
    // complex pair with Re > 0 oscillates with growing amplitude (flutter).
    bool oscillating = false;
    for (auto lambda : own)
      oscillating = oscillating || (lambda.real() > axis && std::abs(lambda.imag()) > axis);
    e.stable = false;
    e.criterion = oscillating
                      ? "eigenvalues of the linearized system (a complex pair with Re > 0: "
                        "flutter)"
                      : "eigenvalues of the linearized system (a real one with Re > 0: divergence)";
  } else if (rightmost < -axis) {
    e.stable = true;
    e.asymptotic = true;
    e.criterion = "eigenvalues of the linearized system (all Re < 0: asymptotically stable)";
  } else {
    e.stable = std::nullopt;
    e.criterion = "eigenvalues of the linearized system on the imaginary axis";
  }
}

// The first criterion that applies, from the energy's Hessian to the
// eigenvalues of the linearized system.
void judgeStability(const Linearizer &linearizer, const State &state, const Tangent &tangent,
                    const Criteria &criteria, size_t m, size_t n, Equilibrium &e) {
  long r = tangent.r();
  double zero = criteria.zero, lowest = criteria.lowest;
  if (r == 0) {
    e.stable = std::nullopt;
    e.criterion = "neutral: every direction moves along the family";
  } else if (criteria.dirichlet && lowest > zero) {
    e.stable = true;
    e.criterion = m > 0 ? "Lagrange-Dirichlet (reduced Hessian of W - lambda.Phi positive definite)"
                        : "Lagrange-Dirichlet (Hessian of W positive definite)";
  } else if (criteria.potentialOnly && lowest < -zero) {
    e.stable = false;
    e.criterion = "negative eigenvalue of the Hessian of W (no gyroscopic or non-potential forces)";
  } else if (r == 1 && m == 0 && criteria.dirichlet && std::abs(lowest) <= zero) {
    judgeByHigherDerivatives(linearizer, state, tangent.basis.col(0), n, e);
  } else if (!linearize(tangent, e)) {
    e.stable = std::nullopt;
    e.criterion = "the mass matrix on the tangent space is singular";
  } else {
    judgeByEigenvalues(e);
  }
}

// The tests freeze t; a constraint that moves does work on the system at
// rest, so they do not decide (a bead at the centre of a spinning rod is
// unstable, yet its frozen W is flat).
void undetermineAgainstMovingConstraints(const Equations &eq, Equilibrium &e) {
  std::vector<size_t> moving = movingConstraints(eq);
  if (moving.empty())
    return;
  e.stable = std::nullopt;
  e.asymptotic = false;
  e.eigenvalues.clear();
  e.familyZeros = 0;
  e.hessianEigenvalues.clear();
  e.criterion = "undetermined: constraint '" + eq.constraints[moving[0]].name +
                "' moves with t, and tests at frozen t do not apply to rest against a "
                "moving constraint (use coordinates that move with it)";
}

// The oscillation across a family: M b'' + K b = 0 in the basis's
// coordinates b, with the free directions f = recoil * b eliminated.
struct Oscillator {
  MatrixXd Meff, Keff;
  MatrixXd F;      // the free directions, n x (their count)
  MatrixXd recoil; // f = recoil * b
};

// The directions along a family (F: in the null space of C, orthogonal to
// the basis) are free, not fixed: an oscillation across the family moves
// them too, as a pendulum's swing makes its free cart recoil. With F's
// equations, Mfb b'' + Mff f'' + Kfb b = 0, eliminated, the oscillation
// of b obeys (Mbb - Mbf Mff^-1 Mfb) b'' + (Kbb - Mbf Mff^-1 Kfb) b = 0.
Oscillator eliminateFreeDirections(const LinearSample &s, const Tangent &tangent, size_t m,
                                   size_t n) {
  auto N = static_cast<long>(n);
  const MatrixXd &basis = tangent.basis;
  long r = tangent.r();
  Oscillator o;
  MatrixXd Mfull = toEigen(s.M, n, n), Kfull = tangent.K;
  MatrixXd tangentRows(m + static_cast<size_t>(r), N);
  tangentRows << toEigen(s.C, m, n), basis.transpose();
  MatrixXd &F = o.F = nullSpace(tangentRows, n);
  o.Keff = tangent.Kr;
  o.Meff = tangent.Mr;
  // Where the free directions have no inertia of their own (a spherical
  // pendulum's azimuth at the pole), nothing recoils: they are left out.
  Eigen::LLT<MatrixXd> free;
  if (F.cols() > 0) {
    MatrixXd Mff = F.transpose() * Mfull * F;
    free.compute(Mff);
    double largest = Mfull.cwiseAbs().maxCoeff();
    if (free.info() != Eigen::Success ||
        free.matrixLLT().diagonal().minCoeff() <= 1e-7 * std::sqrt(largest + 1e-300))
      F.resize(N, 0);
  }
  o.recoil = MatrixXd::Zero(F.cols(), r);
  if (F.cols() > 0) {
    MatrixXd Mfb = F.transpose() * Mfull * basis, Kfb = F.transpose() * Kfull * basis;
    o.recoil = -free.solve(Mfb);
    o.Meff = tangent.Mr + Mfb.transpose() * o.recoil;
    o.Keff = tangent.Kr - Mfb.transpose() * free.solve(Kfb);
  }
  return o;
}

// Whether velocity-dependent forces with a skew part (gyroscopic) or
// positional ones with a skew part (circulatory) act on the motion.
bool hasSkewForces(const Tangent &tangent) {
  const MatrixXd &M = tangent.Mf, &K = tangent.Kf, &D = tangent.Df;
  double tolerance = 1e-12 * (maxAbs(M) + maxAbs(K) + maxAbs(D)) + 1e-300;
  return maxAbs(D - D.transpose()) > 2 * tolerance || maxAbs(K - K.transpose()) > 2 * tolerance;
}

// One mode per complex pair of A's eigenvalues (the family's zeros and the
// real ones, which do not oscillate, left out).
void modesOfA(Equilibrium &e) {
  double size = 0;
  for (auto lambda : e.eigenvalues)
    size = std::max(size, std::abs(lambda));
  for (size_t k = e.familyZeros; k < e.eigenvalues.size(); ++k) {
    std::complex<double> lambda = e.eigenvalues[k];
    if (lambda.imag() <= 1e-9 * size)
      continue;
    e.frequencies.push_back(lambda.imag());
    e.naturalFrequencies.push_back(std::abs(lambda));
    e.dampingRatios.push_back(-lambda.real() / std::abs(lambda));
  }
  e.notes.push_back("modes from the eigenvalues of A (damping, gyroscopic or circulatory forces "
                    "act): omega = Im lambda, the natural frequency |lambda|, the damping ratio "
                    "-Re lambda/|lambda|; the shapes are complex and not listed");
}

// Small oscillations of a stable equilibrium: the frequencies and, without
// gyroscopic or circulatory forces, the modes (largest component +1).
void smallOscillations(const LinearSample &s, const Tangent &tangent, size_t m, size_t n,
                       Equilibrium &e) {
  long r = tangent.r();
  if (e.stable != true || r == 0)
    return;
  // With damping, gyroscopic or circulatory forces the modes of the Hessian
  // are not the motion's: the modes come from A, like the verdict.
  if (!e.eigenvalues.empty()) {
    modesOfA(e);
    return;
  }
  Oscillator o = eliminateFreeDirections(s, tangent, m, n);
  MatrixXd Ks = (o.Keff + o.Keff.transpose()) / 2, Ms = (o.Meff + o.Meff.transpose()) / 2;
  Eigen::LLT<MatrixXd> positive(Ms);
  if (positive.info() != Eigen::Success)
    return;
  Eigen::GeneralizedSelfAdjointEigenSolver<MatrixXd> modes(Ks, Ms);
  if (modes.info() != Eigen::Success)
    return;
  for (long k = 0; k < r; ++k) {
    e.frequencies.push_back(std::sqrt(std::max(0.0, modes.eigenvalues()(k))));
    VectorXd b = modes.eigenvectors().col(k);
    VectorXd v = tangent.basis * b + o.F * (o.recoil * b);
    long at = 0;
    v.cwiseAbs().maxCoeff(&at);
    v /= v(at);
    e.modes.push_back(toStd(v));
  }
}

} // namespace

void classify(const Linearizer &linearizer, double t, Equilibrium &e,
              const PositionalForces &positional) {
  const Equations &eq = linearizer.equations();
  size_t n = linearizer.coordinates(), m = linearizer.constraintCount();
  State state;
  state.t = t;
  state.q = e.q;
  state.qd.assign(n, 0.0);
  LinearSample s = linearizer.at(state);
  e.arbitrary.resize(n, false);
  e.lambda.resize(m, 0.0);
  e.notes.clear();
  // Newton's multipliers are one split of the reaction among redundant
  // constraints; report the least-norm one.
  if (std::string note = redundantMultipliersNote(eq, s); !note.empty()) {
    e.notes.push_back(note);
    e.lambda = restWithConstraints(s).lambda;
  }
  Tangent tangent = tangentSpace(s, e, positional, m, n);
  if (positional.conservative)
    e.notes.push_back(positional.note);
  Criteria criteria = stabilityCriteria(eq, s, tangent, positional, n, e);
  judgeStability(linearizer, state, tangent, criteria, m, n, e);
  undetermineAgainstMovingConstraints(eq, e);
  e.frequencies.clear();
  e.naturalFrequencies.clear();
  e.dampingRatios.clear();
  e.modes.clear();
  // Stable with damping, gyroscopic or circulatory forces: the modes are
  // A's.
  if (e.stable == true && tangent.r() > 0 && (criteria.hasDamping || hasSkewForces(tangent)) &&
      e.eigenvalues.empty())
    linearize(tangent, e);
  smallOscillations(s, tangent, m, n, e);
}

} // namespace mech::mechanics
