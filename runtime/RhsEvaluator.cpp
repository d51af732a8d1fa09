// Counting and checking calls of the right-hand side.
#include "runtime/RhsEvaluator.h"

#include <charconv>
#include <cmath>

namespace mech::runtime {

IntegrationResult resultOf(const Failure &failure, const IntegrationStats &stats) {
  IntegrationResult result;
  result.outcome = failure.outcome;
  result.failureTime = failure.time;
  result.failureComponent = failure.component;
  result.rhsStatus = failure.status;
  result.event = failure.event;
  result.stats = stats;
  return result;
}

std::string formatTime(double t) {
  char buffer[32];
  auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, t);
  return error == std::errc() ? std::string(buffer, end) : std::string("?");
}

int firstNonFinite(const double *x, long n) {
  for (long i = 0; i < n; ++i)
    if (!std::isfinite(x[i]))
      return static_cast<int>(i);
  return -1;
}

bool RhsEvaluator::operator()(double t, const double *x, double *xdot) {
  ++evaluations_;
  int status = f_(t, x, xdot);
  if (status != 0) {
    failure_ = {Outcome::RhsFailed, t, -1, status};
    return false;
  }
  return checkFinite(t, xdot);
}

bool RhsEvaluator::checkFinite(double t, const double *x) {
  int component = firstNonFinite(x, dimension_);
  if (component < 0)
    return true;
  failure_ = {Outcome::NonFinite, t, component, 0};
  return false;
}

} // namespace mech::runtime
