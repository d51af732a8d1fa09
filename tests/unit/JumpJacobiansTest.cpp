// The derivatives a return map carries a perturbation across a jump with
// (mechanics/JumpJacobians): an event's dg/dx and dg/dt, and its resets'
// dR/dx and dR/dt, against the derivatives of the same expressions worked
// out by hand, at a state where every term is nonzero.
#include "MechanicsTestSupport.h"

#include "mechanics/JumpJacobians.h"

using namespace mech;
using namespace mech::test;

namespace {

// g = x - a sin(w t) + y x'; resets x' = -e x' + c x^2 + b t y', y = y + x.
constexpr const char *kBouncer = R"(
model Bouncer {
  param a = 0.3, w = 2, e = 0.5, c = 0.7, b = 1.5
  coord x, y
  kinetic x'^2 / 2 + y'^2 / 2
  event hit: x - a * sin(w * t) + y * x' == 0 direction down then x' = -e * x' + c * x^2 + b * t * y', y = y + x
}
)";

} // namespace

TEST_CASE("an event's gradient and its resets' Jacobian are the hand-worked derivatives",
          "[periodic]") {
  auto m = derive(kBouncer);
  const mechanics::Equations &eq = m->equations();
  std::vector<double> p = m->params();
  const double a = 0.3, w = 2, e = 0.5, c = 0.7, b = 1.5;
  mechanics::JumpJacobians jumps(eq, p.size());
  REQUIRE_FALSE(jumps.readsSolution(0));
  // State (x, y, x', y') and t.
  const double x = 0.4, y = -0.9, xd = 1.3, yd = 0.6, t = 0.8;
  const double state[4] = {x, y, xd, yd};
  double gx[4], gt = 0;
  jumps.eventGradient(0, t, state, p, gx, gt);
  CHECK(gx[0] == Approx(1));
  CHECK(gx[1] == Approx(xd));
  CHECK(gx[2] == Approx(y));
  CHECK(gx[3] == Approx(0).margin(1e-15));
  CHECK(gt == Approx(-a * w * std::cos(w * t)));
  double Rx[16], Rt[4];
  jumps.resetJacobian(0, t, state, p, Rx, Rt);
  // Row x: unchanged; row y: y + x; row x': -e x' + c x^2 + b t y'; row y': unchanged.
  const double expected[16] = {1, 0, 0, 0, 1, 1, 0, 0, 2 * c * x, 0, -e, b * t, 0, 0, 0, 1};
  for (int i = 0; i < 16; ++i) {
    INFO("entry " << i);
    CHECK(Rx[i] == Approx(expected[i]).margin(1e-15));
  }
  CHECK(Rt[0] == Approx(0).margin(1e-15));
  CHECK(Rt[1] == Approx(0).margin(1e-15));
  CHECK(Rt[2] == Approx(b * yd));
  CHECK(Rt[3] == Approx(0).margin(1e-15));
}

TEST_CASE("an event that reads accelerations has no gradient", "[periodic]") {
  auto m = derive(R"(
model Reads {
  coord x
  kinetic x'^2 / 2
  potential x^2 / 2
  event turn: x'' == 0
}
)");
  mechanics::JumpJacobians jumps(m->equations(), m->params().size());
  CHECK(jumps.readsSolution(0));
}
