// The derivative of a return map (driver/PeriodicMap: the variational
// equations with saltation matrices at the jumps) against central
// differences of the map itself, on maps whose jumps exercise every term of
// the saltation matrix: a reset that depends on t (R_t), an event function
// that depends on the velocity (g_x over q'), a contact whose gap moves with
// t (g_t, and the impact law's own derivatives), and a section that resets.
#include "MechanicsTestSupport.h"

#include "driver/PeriodicMap.h"
#include "mechanics/Kernels.h"

using namespace mech;
using namespace mech::test;

namespace {

// Every entry of dP/dx within `tolerance` of the central differences of P.
void checkJacobian(const std::string &text, const driver::ReturnMapSetup &setup,
                   const std::vector<double> &x0, double tolerance) {
  auto m = derive(text);
  const mechanics::Equations &eq = m->equations();
  auto programs = mechanics::KernelPrograms::build(eq, m->params().size());
  programs.addJacobian(eq);
  std::unique_ptr<mechanics::Kernels> kernels = mechanics::interpretedKernels(programs);
  driver::ReturnMap map(eq, *kernels, m->params(), setup);
  std::string error;
  auto value = map(x0, true, error);
  INFO(error);
  REQUIRE(value);
  // A jump on the way (or the section's own resets), or the map tests little.
  REQUIRE((value->resets + value->impacts >= 1 || setup.section));
  const size_t N = x0.size();
  for (size_t j = 0; j < N; ++j) {
    const double h = 1e-6 * std::max(1.0, std::abs(x0[j]));
    std::vector<double> plus = x0, minus = x0;
    plus[j] += h;
    minus[j] -= h;
    auto p = map(plus, false, error), q = map(minus, false, error);
    REQUIRE(p);
    REQUIRE(q);
    for (size_t i = 0; i < N; ++i) {
      double difference = (p->x[i] - q->x[i]) / (2 * h);
      INFO("dP_" << i << "/dx_" << j);
      CHECK(std::abs(value->jacobian[i * N + j] - difference) <=
            tolerance * (1 + std::abs(difference)));
    }
  }
}

} // namespace

TEST_CASE("a stroboscopic map through a reset that depends on t and on a velocity", "[periodic]") {
  driver::ReturnMapSetup setup;
  setup.forcingPeriod = 2 * 3.14159265358979;
  checkJacobian(R"(
model Kicked {
  param w = 1 [1/s]
  coord x
  kinetic x'^2 / 2
  potential x^2 / 2
  generalized 0.3 * cos(w * t) - 0.1 * x' on x
  event kick: x + 0.2 * x' == 0 direction up then x' = 1.1 * x' + 0.2 * sin(w * t), x = x + 0.05 * w * t
}
)",
                setup, {0.3, -0.8}, 1e-6);
}

TEST_CASE("a stroboscopic map through an impact on a moving floor", "[periodic]") {
  driver::ReturnMapSetup setup;
  setup.forcingPeriod = 1;
  checkJacobian(R"(
model Table {
  param g = 9.81, A = 0.05, w = 6.283185307179586 [1/s]
  coord y
  kinetic y'^2 / 2
  potential g * y
  contact floor: y - A * sin(w * t) >= 0 restitution 0.6
}
)",
                setup, {0.4, 1.0}, 1e-5);
}

TEST_CASE("a section map whose section resets the state", "[periodic]") {
  driver::ReturnMapSetup setup;
  setup.section = 0;
  checkJacobian(R"(
model Wheel {
  param a = 0.4, s = 0.1, g = 9.81 [kg*m^2/s^2]
  coord phi
  kinetic phi'^2 / 2
  potential g * cos(phi)
  generalized -0.05 * phi'^2 on phi
  event step: phi == s + a direction up then phi = s - a, phi' = 0.7 * phi' + 0.1 * phi
}
)",
                setup, {-0.3, 1.2}, 1e-6);
}
