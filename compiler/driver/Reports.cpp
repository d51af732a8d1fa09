// Formatting of equations and evaluations.
#include "driver/Reports.h"

#include "mechanics/IntegrableConstraints.h"
#include "sema/ModelPrinter.h"
#include "support/Json.h"
#include "symbolic/Print.h"

#include <cmath>
#include <iomanip>
#include <sstream>
#include <unordered_set>

namespace mech::driver {

using mechanics::Equations;
using mechanics::Evaluation;
using sym::toMech;

namespace {

// Whether a number of the DAG (a constant, or the constant part of a sum
// or product) is not finite; each node is visited once.
bool holdsNonFinite(const sym::Expr &e) {
  std::unordered_set<const sym::Node *> seen;
  std::vector<const sym::Node *> stack{e.node()};
  while (!stack.empty()) {
    const sym::Node *n = stack.back();
    stack.pop_back();
    if (!n || !seen.insert(n).second)
      continue;
    if (!std::isfinite(n->num.toDouble()))
      return true;
    stack.insert(stack.end(), n->ops.begin(), n->ops.end());
  }
  return false;
}

} // namespace

std::string nonFiniteConstants(const Equations &eq) {
  std::vector<std::pair<std::string, sym::Expr>> quantities = {{"T", eq.T}, {"V", eq.V}};
  size_t n = eq.coordinates.size();
  for (size_t j = 0; j < n; ++j)
    for (size_t k = 0; k < n; ++k)
      quantities.push_back({"M[" + eq.coordinates[j] + "," + eq.coordinates[k] + "]", eq.M[j][k]});
  for (size_t j = 0; j < n; ++j) {
    quantities.push_back({"Q[" + eq.coordinates[j] + "]", eq.Q[j]});
    quantities.push_back({"Qnc[" + eq.coordinates[j] + "]", eq.Qnc[j]});
    quantities.push_back({"f[" + eq.coordinates[j] + "]", eq.f[j]});
  }
  std::string list;
  size_t count = 0;
  for (const auto &[name, e] : quantities)
    if (e && holdsNonFinite(e) && ++count <= 4)
      list += (list.empty() ? "" : ", ") + name;
  if (count > 4)
    list += " and " + std::to_string(count - 4) + " more";
  if (list.empty())
    return "";
  return "the derived equations hold a number that is not finite (in " + list +
         "): a constant of the model overflows double precision (about 1.8e308); write it with "
         "smaller factors or in other units";
}

std::string forceUnit(const sema::DimInfo &dim) {
  if (!dim.isKnown())
    return "";
  if (dim.dimension == sema::Dimension::force())
    return "N";
  if (dim.dimension == sema::Dimension::energy())
    return "N*m";
  // A rod's multiplier (work over an area) reads best as a stiffness.
  if (auto stiffness = sema::Dimension::force().over(sema::Dimension::length());
      stiffness && dim.dimension == *stiffness)
    return "N/m";
  return dim.dimension.toString();
}

namespace {

std::string unitSuffix(const sema::DimInfo &dim) {
  std::string unit = forceUnit(dim);
  return unit.empty() ? "" : "  [" + unit + "]";
}

// sum_i C_ij lambda_i: the generalized reaction on coordinate j.
sym::Expr reaction(const Equations &eq, size_t j) {
  sym::Expr sum;
  for (size_t i = 0; i < eq.constraints.size(); ++i) {
    sym::Expr term = eq.constraints[i].C[j] * eq.multipliers[i];
    sum = sum ? sum + term : term;
  }
  return sum;
}

// "Q + C^T lambda" on coordinate j, as the right-hand side of an equation.
std::string generalizedForceWithReaction(const Equations &eq, size_t j) {
  if (eq.constraints.empty())
    return toMech(eq.Q[j]);
  return toMech(eq.Q[j] + reaction(eq, j));
}

std::string multiplierUnit(const sema::DimInfo &dim) {
  std::string unit = forceUnit(dim);
  return unit.empty() ? "" : "  [" + unit + "]";
}

std::string coordinateList(const Equations &eq) {
  std::string list;
  for (size_t j = 0; j < eq.coordinates.size(); ++j)
    list += (j ? ", " : "") + eq.coordinates[j];
  return list;
}

} // namespace

std::string whereLines(const std::vector<sym::NamedSubexpression> &where) {
  if (where.empty())
    return "";
  std::string out = "\nwhere (named subexpressions of the large expressions above):\n";
  for (const sym::NamedSubexpression &named : where)
    out += "  " + toMech(named.name) + " = " + toMech(named.definition) + "\n";
  return out;
}

namespace {

// The contacts: each gap, its row C = dphi/dq (the direction of its
// impulses and force) and its restitution.
std::string contactLines(const Equations &eq) {
  if (eq.contacts.empty())
    return "";
  std::ostringstream out;
  out << "\ncontacts (gap phi >= 0; an impact M*(q'+ - q'-) = C^T*Lambda with Newton's law; a "
         "resting contact's force is named after it):\n";
  for (const Equations::Contact &c : eq.contacts) {
    std::string unit = forceUnit(c.gap.multiplierDim);
    out << "  " << c.gap.name << ": phi = " << toMech(c.gap.phi) << ", restitution "
        << toMech(c.restitution) << (unit.empty() ? "" : ", force in " + unit) << "\n";
    for (size_t j = 0; j < eq.coordinates.size(); ++j)
      if (!c.gap.C[j].isZero())
        out << "    C[" << eq.coordinates[j] << "] = " << toMech(c.gap.C[j]) << "\n";
  }
  return out.str();
}

// The frictions: each slip, its row C = ds/dq' (the direction of its
// force), the normal force and the coefficients.
std::string frictionLines(const Equations &eq) {
  if (eq.frictions.empty())
    return "";
  std::ostringstream out;
  out << "\nfrictions (slip s = C*q' + b; slipping, the force -mu_k*N*sign(s)*C^T; sticking, s = 0 "
         "with a force within mu_s*N, named after it):\n";
  for (const Equations::Friction &f : eq.frictions) {
    std::string unit = forceUnit(f.slip.multiplierDim);
    const std::string normal = f.contact < 0
                                   ? toMech(f.normal)
                                   : "the force of contact '" +
                                         eq.contacts[static_cast<size_t>(f.contact)].gap.name +
                                         "' (acting while it rests)";
    out << "  " << f.slip.name << ": s = " << toMech(f.slip.psi) << ", N = " << normal
        << ", mu_s = " << toMech(f.staticCoefficient) << ", mu_k = " << toMech(f.kineticCoefficient)
        << (unit.empty() ? "" : ", force in " + unit) << "\n";
    for (size_t j = 0; j < eq.coordinates.size(); ++j)
      if (!f.slip.C[j].isZero())
        out << "    C[" << eq.coordinates[j] << "] = " << toMech(f.slip.C[j]) << "\n";
  }
  return out.str();
}

} // namespace

std::string equationsText(const Equations &eq) {
  std::ostringstream out;
  size_t n = eq.coordinates.size();
  out << "model " << eq.model << ": " << n << (n == 1 ? " coordinate" : " coordinates") << " ("
      << coordinateList(eq) << ")" << (eq.conservative ? ", conservative" : "") << "\n";
  for (const Equations::Input &u : eq.inputs) {
    std::string unit = unitSuffix(u.dim);
    out << "input " << u.name << (unit.empty() ? "" : " " + unit.substr(2))
        << " (0 unless given with --input)\n";
  }
  out << "\n";
  out << "T = " << toMech(eq.T) << "\n";
  out << "V = " << toMech(eq.V) << "\n";
  if (!eq.D.isZero())
    out << "D = " << toMech(eq.D) << "\n";
  out << "L = " << toMech(eq.L) << "\n\n";
  out << "generalized forces (Q = -dV/dq + Qnc):\n";
  for (size_t j = 0; j < n; ++j)
    out << "  Q[" << eq.coordinates[j] << "] = " << toMech(eq.Q[j]) << unitSuffix(eq.Qdim[j])
        << "\n";
  for (size_t j = 0; j < n; ++j)
    if (!eq.Qnc[j].isZero())
      out << "  Qnc[" << eq.coordinates[j] << "] = " << toMech(eq.Qnc[j]) << unitSuffix(eq.Qdim[j])
          << "\n";
  out << "\nmass matrix M:\n";
  for (size_t j = 0; j < n; ++j)
    for (size_t k = j; k < n; ++k)
      if (!eq.M[j][k].isZero() || j == k)
        out << "  M[" << eq.coordinates[j] << ", " << eq.coordinates[k]
            << "] = " << toMech(eq.M[j][k]) << "\n";
  out << "\nforcing f (M*q'' = f):\n";
  for (size_t j = 0; j < n; ++j)
    out << "  f[" << eq.coordinates[j] << "] = " << toMech(eq.f[j]) << "\n";
  if (eq.constraints.empty()) {
    out << "\nLagrange's equations, d/dt(dT/dq') - dT/dq = Q:\n";
    for (size_t j = 0; j < n; ++j)
      out << "  " << eq.coordinates[j] << ": " << toMech(eq.lhs[j]) << " = " << toMech(eq.Q[j])
          << "\n";
    return out.str() + contactLines(eq) + frictionLines(eq) + whereLines(eq.where);
  }
  out << "\nconstraints (Phi = lhs - rhs = 0; C*q'' = gamma; each multiplier is named after "
         "its constraint):\n";
  for (const Equations::Constraint &k : eq.constraints) {
    out << "  " << k.name << ": "
        << (k.holonomic    ? "holonomic"
            : k.integrable ? "integrable"
                           : "nonholonomic")
        << ", Phi = " << toMech(k.phi) << multiplierUnit(k.multiplierDim) << "\n";
    if (k.integrable)
      out << "    " << mechanics::integrableNote(eq, k) << "\n";
    for (size_t j = 0; j < n; ++j)
      if (!k.C[j].isZero())
        out << "    C[" << eq.coordinates[j] << "] = " << toMech(k.C[j]) << "\n";
    out << "    gamma = " << toMech(k.gamma) << "\n";
  }
  out << "\nLagrange's equations of the first kind, d/dt(dT/dq') - dT/dq = Q + C^T*lambda:\n";
  for (size_t j = 0; j < n; ++j)
    out << "  " << eq.coordinates[j] << ": " << toMech(eq.lhs[j]) << " = "
        << generalizedForceWithReaction(eq, j) << "\n";
  return out.str() + contactLines(eq) + frictionLines(eq) + whereLines(eq.where);
}

std::string equationsJson(const Equations &eq) {
  JsonWriter json;
  size_t n = eq.coordinates.size();
  auto byCoordinate = [&](const std::vector<sym::Expr> &list) {
    json.beginObject();
    for (size_t j = 0; j < n; ++j)
      json.key(eq.coordinates[j]).value(toMech(list[j]));
    json.endObject();
  };
  json.beginObject();
  json.key("model").value(eq.model);
  json.key("coordinates").beginArray();
  for (const std::string &name : eq.coordinates)
    json.value(name);
  json.endArray();
  json.key("inputs").beginArray();
  for (const Equations::Input &u : eq.inputs)
    json.value(u.name);
  json.endArray();
  json.key("T").value(toMech(eq.T));
  json.key("V").value(toMech(eq.V));
  json.key("D").value(toMech(eq.D));
  json.key("L").value(toMech(eq.L));
  json.key("Q");
  byCoordinate(eq.Q);
  json.key("Qnc");
  byCoordinate(eq.Qnc);
  json.key("Q_units").beginObject();
  for (size_t j = 0; j < n; ++j) {
    json.key(eq.coordinates[j]);
    std::string unit = forceUnit(eq.Qdim[j]);
    unit.empty() ? json.null() : json.value(unit);
  }
  json.endObject();
  json.key("mass_matrix").beginArray();
  for (size_t j = 0; j < n; ++j) {
    json.beginArray();
    for (size_t k = 0; k < n; ++k)
      json.value(toMech(eq.M[j][k]));
    json.endArray();
  }
  json.endArray();
  json.key("forcing").beginArray();
  for (size_t j = 0; j < n; ++j)
    json.value(toMech(eq.f[j]));
  json.endArray();
  json.key("equations");
  json.beginObject();
  for (size_t j = 0; j < n; ++j)
    json.key(eq.coordinates[j])
        .value(toMech(eq.lhs[j]) + " = " + generalizedForceWithReaction(eq, j));
  json.endObject();
  json.key("constraints").beginArray();
  for (const Equations::Constraint &k : eq.constraints) {
    json.beginObject();
    json.key("name").value(k.name);
    json.key("holonomic").value(k.holonomic);
    json.key("integrable").value(k.integrable);
    json.key("phi").value(toMech(k.phi));
    json.key("jacobian");
    byCoordinate(k.C);
    json.key("gamma").value(toMech(k.gamma));
    json.key("multiplier_unit");
    std::string unit = forceUnit(k.multiplierDim);
    unit.empty() ? json.null() : json.value(unit);
    json.endObject();
  }
  json.endArray();
  json.key("T2").value(toMech(eq.T2));
  json.key("T1").value(toMech(eq.T1));
  json.key("T0").value(toMech(eq.T0));
  json.key("conservative").value(eq.conservative);
  // The names the expressions above use, each defined before it is used.
  json.key("where").beginObject();
  for (const sym::NamedSubexpression &named : eq.where)
    json.key(toMech(named.name)).value(toMech(named.definition));
  json.endObject();
  json.endObject();
  return json.str() + "\n";
}

std::string equationsLatex(const Equations &eq) {
  std::ostringstream out;
  size_t n = eq.coordinates.size();
  out << "% Lagrange's equations of " << eq.model << "\n";
  out << "\\begin{align}\n";
  out << "T &= " << sym::toLatex(eq.T) << " \\\\\n";
  out << "V &= " << sym::toLatex(eq.V) << " \\\\\n";
  for (size_t j = 0; j < n; ++j) {
    sym::Expr right = eq.Q[j];
    if (!eq.constraints.empty())
      right = right + reaction(eq, j);
    out << sym::toLatex(eq.lhs[j]) << " &= " << sym::toLatex(right)
        << (j + 1 < n || !eq.where.empty() ? " \\\\\n" : "\n");
  }
  // The names used above: x_{1} &= ..., in dependency order.
  for (size_t i = 0; i < eq.where.size(); ++i)
    out << sym::toLatex(eq.where[i].name) << " &= " << sym::toLatex(eq.where[i].definition)
        << (i + 1 < eq.where.size() ? " \\\\\n" : "\n");
  out << "\\end{align}\n";
  return out.str();
}

std::string eomDump(const Equations &eq) {
  std::ostringstream out;
  out << equationsText(eq);
  out << "\nT2 = " << toMech(eq.T2) << "\nT1 = " << toMech(eq.T1) << "\nT0 = " << toMech(eq.T0)
      << "\nexplicit t in L: " << (eq.hasExplicitTime ? "yes" : "no")
      << "\nconservative: " << (eq.conservative ? "yes" : "no") << "\n";
  for (size_t i = 0; i < eq.outputs.size(); ++i)
    out << "output " << eq.outputNames[i] << " = " << toMech(eq.outputs[i]) << "\n";
  return out.str();
}

namespace {

std::string number(double value) {
  if (value == 0)
    value = 0; // no -0 in reports
  return std::isfinite(value) ? sema::formatNumber(value) : std::string("undefined");
}

} // namespace

std::string evaluationText(const Equations &eq, const Evaluation &e) {
  std::ostringstream out;
  size_t n = eq.coordinates.size();
  out << eq.model << " at t = " << number(e.state.t) << "\n";
  size_t width = 12;
  for (const std::string &name : eq.coordinates)
    width = std::max(width, name.size() + 2);
  out << "  " << std::left << std::setw(static_cast<int>(width)) << "coordinate" << std::setw(24)
      << "q" << std::setw(24) << "q'" << std::setw(24) << "q''" << std::setw(24) << "Q"
      << "\n";
  for (size_t j = 0; j < n; ++j)
    out << "  " << std::setw(static_cast<int>(width)) << eq.coordinates[j] << std::setw(24)
        << number(e.state.q[j]) << std::setw(24) << number(e.state.qd[j]) << std::setw(24)
        << (e.qdd ? number((*e.qdd)[j]) : "undefined") << std::setw(24) << number(e.Q[j]) << "\n";
  out << std::right;
  out << "  T = " << number(e.T) << ", V = " << number(e.V) << ", T + V = " << number(e.T + e.V)
      << "\n";
  bool nonconservative = false;
  for (double x : e.Qnc)
    nonconservative = nonconservative || x != 0;
  if (nonconservative) {
    out << "  Qnc:";
    for (size_t j = 0; j < n; ++j)
      out << " " << eq.coordinates[j] << " = " << number(e.Qnc[j]) << (j + 1 < n ? "," : "");
    out << "\n";
  }
  out << "  M = [";
  for (size_t j = 0; j < n; ++j) {
    out << (j ? ", [" : "[");
    for (size_t k = 0; k < n; ++k)
      out << (k ? ", " : "") << number(e.M[j][k]);
    out << "]";
  }
  out << "]\n";
  for (size_t i = 0; i < e.lambda.size(); ++i)
    out << "  multiplier " << eq.constraints[i].name << " = " << number(e.lambda[i])
        << multiplierUnit(eq.constraints[i].multiplierDim) << ", residual "
        << number(e.constraintResiduals[i]) << "\n";
  if (!e.reaction.empty()) {
    out << "  reaction C^T*lambda:";
    for (size_t j = 0; j < n; ++j)
      out << " " << eq.coordinates[j] << " = " << number(e.reaction[j]) << (j + 1 < n ? "," : "");
    out << "\n";
  }
  for (size_t i = 0; i < e.outputs.size(); ++i)
    out << "  " << eq.outputNames[i] << " = " << number(e.outputs[i]) << "\n";
  for (const std::string &note : e.notes)
    out << "  note: " << note << "\n";
  return out.str();
}

std::string evaluationJson(const Equations &eq, const Evaluation &e) {
  JsonWriter json;
  size_t n = eq.coordinates.size();
  auto byCoordinate = [&](const std::vector<double> &values) {
    json.beginObject();
    for (size_t j = 0; j < n; ++j)
      json.key(eq.coordinates[j]).value(values[j]);
    json.endObject();
  };
  json.beginObject();
  json.key("model").value(eq.model);
  json.key("t").value(e.state.t);
  json.key("q");
  byCoordinate(e.state.q);
  json.key("qd");
  byCoordinate(e.state.qd);
  json.key("qdd");
  if (e.qdd)
    byCoordinate(*e.qdd);
  else
    json.null();
  json.key("Q");
  byCoordinate(e.Q);
  json.key("Qnc");
  byCoordinate(e.Qnc);
  json.key("T").value(e.T);
  json.key("V").value(e.V);
  json.key("energy").value(e.T + e.V);
  json.key("mass_matrix").beginArray();
  for (size_t j = 0; j < n; ++j) {
    json.beginArray();
    for (size_t k = 0; k < n; ++k)
      json.value(e.M[j][k]);
    json.endArray();
  }
  json.endArray();
  json.key("lambda").beginObject();
  for (size_t i = 0; i < e.lambda.size(); ++i)
    json.key(eq.constraints[i].name).value(e.lambda[i]);
  json.endObject();
  json.key("reaction");
  if (e.reaction.empty())
    json.beginObject().endObject();
  else
    byCoordinate(e.reaction);
  json.key("outputs").beginObject();
  for (size_t i = 0; i < e.outputs.size(); ++i)
    json.key(eq.outputNames[i]).value(e.outputs[i]);
  json.endObject();
  json.key("notes").beginArray();
  for (const std::string &note : e.notes)
    json.value(note);
  json.endArray();
  json.endObject();
  return json.str() + "\n";
}

} // namespace mech::driver
