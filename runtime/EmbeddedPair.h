// An embedded Runge–Kutta pair with dense output, as the adaptive driver sees
// it: try a step and estimate its error, complete an accepted step (with any
// stages the dense output needs), interpolate within it. The state and the
// stage storage live here, allocated once, so that stepping never allocates.
#pragma once

#include "runtime/RungeKuttaStages.h"
#include "runtime/StepSizeController.h"

#include <Eigen/Core>

#include <span>

namespace mech::runtime {

class EmbeddedPair {
public:
  EmbeddedPair(RhsEvaluator &f, Tolerances tolerances, int stages, int denseTerms);
  virtual ~EmbeddedPair() = default;

  virtual int order() const = 0;
  virtual ControllerSettings controllerSettings() const = 0;

  // Begins at (t, x): evaluates F(t, x), the first stage of the first step.
  bool start(double t, const Eigen::VectorXd &x);
  // Tries a step of size h from the current state at t, leaving the
  // candidate end state aside and setting `error`, the error norm relative to
  // the tolerances (accept when <= 1). False when a stage failed (see
  // rhs().lastFailure()).
  virtual bool attempt(double t, double h, double &error) = 0;
  // Makes the candidate of the last attempt the current state and, if
  // `interpolating`, prepares the dense output over [t, t + h]. False, with
  // the state unchanged, when a stage it evaluates fails.
  virtual bool accept(double t, double h, bool interpolating) = 0;
  // The state at t + theta·h within the last step accepted with
  // `interpolating`, theta in [0, 1].
  virtual void interpolate(double theta, Eigen::VectorXd &out) const = 0;
  // After attempt(t, h): h times an estimate of the largest |eigenvalue| of
  // dF/dx along the step, from two stages at the same time (Hairer's test
  // for stiffness), or 0 for a pair without one.
  virtual double stiffnessProduct(double) const { return 0; }

  const Eigen::VectorXd &state() const { return y_; }
  // F at the current state.
  Eigen::Ref<const Eigen::VectorXd> derivative() const { return stages_.k.col(0); }
  RhsEvaluator &rhs() { return f_; }

protected:
  // Stage j of a step of size h from t: k_j = F(t + c·h, y + h Σ a[i] k_i).
  bool stage(int j, double t, double h, double c, std::span<const double> a);

  RhsEvaluator &f_;
  Tolerances tolerances_;
  RungeKuttaStages stages_;
  Eigen::VectorXd y_, yNew_, stageState_;
  Eigen::MatrixXd dense_; // the coefficients of the interpolating polynomial
};

} // namespace mech::runtime
