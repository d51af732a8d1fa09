// Expressions of a model's params, coordinates, velocities and t (in the
// context they were made in), evaluated by the interpreter at one state
// after another: the positions an animation draws, the energy it plots,
// the potential of a landscape.
#pragma once

#include "mechanics/Evaluation.h"
#include "symbolic/Program.h"

#include <algorithm>
#include <vector>

namespace mech::driver {

class StateProgram {
public:
  StateProgram(const std::vector<sym::Expr> &expressions, size_t params, size_t coordinates) {
    layout_.params = params;
    layout_.coordinates = coordinates;
    program_ =
        sym::Program(expressions, [&](const sym::SymbolInfo &s) { return layout_.index(s); });
    inputs_.assign(layout_.size(), 0.0);
    values_.resize(expressions.size());
  }

  // The expressions' values with `params` at t, q and q' (n each; q' null:
  // at rest), in the order given.
  const std::vector<double> &operator()(const std::vector<double> &params, double t,
                                        const double *q, const double *qd) {
    size_t n = layout_.coordinates;
    std::copy(params.begin(), params.end(), inputs_.begin());
    std::copy(q, q + n, inputs_.begin() + static_cast<long>(layout_.params));
    if (qd)
      std::copy(qd, qd + n, inputs_.begin() + static_cast<long>(layout_.params + n));
    inputs_[layout_.time()] = t;
    program_.evaluate(inputs_.data(), values_.data(), scratch_);
    return values_;
  }

private:
  mechanics::InputLayout layout_;
  sym::Program program_;
  std::vector<double> inputs_, values_, scratch_;
};

} // namespace mech::driver
