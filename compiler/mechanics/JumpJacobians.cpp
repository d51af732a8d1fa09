// The derivatives of the events' functions and resets (mechanics/JumpJacobians.h).
#include "mechanics/JumpJacobians.h"

#include "symbolic/Diff.h"

#include <algorithm>

namespace mech::mechanics {

namespace {

// d e/dq (n), d e/dq' (n), d e/dt, appended to `out`.
void appendGradient(const sym::Expr &e, const std::vector<sym::Context::Coordinate> &q,
                    sym::Context &c, std::vector<sym::Expr> &out) {
  for (const sym::Context::Coordinate &k : q)
    out.push_back(sym::partial(k.q)(e));
  for (const sym::Context::Coordinate &k : q)
    out.push_back(sym::partial(k.qd)(e));
  out.push_back(sym::partial(c.time())(e));
}

} // namespace

JumpJacobians::JumpJacobians(const Equations &equations, size_t params)
    : layout_{params, equations.coordinates.size(), equations.constraints.size()} {
  const size_t n = layout_.coordinates;
  sym::Context &c = equations.T.context();
  std::vector<sym::Context::Coordinate> q;
  for (size_t k = 0; k < n; ++k)
    q.push_back(c.coordinate(equations.coordinates[k], static_cast<int>(k)));
  auto index = [this](const sym::SymbolInfo &s) { return layout_.index(s); };
  for (const Equations::Event &e : equations.events) {
    bool reads = e.g.has(sym::kHasAcceleration | sym::kHasMultiplier);
    readsSolution_.push_back(reads);
    std::vector<sym::Expr> gradient;
    if (!reads)
      appendGradient(e.g, q, c, gradient);
    gradients_.emplace_back(gradient, index);
    std::vector<sym::Expr> resets;
    std::vector<size_t> targets;
    for (const Equations::Reset &r : e.resets) {
      appendGradient(r.value, q, c, resets);
      targets.push_back(r.coordinate + (r.order == 1 ? n : 0));
    }
    resets_.emplace_back(resets, index);
    targets_.push_back(std::move(targets));
  }
  inputs_.assign(layout_.size(), 0.0);
}

const double *JumpJacobians::inputs(double t, const double *x,
                                    const std::vector<double> &params) const {
  return layout_.fill(inputs_, t, x, params);
}

void JumpJacobians::eventGradient(size_t event, double t, const double *x,
                                  const std::vector<double> &params, double *gx, double &gt) const {
  const size_t N = 2 * layout_.coordinates;
  values_.resize(N + 1);
  gradients_[event].evaluate(inputs(t, x, params), values_.data(), scratch_);
  std::copy(values_.begin(), values_.begin() + static_cast<long>(N), gx);
  gt = values_[N];
}

void JumpJacobians::resetJacobian(size_t event, double t, const double *x,
                                  const std::vector<double> &params, double *Rx, double *Rt) const {
  const size_t N = 2 * layout_.coordinates;
  std::fill(Rx, Rx + N * N, 0.0);
  std::fill(Rt, Rt + N, 0.0);
  for (size_t i = 0; i < N; ++i)
    Rx[i * N + i] = 1;
  const std::vector<size_t> &targets = targets_[event];
  values_.resize(targets.size() * (N + 1));
  resets_[event].evaluate(inputs(t, x, params), values_.data(), scratch_);
  for (size_t j = 0; j < targets.size(); ++j) {
    const double *row = values_.data() + j * (N + 1);
    std::copy(row, row + N, Rx + targets[j] * N);
    Rt[targets[j]] = row[N];
  }
}

} // namespace mech::mechanics
