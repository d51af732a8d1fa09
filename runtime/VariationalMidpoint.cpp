// The midpoint variational integrator: Newton's method on each step's
// discrete Euler–Lagrange equation, momenta carried from step to step, and
// velocities recovered from them for the samples.
#include "runtime/VariationalMidpoint.h"

#include "runtime/Hermite.h"
#include "runtime/StepOutput.h"
#include "runtime/TimeGrid.h"

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include <cmath>
#include <limits>

namespace mech::runtime {

namespace {

using MassMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// What a model's right-hand side returns for a mass matrix that is not
// positive definite: the same condition found here reads the same.
constexpr int kStatusSingularMassMatrix = 1;
// The model's threshold too: a pivot of M below this fraction of the largest
// one leaves the accelerations without a correct digit.
constexpr double kSmallestPivot = 1e-13;
// Newton stops when its correction falls below this, relative to the
// coordinates and their motion in the step (absolute near zero).
constexpr double kTolerance = 1e-14;
// Simplified Newton iterations allowed before the finite-difference Jacobian
// takes over; from an O(h²) guess at a contraction of O(h) they suffice.
constexpr int kSimplifiedIterations = 8;
constexpr int kMaxIterations = 50;
constexpr double kEpsilon = std::numeric_limits<double>::epsilon();

// Counted, checked calls of the LagrangianForm, as RhsEvaluator makes of F: a
// nonzero status or a non-finite value becomes a Failure. Non-finite momenta,
// forces or masses are no component of x or x', so their Failure names none.
class LagrangianEvaluator {
public:
  explicit LagrangianEvaluator(const LagrangianForm &form)
      : form_(form), n_(form.coordinates), x_(2 * n_), M_(n_, n_) {}

  // momentum = dL/dq' and force = dL/dq + Q at (t, q, v).
  bool momentumAndForce(double t, const Eigen::VectorXd &q, const Eigen::VectorXd &v,
                        Eigen::VectorXd &momentum, Eigen::VectorXd &force) {
    x_.head(n_) = q;
    x_.tail(n_) = v;
    ++evaluations_;
    if (int status = form_.momentumAndForce(t, x_.data(), momentum.data(), force.data()))
      return fail({Outcome::RhsFailed, t, -1, status});
    if (firstNonFinite(momentum.data(), n_) >= 0 || firstNonFinite(force.data(), n_) >= 0)
      return fail({Outcome::NonFinite, t});
    return true;
  }

  // Factors M(t, q). LDL^T with pivoting, since M is symmetric; a pivot that
  // is not clearly positive fails as the model's right-hand side would.
  bool factorMassMatrix(double t, const Eigen::VectorXd &q, Eigen::LDLT<Eigen::MatrixXd> &mass) {
    ++evaluations_;
    if (int status = form_.massMatrix(t, q.data(), M_.data()))
      return fail({Outcome::RhsFailed, t, -1, status});
    if (firstNonFinite(M_.data(), M_.size()) >= 0)
      return fail({Outcome::NonFinite, t});
    mass.compute(M_);
    auto pivots = mass.vectorD();
    if (mass.info() != Eigen::Success ||
        (n_ > 0 && !(pivots.minCoeff() > kSmallestPivot * pivots.cwiseAbs().maxCoeff())))
      return fail({Outcome::RhsFailed, t, -1, kStatusSingularMassMatrix});
    return true;
  }

  long evaluations() const { return evaluations_; }
  const Failure &lastFailure() const { return failure_; }

private:
  bool fail(const Failure &failure) {
    failure_ = failure;
    return false;
  }

  const LagrangianForm &form_;
  long n_;
  Eigen::VectorXd x_;
  MassMatrix M_;
  long evaluations_ = 0;
  Failure failure_;
};

// The implicit equation of a step of size h from (t, q0) with momentum p0,
// for the displacement d = q1 - q0:
//   R(d) = P(tm, q0 + d/2, d/h) - (h/2) F(tm, q0 + d/2, d/h) - p0 = 0,
// tm = t + h/2, where P = dL/dq' and F = dL/dq + Q. Solving for d rather than
// q1 gives the mean velocity d/h without the cancellation of q1 - q0, which a
// short step (the last one may be) would turn into large relative errors.
// The Jacobian is M(tm, qm)/h + O(1), so Newton starts with M at the step's
// start (already factored for that point's velocity): a contraction of O(h)
// per iteration. A stiff force, a strong velocity-dependent force or a long
// step slows that; the finite-difference Jacobian then takes over.
class MidpointEquation {
public:
  enum class Status { Solved, ModelFailed, NoConvergence };

  MidpointEquation(LagrangianEvaluator &model, long n)
      : model_(model), qm_(n), vm_(n), momentum_(n), force_(n), residual_(n), shifted_(n),
        shiftedResidual_(n), shiftedMomentum_(n), shiftedForce_(n), correction_(n), jacobian_(n, n),
        lu_(n) {}

  // Improves the guess in d to the solution. When Solved, momentum() and
  // force() are P and F at the step's midpoint and velocity() is d/h.
  Status solve(double t, double h, const Eigen::VectorXd &q0, const Eigen::VectorXd &p0,
               const Eigen::LDLT<Eigen::MatrixXd> &massAtStart, Eigen::VectorXd &d) {
    t_ = t;
    h_ = h;
    q0_ = &q0;
    p0_ = &p0;
    bool simplified = true, corrected = false;
    double previousCorrection = std::numeric_limits<double>::infinity();
    for (int iteration = 0;; ++iteration) {
      if (!evaluate(d, residual_, true))
        return Status::ModelFailed;
      if (corrected || residualAtRoundOff())
        return Status::Solved;
      if (iteration == kMaxIterations)
        return Status::NoConvergence;
      if (simplified) {
        correction_ = massAtStart.solve(residual_);
        correction_ *= h;
        double size = correction_.lpNorm<Eigen::Infinity>();
        // A contraction slower than 1/2 would not reach kTolerance in time.
        if (iteration >= kSimplifiedIterations || size > 0.5 * previousCorrection)
          simplified = false;
        previousCorrection = size;
      }
      if (!simplified) {
        if (!differenceJacobian(d))
          return Status::ModelFailed;
        correction_ = lu_.compute(jacobian_).solve(residual_);
      }
      if (!correction_.allFinite()) // a singular Jacobian: no isolated solution
        return Status::NoConvergence;
      d -= correction_;
      // Relative to the coordinates and their motion in the step, whose
      // rounding in R bounds how small the correction can get.
      double scale = 1 + (*q0_ + d).lpNorm<Eigen::Infinity>() + d.lpNorm<Eigen::Infinity>();
      corrected = correction_.lpNorm<Eigen::Infinity>() <= kTolerance * scale;
    }
  }

  const Eigen::VectorXd &momentum() const { return momentum_; }
  const Eigen::VectorXd &force() const { return force_; }
  const Eigen::VectorXd &velocity() const { return vm_; }

private:
  // R(d) into `residual`; P and F at the midpoint stay in momentum_ and
  // force_ when `keep`.
  bool evaluate(const Eigen::VectorXd &d, Eigen::VectorXd &residual, bool keep) {
    qm_ = *q0_ + 0.5 * d;
    vm_ = d / h_;
    Eigen::VectorXd &momentum = keep ? momentum_ : shiftedMomentum_;
    Eigen::VectorXd &force = keep ? force_ : shiftedForce_;
    if (!model_.momentumAndForce(t_ + h_ / 2, qm_, vm_, momentum, force))
      return false;
    residual = momentum - (h_ / 2) * force - *p0_;
    return true;
  }

  // Whether every component of R is as small as the rounding of its terms:
  // then no correction can improve d (and a zero-size system is solved).
  bool residualAtRoundOff() const {
    auto scale = momentum_.cwiseAbs() + (std::abs(h_) / 2) * force_.cwiseAbs() + p0_->cwiseAbs();
    return (residual_.cwiseAbs().array() <= 4 * kEpsilon * scale.array()).all();
  }

  // dR/dd by forward differences, one evaluation per coordinate.
  bool differenceJacobian(const Eigen::VectorXd &d) {
    for (Eigen::Index j = 0; j < d.size(); ++j) {
      // Large enough to move the midpoint coordinate, q0 + d/2, too.
      double scale = std::max(std::abs((*q0_)(j) + d(j)), std::abs(d(j)));
      double delta = std::sqrt(kEpsilon) * (scale > 0 ? scale : 1);
      shifted_ = d;
      shifted_(j) += delta;
      delta = shifted_(j) - d(j); // the step actually taken, after rounding
      if (!evaluate(shifted_, shiftedResidual_, false))
        return false;
      jacobian_.col(j) = (shiftedResidual_ - residual_) / delta;
    }
    return true;
  }

  LagrangianEvaluator &model_;
  double t_ = 0, h_ = 0;
  const Eigen::VectorXd *q0_ = nullptr, *p0_ = nullptr;
  Eigen::VectorXd qm_, vm_, momentum_, force_, residual_;
  Eigen::VectorXd shifted_, shiftedResidual_, shiftedMomentum_, shiftedForce_, correction_;
  Eigen::MatrixXd jacobian_;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu_;
};

} // namespace

IntegrationResult integrateMidpoint(RhsEvaluator &f, const LagrangianForm &lagrangian,
                                    const Eigen::VectorXd &x0, const IntegratorOptions &options,
                                    const SampleCallback &sample) {
  const long n = lagrangian.coordinates;
  LagrangianEvaluator model(lagrangian);
  IntegrationResult result;
  auto stop = [&](Failure failure) {
    result.stats.rhsEvaluations = f.evaluations() + model.evaluations();
    return resultOf(failure, result.stats);
  };

  StepOutput output(options, sample, 2 * n);
  TimeGrid steps(options.t0, options.tEnd, options.step);
  steps.advance(); // t0 is where we are
  Eigen::VectorXd x = x0, xNew(2 * n);
  Failure ended;
  if (!output.begin(options.t0, x, ended))
    return stop(ended);
  if (steps.done())
    return stop({Outcome::Finished});

  // The method carries (q, p); v is recovered at each step point for the
  // samples. `mass` holds M at the current step point.
  double t = options.t0;
  Eigen::VectorXd q = x.head(n), p(n), displacement(n), qNew(n), pNew(n), vNew(n);
  Eigen::VectorXd momentumHere(n), forceHere(n), missingMomentum(n);
  Eigen::LDLT<Eigen::MatrixXd> mass(n);
  if (!model.momentumAndForce(t, q, x.tail(n), p, forceHere) || !model.factorMassMatrix(t, q, mass))
    return stop(model.lastFailure());

  MidpointEquation equation(model, n);
  // x' at the step's ends, evaluated only when a sample falls inside a step.
  Eigen::VectorXd xdot(2 * n), xdotNew(2 * n);
  bool haveXdot = false;

  for (; !steps.done(); steps.advance()) {
    if (result.stats.accepted >= options.maxSteps)
      return stop({Outcome::MaxSteps, t});
    const double tNew = steps.next(), h = tNew - t;

    displacement = h * x.tail(n); // off by O(h²)
    switch (equation.solve(t, h, q, p, mass, displacement)) {
    case MidpointEquation::Status::Solved:
      break;
    case MidpointEquation::Status::ModelFailed:
      return stop(model.lastFailure());
    case MidpointEquation::Status::NoConvergence:
      return stop({Outcome::NoConvergence, t});
    }
    // p1 = P + (h/2) F at the midpoint, written as p0 + h F, which is the same
    // once R = 0: this way what R keeps of the solver's tolerance stays out of
    // the momenta, and the momentum of a coordinate without force is kept to
    // the last bit.
    pNew = p + h * equation.force();

    qNew = q + displacement;
    // P is affine in q' (L is quadratic in q'), so v1 = v + M⁻¹ (p1 - P(v))
    // for any v; starting from the step's mean velocity keeps the correction,
    // and its rounding, small.
    const Eigen::VectorXd &vm = equation.velocity();
    if (!model.momentumAndForce(tNew, qNew, vm, momentumHere, forceHere) ||
        !model.factorMassMatrix(tNew, qNew, mass))
      return stop(model.lastFailure());
    missingMomentum = pNew - momentumHere;
    vNew = mass.solve(missingMomentum);
    vNew += vm;
    xNew.head(n) = qNew;
    xNew.tail(n) = vNew;
    if (!f.checkFinite(tNew, xNew.data()))
      return stop(f.lastFailure());
    ++result.stats.accepted;

    const bool interpolating = output.needsInterpolant(tNew);
    if (interpolating) {
      if (!haveXdot && !f(t, x.data(), xdot.data()))
        return stop(f.lastFailure());
      if (!f(tNew, xNew.data(), xdotNew.data()))
        return stop(f.lastFailure());
    }
    auto interpolate = [&](double ts, Eigen::VectorXd &out) {
      hermite((ts - t) / h, h, x, xNew, xdot, xdotNew, out);
    };
    if (!output.step(t, tNew, xNew, interpolate, ended))
      return stop(ended);

    x.swap(xNew);
    q.swap(qNew);
    p.swap(pNew);
    xdot.swap(xdotNew);
    haveXdot = interpolating;
    t = tNew;
  }
  return stop({Outcome::Finished});
}

} // namespace mech::runtime
