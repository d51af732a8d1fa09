// Event functions on the interpreter.
#include "mechanics/EventFunctions.h"

#include <algorithm>

namespace mech::mechanics {

EventFunctions::EventFunctions(const Equations &equations, Kernels &kernels,
                               const std::vector<double> &params, InputFill fill)
    : kernels_(kernels), params_(params),
      fill_(std::move(fill)), layout_{params.size(), equations.coordinates.size(),
                                      equations.constraints.size()},
      count_(equations.events.size()) {
  std::vector<sym::Expr> g;
  for (const Equations::Event &e : equations.events)
    g.push_back(e.g);
  program_ = sym::Program(g, [this](const sym::SymbolInfo &s) { return layout_.index(s); });
  const size_t n = layout_.coordinates, accelerations = layout_.params + 2 * n;
  for (const sym::Instruction &i : program_.instructions()) {
    if (i.op != sym::Instruction::Op::Input)
      continue;
    needsAccelerations_ =
        needsAccelerations_ || (i.first >= accelerations && i.first < accelerations + n);
    needsMultipliers_ = needsMultipliers_ || i.first > layout_.time();
  }
  inputs_.assign(layout_.size(), 0.0);
  xdot_.resize(2 * n);
}

int EventFunctions::operator()(double t, const double *x, double *g) {
  const size_t n = layout_.coordinates;
  std::copy(params_.begin(), params_.end(), inputs_.begin());
  if (fill_)
    fill_(t, x, inputs_.data());
  std::copy(x, x + 2 * n, inputs_.begin() + static_cast<long>(layout_.params));
  inputs_[layout_.time()] = t;
  // The kernels read the parameters they are given, the inputs' values at t
  // included (the first params entries of inputs_).
  if (needsAccelerations_) {
    if (int status = kernels_.rhs(t, x, inputs_.data(), xdot_.data()); status != kStatusOk)
      return status;
    std::copy(xdot_.begin() + static_cast<long>(n), xdot_.end(),
              inputs_.begin() + static_cast<long>(layout_.params + 2 * n));
  }
  if (needsMultipliers_)
    if (int status =
            kernels_.multipliers(t, x, inputs_.data(), inputs_.data() + layout_.time() + 1);
        status != kStatusOk)
      return status;
  program_.evaluate(inputs_.data(), g, scratch_);
  return kStatusOk;
}

} // namespace mech::mechanics
