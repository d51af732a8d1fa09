// What every integrator hands out after an accepted step: the output
// samples due within it, and the events whose functions cross zero in it,
// located on the step's interpolant. One object per run, shared by all the
// methods, so that samples and events mean the same whatever the method.
#pragma once

#include "runtime/Integrator.h"
#include "runtime/RhsEvaluator.h"
#include "runtime/TimeGrid.h"

#include <Eigen/Core>

#include <vector>

namespace mech::runtime {

// A reference to the caller's interpolation, out(t) = the state at t within
// the step just taken, without allocating per step.
class InterpolantRef {
public:
  template <class F>
  explicit InterpolantRef(const F &f)
      : object_(&f), call_([](const void *o, double t, Eigen::VectorXd &out) {
          (*static_cast<const F *>(o))(t, out);
        }) {}
  void operator()(double t, Eigen::VectorXd &out) const { call_(object_, t, out); }

private:
  const void *object_;
  void (*call_)(const void *, double, Eigen::VectorXd &);
};

class StepOutput {
public:
  StepOutput(const IntegratorOptions &options, const SampleCallback &sample, long dimension);

  // The state at t0: its sample, and the signs the event functions start
  // from. False, with `failure` set, when the run ends there.
  bool begin(double t0, const Eigen::VectorXd &x0, Failure &failure);

  // Whether the step ending at tNew needs its interpolant: a sample falls
  // inside it, or there are events to look for.
  bool needsInterpolant(double tNew) const {
    return !specs_.empty() || (sample_ && samples_.dueBy(tNew) && samples_.next() != tNew);
  }

  // After an accepted step from t to tNew ending at xNew: the events in it
  // (recorded in the order of time), then the samples up to tNew or to a
  // stop event, which also adds a last sample at the event. False, with
  // `failure` set, when the run ends here: interrupted by the sample
  // callback, stopped by an event, or an event function failed.
  template <class Interpolate>
  bool step(double t, double tNew, const Eigen::VectorXd &xNew, Interpolate &&interpolate,
            Failure &failure) {
    return afterStep(t, tNew, xNew, InterpolantRef(interpolate), failure);
  }

  double direction() const { return samples_.direction(); }

private:
  struct Crossing {
    double time;
    int event;
  };

  bool afterStep(double t, double tNew, const Eigen::VectorXd &xNew,
                 const InterpolantRef &interpolate, Failure &failure);
  bool evaluate(double t, const double *x, std::vector<double> &g, Failure &failure);
  bool findCrossings(double t, double tNew, const InterpolantRef &interpolate, Failure &failure);
  bool sampleGrid(double t, double tNew, int parts, const InterpolantRef &interpolate,
                  Failure &failure);
  int signChanges(size_t event, int parts) const;
  bool locate(int event, double a, double ga, double b, double gb,
              const InterpolantRef &interpolate, double &root, Failure &failure);
  bool deliver(double tUntil, const Eigen::VectorXd &xUntil, const InterpolantRef &interpolate,
               Failure &failure);

  const SampleCallback &sample_;
  TimeGrid samples_;
  const EventOptions &events_;
  std::vector<EventOptions::Event> specs_;
  std::vector<double> gOld_, gNew_, gProbe_;
  std::vector<double> grid_; // g at the points of a step's grid, grid_[j * events + i]
  std::vector<int> sign_;    // the last nonzero sign of each g, 0 before any
  std::vector<Crossing> crossings_;
  Eigen::VectorXd scratch_, probe_, atEvent_;
  double lastSampleTime_ = 0;
  bool sampled_ = false;
};

} // namespace mech::runtime
