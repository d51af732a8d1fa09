// A watch along a constrained run for the singular positions of its
// linkage, where the rows of the constraint Jacobian C lose rank (all links
// of a four-bar aligned, a slider-crank's slider over the crank's pivot).
// Energy cannot tell what happens there, since the branches that meet both
// conserve it; the watch reports, from the kinematics alone:
// - each passage: its time, the constraints whose rows became dependent
//   together, and how far the smallest singular value of C (rows scaled to
//   length 1 at the start; with redundant constraints the rank-th) fell
//   against its value at the start;
// - a branch indicator: the sign of the minor of C on the coordinates
//   chosen as dependent (without redundant constraints). Where C is
//   regular the branch cannot change, and the sign changes only where the
//   minor is singular: at a singular position of C, or where the free
//   coordinates no longer determine the others (a limit position: the
//   minor is chosen anew there). A sign change where the step's
//   interpolant leaves the constraints is a jump from one assembly mode to
//   the other within a step: a warning.
#pragma once

#include "mechanics/Kernels.h"

#include <Eigen/Dense>

#include <string>
#include <vector>

namespace mech::mechanics {

class SingularPositionWatch {
public:
  SingularPositionWatch(const Equations &equations, Kernels &kernels,
                        const std::vector<double> &params);

  // The state x = (q, q', ...) at the start, where the rows and the minor
  // are chosen.
  void start(double t, const double *x);
  // The state at the end of an accepted step (after any projection).
  void step(double t, const double *x);
  // The note of the run's passages, with the branch indicator's changes
  // there; none when the run came near no singular position.
  std::vector<std::string> notes() const;

  // For a run that failed: " (near a singular position ...)" when the last
  // step ended near one, saying how near, and in the DAE form what passes
  // it; else "".
  std::string failureNote(bool daeForm) const;

  // What the run met, for tests and summaries.
  struct Passage {
    double t = 0;
    double ratio = 0;     // smallest singular value of C there over at the start
    bool flipped = false; // found by the indicator's sign change
    std::vector<size_t> constraints;
  };
  const std::vector<Passage> &passages() const { return passages_; }
  // Steps that jumped between assembly modes, and how far off the
  // constraints their interpolant was where the indicator changed sign.
  struct Jump {
    double from = 0, to = 0, off = 0;
  };
  const std::vector<Jump> &jumps() const { return jumps_; }
  // A warning per jump.
  std::vector<std::string> warnings() const;

private:
  struct Sample {
    double t = 0;
    Eigen::VectorXd q, qd;
    double sigma = 0; // the smallest singular value's estimate
    int sign = 0;     // of the minor's determinant
  };
  // C at (t, q) with the watched rows scaled to length 1.
  Eigen::MatrixXd scaledRows(double t, const Eigen::VectorXd &q);
  // The minor's columns at q: the first of a column-pivoted QR of C.
  void choosePartition(double t, const Eigen::VectorXd &q);
  // The largest |Phi| at the sample, each row scaled as C's.
  double offConstraints(const Sample &at);
  // Fills sigma and sign at the sample's q.
  void measure(Sample &sample);
  // The state between `a` and `b` at t, by cubic Hermite interpolation.
  Sample between(const Sample &a, const Sample &b, double t);
  // The sample of the smallest sigma between `a` and `b`.
  Sample lowestBetween(const Sample &a, const Sample &b);
  // Where the sign changed between `a` and `b`: bisection on the
  // interpolant; then a passage, or true when the minor alone became
  // singular (a new one is to be chosen).
  bool locateSignChange(const Sample &a, const Sample &b);
  // A passage at the sample: the constraints in C's left null vector there.
  void recordPassage(const Sample &at, bool flipped);

  const Equations &equations_;
  Kernels &kernels_;
  const std::vector<double> &params_;
  size_t n_, m_;
  std::vector<double> residuals_, x_;
  std::vector<double> scale_;   // of each row of C: 1 / its length at the start
  size_t rank_ = 0;             // of C at the start
  std::vector<long> dependent_; // the minor's columns (none with redundant rows)
  double reference_ = 0;        // sigma at the start
  bool started_ = false;
  Sample previous_, beforePrevious_;
  bool haveBeforePrevious_ = false;
  bool regularSince_ = true; // C regular again since the last passage
  std::vector<Passage> passages_;
  std::vector<Jump> jumps_;
};

} // namespace mech::mechanics
