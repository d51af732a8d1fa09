// The first derivatives that carry a perturbation of the state across a
// jump, as a return map's variational equations need them (the saltation
// matrix): of an event's function g with respect to q, q' and t, and of the
// event's resets, R(x, t), with respect to x and t. Exact, from the
// symbolic derivatives of the declarations; evaluated on the interpreter
// (once per jump, not per step).
#pragma once

#include "mechanics/Evaluation.h"
#include "mechanics/Lagrange.h"
#include "symbolic/Program.h"

#include <vector>

namespace mech::mechanics {

class JumpJacobians {
public:
  // For the model's equations and its number of params (inputs included).
  JumpJacobians(const Equations &equations, size_t params);

  // Whether event `event`'s g reads accelerations or multipliers (which a
  // jump's derivatives cannot hold fixed): no gradient then.
  bool readsSolution(size_t event) const { return readsSolution_[event]; }
  // At (t, x): dg/dx (2n values) and dg/dt of event `event`.
  void eventGradient(size_t event, double t, const double *x, const std::vector<double> &params,
                     double *gx, double &gt) const;
  // At (t, x): dR/dx (2n x 2n, row-major; the identity's rows where the
  // event resets nothing) and dR/dt (2n) of event `event`'s resets.
  void resetJacobian(size_t event, double t, const double *x, const std::vector<double> &params,
                     double *Rx, double *Rt) const;

private:
  const double *inputs(double t, const double *x, const std::vector<double> &params) const;

  InputLayout layout_;
  std::vector<bool> readsSolution_;
  std::vector<sym::Program> gradients_, resets_; // per event
  std::vector<std::vector<size_t>> targets_;     // per event: the state index of each reset
  mutable std::vector<double> inputs_, scratch_, values_;
};

} // namespace mech::mechanics
