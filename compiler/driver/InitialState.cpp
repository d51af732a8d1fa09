// The start of a simulation, and the wording of the kernels' refusals.
#include "driver/InitialState.h"
#include "support/NumberText.h"

#include "mechanics/ConstraintProjection.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace mech::driver {

namespace {

std::string number(double value) {
  return formatNumber(value, 6);
}

// The largest residual below which a state counts as on the constraints:
// well above the rounding of the residual functions, well below anything
// a user would set on purpose.
constexpr double kOnManifold = 1e-10;
// Changes a projection note names one by one.
constexpr size_t kListedChanges = 8;

// Redundant constraints at the start: the motion is still determined, the
// multipliers are not.
std::string redundantAtStart(const mechanics::Equations &eq, mechanics::Kernels &kernels,
                             const std::vector<double> &params, double t,
                             const std::vector<double> &x) {
  size_t n = eq.coordinates.size(), m = eq.constraints.size();
  std::vector<double> residuals(2 * m + m * n);
  kernels.constraints(t, x.data(), params.data(), residuals.data());
  return mechanics::redundantMultipliersNote(eq, residuals.data() + 2 * m,
                                             mechanics::MultiplierSplit::Pivoted);
}

// What the failure of a projection with held coordinates adds: which were
// held at what, and the residual the others reached.
std::string heldText(const mechanics::Equations &eq, const GivenValues &given,
                     const std::vector<double> &x, const mechanics::ProjectionResult &positions) {
  std::string names;
  for (size_t j = 0; j < given.held.size(); ++j)
    if (given.held[j])
      names += (names.empty() ? "" : ", ") + eq.coordinates[j] + " = " + number(x[j]);
  std::string reached =
      positions.ok ? "their velocities cannot be met"
                   : "the others reach a residual of " + number(positions.residual) + " at best";
  return " with " + names + " held (--hold): " + reached;
}

} // namespace

bool heldCoordinates(LoadedModel &loaded, const std::vector<std::string> &names,
                     GivenValues &given) {
  const sema::CheckedModel &model = loaded.model();
  given.held.assign(model.coords.size(), false);
  bool ok = true;
  for (const std::string &name : names) {
    int found = coordinateIndex(model, name);
    std::vector<int> members = found >= 0 ? std::vector<int>{found} : familyMembers(model, name);
    if (members.empty()) {
      loaded.diagnostics().error({}, "--hold: '" + name + "' is not a coordinate of " + model.name);
      ok = false;
    }
    for (int j : members)
      given.held[static_cast<size_t>(j)] = true;
  }
  return ok;
}

std::string describeFailure(const mechanics::Equations &eq, mechanics::Kernels &kernels,
                            const std::vector<double> &params, int status, double t,
                            const double *x, const std::string &when) {
  size_t n = eq.coordinates.size(), m = eq.constraints.size();
  std::vector<double> M(n * n), residuals(2 * m + m * n);
  kernels.massMatrix(t, x, params.data(), M.data());
  kernels.constraints(t, x, params.data(), residuals.data());
  return mechanics::describeSolveFailure(eq, status, M.data(), residuals.data() + 2 * m, when);
}

bool ontoConstraints(LoadedModel &loaded, mechanics::Kernels &kernels,
                     const std::vector<double> &params, double t, std::vector<double> &x,
                     const GivenValues &given, const std::string &what, bool strict,
                     bool positionsOnly, std::vector<std::string> &notes) {
  const mechanics::Equations &eq = loaded.equations();
  size_t n = eq.coordinates.size();
  if (eq.constraints.empty())
    return true;
  mechanics::ConstraintProjector projector(kernels, params, mechanics::holonomicFlags(eq));
  std::vector<double> before = x;
  std::string failure; // what follows "WHAT violates the constraints"
  if (positionsOnly) {
    mechanics::ProjectionResult positions =
        projector.projectPositions(t, x.data(), given.positionPreferences());
    if (positions.ok && positions.iterations == 0)
      return true;
    if (!positions.ok)
      failure = "and cannot be put onto them (largest residual " + number(positions.residual) + ")";
  } else {
    double residual = projector.residual(t, x.data());
    if (residual <= kOnManifold)
      return true;
    std::string largest = "(largest residual " + number(residual) + ")";
    if (strict) {
      failure = largest + " and --strict-init is given";
    } else {
      bool free = !given.holds();
      mechanics::ProjectionResult positions =
          projector.projectPositions(t, x.data(), given.positionPreferences(), free);
      bool projected =
          positions.ok &&
          projector.projectVelocities(t, x.data(), given.velocityPreferences(), free).ok;
      if (!projected || projector.residual(t, x.data()) > kOnManifold)
        failure = largest + " and cannot be projected onto them" +
                  (free ? "" : heldText(loaded.equations(), given, x, positions));
    }
  }
  if (!failure.empty()) {
    loaded.diagnostics().error(loaded.model().location,
                               what + " violates the constraints " + failure);
    return false;
  }
  // The changes, the first kListedChanges by name (a linkage of many
  // coordinates would fill the screen), the rest counted.
  std::string changes;
  size_t changed = 0;
  for (size_t j = 0; j < 2 * n; ++j)
    if (std::abs(x[j] - before[j]) > 1e-12 * (1 + std::abs(before[j])) &&
        ++changed <= kListedChanges)
      changes += (changes.empty() ? "" : ", ") + eq.coordinates[j % n] + (j < n ? "" : "'") +
                 " = " + number(x[j]) + " (was " + number(before[j]) + ")";
  if (changed > kListedChanges)
    changes += " and " + std::to_string(changed - kListedChanges) + " more";
  if (!changes.empty())
    notes.push_back(what + " was projected onto the constraints: " + changes);
  return true;
}

std::optional<mechanics::State> consistentState(LoadedModel &loaded, const std::string &at,
                                                Velocities velocities,
                                                std::vector<std::string> &notes) {
  GivenValues given;
  std::optional<mechanics::State> state = parseState(loaded, at, &given);
  if (!state)
    return state;
  size_t n = state->q.size();
  for (size_t j = 0; j < n; ++j)
    if (velocities == Velocities::Rest || (velocities == Velocities::Given && !given.velocities[j]))
      state->qd[j] = 0;
  bool atRest = std::all_of(state->qd.begin(), state->qd.end(), [](double v) { return v == 0; }) &&
                velocities != Velocities::GivenOrInit;
  if (loaded.equations().constraints.empty())
    return state;
  std::vector<double> params = loaded.paramValues();
  auto kernels = mechanics::interpretedKernels(loaded.programs());
  std::vector<double> x(state->q);
  x.insert(x.end(), state->qd.begin(), state->qd.end());
  if (!ontoConstraints(loaded, *kernels, params, state->t, x, given, "the state given by --at",
                       false, atRest, notes))
    return std::nullopt;
  std::copy(x.begin(), x.begin() + static_cast<long>(n), state->q.begin());
  std::copy(x.begin() + static_cast<long>(n), x.end(), state->qd.begin());
  return state;
}

std::optional<std::vector<double>> initialState(LoadedModel &loaded, mechanics::Kernels &kernels,
                                                const std::vector<double> &params,
                                                const StartOptions &options, double &t0,
                                                std::vector<std::string> &notes) {
  const mechanics::Equations &eq = loaded.equations();
  const sema::CheckedModel &model = loaded.model();
  size_t n = eq.coordinates.size();
  GivenValues given;
  std::optional<mechanics::State> state = parseState(loaded, options.init, &given, "--init");
  if (!state || !heldCoordinates(loaded, options.hold, given))
    return std::nullopt;
  t0 = state->t;
  std::vector<double> x(2 * n);
  std::copy(state->q.begin(), state->q.end(), x.begin());
  std::copy(state->qd.begin(), state->qd.end(), x.begin() + static_cast<long>(n));
  if (!ontoConstraints(loaded, kernels, params, t0, x, given, "the initial state",
                       options.strictInit, false, notes))
    return std::nullopt;
  if (!eq.constraints.empty())
    if (std::string redundant = redundantAtStart(eq, kernels, params, t0, x); !redundant.empty())
      notes.push_back(redundant);

  std::vector<double> xdot(2 * n);
  if (int status = kernels.rhs(t0, x.data(), params.data(), xdot.data()); status != 0) {
    loaded.diagnostics().error(model.location, describeFailure(eq, kernels, params, status, t0,
                                                               x.data(), "at the initial state"));
    return std::nullopt;
  }
  return x;
}

} // namespace mech::driver
