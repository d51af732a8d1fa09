// The derivation. M and f are built from g_j = dT/dq_j': M_jk = dg_j/dq_k',
// and the velocity-dependent part of d/dt g_j is one total-derivative pass
// with accelerations dropped, so the cost stays proportional to the DAG.
#include "mechanics/Lagrange.h"

#include "mechanics/BodyInertia.h"

#include "mechanics/IntegrableConstraints.h"
#include "mechanics/Switches.h"

#include "symbolic/Diff.h"
#include "symbolic/Readable.h"
#include "symbolic/Subs.h"
#include "symbolic/ZeroTest.h"

#include <algorithm>
#include <set>

namespace mech::mechanics {

using sym::Expr;

namespace {

Expr half(sym::Context &c) {
  return c.rational(1, 2);
}

Expr dot(sym::Context &c, const Tensor &a, const Tensor &b) {
  std::vector<Expr> terms;
  for (size_t k = 0; k < a.v.size(); ++k)
    terms.push_back(a.v[k] * b.v[k]);
  return c.add(terms);
}

Tensor derivative(sym::Differentiator &d, Tensor t) {
  for (Expr &x : t.v)
    x = d(x);
  return t;
}

// Phi, psi, C and gamma of every constraint (see Equations::Constraint).
bool deriveConstraints(const sema::CheckedModel &model, Lowering &lower,
                       sym::Differentiator &velocityPart, Equations &eq, Diagnostics &diagnostics) {
  sym::Context &c = lower.context();
  const auto &q = lower.coordinates();
  size_t n = q.size();
  sym::Differentiator total = sym::totalTime(c);
  std::vector<sym::Differentiator> byVelocity;
  for (size_t j = 0; j < n; ++j)
    byVelocity.push_back(sym::partial(q[j].qd));
  eq.multipliers = lower.multipliers();
  bool ok = true;
  for (const sema::Constraint &source : model.constraints) {
    Equations::Constraint k;
    k.name = source.name;
    k.location = source.location;
    k.multiplierDim = source.multiplierDim;
    k.phi = lower.scalar(source.lhs) - lower.scalar(source.rhs);
    if (k.phi.has(sym::kHasAcceleration)) {
      diagnostics.error(source.location, "constraint '" + k.name +
                                             "' involves accelerations: a constraint relates "
                                             "coordinates and velocities only");
      ok = false;
      continue;
    }
    k.holonomic = !k.phi.has(sym::kHasVelocity);
    k.psi = k.holonomic ? total(k.phi) : k.phi;
    bool linear = true;
    for (size_t j = 0; j < n; ++j) {
      k.C.push_back(byVelocity[j](k.psi));
      linear = linear && !k.C.back().has(sym::kHasVelocity | sym::kHasAcceleration);
    }
    if (!linear) {
      Diagnostic &d = diagnostics.error(source.location, "constraint '" + k.name +
                                                             "' is not linear in the velocities");
      Diagnostics::addNote(d, {},
                           "a constraint is holonomic (no velocities) or linear in the velocities");
      ok = false;
      continue;
    }
    if (std::all_of(k.C.begin(), k.C.end(), [](const Expr &e) { return e.isZero(); })) {
      diagnostics.error(source.location, "constraint '" + k.name +
                                             "' does not depend on any coordinate" +
                                             (k.holonomic ? "" : " velocity"));
      ok = false;
      continue;
    }
    k.gamma = -velocityPart(k.psi);
    eq.constraints.push_back(std::move(k));
  }
  return ok;
}

// The contacts' gaps in the forms of a holonomic constraint (a gap is a
// function of q and t, as sema checks), with their force symbols
// numbered after the constraints' multipliers.
void deriveContacts(const sema::CheckedModel &model, Lowering &lower,
                    sym::Differentiator &velocityPart, Equations &eq) {
  sym::Context &c = lower.context();
  const auto &q = lower.coordinates();
  sym::Differentiator total = sym::totalTime(c);
  for (const sema::Contact &source : model.contacts) {
    Equations::Contact contact;
    Equations::Constraint &k = contact.gap;
    k.name = source.name;
    k.location = source.location;
    k.phi = lower.scalar(source.lhs) - lower.scalar(source.rhs);
    if (!source.atLeast)
      k.phi = -k.phi;
    k.psi = total(k.phi);
    for (const auto &coordinate : q)
      k.C.push_back(sym::partial(coordinate.qd)(k.psi));
    k.gamma = -velocityPart(k.psi);
    k.multiplierDim = source.forceDim;
    contact.restitution = lower.scalar(source.restitution);
    contact.restitutionLocation = source.restitutionLocation;
    contact.force = c.symbol(source.name, sym::SymbolKind::Multiplier,
                             static_cast<int>(model.constraints.size() + eq.contacts.size()));
    eq.contacts.push_back(std::move(contact));
  }
}

// `normal floor`: the friction's N is the contact's force (sema checked
// that it is a force along the slip).
void normalFromContact(const sema::CheckedModel &model, const sema::Friction &source,
                       Equations::Friction &friction) {
  for (size_t i = 0; i < model.contacts.size(); ++i)
    if (model.contacts[i].name == source.normalContact)
      friction.contact = static_cast<int>(i);
}

// The frictions' slips in the forms of a velocity constraint, with their
// force symbols numbered after the contacts'; false (with the error said)
// when a slip is not affine in the velocities.
bool deriveFrictions(const sema::CheckedModel &model, Lowering &lower,
                     sym::Differentiator &velocityPart, Equations &eq, Diagnostics &diagnostics) {
  sym::Context &c = lower.context();
  const auto &q = lower.coordinates();
  for (const sema::Friction &source : model.frictions) {
    Equations::Friction friction;
    Equations::Constraint &k = friction.slip;
    k.name = source.name;
    k.location = source.location;
    k.holonomic = false;
    k.phi = k.psi = lower.scalar(source.slip);
    bool affine = true;
    for (const auto &coordinate : q) {
      k.C.push_back(sym::partial(coordinate.qd)(k.psi));
      affine = affine && !k.C.back().has(sym::kHasVelocity | sym::kHasAcceleration);
    }
    if (!affine) {
      diagnostics.error(source.location, "the slip of friction '" + k.name +
                                             "' is not affine in the velocities (a slip is "
                                             "C(q, t) q' + b(q, t))");
      return false;
    }
    k.gamma = -velocityPart(k.psi);
    k.multiplierDim = source.forceDim;
    friction.normal = lower.scalar(source.normal);
    friction.staticCoefficient = lower.scalar(source.staticCoefficient);
    friction.kineticCoefficient = lower.scalar(source.kineticCoefficient);
    friction.normalLocation = source.normalLocation;
    normalFromContact(model, source, friction);
    friction.force = c.symbol(
        source.name, sym::SymbolKind::Multiplier,
        static_cast<int>(model.constraints.size() + model.contacts.size() + eq.frictions.size()));
    eq.frictions.push_back(std::move(friction));
  }
  return true;
}

// The model is too large to derive: reported at the first coordinate or
// constraint past the limit.
bool withinSizeLimits(const sema::CheckedModel &model, Diagnostics &diagnostics) {
  if (model.coords.size() > kMaxCoordinates) {
    diagnostics.error(model.coords[kMaxCoordinates].location,
                      "the model has " + std::to_string(model.coords.size()) +
                          " coordinates, more than the limit of " +
                          std::to_string(kMaxCoordinates) + " (the mass matrix alone would have " +
                          std::to_string(model.coords.size() * model.coords.size()) + " entries)");
    return false;
  }
  if (model.constraints.size() > kMaxConstraints) {
    diagnostics.error(model.constraints[kMaxConstraints].location,
                      "the model has " + std::to_string(model.constraints.size()) +
                          " constraints, more than the limit of " +
                          std::to_string(kMaxConstraints));
    return false;
  }
  return true;
}

// The kinetic energy of a rigid body's rotation about its centre:
// 1/2 omega' I omega in the planar case, with the body-frame angular
// velocity from the skew matrix R^T R' in space.
Expr rotationalEnergy(sym::Context &c, Lowering &lower, const sema::Body &b, const Tensor &I) {
  if (b.planar) {
    Expr omega = lower.timeDerivative()(lower.scalar(b.orientation));
    return half(c) * I.v[0] * omega * omega;
  }
  Tensor R = lower.lower(b.orientation);
  Tensor Rd = derivative(lower.timeDerivative(), R);
  auto entry = [&](const Tensor &m, int i, int j) { return m.v[static_cast<size_t>(i * 3 + j)]; };
  auto skew = [&](int i, int j) {
    std::vector<Expr> terms;
    for (int k = 0; k < 3; ++k)
      terms.push_back(entry(R, k, i) * entry(Rd, k, j));
    return c.add(terms);
  };
  Expr w[3] = {skew(2, 1), skew(0, 2), skew(1, 0)};
  std::vector<Expr> terms;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      terms.push_back(w[i] * entry(I, i, j) * w[j]);
  return half(c) * c.add(terms);
}

// T: the model's kinetic terms, then its particles' and bodies'; nullopt
// after a body's inertia was given about a point not fixed in it.
std::optional<Expr> kineticEnergy(const sema::CheckedModel &model, Lowering &lower,
                                  Diagnostics &diagnostics) {
  sym::Context &c = lower.context();
  std::vector<Expr> kinetic;
  for (const sema::Term &term : model.kinetic)
    kinetic.push_back(lower.scalar(term.value));
  for (const sema::Particle &p : model.particles) {
    Tensor v = derivative(lower.timeDerivative(), lower.lower(p.position));
    kinetic.push_back(half(c) * lower.scalar(p.mass) * dot(c, v, v));
  }
  for (const sema::Body &b : model.bodies) {
    Tensor v = derivative(lower.timeDerivative(), lower.lower(b.position));
    Expr mass = lower.scalar(b.mass);
    kinetic.push_back(half(c) * mass * dot(c, v, v));
    std::optional<Tensor> inertia = centroidalInertia(lower, b, &diagnostics);
    if (!inertia)
      return std::nullopt;
    kinetic.push_back(rotationalEnergy(c, lower, b, *inertia));
  }
  return c.add(kinetic);
}

// V: the model's potential terms, then gravity's and the springs'.
Expr potentialEnergy(const sema::CheckedModel &model, Lowering &lower) {
  sym::Context &c = lower.context();
  std::vector<Expr> potential;
  for (const sema::Term &term : model.potential)
    potential.push_back(lower.scalar(term.value));
  for (const sema::Gravity &g : model.gravity) {
    Tensor gvec = lower.lower(g.acceleration);
    for (const sema::Particle &p : model.particles)
      potential.push_back(-lower.scalar(p.mass) * dot(c, gvec, lower.lower(p.position)));
    for (const sema::Body &b : model.bodies)
      potential.push_back(-lower.scalar(b.mass) * dot(c, gvec, lower.lower(b.position)));
  }
  for (const sema::Spring &s : model.springs) {
    Tensor from = lower.lower(s.from), to = lower.lower(s.to);
    std::vector<Expr> squares;
    for (size_t k = 0; k < from.v.size(); ++k)
      squares.push_back(sym::pow(to.v[k] - from.v[k], 2));
    Expr squared = c.add(squares);
    Expr rest = lower.scalar(s.rest);
    Expr stretch = rest.isZero() ? squared : sym::pow(sym::sqrt(squared) - rest, 2);
    potential.push_back(half(c) * lower.scalar(s.stiffness) * stretch);
  }
  return c.add(potential);
}

// Q_j^nc (dissipation, point forces, torques, generalized forces), Q_j and
// the dimension of Q_j.
// The sign(a) nodes of `e` (with `abs`, its abs(a) nodes too) whose
// argument has velocities, as switches of the declaration at `at`.
void collectSwitches(const Expr &e, bool abs, const Location &at, Equations &eq) {
  std::vector<const sym::Node *> pending = {e.node()};
  std::set<const sym::Node *> seen;
  while (!pending.empty()) {
    const sym::Node *node = pending.back();
    pending.pop_back();
    if (!(node->mask & sym::kHasVelocity) || !seen.insert(node).second)
      continue;
    if (node->kind == sym::Kind::Func &&
        (node->fn == sym::Fn::Sign || (abs && node->fn == sym::Fn::Abs)) &&
        (node->ops[0]->mask & sym::kHasVelocity)) {
      Expr argument(node->ops[0]);
      if (std::none_of(eq.velocitySwitches.begin(), eq.velocitySwitches.end(),
                       [&](const auto &s) { return s.argument == argument; }))
        eq.velocitySwitches.push_back({argument, at, node->fn == sym::Fn::Sign});
    }
    pending.insert(pending.end(), node->ops.begin(), node->ops.end());
  }
}

void generalizedForces(const sema::CheckedModel &model, Lowering &lower,
                       std::vector<sym::Differentiator> &byCoordinate,
                       std::vector<sym::Differentiator> &byVelocity, Equations &eq) {
  sym::Context &c = lower.context();
  size_t n = model.coords.size();
  std::vector<std::pair<Tensor, Tensor>> pointForces;
  for (const sema::PointForce &f : model.forces) {
    pointForces.push_back({lower.lower(f.force), lower.lower(f.point)});
    for (const Expr &component : pointForces.back().first.v)
      collectSwitches(component, false, f.location, eq);
  }
  std::vector<std::pair<Tensor, Tensor>> torques;
  for (const sema::Torque &t : model.torques) {
    torques.push_back({lower.lower(t.moment), lower.lower(t.angle)});
    for (const Expr &component : torques.back().first.v)
      collectSwitches(component, false, t.location, eq);
  }
  for (const sema::GeneralizedForce &g : model.generalized)
    collectSwitches(lower.scalar(g.value), false, g.location, eq);
  for (const sema::Term &d : model.dissipation)
    collectSwitches(lower.scalar(d.value), true, d.location, eq);
  for (size_t j = 0; j < n; ++j) {
    std::vector<Expr> terms = {-byVelocity[j](eq.D)};
    for (const auto &[force, point] : pointForces)
      terms.push_back(dot(c, force, derivative(byCoordinate[j], point)));
    for (const auto &[moment, angle] : torques)
      terms.push_back(dot(c, moment, derivative(byCoordinate[j], angle)));
    for (const sema::GeneralizedForce &g : model.generalized)
      if (static_cast<size_t>(g.coord) == j)
        terms.push_back(lower.scalar(g.value));
    eq.Qnc[j] = c.add(terms);
    eq.Q[j] = eq.Qnc[j] - byCoordinate[j](eq.V);
    const sema::DimInfo &qd = model.coords[j].dim;
    eq.Qdim[j] = qd.isKnown() ? sema::DimInfo::known(*sema::Dimension::energy().over(qd.dimension))
                              : sema::DimInfo::unchecked();
  }
}

// M_jk = dg_j/dq_k' (symmetric, one derivative per pair); reports a T that
// is not quadratic in the velocities, whose second derivatives still
// depend on them.
bool massMatrix(const sema::CheckedModel &model, const std::vector<Expr> &g,
                std::vector<sym::Differentiator> &byVelocity, Equations &eq,
                Diagnostics &diagnostics) {
  size_t n = g.size();
  eq.M.assign(n, std::vector<Expr>(n));
  for (size_t j = 0; j < n; ++j)
    for (size_t k = j; k < n; ++k) {
      eq.M[j][k] = byVelocity[k](g[j]);
      eq.M[k][j] = eq.M[j][k];
    }
  for (size_t j = 0; j < n; ++j)
    for (size_t k = 0; k < n; ++k)
      if (eq.M[j][k].has(sym::kHasVelocity | sym::kHasAcceleration)) {
        const Location where =
            model.kinetic.empty() ? model.location : model.kinetic.front().location;
        diagnostics.error(where, "T is not a polynomial of degree 2 in the velocities (d2T/d" +
                                     eq.coordinates[j] + "'d" + eq.coordinates[k] +
                                     "' depends on the velocities)");
        return false;
      }
  return true;
}

// f (M q'' = f), the left-hand sides with the accelerations, and the
// momenta and forces of the variational form.
void forcing(sym::Context &c, const std::vector<sym::Context::Coordinate> &q,
             const std::vector<Expr> &g, std::vector<sym::Differentiator> &byCoordinate,
             sym::Differentiator &velocityPart, Equations &eq) {
  size_t n = g.size();
  eq.f.resize(n);
  eq.lhs.resize(n);
  eq.momentum = g;
  eq.force.resize(n);
  for (size_t j = 0; j < n; ++j) {
    Expr dTdq = byCoordinate[j](eq.T);
    eq.force[j] = dTdq + eq.Q[j];
    Expr rest = velocityPart(g[j]) - dTdq;
    eq.f[j] = eq.Q[j] - rest;
    std::vector<Expr> terms = {rest};
    for (size_t k = 0; k < n; ++k)
      terms.push_back(eq.M[j][k] * q[k].qdd);
    eq.lhs[j] = c.add(terms);
  }
}

// T = T2 + T1 + T0 by degree in the velocities.
void splitByDegree(sym::Context &c, const std::vector<sym::Context::Coordinate> &q,
                   const std::vector<Expr> &g, Equations &eq) {
  size_t n = g.size();
  sym::Substitution atRest;
  for (size_t j = 0; j < n; ++j)
    atRest.set(q[j].qd, c.zero());
  eq.T0 = atRest(eq.T);
  std::vector<Expr> linear, quadratic;
  for (size_t j = 0; j < n; ++j) {
    linear.push_back(atRest(g[j]) * q[j].qd);
    for (size_t k = 0; k < n; ++k)
      quadratic.push_back(half(c) * eq.M[j][k] * q[j].qd * q[k].qd);
  }
  eq.T1 = c.add(linear);
  eq.T2 = c.add(quadratic);
}

// Explicit time in L or in a moving constraint, and so whether the model
// conserves energy.
void decideTimeDependence(const sema::CheckedModel &model, Equations &eq) {
  // t may cancel only through identities (a rotating frame: sin^2 + cos^2),
  // which the exact zero test of dL/dt decides, as `conserved` does.
  eq.hasExplicitTime = sym::dependsOnTime(eq.L);
  // Constraints that move with time do work on the system.
  for (const Equations::Constraint &k : eq.constraints)
    if (sym::dependsOnTime(k.phi))
      eq.hasExplicitTime = true;
  eq.conservative = model.dissipation.empty() && model.forces.empty() && model.torques.empty() &&
                    model.generalized.empty() && !eq.hasExplicitTime;
}

} // namespace

std::optional<Derivation> deriveEquations(const sema::CheckedModel &model,
                                          Diagnostics &diagnostics) {
  if (!withinSizeLimits(model, diagnostics))
    return std::nullopt;
  Derivation result;
  result.context = std::make_unique<sym::Context>();
  result.lowering = std::make_unique<Lowering>(model, *result.context);
  sym::Context &c = *result.context;
  Lowering &lower = *result.lowering;
  Equations &eq = result.equations;
  eq.model = model.name;
  size_t n = model.coords.size();
  const auto &q = lower.coordinates();
  for (const sema::Coord &coord : model.coords) {
    eq.coordinates.push_back(coord.name);
    eq.coordinateDims.push_back(coord.dim);
  }

  std::optional<Expr> T = kineticEnergy(model, lower, diagnostics);
  if (!T)
    return std::nullopt;
  eq.T = *T;
  eq.V = potentialEnergy(model, lower);
  std::vector<Expr> dissipation;
  for (const sema::Term &term : model.dissipation)
    dissipation.push_back(lower.scalar(term.value));
  eq.D = c.add(dissipation);
  eq.L = eq.T - eq.V;

  eq.Q.resize(n);
  eq.Qnc.resize(n);
  eq.Qdim.resize(n);
  // One differentiator per coordinate and velocity, so that their memos
  // serve all the derivatives below.
  std::vector<sym::Differentiator> byCoordinate, byVelocity;
  for (size_t j = 0; j < n; ++j) {
    byCoordinate.push_back(sym::partial(q[j].q));
    byVelocity.push_back(sym::partial(q[j].qd));
  }
  generalizedForces(model, lower, byCoordinate, byVelocity, eq);

  // g_j = dT/dq_j', from which both M and f are built.
  std::vector<Expr> g(n);
  for (size_t j = 0; j < n; ++j)
    g[j] = byVelocity[j](eq.T);
  if (!massMatrix(model, g, byVelocity, eq, diagnostics))
    return std::nullopt;
  sym::Differentiator velocityPart = sym::totalTime(c, /*dropAccelerations=*/true);
  forcing(c, q, g, byCoordinate, velocityPart, eq);
  splitByDegree(c, q, g, eq);

  if (!deriveConstraints(model, lower, velocityPart, eq, diagnostics))
    return std::nullopt;
  for (Equations::Constraint &k : eq.constraints) {
    k.integrable = isExactForm(eq, k);
    if (k.integrable)
      k.integral = integratedForm(eq, k);
  }

  for (size_t i = model.firstInput(); i < model.params.size(); ++i)
    eq.inputs.push_back({model.params[i].name, i, model.params[i].dim});
  for (const sema::Output &o : model.outputs) {
    eq.outputs.push_back(lower.scalar(o.value));
    eq.outputNames.push_back(o.name);
  }
  for (const sema::Event &e : model.events) {
    std::vector<Equations::Reset> resets;
    for (const sema::Reset &r : e.resets)
      resets.push_back({static_cast<size_t>(r.coord), r.order, lower.scalar(r.value), r.location});
    eq.events.push_back({e.name, lower.scalar(e.lhs) - lower.scalar(e.rhs), e.direction, e.stop,
                         e.location, std::move(resets)});
  }
  deriveContacts(model, lower, velocityPart, eq);
  if (!deriveFrictions(model, lower, velocityPart, eq, diagnostics))
    return std::nullopt;
  findSwitches(eq, lower.piecewiseLocations());
  eq.tableCalls = lower.tableCalls();
  decideTimeDependence(model, eq);
  return result;
}

Equations simplified(const Equations &eq) {
  Equations s = eq;
  // A table's interpolant, a tree of its pieces, prints as the call.
  if (!eq.tableCalls.empty()) {
    sym::Substitution named;
    for (size_t i = 0; i < eq.tableCalls.size(); ++i) {
      const NamedLaw &call = eq.tableCalls[i];
      sym::Expr symbol =
          call.law.context().symbol(call.text, sym::SymbolKind::Free, static_cast<int>(i));
      call.law.context().setLatex(symbol, call.latex);
      named.set(call.law, symbol);
    }
    for (auto *list : {&s.Q, &s.Qnc, &s.f, &s.lhs, &s.outputs})
      for (Expr &e : *list)
        e = named(e);
    for (Expr *e : {&s.T, &s.V, &s.D, &s.L, &s.T2, &s.T1, &s.T0})
      *e = named(*e);
    for (auto &row : s.M)
      for (Expr &e : row)
        e = named(e);
    for (Equations::Constraint &k : s.constraints)
      for (Expr *e : {&k.phi, &k.psi, &k.gamma})
        *e = named(*e);
  }
  // Every printed expression in one batch, so that they share angle atoms.
  std::vector<Expr *> printed;
  for (Equations::Constraint &k : s.constraints) {
    for (Expr *e : {&k.phi, &k.psi, &k.gamma})
      printed.push_back(e);
    for (Expr &e : k.C)
      printed.push_back(&e);
  }
  for (Expr *e : {&s.T, &s.V, &s.D, &s.L, &s.T2, &s.T1, &s.T0})
    printed.push_back(e);
  for (auto *list : {&s.Q, &s.Qnc, &s.f, &s.lhs, &s.outputs})
    for (Expr &e : *list)
      printed.push_back(&e);
  for (auto &row : s.M)
    for (Expr &e : row)
      printed.push_back(&e);
  std::vector<Expr> originals, equivalents;
  for (Expr *e : printed)
    originals.push_back(*e);
  // T by degree shares the mass matrix's normal forms; expanded as derived,
  // a chain's T costs n^3 products.
  Expr byDegree = eq.T2 + eq.T1 + eq.T0;
  for (Expr *e : printed)
    equivalents.push_back(e == &s.T ? byDegree : e == &s.L ? byDegree - eq.V : Expr());
  std::vector<Expr> forms = sym::readableForms(originals, equivalents);
  for (size_t i = 0; i < printed.size(); ++i)
    *printed[i] = forms[i];
  // What the rewrites leave of an identity (the top's M[phi, theta]) prints as 0.
  for (auto *list : {&s.Q, &s.Qnc, &s.f, &s.lhs})
    sym::zeroIdenticallyZero(*list);
  for (auto &row : s.M)
    sym::zeroIdenticallyZero(row);
  s.where = sym::nameSharedSubexpressions(printed, originals);
  return s;
}

Equations baumgarteStabilized(const Equations &equations, double a, double b) {
  Equations s = equations;
  for (Equations::Constraint &k : s.constraints) {
    sym::Context &c = k.gamma.context();
    k.gamma = k.gamma - c.number(sym::Num::inexact(2 * a)) * k.psi;
    if (k.holonomic)
      k.gamma = k.gamma - c.number(sym::Num::inexact(b * b)) * k.phi;
  }
  return s;
}

} // namespace mech::mechanics
