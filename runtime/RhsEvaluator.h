// The integrators' only door to the model's right-hand side: every call is
// counted, and a nonzero status or a non-finite derivative becomes a Failure
// that records where it happened, so each stepper checks one boolean.
#pragma once

#include "runtime/Integrator.h"

namespace mech::runtime {

// Why a step could not be taken, and where: an Outcome with its details.
struct Failure {
  Outcome outcome = Outcome::Finished;
  double time = 0;
  int component = -1;
  int status = 0;
  int event = -1; // Stopped, or NonFinite in an event function: which event
};

// The result of a run that ended with `failure` (Outcome::Finished for a
// run that completed), with its statistics.
IntegrationResult resultOf(const Failure &failure, const IntegrationStats &stats);

// The shortest text that reads back as the same double (1.25,
// 0.5000000000000036), as the runtime's messages give times.
std::string formatTime(double t);

// The index of the first NaN or infinite value in x[0, n), or -1.
int firstNonFinite(const double *x, long n);

class RhsEvaluator {
public:
  RhsEvaluator(const RightHandSide &f, long dimension) : f_(f), dimension_(dimension) {}

  // xdot = F(t, x). False when F returns a nonzero status or a component of
  // xdot is not finite; lastFailure() then says which.
  bool operator()(double t, const double *x, double *xdot);

  // False, recording a NonFinite failure at t, when x has a non-finite value.
  bool checkFinite(double t, const double *x);

  long dimension() const { return dimension_; }
  long evaluations() const { return evaluations_; }
  const Failure &lastFailure() const { return failure_; }

private:
  const RightHandSide &f_;
  long dimension_;
  long evaluations_ = 0;
  Failure failure_;
};

} // namespace mech::runtime
