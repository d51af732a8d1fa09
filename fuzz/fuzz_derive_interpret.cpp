// Fuzz target: the derivation and the interpreter of models that check.
// Each accepted model (small enough for one run: a few coordinates and
// constraints, a short text) has its equations derived, its kernel programs
// built, and every interpreted kernel and `mech eval`'s evaluator run at a
// few states: the model's init state, the origin, and one state drawn from
// the input. Besides crashes, sanitizer reports and internal errors, it
// checks that the mass matrix the kernels return is symmetric.
#include "FuzzSupport.h"

#include "mechanics/Evaluation.h"
#include "mechanics/Kernels.h"
#include "mechanics/Lagrange.h"
#include "sema/Analyzer.h"

#include <cmath>
#include <functional>
#include <vector>

using namespace mech;

namespace {

// Sizes one run can afford: the derivation is polynomial in these.
constexpr size_t kMaxText = 2048;
constexpr size_t kMaxCoordinates = 6;
constexpr size_t kMaxConstraints = 4;

void checkSymmetric(size_t n, const std::vector<double> &M) {
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < i; ++j) {
      double a = M[i * n + j], b = M[j * n + i];
      if (!std::isfinite(a) || !std::isfinite(b))
        continue;
      if (std::abs(a - b) > 1e-9 * (std::abs(a) + std::abs(b)) + 1e-300)
        fuzz::fail("mass matrix is not symmetric", std::to_string(a) + " vs " + std::to_string(b));
    }
}

// Runs every kernel and the evaluator at state x = (q, q') and time t.
void runAt(mechanics::Kernels &kernels, const mechanics::Evaluator &evaluator,
           const std::vector<double> &params, double t, const std::vector<double> &x) {
  size_t n = kernels.coordinates, m = kernels.constraintCount;
  std::vector<double> M(n * n), f(n), xdot(2 * n), TV(2), out(kernels.outputCount), pf(2 * n),
      lambda(m), residuals(2 * m + m * n);
  kernels.massMatrix(t, x.data(), params.data(), M.data());
  checkSymmetric(n, M);
  kernels.forcing(t, x.data(), params.data(), f.data());
  kernels.rhs(t, x.data(), params.data(), xdot.data());
  kernels.energy(t, x.data(), params.data(), TV.data());
  kernels.outputs(t, x.data(), params.data(), out.data());
  kernels.momentumForce(t, x.data(), params.data(), pf.data());
  if (m > 0) {
    kernels.multipliers(t, x.data(), params.data(), lambda.data());
    kernels.constraints(t, x.data(), params.data(), residuals.data());
  }
  mechanics::State state;
  state.t = t;
  state.q.assign(x.begin(), x.begin() + static_cast<long>(n));
  state.qd.assign(x.begin() + static_cast<long>(n), x.end());
  Diagnostics diagnostics;
  evaluator.at(state, diagnostics);
}

// A state drawn from the input's bytes: values of every magnitude, signs
// and zeros, so that singular and far-off states are reached too.
std::vector<double> stateFrom(const std::string &text, size_t count) {
  static const double kValues[] = {0, 1, -1, 0.5, -0.25, 3.14159, 1e-8, 1e8, -1e3, 2};
  std::vector<double> x(count);
  size_t h = std::hash<std::string>{}(text);
  for (size_t i = 0; i < count; ++i) {
    x[i] = kValues[h % 10];
    h = h / 10 + (h % 10) * 0x9e3779b97f4a7c15ull;
  }
  return x;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text = fuzz::inputText(data, size);
  if (size > kMaxText || !fuzz::withinBounds(text))
    return -1;
  sema::Compilation compilation(fuzz::searchPath());
  sema::Analysis analysis =
      sema::analyzeLoaded(compilation, compilation.loadText(fuzz::kInputName, text));
  if (!analysis.ok || analysis.model == nullptr)
    return 0;
  const sema::CheckedModel &model = *analysis.model;
  if (model.coords.size() > kMaxCoordinates || model.constraints.size() > kMaxConstraints)
    return 0;
  auto derivation = mechanics::deriveEquations(model, compilation.diagnostics());
  if (!derivation)
    return 0;
  const mechanics::Equations &equations = derivation->equations;
  std::vector<double> params;
  for (const sema::Param &p : model.params)
    params.push_back(p.value);
  auto programs = mechanics::KernelPrograms::build(equations, params.size());
  auto kernels = mechanics::interpretedKernels(programs);
  mechanics::Evaluator evaluator(equations, params);
  size_t n = kernels->coordinates;
  runAt(*kernels, evaluator, params, 0, model.initialState());
  runAt(*kernels, evaluator, params, 0, std::vector<double>(2 * n, 0.0));
  runAt(*kernels, evaluator, params, 1.5, stateFrom(text, 2 * n));
  return 0;
}
