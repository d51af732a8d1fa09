// The parallel-axis shift of a body's inertia (mechanics/BodyInertia.h).
// The offset d is computed along the motion, shown constant by the exact
// zero test (d(q, q', t) − d(0, 0, 0) ≡ 0), and then used in its constant
// form d(0, 0, 0), where every sine of a coordinate has vanished.
#include "mechanics/BodyInertia.h"

#include "symbolic/Subs.h"
#include "symbolic/ZeroTest.h"

namespace mech::mechanics {

namespace {

using sym::Expr;

// d = Rᵀ(P − r) in body axes; R is the rotation by the angle in the plane.
std::vector<Expr> bodyOffset(Lowering &lower, const sema::Body &body) {
  Tensor r = lower.lower(body.position), p = lower.lower(body.about);
  std::vector<Expr> world;
  for (size_t k = 0; k < r.v.size(); ++k)
    world.push_back(p.v[k] - r.v[k]);
  if (body.planar) {
    Expr a = lower.scalar(body.orientation);
    Expr c = sym::apply(sym::Fn::Cos, a), s = sym::apply(sym::Fn::Sin, a);
    std::vector<Expr> d = {c * world[0] + s * world[1], c * world[1] - s * world[0]};
    for (size_t k = 2; k < world.size(); ++k)
      d.push_back(world[k]); // a planar body drawn in 3-D turns about z
    return d;
  }
  Tensor R = lower.lower(body.orientation);
  std::vector<Expr> d;
  for (int i = 0; i < 3; ++i) {
    std::vector<Expr> terms;
    for (int k = 0; k < 3; ++k)
      terms.push_back(R.v[static_cast<size_t>(k * 3 + i)] * world[static_cast<size_t>(k)]);
    d.push_back(lower.context().add(terms));
  }
  return d;
}

// e with every coordinate, velocity and acceleration and t set to 0.
sym::Substitution atRest(Lowering &lower) {
  sym::Context &c = lower.context();
  sym::Substitution rest;
  for (const sym::Context::Coordinate &q : lower.coordinates()) {
    rest.set(q.q, c.zero());
    rest.set(q.qd, c.zero());
    rest.set(q.qdd, c.zero());
  }
  rest.set(c.time(), c.zero());
  return rest;
}

} // namespace

std::optional<Tensor> centroidalInertia(Lowering &lower, const sema::Body &body,
                                        Diagnostics *diagnostics) {
  Tensor given = lower.lower(body.inertia);
  if (!body.about)
    return given;
  sym::Context &c = lower.context();
  std::vector<Expr> d = bodyOffset(lower, body);
  sym::Substitution rest = atRest(lower);
  std::vector<Expr> constant, change;
  for (const Expr &x : d) {
    constant.push_back(rest(x));
    change.push_back(x - constant.back());
  }
  if (diagnostics != nullptr) {
    for (bool zero : sym::areIdenticallyZero(change))
      if (!zero) {
        diagnostics->error(body.about->location,
                           "the point is not fixed in body '" + body.name +
                               "': its offset from the centre of mass, in body axes, changes " +
                               "with the motion (inertia ... about P needs a point of the body)");
        return std::nullopt;
      }
  }
  Expr mass = lower.scalar(body.mass);
  // In the plane the moment is about the z axis: only x and y count.
  std::vector<Expr> squares;
  for (size_t k = 0; k < (body.planar ? 2 : constant.size()); ++k)
    squares.push_back(constant[k] * constant[k]);
  Expr distance2 = c.add(squares);
  if (body.planar)
    return Tensor::scalar(given.v[0] - mass * distance2);
  Tensor shifted = given;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      Expr term = (i == j ? distance2 : c.zero()) -
                  constant[static_cast<size_t>(i)] * constant[static_cast<size_t>(j)];
      Expr &entry = shifted.v[static_cast<size_t>(i * 3 + j)];
      entry = entry - mass * term;
    }
  return shifted;
}

} // namespace mech::mechanics
