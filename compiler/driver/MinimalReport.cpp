// The text and JSON of `mech equations --minimal` (driver/MinimalReport.h).
#include "driver/MinimalReport.h"

#include "driver/AnalysisText.h"
#include "driver/Reports.h"
#include "support/Json.h"
#include "symbolic/Print.h"

#include <algorithm>
#include <sstream>

namespace mech::driver {

using sym::toMech;

namespace {

std::vector<std::string> speedNames(const mechanics::Equations &eq,
                                    const std::vector<size_t> &indices) {
  std::vector<std::string> names;
  for (size_t j : indices)
    names.push_back(eq.coordinates[j] + "'");
  return names;
}

// Where the independent speeds come from: the user, or pivoting at a
// configuration (what C, and so the choice, depends on).
std::string choiceText(const MinimalReport &r) {
  if (r.chosen)
    return "as given with --independent";
  std::string at = analysis_text::stateText(r.eq, r.state.q);
  if (r.state.t != 0)
    at += ", t = " + analysis_text::number(r.state.t);
  return "chosen by pivoting on the constraint Jacobian at the model's init configuration, " + at +
         "; --independent chooses others";
}

std::string header(const MinimalReport &r) {
  const mechanics::Equations &eq = r.eq;
  std::vector<std::string> constraints;
  for (const mechanics::Equations::Constraint &k : eq.constraints)
    constraints.push_back(k.name);
  size_t n = eq.coordinates.size(), m = constraints.size();
  std::ostringstream out;
  out << "model " << eq.model << ": " << n << (n == 1 ? " coordinate (" : " coordinates (")
      << analysis_text::joined(eq.coordinates) << "), " << m
      << (m == 1 ? " constraint (" : " constraints (") << analysis_text::joined(constraints)
      << ")\n"
      << "independent speeds u = (" << analysis_text::joined(speedNames(eq, r.minimal.independent))
      << "), dependent " << analysis_text::joined(speedNames(eq, r.minimal.dependent)) << " ("
      << choiceText(r) << ")\n";
  const std::vector<sym::NamedSubexpression> &where = r.minimal.where;
  if (!where.empty())
    out << "note: the expressions too large to print whole (over "
        << analysis_text::number(sym::kMaxDisplayedTree) << " nodes as a tree) use " << where.size()
        << " named subexpressions, " << toMech(where.front().name) << " to "
        << toMech(where.back().name) << ", defined under `where` at the end\n";
  return out.str();
}

// The equation of independent speed `a`: M_r u' written out, or where M_r
// is printed through names, with the entries' names (the upper triangle's).
std::string equation(const MinimalReport &r, const std::vector<std::string> &u, size_t a) {
  const mechanics::MinimalEquations &m = r.minimal;
  if (!m.lhs.empty())
    return toMech(m.lhs[a]) + " = " + toMech(m.fr[a]);
  std::string lhs;
  for (size_t b = 0; b < u.size(); ++b)
    if (!m.Mr[a][b].isZero())
      lhs += (lhs.empty() ? "" : " + ") + std::string("M_r[") + u[std::min(a, b)] + ", " +
             u[std::max(a, b)] + "]*" + u[b] + "'";
  return (lhs.empty() ? "0" : lhs) + " = f_r[" + u[a] + "]";
}

// Where the kinematic equations hold: the elimination divided by its
// pivots, so wherever one is zero the chosen speeds do not determine the
// others (a knife edge moving sideways to its heading's choice).
std::string regularity(const mechanics::MinimalEquations &m) {
  if (m.regularWhere.empty())
    return "  (for every configuration: the dependent block of the constraints is constant)\n";
  std::string list;
  for (const sym::Expr &pivot : m.regularWhere)
    list += (list.empty() ? "" : ", ") + toMech(pivot) + " != 0";
  if (list.size() > 240)
    return "  (where the elimination's " + std::to_string(m.regularWhere.size()) +
           " pivots are not zero; --json lists them)\n";
  return "  (where " + list + ": elsewhere these speeds do not determine the others)\n";
}

} // namespace

std::string minimalText(const MinimalReport &r) {
  const mechanics::MinimalEquations &m = r.minimal;
  std::vector<std::string> u = speedNames(r.eq, m.independent);
  std::vector<std::string> v = speedNames(r.eq, m.dependent);
  std::ostringstream out;
  out << header(r);
  out << "\nkinematic equations (the dependent speeds, from the constraints):\n";
  for (size_t d = 0; d < v.size(); ++d)
    out << "  " << v[d] << " = " << toMech(m.kinematics[d]) << "\n";
  out << regularity(m);
  if (u.empty())
    return out.str() + "\nno independent speeds: the constraints prescribe the motion\n" +
           whereLines(m.where);
  out << "\nreduced mass matrix M_r = B^T*M*B, with q' = B*u + b:\n";
  for (size_t a = 0; a < u.size(); ++a)
    for (size_t b = a; b < u.size(); ++b)
      if (!m.Mr[a][b].isZero() || a == b)
        out << "  M_r[" << u[a] << ", " << u[b] << "] = " << toMech(m.Mr[a][b]) << "\n";
  out << "\nreduced forcing f_r = B^T*(f - M*(B'*u + b')), with M_r*u' = f_r:\n";
  for (size_t a = 0; a < u.size(); ++a)
    out << "  f_r[" << u[a] << "] = " << toMech(m.fr[a]) << "\n";
  out << "\nKane's equations, M_r*u' = f_r (the equations of motion projected on the directions "
         "the constraints allow, in which the multipliers drop out):\n";
  for (size_t a = 0; a < u.size(); ++a)
    out << "  " << u[a] << ": " << equation(r, u, a) << "\n";
  return out.str() + whereLines(m.where);
}

std::string minimalJson(const MinimalReport &r) {
  const mechanics::MinimalEquations &m = r.minimal;
  std::vector<std::string> u = speedNames(r.eq, m.independent);
  std::vector<std::string> v = speedNames(r.eq, m.dependent);
  JsonWriter json;
  json.beginObject().key("model").value(r.eq.model);
  analysis_text::jsonList(json, "coordinates", r.eq.coordinates);
  analysis_text::jsonList(json, "independent_speeds", u);
  analysis_text::jsonList(json, "dependent_speeds", v);
  json.key("chosen_by").value(r.chosen ? "--independent" : "pivoting");
  json.key("configuration").beginObject();
  for (size_t j = 0; j < r.state.q.size(); ++j)
    json.key(r.eq.coordinates[j]).value(r.state.q[j]);
  json.endObject().key("t").value(r.state.t);
  json.key("kinematics").beginObject();
  for (size_t d = 0; d < v.size(); ++d)
    json.key(v[d]).value(toMech(m.kinematics[d]));
  json.endObject().key("regular_where").beginArray();
  for (const sym::Expr &pivot : m.regularWhere)
    json.value(toMech(pivot));
  json.endArray().key("reduced_mass_matrix").beginArray();
  for (const std::vector<sym::Expr> &row : m.Mr) {
    json.beginArray();
    for (const sym::Expr &e : row)
      json.value(toMech(e));
    json.endArray();
  }
  json.endArray().key("reduced_forcing").beginArray();
  for (const sym::Expr &e : m.fr)
    json.value(toMech(e));
  json.endArray().key("equations").beginObject();
  for (size_t a = 0; a < u.size(); ++a)
    json.key(u[a]).value(equation(r, u, a));
  json.endObject().key("where").beginObject();
  for (const sym::NamedSubexpression &named : m.where)
    json.key(toMech(named.name)).value(toMech(named.definition));
  json.endObject().endObject();
  return json.str() + "\n";
}

std::string minimalLatex(const MinimalReport &r) {
  const mechanics::MinimalEquations &m = r.minimal;
  sym::Context &c = r.eq.T.context();
  std::vector<std::string> lines;
  for (size_t d = 0; d < m.dependent.size(); ++d) {
    size_t j = m.dependent[d];
    sym::Expr speed = c.coordinate(r.eq.coordinates[j], static_cast<int>(j)).qd;
    lines.push_back(sym::toLatex(speed) + " &= " + sym::toLatex(m.kinematics[d]));
  }
  for (size_t a = 0; a < m.independent.size(); ++a) {
    // M_r u' written out, or (with named subexpressions) its sum.
    sym::Expr lhs = c.zero();
    if (!m.lhs.empty())
      lhs = m.lhs[a];
    else
      for (size_t b = 0; b < m.independent.size(); ++b)
        lhs = lhs + m.Mr[a][b] * m.accelerations[b];
    lines.push_back(sym::toLatex(lhs) + " &= " + sym::toLatex(m.fr[a]));
  }
  for (const sym::NamedSubexpression &named : m.where)
    lines.push_back(sym::toLatex(named.name) + " &= " + sym::toLatex(named.definition));
  std::string out = "% Kane's equations of " + r.eq.model +
                    " in the independent speeds (the kinematic equations first)\n\\begin{align}\n";
  for (size_t i = 0; i < lines.size(); ++i)
    out += lines[i] + (i + 1 < lines.size() ? " \\\\\n" : "\n");
  return out + "\\end{align}\n";
}

} // namespace mech::driver
