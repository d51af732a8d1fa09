// The runtime's constraint projection on a model's compiled kernels, and
// the reports of constraint trouble in the model's names.
#include "mechanics/ConstraintProjection.h"

namespace mech::mechanics {

size_t KernelSystem::coordinates() const {
  return kernels_.coordinates;
}
size_t KernelSystem::constraintCount() const {
  return kernels_.constraintCount;
}
bool KernelSystem::holonomic(size_t i) const {
  return holonomic_[i];
}
void KernelSystem::constraints(double t, const double *x, double *out) {
  kernels_.constraints(t, x, params_.data(), out);
}
void KernelSystem::massMatrix(double t, const double *x, double *M) {
  kernels_.massMatrix(t, x, params_.data(), M);
}
void KernelSystem::forcing(double t, const double *x, double *f) {
  kernels_.forcing(t, x, params_.data(), f);
}

ConstraintProjector::ConstraintProjector(Kernels &kernels, const std::vector<double> &params,
                                         std::vector<bool> holonomic)
    : system_(kernels, params, std::move(holonomic)), projector_(system_) {}

const double *ConstraintProjector::onConstraints(double t, const double *x,
                                                 std::vector<double> &buffer, double &before) {
  before = residual(t, x);
  if (before <= 0)
    return x;
  buffer.assign(x, x + 2 * system_.coordinates());
  return project(t, buffer.data()) ? buffer.data() : x;
}

namespace {

std::string quotedList(const std::vector<std::string> &names) {
  std::string text;
  for (size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + ("'" + names[i] + "'");
  return text;
}

} // namespace

std::string redundantConstraints(const Equations &eq, const double *C) {
  std::vector<std::string> names;
  for (const Equations::Constraint &k : eq.constraints)
    names.push_back(k.name);
  return quotedList(dependentConstraints(C, names.size(), eq.coordinates.size(), names));
}

std::string redundantMultipliersNote(const Equations &eq, const double *C, MultiplierSplit split) {
  std::string redundant = redundantConstraints(eq, C);
  if (redundant.empty())
    return "";
  return "constraints " + redundant +
         " are redundant here (their rows of C are dependent): only the reaction C^T lambda "
         "is determined, and the multipliers shown are " +
         (split == MultiplierSplit::LeastNorm
              ? "its smallest (least-norm) split"
              : "the split in which the constraints that a pivoted factorization finds "
                "dependent on the others carry none");
}

std::vector<bool> holonomicFlags(const Equations &eq) {
  std::vector<bool> holonomic;
  for (const Equations::Constraint &k : eq.constraints)
    holonomic.push_back(k.holonomic);
  return holonomic;
}

std::string describeSolveFailure(const Equations &eq, int status, const double *M, const double *C,
                                 const std::string &when) {
  size_t n = eq.coordinates.size(), m = eq.constraints.size();
  if (status == kStatusRedundantConstraints) {
    std::vector<std::string> names;
    for (const auto &k : eq.constraints)
      names.push_back(k.name);
    std::vector<std::string> dependent = dependentConstraints(C, m, n, names);
    if (dependent.empty())
      return "the constraints are nearly dependent " + when +
             " (their Jacobian is ill-conditioned)";
    return (dependent.size() == 1 ? "constraint " : "constraints ") + quotedList(dependent) +
           (dependent.size() == 1 ? " is" : " are") + " redundant or conflicting " + when +
           " (their rows of the constraint Jacobian are linearly dependent)";
  }
  return describeMassMatrixFault(M, C, m, eq.coordinates, when);
}

} // namespace mech::mechanics
