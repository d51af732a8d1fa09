// The minimal equations (mechanics/MinimalEquations.h): the dependent
// speeds by elimination, then B, the accelerations and the projection, all
// on the expression DAG (each pass memoised), simplified only for display.
#include "mechanics/MinimalEquations.h"

#include "mechanics/ConstrainedLinearization.h"
#include "mechanics/SymbolicElimination.h"
#include "symbolic/Diff.h"
#include "symbolic/Program.h"
#include "symbolic/Readable.h"
#include "symbolic/Subs.h"
#include "symbolic/ZeroTest.h"

#include <algorithm>

namespace mech::mechanics {

using sym::Expr;

namespace {

using Symbols = std::vector<sym::Context::Coordinate>;

// The largest tree brought to a display form (see displayForms).
constexpr double kMaxReadableTree = 20000;

Symbols coordinateSymbols(const Equations &eq) {
  sym::Context &c = eq.T.context();
  Symbols symbols;
  for (size_t j = 0; j < eq.coordinates.size(); ++j)
    symbols.push_back(c.coordinate(eq.coordinates[j], static_cast<int>(j)));
  return symbols;
}

// v from A_v v = -(A_u u + a): each constraint's psi with the dependent
// speeds set to 0 is its A_u u + a.
std::optional<std::vector<Expr>> solveDependentSpeeds(const Equations &eq, const Symbols &symbols,
                                                      const std::vector<size_t> &dependent,
                                                      const Matrix &jacobian,
                                                      std::vector<Expr> &pivots) {
  sym::Context &c = eq.T.context();
  sym::Substitution withoutDependent;
  for (size_t j : dependent)
    withoutDependent.set(symbols[j].qd, c.zero());
  std::vector<std::vector<Expr>> A;
  std::vector<std::vector<double>> values;
  std::vector<Expr> rhs;
  for (size_t i = 0; i < eq.constraints.size(); ++i) {
    const Equations::Constraint &k = eq.constraints[i];
    A.emplace_back(), values.emplace_back();
    for (size_t j : dependent) {
      A.back().push_back(k.C[j]);
      values.back().push_back(jacobian[i][j]);
    }
    rhs.push_back(-withoutDependent(k.psi));
  }
  return solveByElimination(std::move(A), std::move(rhs), std::move(values), &pivots);
}

// B (n x k): the derivative of every speed by each independent one.
std::vector<std::vector<Expr>> speedMap(const Symbols &symbols, const MinimalEquations &m) {
  sym::Context &c = symbols[0].q.context();
  size_t n = symbols.size(), k = m.independent.size();
  std::vector<std::vector<Expr>> B(n, std::vector<Expr>(k, c.zero()));
  for (size_t a = 0; a < k; ++a) {
    B[m.independent[a]][a] = c.one();
    sym::Differentiator byU = sym::partial(symbols[m.independent[a]].qd);
    for (size_t d = 0; d < m.dependent.size(); ++d)
      B[m.dependent[d]][a] = byU(m.kinematics[d]);
  }
  return B;
}

// M_r, f_r and the left-hand sides from B, with `speeds` replacing the
// dependent speeds by the kinematic equations.
void project(const Equations &eq, const Symbols &symbols, MinimalEquations &m,
             sym::Substitution &speeds) {
  sym::Context &c = eq.T.context();
  size_t n = symbols.size(), k = m.independent.size();
  std::vector<std::vector<Expr>> B = speedMap(symbols, m);
  // q'' with u' = 0: (d/dt B) u + d/dt b on the dependent rows, 0 on the others.
  std::vector<Expr> drift(n, c.zero());
  sym::Differentiator rate = sym::totalTime(c, /*dropAccelerations=*/true);
  for (size_t d = 0; d < m.dependent.size(); ++d)
    drift[m.dependent[d]] = speeds(rate(m.kinematics[d]));
  // f - M drift, the force each column of B projects.
  std::vector<Expr> force(n);
  for (size_t i = 0; i < n; ++i) {
    std::vector<Expr> terms = {speeds(eq.f[i])};
    for (size_t j = 0; j < n; ++j)
      if (!drift[j].isZero() && !eq.M[i][j].isZero())
        terms.push_back(-speeds(eq.M[i][j]) * drift[j]);
    force[i] = c.add(terms);
  }
  auto projected = [&](size_t a, const std::vector<Expr> &column) {
    std::vector<Expr> terms;
    for (size_t i = 0; i < n; ++i)
      if (!B[i][a].isZero() && !column[i].isZero())
        terms.push_back(B[i][a] * column[i]);
    return c.add(terms);
  };
  m.Mr.assign(k, std::vector<Expr>(k));
  for (size_t b = 0; b < k; ++b) {
    std::vector<Expr> MB(n); // column b of M B
    for (size_t i = 0; i < n; ++i) {
      std::vector<Expr> terms;
      for (size_t j = 0; j < n; ++j)
        if (!B[j][b].isZero() && !eq.M[i][j].isZero())
          terms.push_back(speeds(eq.M[i][j]) * B[j][b]);
      MB[i] = c.add(terms);
    }
    for (size_t a = 0; a <= b; ++a)
      m.Mr[a][b] = m.Mr[b][a] = projected(a, MB);
  }
  for (size_t a = 0; a < k; ++a) {
    m.fr.push_back(projected(a, force));
    std::vector<Expr> terms;
    for (size_t b = 0; b < k; ++b)
      terms.push_back(m.Mr[a][b] * m.accelerations[b]);
    m.lhs.push_back(c.add(terms));
  }
}

// The display forms (symbolic/Readable.h) of the expressions whose tree is
// at most kMaxReadableTree. The others (a bicycle's, composed through the
// elimination) would cost the display's expansion minutes for a form
// still too large to print whole: they stay as derived, for the size
// guard to print through names.
std::vector<Expr> displayForms(const std::vector<Expr> &exprs) {
  std::vector<size_t> small;
  std::vector<Expr> smallOnes;
  for (size_t i = 0; i < exprs.size(); ++i)
    if (exprs[i]->treeSize <= kMaxReadableTree)
      small.push_back(i), smallOnes.push_back(exprs[i]);
  std::vector<Expr> forms = exprs;
  std::vector<Expr> readable = sym::readableForms(smallOnes);
  for (size_t i = 0; i < small.size(); ++i)
    forms[small[i]] = readable[i];
  // What the rewrites leave of an identity prints as 0.
  sym::zeroIdenticallyZero(forms);
  return forms;
}

// After the size guard named the parts of the large expressions (`large`
// their forms before), each part and each expression that uses them is
// small: their display forms are cheap, and what was left as derived gets
// its identities removed there.
void tidyNamed(const std::vector<Expr *> &printed, const std::vector<Expr> &large,
               std::vector<sym::NamedSubexpression> &where) {
  if (where.empty())
    return;
  std::vector<Expr *> parts;
  for (size_t i = 0; i < printed.size(); ++i)
    if (large[i]->treeSize > sym::kMaxDisplayedTree)
      parts.push_back(printed[i]);
  for (sym::NamedSubexpression &named : where)
    parts.push_back(&named.definition);
  std::vector<Expr> exprs;
  for (Expr *e : parts)
    exprs.push_back(*e);
  std::vector<Expr> forms = displayForms(exprs);
  for (size_t i = 0; i < parts.size(); ++i)
    *parts[i] = forms[i];
}

// M_r u' of each independent speed, from M_r's display forms, which are
// small where nothing needed a name.
std::vector<Expr> leftHandSides(const MinimalEquations &m) {
  if (m.Mr.empty())
    return {};
  sym::Context &c = m.Mr[0][0].context();
  std::vector<Expr> lhs;
  for (const std::vector<Expr> &row : m.Mr) {
    std::vector<Expr> terms;
    for (size_t b = 0; b < row.size(); ++b)
      terms.push_back(row[b] * m.accelerations[b]);
    lhs.push_back(c.add(terms));
  }
  return sym::readableForms(lhs);
}

} // namespace

Matrix constraintJacobianAt(const Equations &eq, const std::vector<double> &params,
                            const State &state) {
  size_t n = eq.coordinates.size();
  std::vector<Expr> entries;
  for (const Equations::Constraint &k : eq.constraints)
    entries.insert(entries.end(), k.C.begin(), k.C.end());
  InputLayout layout = linearizationLayout(eq, params.size());
  sym::Program program(entries, [&](const sym::SymbolInfo &s) { return layout.index(s); });
  std::vector<double> values = program.evaluate(layout.inputs(params, state));
  Matrix C(eq.constraints.size(), std::vector<double>(n));
  for (size_t i = 0; i < C.size(); ++i)
    for (size_t j = 0; j < n; ++j)
      C[i][j] = values[i * n + j];
  return C;
}

std::optional<MinimalEquations> minimalEquations(const Equations &eq,
                                                 const std::vector<size_t> &dependent,
                                                 const Matrix &jacobian) {
  Symbols symbols = coordinateSymbols(eq);
  std::vector<Expr> pivots;
  std::optional<std::vector<Expr>> v =
      solveDependentSpeeds(eq, symbols, dependent, jacobian, pivots);
  if (!v)
    return std::nullopt;
  MinimalEquations m;
  // Where the elimination divides by an expression, the kinematic
  // equations hold only where it is not zero (a knife edge's cos(phi)).
  // A constant factor does not move the zeros: shown without it.
  for (const Expr &pivot : pivots)
    if (!pivot.isNumber())
      m.regularWhere.push_back(sym::splitCoefficient(pivot).second);
  m.dependent = dependent;
  m.independent = complement(dependent, symbols.size());
  m.kinematics = *v;
  for (size_t j : m.independent)
    m.accelerations.push_back(symbols[j].qdd);
  sym::Substitution speeds;
  for (size_t d = 0; d < dependent.size(); ++d)
    speeds.set(symbols[dependent[d]].qd, m.kinematics[d]);
  project(eq, symbols, m, speeds);
  return m;
}

MinimalEquations readableMinimal(const MinimalEquations &minimal) {
  MinimalEquations s = minimal;
  size_t k = s.independent.size();
  // Every printed expression in one batch, so that they share angle atoms;
  // M_r's upper triangle only, mirrored after.
  std::vector<Expr *> printed;
  for (Expr &e : s.kinematics)
    printed.push_back(&e);
  for (size_t a = 0; a < k; ++a)
    for (size_t b = a; b < k; ++b)
      printed.push_back(&s.Mr[a][b]);
  for (Expr &e : s.fr)
    printed.push_back(&e);
  for (Expr &e : s.regularWhere)
    printed.push_back(&e);
  std::vector<Expr> originals;
  for (Expr *e : printed)
    originals.push_back(*e);
  std::vector<Expr> forms = displayForms(originals);
  for (size_t i = 0; i < printed.size(); ++i)
    *printed[i] = forms[i];
  s.where = sym::nameSharedSubexpressions(printed, originals);
  tidyNamed(printed, forms, s.where);
  for (size_t a = 0; a < k; ++a)
    for (size_t b = 0; b < a; ++b)
      s.Mr[a][b] = s.Mr[b][a];
  s.lhs.clear();
  if (s.where.empty())
    s.lhs = leftHandSides(s);
  return s;
}

} // namespace mech::mechanics
