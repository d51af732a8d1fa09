// The simulation driver.
#include "driver/Simulation.h"

#include "driver/SvgPlot.h"
#include "jit/CompiledModel.h"
#include "mechanics/Kernels.h"
#include "sema/Values.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <ostream>
#include <sstream>

namespace mech::driver {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

const char *methodName(runtime::Method method) {
  switch (method) {
  case runtime::Method::Dopri5:
    return "dopri5";
  case runtime::Method::Dop853:
    return "dop853";
  case runtime::Method::Rk4:
    return "rk4";
  }
  return "?";
}

std::string formatValue(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  return buffer;
}

} // namespace

std::optional<SimulationSummary> simulate(LoadedModel &loaded, const SimulationOptions &options,
                                          double deriveSeconds, std::ostream &csv) {
  const mechanics::Equations &eq = loaded.equations();
  const sema::CheckedModel &model = loaded.model();
  size_t n = eq.coordinates.size();
  SimulationSummary summary;
  summary.method = methodName(options.integrator.method);
  summary.deriveSeconds = deriveSeconds;

  std::optional<mechanics::State> state = parseState(loaded, options.init);
  if (!state)
    return std::nullopt;
  std::vector<double> params = loaded.paramValues();

  auto compileStart = Clock::now();
  auto programs = mechanics::KernelPrograms::build(eq, params.size());
  std::unique_ptr<mechanics::Kernels> kernels;
  if (options.backend == Backend::Jit) {
    std::string error;
    kernels = jit::compileKernels(programs, error);
    if (!kernels)
      summary.backendNote = "the JIT is not available (" + error + "); using the interpreter";
  }
  if (!kernels)
    kernels = mechanics::interpretedKernels(programs);
  summary.compileSeconds = since(compileStart);

  std::vector<double> x0(2 * n);
  std::copy(state->q.begin(), state->q.end(), x0.begin());
  std::copy(state->qd.begin(), state->qd.end(), x0.begin() + static_cast<long>(n));

  // The mass matrix must be regular before the first step.
  std::vector<double> xdot(2 * n);
  if (kernels->rhs(state->t, x0.data(), params.data(), xdot.data()) != 0) {
    std::vector<double> M(n * n);
    kernels->massMatrix(state->t, x0.data(), params.data(), M.data());
    loaded.diagnostics().error(
        model.location, "mass matrix is singular at the initial state" +
                            mechanics::describeMissingInertia(
                                mechanics::coordinatesWithoutInertia(M.data(), eq.coordinates)));
    return std::nullopt;
  }

  // Energy drift is meaningful for a conservative model whose T has no
  // parts linear in or free of the velocities (then the Jacobi integral is T + V).
  summary.energyTracked = eq.conservative && eq.T1.isZero() && eq.T0.isZero();
  double energy0 = 0;
  std::vector<double> TV(2);

  // CSV header.
  csv << "t";
  for (const std::string &name : eq.coordinates)
    csv << "," << name;
  for (const std::string &name : eq.coordinates)
    csv << "," << name << "'";
  for (const std::string &name : eq.outputNames)
    csv << "," << name;
  csv << "\n";

  // Series for the plot.
  std::vector<std::string> columns;
  for (const std::string &name : eq.coordinates)
    columns.push_back(name);
  for (const std::string &name : eq.coordinates)
    columns.push_back(name + "'");
  for (const std::string &name : eq.outputNames)
    columns.push_back(name);
  std::vector<std::string> plotted = options.plotVars;
  if (plotted.empty())
    plotted = eq.coordinates;
  std::vector<size_t> plottedColumns;
  for (const std::string &name : plotted) {
    auto found = std::find(columns.begin(), columns.end(), name);
    if (found == columns.end()) {
      loaded.diagnostics().error({}, "--plot-vars: '" + name +
                                         "' is not a coordinate, velocity "
                                         "or output of " +
                                         model.name);
      return std::nullopt;
    }
    plottedColumns.push_back(static_cast<size_t>(found - columns.begin()));
  }
  Plot plot;
  plot.title = model.name;
  for (const std::string &name : plotted)
    plot.series.push_back({name, {}});

  std::vector<double> outputs(eq.outputs.size());
  std::vector<double> row(columns.size());
  auto sample = [&](double t, const double *x) {
    std::copy(x, x + 2 * n, row.begin());
    if (!outputs.empty()) {
      kernels->outputs(t, x, params.data(), outputs.data());
      std::copy(outputs.begin(), outputs.end(), row.begin() + static_cast<long>(2 * n));
    }
    csv << formatValue(t);
    for (double v : row)
      csv << "," << formatValue(v);
    csv << "\n";
    if (!options.plotPath.empty()) {
      plot.x.push_back(t);
      for (size_t i = 0; i < plottedColumns.size(); ++i)
        plot.series[i].values.push_back(row[plottedColumns[i]]);
    }
    if (summary.energyTracked) {
      kernels->energy(t, x, params.data(), TV.data());
      double e = TV[0] + TV[1];
      if (summary.samples == 0)
        energy0 = e;
      else if (energy0 != 0)
        summary.energyDrift =
            std::max(summary.energyDrift, std::abs(e - energy0) / std::abs(energy0));
    }
    ++summary.samples;
    return true;
  };

  runtime::IntegratorOptions integrator = options.integrator;
  integrator.t0 = state->t;
  auto rhs = [&](double t, const double *x, double *dx) {
    return kernels->rhs(t, x, params.data(), dx);
  };
  auto integrateStart = Clock::now();
  runtime::IntegrationResult result = runtime::integrate(rhs, x0, integrator, sample);
  summary.integrateSeconds = since(integrateStart);
  summary.stats = result.stats;
  if (result.outcome != runtime::Outcome::Finished) {
    std::string text = result.message();
    if (result.outcome == runtime::Outcome::RhsFailed &&
        result.rhsStatus == mechanics::kStatusSingularMassMatrix) {
      char buffer[64];
      std::snprintf(buffer, sizeof buffer, "%.6g", result.failureTime);
      text = "mass matrix became singular at t = " + std::string(buffer);
    } else if (result.outcome == runtime::Outcome::NonFinite && result.failureComponent >= 0 &&
               static_cast<size_t>(result.failureComponent) < columns.size()) {
      text += " ('" + columns[static_cast<size_t>(result.failureComponent)] + "')";
    }
    summary.failure = text;
  }
  csv.flush();
  if (!options.plotPath.empty()) {
    std::ofstream svg(options.plotPath);
    svg << renderSvg(plot);
    if (!svg) {
      loaded.diagnostics().error({}, "cannot write '" + options.plotPath + "'");
      return std::nullopt;
    }
  }
  return summary;
}

std::string summaryText(const SimulationSummary &s) {
  std::ostringstream out;
  char line[256];
  std::snprintf(line, sizeof line,
                "method %s: %ld steps accepted, %ld rejected, %ld rhs evaluations, %zu samples\n",
                s.method.c_str(), s.stats.accepted, s.stats.rejected, s.stats.rhsEvaluations,
                s.samples);
  out << line;
  std::snprintf(line, sizeof line, "time: derive %.3f s, compile %.3f s, integrate %.3f s\n",
                s.deriveSeconds, s.compileSeconds, s.integrateSeconds);
  out << line;
  if (s.energyTracked) {
    std::snprintf(line, sizeof line, "energy drift max|E(t) - E(0)|/|E(0)| = %.3g\n",
                  s.energyDrift);
    out << line;
  }
  if (!s.backendNote.empty())
    out << "note: " << s.backendNote << "\n";
  return out.str();
}

} // namespace mech::driver
