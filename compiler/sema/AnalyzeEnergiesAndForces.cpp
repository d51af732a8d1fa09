// Energies and forces in the analyzer: kinetic and potential energy and
// dissipation terms, forces at a point, torques through an angle, generalized
// forces on a coordinate and springs between two points. Each value's shape,
// dimension (energy, power, force, work) and the derivatives it may use.
#include "sema/AnalyzerInternal.h"

#include "syntax/Printer.h"

namespace mech::sema {

// T, V and D: scalars of energy (power for D); V of the coordinates and t
// only, T and D of the velocities too.
void Analyzer::checkDecl(const ast::EnergyDecl &e, const Instance &instance) {
  // A named term is a let, so that other expressions can refer to it.
  ExprRef value;
  if (instance.slot >= 0) {
    if (resolver_.letReference(instance.slot, instance.decl->location))
      value = model_->lets[static_cast<size_t>(instance.slot)].value;
  } else {
    value = resolve(*e.value, instance);
  }
  if (!value)
    return;
  const char *total = e.kind == ast::EnergyKind::Kinetic     ? "T"
                      : e.kind == ast::EnergyKind::Potential ? "V"
                                                             : "D";
  std::string what = instance.name.empty() || instance.name == total
                         ? std::string(total)
                         : "'" + instance.name + "' (part of " + total + ")";
  // A named term is resolved as a let, which may use inputs; T, V and D may not.
  if (value->usesInput) {
    diagnostics_.error(e.value->location,
                       what + " uses an input; inputs can only be used in "
                              "forces, torques, generalized forces, outputs and events");
    return;
  }
  if (!expectShape(value, e.value->location, what, isScalar, "a scalar"))
    return;
  bool ok = true;
  if (e.kind == ast::EnergyKind::Dissipation)
    ok = expectDimension(value, e.value->location, what, Dimension::power(), "a power");
  else
    ok = expectDimension(value, e.value->location, what, Dimension::energy(), "an energy");
  ok = ok &&
       expectOrder(value, e.value->location, what, e.kind == ast::EnergyKind::Potential ? 0 : 1);
  if (!ok)
    return;
  Term term{instance.name, instance.decl->location, value};
  if (e.kind == ast::EnergyKind::Kinetic)
    model_->kinetic.push_back(term);
  else if (e.kind == ast::EnergyKind::Potential)
    model_->potential.push_back(term);
  else
    model_->dissipation.push_back(term);
}

// A force (of the velocities at most) at a point of application (of the
// coordinates only), both of one shape.
void Analyzer::checkDecl(const ast::ForceDecl &f, const Instance &instance) {
  ExprRef force = resolve(*f.force, instance, false, /*allowInputs=*/true),
          point = resolve(*f.point, instance);
  if (!force || !point)
    return;
  if (!expectShape(force, f.force->location, "a force", isPosition, "a vector or a scalar"))
    return;
  if (force->shape != point->shape) {
    diagnostics_.error(f.point->location, "the force is " + force->shape.toString() +
                                              " but its point of application is " +
                                              point->shape.toString());
    return;
  }
  bool ok = expectDimension(force, f.force->location, "the force", Dimension::force(), "a force");
  ok = expectDimension(point, f.point->location, "the point of application", Dimension::length(),
                       "a length") &&
       ok;
  ok = ok && expectOrder(force, f.force->location, "the force", 1);
  ok = ok && expectOrder(point, f.point->location, "the point of application", 0);
  if (ok)
    model_->forces.push_back({instance.decl->location, force, point});
}

// A moment through an angle, of one shape, whose product is work.
void Analyzer::checkDecl(const ast::TorqueDecl &t, const Instance &instance) {
  ExprRef moment = resolve(*t.moment, instance, false, /*allowInputs=*/true),
          angle = resolve(*t.angle, instance);
  if (!moment || !angle)
    return;
  if (moment->shape != angle->shape) {
    diagnostics_.error(t.angle->location, "the moment is " + moment->shape.toString() +
                                              " but the angle is " + angle->shape.toString());
    return;
  }
  bool ok = expectWork(moment, angle, t.moment->location, "the torque does not do work");
  ok = ok && expectOrder(moment, t.moment->location, "the moment", 1);
  ok = ok && expectOrder(angle, t.angle->location, "the angle", 0);
  if (ok)
    model_->torques.push_back({instance.decl->location, moment, angle});
}

// A scalar force on one coordinate, whose product with it is work.
void Analyzer::checkDecl(const ast::GeneralizedDecl &g, const Instance &instance) {
  ExprRef value = resolve(*g.value, instance, false, /*allowInputs=*/true);
  ExprRef coordinate = resolve(*g.coordinate, instance);
  if (!value || !coordinate)
    return;
  if (coordinate->kind != ExprKind::Coord) {
    diagnostics_.error(g.coordinate->location, "a generalized force acts on a coordinate, found '" +
                                                   formatExpr(*g.coordinate) + "'");
    return;
  }
  if (!expectShape(value, g.value->location, "a generalized force", isScalar, "a scalar"))
    return;
  bool ok = expectWork(value, coordinate, g.value->location,
                       "the generalized force on '" +
                           model_->coords[static_cast<size_t>(coordinate->index)].name +
                           "' does not do work");
  ok = ok && expectOrder(value, g.value->location, "the generalized force", 1);
  if (ok)
    model_->generalized.push_back({instance.decl->location, value, coordinate->index});
}

// A stiffness times the square of the stretch between two ends (beyond the
// rest length) is an energy.
void Analyzer::checkDecl(const ast::SpringDecl &s, const Instance &instance) {
  ExprRef stiffness = resolve(*s.stiffness, instance);
  ExprRef from = resolve(*s.from, instance), to = resolve(*s.to, instance);
  ExprRef rest = s.rest ? resolve(*s.rest, instance)
                        : resolver_.number(0, Rational(0), instance.decl->location);
  if (!stiffness || !from || !to || !rest)
    return;
  bool ok = expectShape(stiffness, s.stiffness->location, "the stiffness", isScalar, "a scalar");
  ok = expectShape(from, s.from->location, "a spring's end", isPosition, "a vector or a scalar") &&
       ok;
  if (s.rest)
    ok = expectShape(rest, s.rest->location, "the rest length", isScalar, "a scalar") && ok;
  if (!ok)
    return;
  if (from->shape != to->shape) {
    diagnostics_.error(s.to->location, "the spring's ends differ in shape: " +
                                           from->shape.toString() + " and " + to->shape.toString());
    return;
  }
  auto length =
      resolver_.sumDimension(from->dim, to->dim, s.to->location, "the spring's ends", true);
  if (!length)
    return;
  if (s.rest && !resolver_.sumDimension(*length, rest->dim, s.rest->location,
                                        "the rest length and the spring's length", true))
    return;
  DimInfo energy =
      Resolver::productDimension(stiffness->dim, Resolver::productDimension(*length, *length));
  if (energy.isKnown() && !(energy.dimension == Dimension::energy())) {
    diagnostics_.error(s.stiffness->location,
                       "a stiffness of " + stiffness->dim.dimension.toString() +
                           " over a length of " + length->dimension.toString() +
                           " does not give an energy");
    return;
  }
  ok = expectOrder(stiffness, s.stiffness->location, "the stiffness", 0);
  ok = ok && expectOrder(from, s.from->location, "a spring's end", 0);
  ok = ok && expectOrder(to, s.to->location, "a spring's end", 0);
  ok = ok && expectOrder(rest, instance.decl->location, "the rest length", 0);
  if (ok)
    model_->springs.push_back({instance.decl->location, stiffness, from, to, rest});
}

} // namespace mech::sema
