// `mech linearize`: M, K, D and A at a state, and for a constrained model A
// in independent coordinates and speeds (mechanics/ConstrainedLinearization).
#include "driver/AnalysisText.h"
#include "driver/Commands.h"
#include "driver/InitialState.h"
#include "driver/LinearizeSweep.h"
#include "driver/Pipeline.h"
#include "driver/Session.h"
#include "mechanics/ConstrainedLinearization.h"
#include "mechanics/ConstraintProjection.h"
#include "mechanics/IntegrableConstraints.h"
#include "mechanics/Linearization.h"
#include "mechanics/OutputLinearization.h"
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

// What linearize reports at a state: the sample, the rest balanced by the
// constraints, A (empty when not formed, with the reason) over the named
// state, its eigenvalues, the notes, and whether f (with the constraint
// forces) is not zero there. With constraints, `reduced` says which
// coordinates and speeds are independent.
struct Linearization {
  const mechanics::Equations &eq;
  const mechanics::State &state;
  const mechanics::LinearSample &s;
  const mechanics::RestWithConstraints &rest;
  const std::vector<std::string> &notes;
  bool notAtRest = false;
  const mechanics::ReducedLinearization *reduced = nullptr;
  Matrix A{}, B{};   // B: dx'/du, when the model has inputs
  Matrix Cy{}, Dy{}; // y = Cy x + Dy u for the outputs, when it has any
  std::vector<std::string> stateNames{};
  std::vector<std::complex<double>> eigenvalues{};
  std::string whyNoA{};
  // --tf "U -> Y": the input's and the output's names and their transfer function.
  std::optional<mechanics::TransferFunction> tf{};
  std::string tfInput{}, tfOutput{};
};

std::vector<std::string> names(const mechanics::Equations &eq, const std::vector<size_t> &indices,
                               const std::string &suffix) {
  std::vector<std::string> out;
  for (size_t j : indices)
    out.push_back(eq.coordinates[j] + suffix);
  return out;
}

// "state_space": x' = A x + B u, y = C x + D u with the names of x, u, y.
void stateSpaceJson(JsonWriter &json, const Linearization &r) {
  std::vector<std::string> inputs;
  for (const mechanics::Equations::Input &u : r.eq.inputs)
    inputs.push_back(u.name);
  const size_t states = r.stateNames.size();
  json.key("state_space").beginObject();
  jsonList(json, "states", r.stateNames);
  jsonList(json, "inputs", inputs);
  jsonList(json, "outputs", r.Cy.empty() ? std::vector<std::string>{} : r.eq.outputNames);
  jsonMatrix(json, "A", r.A);
  // Empty matrices keep their shape's other side: B is states x 0 without
  // inputs, C 0 x states without outputs.
  jsonMatrix(json, "B", r.B.empty() ? Matrix(states) : r.B);
  jsonMatrix(json, "C", r.Cy);
  jsonMatrix(json, "D", r.Cy.empty() ? Matrix{} : r.Dy.empty() ? Matrix(r.Cy.size()) : r.Dy);
  json.endObject();
}

void transferFunctionJson(JsonWriter &json, const Linearization &r) {
  const mechanics::TransferFunction &tf = *r.tf;
  json.key("transfer_function").beginObject();
  json.key("input").value(r.tfInput).key("output").value(r.tfOutput);
  jsonList(json, "poles", tf.poles);
  jsonList(json, "zeros", tf.zeros);
  json.key("gain").value(tf.gain).key("identically_zero").value(tf.zero);
  json.key("cancelled").beginArray();
  for (const mechanics::CancelledMode &m : tf.cancelled) {
    json.beginObject().key("pole").beginArray().value(m.pole.real()).value(m.pole.imag());
    json.endArray().key("uncontrollable").value(m.uncontrollable);
    json.key("unobservable").value(m.unobservable).endObject();
  }
  json.endArray().endObject();
}

std::string linearizationJson(const Linearization &r) {
  const mechanics::Equations &eq = r.eq;
  JsonWriter json;
  json.beginObject().key("model").value(eq.model).key("q").beginObject();
  for (size_t j = 0; j < r.state.q.size(); ++j)
    json.key(eq.coordinates[j]).value(r.state.q[j]);
  json.endObject().key("qd").beginObject();
  for (size_t j = 0; j < r.state.qd.size(); ++j)
    json.key(eq.coordinates[j]).value(r.state.qd[j]);
  json.endObject().key("t").value(r.state.t);
  json.key("f").beginArray();
  for (double v : r.s.f)
    json.value(v);
  json.endArray();
  jsonMatrix(json, "M", r.s.M);
  jsonMatrix(json, "K", r.rest.K);
  jsonMatrix(json, "D", r.s.D);
  if (!eq.constraints.empty()) {
    jsonMatrix(json, "C", r.s.C);
    json.key("multipliers").beginObject();
    for (size_t i = 0; i < eq.constraints.size(); ++i)
      json.key(eq.constraints[i].name).value(r.rest.lambda[i]);
    json.endObject();
  }
  if (r.reduced) {
    json.key("independent").beginObject().key("coordinates").beginArray();
    for (const std::string &name : names(eq, r.reduced->coordinates, ""))
      json.value(name);
    json.endArray().key("speeds").beginArray();
    for (const std::string &name : names(eq, r.reduced->speeds, "'"))
      json.value(name);
    json.endArray().key("chosen").value(r.reduced->chosen ? "given" : "pivoting").endObject();
    jsonMatrix(json, "Mr", r.reduced->Mr);
    jsonMatrix(json, "Cr", r.reduced->Cr);
    jsonMatrix(json, "Kr", r.reduced->Kr);
  }
  if (r.A.empty()) {
    json.key("A").null();
    json.key("A_not_formed").value(r.whyNoA);
  } else {
    jsonMatrix(json, "A", r.A);
    json.key("state").beginArray();
    for (const std::string &name : r.stateNames)
      json.value(name);
    json.endArray();
    if (!eq.inputs.empty()) {
      jsonMatrix(json, "B", r.B);
      json.key("inputs").beginArray();
      for (const mechanics::Equations::Input &u : eq.inputs)
        json.value(u.name);
      json.endArray();
    }
    stateSpaceJson(json, r);
    if (r.tf)
      transferFunctionJson(json, r);
    json.key("eigenvalues").beginArray();
    for (auto z : r.eigenvalues)
      json.beginArray().value(z.real()).value(z.imag()).endArray();
    json.endArray();
  }
  json.key("notes").beginArray();
  if (r.notAtRest)
    json.value("not an equilibrium: K and D are the derivatives of f there");
  for (const std::string &note : r.notes)
    json.value(note);
  json.endArray();
  json.endObject();
  return json.str() + "\n";
}

std::string rootList(const std::vector<std::complex<double>> &roots) {
  std::vector<std::string> parts;
  for (auto z : roots)
    parts.push_back(complexNumber(z));
  return parts.empty() ? "none" : joined(parts);
}

void printTransferFunction(std::ostream &out, const Linearization &r) {
  const mechanics::TransferFunction &tf = *r.tf;
  out << "  transfer function " << r.tfInput << " -> " << r.tfOutput << ":";
  if (tf.zero) {
    out << " G(s) = 0 (no mode reaches " << r.tfOutput << " from " << r.tfInput << ")\n";
  } else {
    out << " G(s) = " << number(tf.gain) << " * prod(s - zeros) / prod(s - poles)\n"
        << "    poles: " << rootList(tf.poles) << "\n"
        << "    zeros: " << rootList(tf.zeros) << "\n";
  }
  for (const mechanics::CancelledMode &m : tf.cancelled)
    out << "    cancelled: the pole " << complexNumber(m.pole) << " ("
        << (m.uncontrollable && m.unobservable
                ? "neither moved by " + r.tfInput + " nor seen in " + r.tfOutput
            : m.uncontrollable ? "not moved by " + r.tfInput
                               : "not seen in " + r.tfOutput)
        << ": a pole-zero cancellation)\n";
}

void printA(std::ostream &out, const Linearization &r) {
  if (r.A.empty()) {
    out << "  A: not formed, " << r.whyNoA << "\n";
    return;
  }
  if (r.reduced)
    out << "  independent coordinates: " << joined(names(r.eq, r.reduced->coordinates, ""))
        << "; independent speeds: " << joined(names(r.eq, r.reduced->speeds, "'"))
        << (r.reduced->chosen ? " (as given)"
                              : " (chosen by pivoting on the constraint Jacobian; "
                                "--independent chooses others)")
        << "\n";
  printMatrix(out,
              (r.reduced ? "A, over (" : "A = [[0, I], [-M^-1 K, -M^-1 D]], over (") +
                  joined(r.stateNames) + ")",
              r.A);
  if (!r.eq.inputs.empty()) {
    std::vector<std::string> inputs;
    for (const mechanics::Equations::Input &u : r.eq.inputs)
      inputs.push_back(u.name);
    printMatrix(out,
                (r.reduced ? "B = dx'/du" : "B = [[0], [M^-1 df/du]]") + std::string(", over (") +
                    joined(inputs) + ")",
                r.B);
  }
  if (!r.Cy.empty()) {
    printMatrix(out, "C = dy/dx, the outputs (" + joined(r.eq.outputNames) + ") over the state",
                r.Cy);
    if (!r.eq.inputs.empty())
      printMatrix(out, "D = dy/du", r.Dy);
  }
  if (r.tf)
    printTransferFunction(out, r);
  out << "  eigenvalues of A:";
  for (size_t k = 0; k < r.eigenvalues.size(); ++k)
    out << (k == 0 ? " " : ", ") << complexNumber(r.eigenvalues[k]);
  out << "\n";
  if (!r.reduced)
    return;
  out << "  in the independent speeds u = (" << joined(names(r.eq, r.reduced->speeds, "'"))
      << ") (the equations projected on the directions the constraints allow):\n"
      << "  Mr du' + Cr du + Kr dq = 0, dq over ("
      << joined(names(r.eq, r.reduced->coordinates, "")) << ")\n";
  printMatrix(out, "Mr", r.reduced->Mr);
  printMatrix(out, "Cr", r.reduced->Cr);
  printMatrix(out, "Kr", r.reduced->Kr);
}

std::string linearizationText(const Linearization &r) {
  const mechanics::Equations &eq = r.eq;
  std::ostringstream out;
  out << "Linearization of " << eq.model << " about " << stateText(eq, r.state.q);
  bool moving = std::any_of(r.state.qd.begin(), r.state.qd.end(), [](double v) { return v != 0; });
  for (size_t j = 0; moving && j < eq.coordinates.size(); ++j)
    out << ", " << eq.coordinates[j] << "' = " << number(r.state.qd[j]);
  out << " (t = " << number(r.state.t) << "): M dq'' + D dq' + K dq = 0\n";
  bool constrained = !eq.constraints.empty();
  if (r.notAtRest)
    out << "  note: not an equilibrium (" << (constrained ? "f + C^T lambda" : "f") << " = ["
        << list(r.rest.residual) << "]); K and D are the derivatives of f there\n";
  for (const std::string &note : r.notes)
    out << "  note: " << note << "\n";
  if (constrained) {
    out << "  multipliers balancing f at this configuration (least squares):";
    for (size_t i = 0; i < eq.constraints.size(); ++i)
      out << (i ? ", " : " ") << eq.constraints[i].name << " = " << number(r.rest.lambda[i]);
    out << "\n";
  }
  printMatrix(out, "M", r.s.M);
  printMatrix(out, constrained ? "K = -d(f + C^T lambda)/dq" : "K = -df/dq", r.rest.K);
  printMatrix(out, "D = -df/dq'", r.s.D);
  if (constrained)
    printMatrix(out, "C", r.s.C);
  printA(out, r);
  return out.str();
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

} // namespace

int runLinearize(const CommandLine &line, Session &session, const CommandIo &io) {
  std::string at = line.value("--at");
  if (at.empty())
    return io.usageError("linearize: --at \"q=...\" is required");
  if (line.has("--plot") && !line.has("--sweep"))
    return io.usageError("linearize: --plot draws a sweep: give --sweep \"NAME=LO..HI\" too");
  // --output's expressions join the model's outputs for this command only.
  const std::vector<sema::Addition> kept = session.additions();
  struct Restore {
    Session &session;
    const std::vector<sema::Addition> &kept;
    bool active;
    ~Restore() {
      if (active)
        session.setAdditions(kept);
    }
  } restore{session, kept, line.has("--output")};
  if (line.has("--output")) {
    std::vector<sema::Addition> additions = kept;
    for (const std::string &text : line.values("--output")) {
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
    session.setAdditions(std::move(additions));
  }
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
  for (const mechanics::Equations::Constraint &k : eq.constraints)
    if (k.integrable)
      notes.push_back(mechanics::integrableNote(eq, k) +
                      " (its row of C chooses the independent coordinates)");
  // With constraints, the rest is balanced by the constraint forces C^T lambda,
  // whose curvature stiffens (or softens) K.
  mechanics::RestWithConstraints rest = mechanics::restWithConstraints(s);
  Linearization report{eq, *state, s, rest, notes, mechanics::offEquilibrium(s, rest)};
  std::optional<mechanics::ReducedLinearization> reduced;
  if (eq.constraints.empty()) {
    report.A = mechanics::stateMatrix(s.M, s.K, s.D);
    report.B = mechanics::inputMatrix(s);
    report.stateNames = stateNames(eq, nullptr);
    report.whyNoA = "the mass matrix is singular";
  } else {
    mechanics::ConstrainedLinearizer constrained(eq, params);
    reduced = constrained.at(*state, *choice, report.whyNoA);
    if (!reduced && (!choice->coordinates.empty() || !choice->speeds.empty())) {
      // The user's choice does not determine the rest: theirs to change.
      loaded->diagnostics().error({}, "--independent: " + report.whyNoA + " at this state");
      session.printDiagnostics(io.err);
      return kExitModelError;
    }
    if (reduced) {
      report.reduced = &*reduced;
      report.A = reduced->A;
      report.B = mechanics::inputMatrix(s, &reduced->coordinates, &reduced->speeds);
      report.stateNames = stateNames(eq, &*reduced);
    }
  }
  if (!report.A.empty())
    report.eigenvalues = sortedEigenvalues(report.A);
  if (!report.A.empty() && !eq.outputs.empty()) {
    auto sensitivities = reduced ? mechanics::constrainedSensitivities(s, *reduced)
                                 : mechanics::freeSensitivities(s, report.A);
    if (sensitivities) {
      auto [C, D] = mechanics::OutputLinearizer(eq, params).at(*state, *sensitivities);
      report.Cy = std::move(C), report.Dy = std::move(D);
    }
  }
  if (line.has("--tf") && !transferFunctionOf(line.value("--tf"), report, *loaded)) {
    session.printDiagnostics(io.err);
    return kExitModelError;
  }
  io.out << (line.has("--json") ? linearizationJson(report) : linearizationText(report));
  return kExitOk;
}

} // namespace mech::driver
