// The decorator of InputKernels.h. Not thread-safe: one run owns it.
#include "mechanics/InputKernels.h"

#include <algorithm>
#include <vector>

namespace mech::mechanics {

namespace {

class DrivenKernels final : public Kernels {
public:
  DrivenKernels(std::shared_ptr<Kernels> base, InputFill fill)
      : base_(std::move(base)), fill_(std::move(fill)), p_(base_->params) {
    coordinates = base_->coordinates;
    params = base_->params;
    outputCount = base_->outputCount;
    constraintCount = base_->constraintCount;
    hasReactions = base_->hasReactions;
  }
  size_t inconsistentConstraint() const override { return base_->inconsistentConstraint(); }
  int massMatrix(double t, const double *q, const double *p, double *M) override {
    return base_->massMatrix(t, q, at(t, nullptr, p), M);
  }
  int forcing(double t, const double *x, const double *p, double *f) override {
    return base_->forcing(t, x, at(t, x, p), f);
  }
  int rhs(double t, const double *x, const double *p, double *xdot) override {
    return base_->rhs(t, x, at(t, x, p), xdot);
  }
  int energy(double t, const double *x, const double *p, double *TV) override {
    return base_->energy(t, x, at(t, x, p), TV);
  }
  int outputs(double t, const double *x, const double *p, double *out) override {
    return base_->outputs(t, x, at(t, x, p), out);
  }
  int momentumForce(double t, const double *x, const double *p, double *out) override {
    return base_->momentumForce(t, x, at(t, x, p), out);
  }
  int multipliers(double t, const double *x, const double *p, double *lambda) override {
    return base_->multipliers(t, x, at(t, x, p), lambda);
  }
  int constraints(double t, const double *x, const double *p, double *out) override {
    return base_->constraints(t, x, at(t, x, p), out);
  }
  int jacobianParts(double t, const double *x, const double *p, double *out) override {
    return base_->jacobianParts(t, x, at(t, x, p), out);
  }

private:
  const double *at(double t, const double *x, const double *p) {
    std::copy(p, p + p_.size(), p_.begin());
    fill_(t, x, p_.data());
    return p_.data();
  }

  std::shared_ptr<Kernels> base_;
  InputFill fill_;
  std::vector<double> p_;
};

} // namespace

std::shared_ptr<Kernels> withInputs(std::shared_ptr<Kernels> base, InputFill fill) {
  return std::make_shared<DrivenKernels>(std::move(base), std::move(fill));
}

} // namespace mech::mechanics
