// `mech linearize`: M, K, D and A at a state, and for a constrained model A
// in independent coordinates and speeds (mechanics/ConstrainedLinearization).
#include "driver/AnalysisText.h"
#include "driver/Commands.h"
#include "driver/InitialState.h"
#include "driver/LinearizeReport.h"
#include "driver/LinearizeSweep.h"
#include "driver/Pipeline.h"
#include "driver/Session.h"
#include "mechanics/ConstrainedLinearization.h"
#include "mechanics/ConstraintProjection.h"
#include "mechanics/IntegrableConstraints.h"
#include "mechanics/Linearization.h"
#include "mechanics/OutputLinearization.h"
#include "mechanics/Switches.h"
#include "mechanics/TransferFunction.h"
#include "support/Json.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <complex>
#include <ostream>
#include <sstream>

namespace mech::driver {

namespace {

using namespace analysis_text;

// The entries of the linearization that are not finite ("K[x,x] = nan"),
// or "": a model undefined at the state has no linearization there.
std::string nonFiniteLinearization(const mechanics::Equations &eq,
                                   const mechanics::LinearSample &s) {
  mechanics::NonFiniteValues bad;
  bad.check("f", eq.coordinates, s.f);
  auto matrix = [&](const std::string &name, const Matrix &A,
                    const std::vector<std::string> &rows) {
    for (size_t i = 0; i < A.size() && i < rows.size(); ++i)
      for (size_t j = 0; j < A[i].size() && j < eq.coordinates.size(); ++j)
        bad.check(name + "[" + rows[i] + "," + eq.coordinates[j] + "]", A[i][j]);
  };
  matrix("M", s.M, eq.coordinates);
  matrix("K", s.K, eq.coordinates);
  matrix("D", s.D, eq.coordinates);
  std::vector<std::string> constraints;
  for (const mechanics::Equations::Constraint &k : eq.constraints)
    constraints.push_back(k.name);
  matrix("C", s.C, constraints);
  bad.check("Phi", constraints, s.phi);
  return bad.text();
}

std::string trimmedName(const std::string &text) {
  size_t first = text.find_first_not_of(" \t"), last = text.find_last_not_of(" \t");
  return first == std::string::npos ? "" : text.substr(first, last - first + 1);
}

// --tf "U -> Y": U an input, Y one of A's states or an output; the
// transfer function into report.tf. False after reporting an error.
bool transferFunctionOf(const std::string &text, Linearization &report, LoadedModel &loaded) {
  const mechanics::Equations &eq = report.eq;
  Diagnostics &diagnostics = loaded.diagnostics();
  size_t arrow = text.find("->");
  if (arrow == std::string::npos) {
    diagnostics.error({}, "--tf: expected \"INPUT -> OUTPUT\", found '" + text + "'");
    return false;
  }
  report.tfInput = trimmedName(text.substr(0, arrow));
  report.tfOutput = trimmedName(text.substr(arrow + 2));
  if (report.A.empty()) {
    diagnostics.error({}, "--tf: A is not formed at this state (" + report.whyNoA + ")");
    return false;
  }
  std::vector<std::string> inputs;
  for (const mechanics::Equations::Input &u : eq.inputs)
    inputs.push_back(u.name);
  auto input = std::find(inputs.begin(), inputs.end(), report.tfInput);
  if (input == inputs.end()) {
    diagnostics.error(
        {}, "--tf: '" + report.tfInput + "' is not an input of " + eq.model +
                (inputs.empty() ? " (it has none)" : " (its inputs: " + joined(inputs) + ")"));
    return false;
  }
  const size_t u = static_cast<size_t>(input - inputs.begin()), n = report.A.size();
  std::vector<double> b(n), c(n, 0.0);
  for (size_t i = 0; i < n; ++i)
    b[i] = report.B[i][u];
  double d = 0;
  auto state = std::find(report.stateNames.begin(), report.stateNames.end(), report.tfOutput);
  auto output = std::find(eq.outputNames.begin(), eq.outputNames.end(), report.tfOutput);
  if (output == eq.outputNames.end()) // an --output of a bare name, named in parentheses
    output = std::find(eq.outputNames.begin(), eq.outputNames.end(), "(" + report.tfOutput + ")");
  if (state != report.stateNames.end()) {
    c[static_cast<size_t>(state - report.stateNames.begin())] = 1;
  } else if (output != eq.outputNames.end() && !report.Cy.empty()) {
    const size_t y = static_cast<size_t>(output - eq.outputNames.begin());
    c = report.Cy[y], d = report.Dy[y][u];
  } else {
    diagnostics.error({}, "--tf: '" + report.tfOutput + "' is neither a state of A (" +
                              joined(report.stateNames) +
                              ") nor an output (give an expression with --output)");
    return false;
  }
  report.tf = mechanics::transferFunction(report.A, b, c, d);
  return true;
}

// By real part, then imaginary part, smallest first.
std::vector<std::complex<double>> sortedEigenvalues(const Matrix &A) {
  std::vector<std::complex<double>> values = mechanics::eigenvaluesOf(A);
  std::sort(values.begin(), values.end(), [](auto x, auto y) {
    return x.real() != y.real() ? x.real() < y.real() : x.imag() < y.imag();
  });
  return values;
}

// The expressions of --output as outputs of the session's model while one
// command runs (the session gets its additions back after it).
class OutputsForOneCommand {
public:
  OutputsForOneCommand(Session &session, const std::vector<std::string> &texts)
      : session_(session), kept_(session.additions()), active_(!texts.empty()) {
    if (!active_)
      return;
    std::vector<sema::Addition> additions = kept_;
    for (const std::string &text : texts) {
      sema::Addition output;
      // Named by its text; a bare name in parentheses, so that it cannot
      // clash with the declaration it reads (`--output sideways`).
      std::string name = trimmedName(text);
      bool bare = !name.empty() && std::all_of(name.begin(), name.end(), [](char ch) {
        return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
      });
      output.output = bare ? "(" + name + ")" : text;
      output.text = text;
      output.source = "--output";
      additions.push_back(output);
    }
    session_.setAdditions(std::move(additions));
  }
  ~OutputsForOneCommand() {
    if (active_)
      session_.setAdditions(kept_);
  }
  OutputsForOneCommand(const OutputsForOneCommand &) = delete;
  OutputsForOneCommand &operator=(const OutputsForOneCommand &) = delete;

private:
  Session &session_;
  std::vector<sema::Addition> kept_;
  bool active_;
};

// A and B (over (q, q'), or the independent coordinates and speeds with
// constraints), their eigenvalues, and the outputs' C and D. False after
// reporting a --independent choice that does not determine the rest.
bool formMatrices(Linearization &report, const std::vector<double> &params,
                  const mechanics::IndependentChoice &choice,
                  std::optional<mechanics::ReducedLinearization> &reduced, LoadedModel &loaded) {
  const mechanics::Equations &eq = report.eq;
  const mechanics::LinearSample &s = report.s;
  if (eq.constraints.empty()) {
    report.A = mechanics::stateMatrix(s.M, s.K, s.D);
    report.B = mechanics::inputMatrix(s);
    report.stateNames = stateNames(eq, nullptr);
    report.whyNoA = "the mass matrix is singular";
  } else {
    reduced = mechanics::ConstrainedLinearizer(eq, params).at(report.state, choice, report.whyNoA);
    if (!reduced && (!choice.coordinates.empty() || !choice.speeds.empty())) {
      // The user's choice does not determine the rest: theirs to change.
      loaded.diagnostics().error({}, "--independent: " + report.whyNoA + " at this state");
      return false;
    }
    if (reduced) {
      report.reduced = &*reduced;
      report.A = reduced->A;
      report.B = mechanics::inputMatrix(s, &reduced->coordinates, &reduced->speeds);
      report.stateNames = stateNames(eq, &*reduced);
    }
  }
  if (report.A.empty())
    return true;
  report.eigenvalues = sortedEigenvalues(report.A);
  if (eq.outputs.empty())
    return true;
  auto sensitivities = reduced ? mechanics::constrainedSensitivities(s, *reduced)
                               : mechanics::freeSensitivities(s, report.A);
  if (sensitivities) {
    auto [C, D] = mechanics::OutputLinearizer(eq, params).at(report.state, *sensitivities);
    report.Cy = std::move(C), report.Dy = std::move(D);
  }
  return true;
}

} // namespace

int runLinearize(const CommandLine &line, Session &session, const CommandIo &io) {
  std::string at = line.value("--at");
  if (at.empty())
    return io.usageError("linearize: --at \"q=...\" is required");
  if (line.has("--plot") && !line.has("--sweep"))
    return io.usageError("linearize: --plot draws a sweep: give --sweep \"NAME=LO..HI\" too");
  // --output's expressions join the model's outputs for this command only.
  OutputsForOneCommand outputs(session, line.values("--output"));
  if (!session.derive()) {
    session.printDiagnostics(io.err);
    return kExitModelError;
  }
  LoadedModel *loaded = &session.loaded();
  if (!readInputs(*loaded, line.value("--input"))) {
    session.printDiagnostics(io.err);
    return kExitModelError;
  }
  if (line.has("--sweep"))
    return runLinearizeSweep(line, session, io);
  const mechanics::Equations &eq = loaded->equations();
  std::optional<mechanics::IndependentChoice> choice =
      independentChoice(*loaded, line.value("--independent"));
  // A state off the constraints is put onto them first.
  std::vector<std::string> notes;
  std::optional<mechanics::State> state =
      choice ? consistentState(*loaded, at, Velocities::GivenOrInit, notes) : std::nullopt;
  session.printDiagnostics(io.err);
  if (!state)
    return kExitModelError;
  std::vector<double> params = loaded->paramValues(state->t);
  mechanics::Linearizer linearizer(eq, params);
  mechanics::LinearSample s = linearizer.at(*state);
  if (std::string bad = nonFiniteLinearization(eq, s); !bad.empty()) {
    loaded->diagnostics().error(loaded->model().location,
                                "the model is not finite at this state (" + bad +
                                    "): it has no linearization there");
    session.printDiagnostics(io.err);
    return kExitModelError;
  }
  if (std::string redundant = mechanics::redundantMultipliersNote(eq, s); !redundant.empty())
    notes.push_back(redundant);
  for (std::string &note : mechanics::onSwitchNotes(eq, params, *state))
    notes.push_back(std::move(note));
  for (const mechanics::Equations::Constraint &k : eq.constraints)
    if (k.integrable)
      notes.push_back(mechanics::integrableNote(eq, k) +
                      " (its row of C chooses the independent coordinates)");
  // With constraints, the rest is balanced by the constraint forces C^T lambda,
  // whose curvature stiffens (or softens) K.
  mechanics::RestWithConstraints rest = mechanics::restWithConstraints(s);
  Linearization report{eq, *state, s, rest, notes, mechanics::offEquilibrium(s, rest)};
  std::optional<mechanics::ReducedLinearization> reduced;
  if (!formMatrices(report, params, *choice, reduced, *loaded)) {
    session.printDiagnostics(io.err);
    return kExitModelError;
  }
  if (line.has("--tf") && !transferFunctionOf(line.value("--tf"), report, *loaded)) {
    session.printDiagnostics(io.err);
    return kExitModelError;
  }
  io.out << (line.has("--json") ? linearizationJson(report) : linearizationText(report));
  return kExitOk;
}

} // namespace mech::driver
