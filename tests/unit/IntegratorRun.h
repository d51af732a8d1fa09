// A run of the integrator with every sample kept, as the integrators'
// tests compare them with exact solutions.
#pragma once

#include "runtime/Integrator.h"

#include <utility>
#include <vector>

namespace mech::test {

struct Run {
  runtime::IntegrationResult result;
  std::vector<double> times;
  std::vector<std::vector<double>> states;
};

inline Run run(const runtime::RightHandSide &f, std::vector<double> x0,
               const runtime::IntegratorOptions &options) {
  Run r;
  const size_t n = x0.size();
  r.result = runtime::integrate(f, std::move(x0), options, [&](double t, const double *x) {
    r.times.push_back(t);
    r.states.emplace_back(x, x + n);
    return true;
  });
  return r;
}

} // namespace mech::test
