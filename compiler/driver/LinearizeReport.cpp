// The text and JSON of `mech linearize` (driver/LinearizeReport.h).
#include "driver/LinearizeReport.h"

#include "driver/AnalysisText.h"
#include "support/Json.h"

#include <algorithm>
#include <ostream>
#include <sstream>

namespace mech::driver {

namespace {

using namespace analysis_text;

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

} // namespace

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

namespace {

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

} // namespace

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

} // namespace mech::driver
