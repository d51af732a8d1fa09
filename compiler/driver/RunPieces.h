// What one integration of a model needs around its kernels, shared by
// `mech simulate` (driver/Simulation) and `mech sweep` (driver/Sweep): the
// right-hand side that remembers the state it refused, the variational
// integrator's view of the kernels, the energy drift along the samples, and
// why a run failed, in the model's terms.
#pragma once

#include "mechanics/Kernels.h"
#include "mechanics/Lagrange.h"
#include "runtime/Integrator.h"

#include <cmath>
#include <string>
#include <vector>

namespace mech::driver {

// Whether the energy T + V is a first integral worth following: a
// conservative model whose T has no parts linear in or free of the
// velocities (then the Jacobi integral is T + V), and whose contacts'
// surfaces do not move.
bool tracksEnergy(const mechanics::Equations &equations);

// The drift of the energy T + V along the samples, against E(0) and against
// the largest |T| + |V| (which simulate's warning judges, so that E(0) near
// 0 does not flag a small drift).
class EnergyDrift {
public:
  void sample(mechanics::Kernels &kernels, const std::vector<double> &params, double t,
              const double *x);
  double relative() const { return relative_; } // max |E(t) - E(0)| / |E(0)|
  double ofTerms() const { return terms_ > 0 ? change_ / terms_ : change_; }
  // Whether E(0) is 0 or a cancellation of T and V (below 1e-6 of the
  // largest |T| + |V|): then relative() says nothing, and the drift is
  // reported against the terms.
  bool startsNearZero() const { return std::abs(energy0_) <= 1e-6 * terms_; }
  // The drift as reported: against |E(0)|, or against the largest |T| + |V|
  // where E(0) is about 0.
  double reported() const { return startsNearZero() ? ofTerms() : relative(); }
  // The energy jumped by `change` (an impact or a reset): later samples
  // are compared with E(0) + the jumps so far.
  void jumped(double change) { jumps_ += change; }

private:
  bool started_ = false;
  double energy0_ = 0, relative_ = 0, change_ = 0, terms_ = 0, jumps_ = 0;
};

// The state the right-hand side last refused, to say why it was refused.
struct Refusal {
  std::vector<double> state;
  double t = 0;
};

// The right-hand side on the kernels and params (n coordinates),
// remembering the state it last refused in `refusal`.
runtime::RightHandSide recordingRhs(mechanics::Kernels &kernels, const std::vector<double> &params,
                                    size_t n, Refusal &refusal);

// What the variational integrator needs of the kernels (its momenta and
// forces from one kernel call into `buffer`, 2n values), for params that
// live as long as the result.
runtime::LagrangianForm lagrangianFormOf(mechanics::Kernels &kernels,
                                         const std::vector<double> &params, size_t n,
                                         std::vector<double> &buffer);

// Why the run stopped, in the model's terms where possible: the projection
// that failed, the kernel's reason for refusing the state, the event or the
// CSV column (`columns`, after t) that became non-finite.
std::string failureText(const runtime::IntegrationResult &result,
                        const mechanics::Equations &equations, mechanics::Kernels &kernels,
                        const std::vector<double> &params, const Refusal &refusal,
                        const std::vector<std::string> &columns);

} // namespace mech::driver
