// The start of a simulation, and the wording of the kernels' refusals.
#include "driver/InitialState.h"

#include "mechanics/ConstraintProjection.h"

#include <cmath>
#include <cstdio>

namespace mech::driver {

namespace {

std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

// The largest residual below which a state counts as on the constraints:
// well above the rounding of the residual functions, well below anything
// a user would set on purpose.
constexpr double kOnManifold = 1e-10;

} // namespace

std::string describeFailure(const mechanics::Equations &eq, mechanics::Kernels &kernels,
                            const std::vector<double> &params, int status, double t,
                            const double *x, const std::string &when) {
  size_t n = eq.coordinates.size(), m = eq.constraints.size();
  std::vector<double> M(n * n), residuals(2 * m + m * n);
  kernels.massMatrix(t, x, params.data(), M.data());
  kernels.constraints(t, x, params.data(), residuals.data());
  return mechanics::describeSolveFailure(eq, status, M.data(), residuals.data() + 2 * m, when);
}

std::optional<std::vector<double>> initialState(LoadedModel &loaded, mechanics::Kernels &kernels,
                                                const std::vector<double> &params,
                                                const StartOptions &options, double &t0,
                                                std::vector<std::string> &notes) {
  const mechanics::Equations &eq = loaded.equations();
  const sema::CheckedModel &model = loaded.model();
  size_t n = eq.coordinates.size(), m = eq.constraints.size();
  std::vector<bool> given;
  std::optional<mechanics::State> state = parseState(loaded, options.init, &given, "--init");
  if (!state)
    return std::nullopt;
  t0 = state->t;
  std::vector<double> x(2 * n);
  std::copy(state->q.begin(), state->q.end(), x.begin());
  std::copy(state->qd.begin(), state->qd.end(), x.begin() + static_cast<long>(n));

  if (m > 0) {
    std::vector<bool> holonomic;
    for (const auto &k : eq.constraints)
      holonomic.push_back(k.holonomic);
    mechanics::ConstraintProjector projector(kernels, params, holonomic);
    double residual = projector.residual(t0, x.data());
    if (residual > kOnManifold) {
      if (options.strictInit) {
        loaded.diagnostics().error(model.location,
                                   "the initial state violates the constraints (largest "
                                   "residual " +
                                       number(residual) + ") and --strict-init is given");
        return std::nullopt;
      }
      std::vector<double> before = x;
      mechanics::ProjectionResult positions = projector.projectPositions(t0, x.data(), given);
      mechanics::ProjectionResult velocities = projector.projectVelocities(t0, x.data());
      if (!positions.ok || !velocities.ok || projector.residual(t0, x.data()) > kOnManifold) {
        loaded.diagnostics().error(model.location,
                                   "the initial state violates the constraints (largest residual " +
                                       number(residual) + ") and cannot be projected onto them");
        return std::nullopt;
      }
      std::string changes;
      for (size_t j = 0; j < 2 * n; ++j)
        if (std::abs(x[j] - before[j]) > 1e-12 * (1 + std::abs(before[j])))
          changes += (changes.empty() ? "" : ", ") + eq.coordinates[j % n] + (j < n ? "" : "'") +
                     " = " + number(x[j]) + " (was " + number(before[j]) + ")";
      notes.push_back("the initial state was projected onto the constraints: " + changes);
    }
  }

  std::vector<double> xdot(2 * n);
  if (int status = kernels.rhs(t0, x.data(), params.data(), xdot.data()); status != 0) {
    loaded.diagnostics().error(model.location, describeFailure(eq, kernels, params, status, t0,
                                                               x.data(), "at the initial state"));
    return std::nullopt;
  }
  return x;
}

} // namespace mech::driver
