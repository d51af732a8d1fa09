// Particles, bodies and gravity in the analyzer: a particle's mass and
// position, a planar or spatial body's mass, position, orientation and
// inertia, and gravity, an acceleration of the shape of every position.
#include "sema/AnalyzerInternal.h"

namespace mech::sema {

void Analyzer::checkDecl(const ast::ParticleDecl &p, const Instance &instance) {
  ExprRef mass = resolve(*p.mass, instance), position = resolve(*p.position, instance);
  if (!mass || !position)
    return;
  bool ok = expectShape(mass, p.mass->location, "a mass", isScalar, "a scalar");
  ok = expectShape(position, p.position->location, "a position", isPosition,
                   "a vector or a scalar") &&
       ok;
  if (!ok)
    return;
  ok = expectDimension(mass, p.mass->location, "the mass", Dimension::mass(), "a mass");
  ok = expectDimension(position, p.position->location, "the position", Dimension::length(),
                       "a length") &&
       ok;
  ok = ok && expectOrder(mass, p.mass->location, "the mass", 0);
  ok = ok && expectOrder(position, p.position->location, "the position", 0);
  if (ok)
    model_->particles.push_back({instance.name, instance.decl->location, mass, position});
}

// A planar body has a 2-vector position, an angle and a scalar inertia; a
// spatial body a 3-vector, a rotation matrix and a 3x3 inertia tensor.
void Analyzer::checkDecl(const ast::BodyDecl &b, const Instance &instance) {
  ExprRef mass = resolve(*b.mass, instance), position = resolve(*b.position, instance);
  ExprRef orientation = resolve(*b.orientation, instance);
  ExprRef inertia = resolve(*b.inertia, instance);
  ExprRef about = b.about ? resolve(*b.about, instance) : nullptr;
  if (!mass || !position || !orientation || !inertia || (b.about && !about))
    return;
  bool planar = b.kind == ast::BodyKind::Planar;
  bool ok = expectShape(mass, b.mass->location, "a mass", isScalar, "a scalar");
  if (planar) {
    ok = expectShape(position, b.position->location, "the position of a planar body", isVector,
                     "a vector") &&
         ok;
    ok = expectShape(orientation, b.orientation->location, "the angle of a planar body", isScalar,
                     "a scalar") &&
         ok;
    ok = expectShape(inertia, b.inertia->location, "the inertia of a planar body", isScalar,
                     b.about ? "a scalar (the moment of inertia about the point)"
                             : "a scalar (the moment of inertia about the centre of mass)") &&
         ok;
    ok = (!about || expectShape(about, b.about->location, "the point of a planar body's inertia",
                                isVector, "a 2-vector (a point, as its position)")) &&
         ok;
  } else {
    ok = expectShape(position, b.position->location, "the position of a spatial body", is3Vector,
                     "a 3-vector") &&
         ok;
    ok = expectShape(orientation, b.orientation->location, "the rotation of a spatial body", is3x3,
                     "a 3x3 matrix") &&
         ok;
    ok = expectShape(inertia, b.inertia->location, "the inertia of a spatial body", is3x3,
                     "a 3x3 tensor") &&
         ok;
    ok = (!about || expectShape(about, b.about->location, "the point of a spatial body's inertia",
                                is3Vector, "a 3-vector (a point, as its position)")) &&
         ok;
  }
  if (!ok)
    return;
  Dimension inertiaDim = *Dimension::mass().times(*Dimension::length().raisedTo(Rational(2)));
  ok = expectDimension(mass, b.mass->location, "the mass", Dimension::mass(), "a mass");
  ok = expectDimension(position, b.position->location, "the position", Dimension::length(),
                       "a length") &&
       ok;
  ok = expectDimension(orientation, b.orientation->location, planar ? "the angle" : "the rotation",
                       Dimension(), "a pure number") &&
       ok;
  ok = expectDimension(inertia, b.inertia->location, "the inertia", inertiaDim,
                       "a moment of inertia") &&
       ok;
  if (about) {
    ok = expectDimension(about, b.about->location, "the point", Dimension::length(), "a length") &&
         ok;
    ok = ok && expectOrder(about, b.about->location, "the point of a body's inertia", 0);
    if (ok && !(about->shape == position->shape)) {
      diagnostics_.error(b.about->location, "the point is " + about->shape.toString() +
                                                " and the body's position " +
                                                position->shape.toString());
      ok = false;
    }
  }
  for (const auto &[value, loc] :
       {std::pair{mass, b.mass->location}, std::pair{position, b.position->location},
        std::pair{orientation, b.orientation->location}, std::pair{inertia, b.inertia->location}})
    ok = ok && expectOrder(value, loc, "a body's mass, position, orientation or inertia", 0);
  if (ok)
    model_->bodies.push_back({instance.name, instance.decl->location, planar, mass, position,
                              orientation, inertia, about});
}

void Analyzer::checkDecl(const ast::GravityDecl &g, const Instance &instance) {
  ExprRef acceleration = resolve(*g.acceleration, instance);
  if (!acceleration)
    return;
  if (!expectShape(acceleration, g.acceleration->location, "gravity", isPosition,
                   "a vector or a scalar"))
    return;
  Dimension expected = *Dimension::length().over(*Dimension::time().raisedTo(Rational(2)));
  bool ok = expectDimension(acceleration, g.acceleration->location, "gravity", expected,
                            "an acceleration");
  ok = ok && expectOrder(acceleration, g.acceleration->location, "gravity", 0);
  if (ok)
    model_->gravity.push_back({instance.decl->location, acceleration});
}

// Gravity acts on every particle and body: their positions have its shape.
void Analyzer::checkGravityShapes() {
  for (const Gravity &g : model_->gravity) {
    auto mismatch = [&](const std::string &kind, const std::string &name, const ExprRef &r) {
      if (r->shape == g.acceleration->shape)
        return false;
      diagnostics_.error(g.location, "gravity is " + g.acceleration->shape.toString() + " but " +
                                         kind + " '" + name + "' is at " + r->shape.toString());
      return true;
    };
    bool reported = false;
    for (const Particle &p : model_->particles)
      if (!reported)
        reported = mismatch("particle", p.name, p.position);
    for (const Body &b : model_->bodies)
      if (!reported)
        reported = mismatch("body", b.name, b.position);
  }
}

} // namespace mech::sema
