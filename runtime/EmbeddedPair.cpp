// The storage and the stage helper the embedded pairs share.
#include "runtime/EmbeddedPair.h"

namespace mech::runtime {

EmbeddedPair::EmbeddedPair(RhsEvaluator &f, Tolerances tolerances, int stages, int denseTerms)
    : f_(f), tolerances_(tolerances), stages_(f.dimension(), stages), y_(f.dimension()),
      yNew_(f.dimension()), stageState_(f.dimension()), dense_(f.dimension(), denseTerms) {}

bool EmbeddedPair::start(double t, const Eigen::VectorXd &x) {
  y_ = x;
  return stages_.evaluate(f_, 0, t, y_);
}

bool EmbeddedPair::stage(int j, double t, double h, double c, std::span<const double> a) {
  stages_.combine(y_, h, a, stageState_);
  return stages_.evaluate(f_, j, t + c * h, stageState_);
}

} // namespace mech::runtime
