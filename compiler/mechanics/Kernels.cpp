// The programs behind the kernels, and the interpreter back end.
#include "mechanics/Kernels.h"

#include "mechanics/Evaluation.h"

#include <cmath>

namespace mech::mechanics {

KernelPrograms KernelPrograms::build(const Equations &equations, size_t params) {
  KernelPrograms programs;
  size_t n = equations.coordinates.size();
  programs.coordinates = n;
  programs.params = params;
  InputLayout layout{params, n};
  auto inputs = [layout](const sym::SymbolInfo &s) { return layout.index(s); };
  std::vector<sym::Expr> dynamics;
  for (size_t j = 0; j < n; ++j)
    for (size_t k = 0; k < n; ++k)
      dynamics.push_back(equations.M[j][k]);
  for (size_t j = 0; j < n; ++j)
    dynamics.push_back(equations.f[j]);
  programs.dynamics = sym::Program(dynamics, inputs);
  programs.energy = sym::Program({equations.T, equations.V}, inputs);
  programs.outputs = sym::Program(equations.outputs, inputs);
  return programs;
}

int solveLdlt(size_t n, double *M, double *b) {
  double largest = 0;
  for (size_t j = 0; j < n; ++j)
    largest = std::max(largest, std::abs(M[j * n + j]));
  double tolerance = 1e-13 * largest;
  // Factor in place: the strict lower triangle holds L, the diagonal D.
  for (size_t j = 0; j < n; ++j) {
    double d = M[j * n + j];
    for (size_t k = 0; k < j; ++k)
      d -= M[j * n + k] * M[j * n + k] * M[k * n + k];
    if (!(d > tolerance))
      return kStatusSingularMassMatrix;
    M[j * n + j] = d;
    for (size_t i = j + 1; i < n; ++i) {
      double s = M[i * n + j];
      for (size_t k = 0; k < j; ++k)
        s -= M[i * n + k] * M[j * n + k] * M[k * n + k];
      M[i * n + j] = s / d;
    }
  }
  for (size_t i = 0; i < n; ++i)
    for (size_t k = 0; k < i; ++k)
      b[i] -= M[i * n + k] * b[k];
  for (size_t i = 0; i < n; ++i)
    b[i] /= M[i * n + i];
  for (size_t i = n; i-- > 0;)
    for (size_t k = i + 1; k < n; ++k)
      b[i] -= M[k * n + i] * b[k];
  return kStatusOk;
}

namespace {

class InterpretedKernels : public Kernels {
public:
  explicit InterpretedKernels(const KernelPrograms &programs) : programs_(programs) {
    coordinates = programs.coordinates;
    params = programs.params;
    outputCount = programs.outputs.outputs().size();
    size_t n = coordinates;
    inputs_.assign(params + 3 * n + 1, 0.0);
    values_.resize(n * n + n);
  }

  int massMatrix(double t, const double *q, const double *p, double *M) override {
    load(t, q, nullptr, p);
    evaluateDynamics();
    std::copy(values_.begin(), values_.begin() + static_cast<long>(coordinates * coordinates), M);
    return kStatusOk;
  }

  int forcing(double t, const double *x, const double *p, double *f) override {
    load(t, x, x + coordinates, p);
    evaluateDynamics();
    std::copy(values_.begin() + static_cast<long>(coordinates * coordinates), values_.end(), f);
    return kStatusOk;
  }

  int rhs(double t, const double *x, const double *p, double *xdot) override {
    size_t n = coordinates;
    load(t, x, x + n, p);
    evaluateDynamics();
    std::copy(x + n, x + 2 * n, xdot);
    std::copy(values_.begin() + static_cast<long>(n * n), values_.end(), xdot + n);
    return solveLdlt(n, values_.data(), xdot + n);
  }

  int energy(double t, const double *x, const double *p, double *TV) override {
    load(t, x, x + coordinates, p);
    programs_.energy.evaluate(inputs_.data(), TV, scratch_);
    return kStatusOk;
  }

  int outputs(double t, const double *x, const double *p, double *out) override {
    size_t n = coordinates;
    std::vector<double> &xdot = xdot_;
    xdot.resize(2 * n);
    int status = rhs(t, x, p, xdot.data());
    std::copy(xdot.begin() + static_cast<long>(n), xdot.end(),
              inputs_.begin() + static_cast<long>(params + 2 * n));
    programs_.outputs.evaluate(inputs_.data(), out, scratch_);
    return status;
  }

private:
  void load(double t, const double *q, const double *qd, const double *p) {
    size_t n = coordinates;
    std::copy(p, p + params, inputs_.begin());
    std::copy(q, q + n, inputs_.begin() + static_cast<long>(params));
    if (qd != nullptr)
      std::copy(qd, qd + n, inputs_.begin() + static_cast<long>(params + n));
    inputs_[params + 3 * n] = t;
  }
  void evaluateDynamics() { programs_.dynamics.evaluate(inputs_.data(), values_.data(), scratch_); }

  const KernelPrograms &programs_;
  std::vector<double> inputs_, values_, scratch_, xdot_;
};

} // namespace

std::unique_ptr<Kernels> interpretedKernels(const KernelPrograms &programs) {
  return std::make_unique<InterpretedKernels>(programs);
}

std::vector<std::string> coordinatesWithoutInertia(const double *M,
                                                   const std::vector<std::string> &names) {
  size_t n = names.size();
  double largest = 0;
  for (size_t i = 0; i < n * n; ++i)
    largest = std::max(largest, std::abs(M[i]));
  std::vector<std::string> result;
  for (size_t j = 0; j < n; ++j) {
    double row = 0;
    for (size_t k = 0; k < n; ++k)
      row = std::max(row, std::abs(M[j * n + k]));
    if (row <= 1e-14 * largest)
      result.push_back(names[j]);
  }
  return result;
}

std::string describeMissingInertia(const std::vector<std::string> &coordinates) {
  if (coordinates.empty())
    return "";
  std::string text = coordinates.size() > 1 ? ": coordinates " : ": coordinate ";
  for (size_t i = 0; i < coordinates.size(); ++i)
    text += (i ? ", '" : "'") + coordinates[i] + "'";
  return text + (coordinates.size() > 1 ? " have no inertia" : " has no inertia");
}

} // namespace mech::mechanics
