// The integrators allocate their storage before the first step, never per
// step: the number of allocations of a run must not grow with its number of
// steps. Counted through a replacement of the global operator new (which
// this test binary then uses everywhere, only counting); Eigen's vectors
// allocate with malloc and are not counted, which is why the steppers size
// them once and assign only coefficient-wise expressions to them.
#include "runtime/Integrator.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<long> allocations{0};
}

// Every unaligned form is replaced, so that no block crosses between these
// and a sanitizer's own versions.
void *operator new(std::size_t size, const std::nothrow_t &) noexcept {
  ++allocations;
  return std::malloc(size ? size : 1);
}
void *operator new(std::size_t size) {
  if (void *p = operator new(size, std::nothrow))
    return p;
  throw std::bad_alloc();
}
void *operator new[](std::size_t size) {
  return operator new(size);
}
void *operator new[](std::size_t size, const std::nothrow_t &) noexcept {
  return operator new(size, std::nothrow);
}
void operator delete(void *p) noexcept {
  std::free(p);
}
void operator delete(void *p, std::size_t) noexcept {
  std::free(p);
}
void operator delete(void *p, const std::nothrow_t &) noexcept {
  std::free(p);
}
void operator delete[](void *p) noexcept {
  std::free(p);
}
void operator delete[](void *p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void *p, const std::nothrow_t &) noexcept {
  std::free(p);
}

using namespace mech::runtime;

namespace {

int pendulum(double, const double *x, double *xdot) {
  xdot[0] = x[1];
  xdot[1] = -9.81 * x[0] + 0.1 * x[0] * x[0] * x[0];
  return 0;
}

struct Count {
  long allocations;
  long steps;
};

Count countRun(Method method, double rtol, double step) {
  IntegratorOptions o;
  o.method = method;
  o.rtol = rtol;
  o.atol = rtol * 1e-2;
  o.step = step;
  o.dt = 0.5;
  long before = allocations;
  IntegrationResult r =
      integrate(pendulum, {0.3, 0}, o, [](double, const double *) { return true; });
  long during = allocations - before; // before Catch's own allocations
  REQUIRE(r.outcome == Outcome::Finished);
  return {during, r.stats.accepted + r.stats.rejected};
}

} // namespace

TEST_CASE("integration does not allocate per step", "[runtime]") {
  for (Method method : {Method::Dopri5, Method::Dop853, Method::Rk4}) {
    INFO(static_cast<int>(method));
    Count few = countRun(method, 1e-5, method == Method::Rk4 ? 0.1 : 0);
    Count many = countRun(method, 1e-12, method == Method::Rk4 ? 0.001 : 0);
    CHECK(many.steps > 5 * few.steps);
    CHECK(many.allocations == few.allocations);
  }
}
