// runtime::ConstraintProjector on systems written out by hand, so that the
// numbers come from geometry rather than from a derivation: a Cartesian
// pendulum (x, y) on the circle x^2 + y^2 = l^2, unit masses, whose nearest
// point is l (x, y)/|(x, y)| and whose least velocity change removes the
// radial part; and a rolling constraint x' = r phi' with masses m and J,
// whose least change in the metric of M moves the lighter coordinate more.
#include "runtime/ConstraintProjection.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

using namespace mech;

namespace {

// x = (x, y, x', y'); Phi = x^2 + y^2 - l^2, psi = 2 x x' + 2 y y'.
class CartesianPendulum : public runtime::ConstrainedSystem {
public:
  double l = 1, g = 9.81;
  size_t coordinates() const override { return 2; }
  size_t constraintCount() const override { return 1; }
  bool holonomic(size_t) const override { return true; }
  void constraints(double, const double *x, double *out) override {
    out[0] = x[0] * x[0] + x[1] * x[1] - l * l;
    out[1] = 2 * x[0] * x[2] + 2 * x[1] * x[3];
    out[2] = 2 * x[0];
    out[3] = 2 * x[1];
  }
  void massMatrix(double, const double *, double *M) override {
    M[0] = 1, M[1] = 0, M[2] = 0, M[3] = 1;
  }
  void forcing(double, const double *, double *f) override { f[0] = 0, f[1] = -g; }
};

// x = (s, phi, s', phi'); psi = s' - r phi' (nonholonomic in form), M = diag(m, J).
class RollingDisk : public runtime::ConstrainedSystem {
public:
  double r = 0.5, m = 2, J = 0.25;
  size_t coordinates() const override { return 2; }
  size_t constraintCount() const override { return 1; }
  bool holonomic(size_t) const override { return false; }
  void constraints(double, const double *x, double *out) override {
    out[0] = 0;
    out[1] = x[2] - r * x[3];
    out[2] = 1;
    out[3] = -r;
  }
  void massMatrix(double, const double *, double *M) override {
    M[0] = m, M[1] = 0, M[2] = 0, M[3] = J;
  }
  void forcing(double, const double *, double *f) override { f[0] = 0, f[1] = 0; }
};

} // namespace

TEST_CASE("projection: a point off the circle goes to the nearest point of the circle") {
  CartesianPendulum pendulum;
  runtime::ConstraintProjector projector(pendulum);
  std::vector<double> x = {0.6, -0.9, 0.3, 0.4};
  double radius = std::hypot(0.6, -0.9);
  runtime::ProjectionResult positions = projector.projectPositions(0, x.data());
  REQUIRE(positions.ok);
  // Gauss-Newton along the gradient (2x, 2y) stays on the ray: the nearest point.
  CHECK(x[0] == Approx(0.6 / radius).epsilon(1e-12));
  CHECK(x[1] == Approx(-0.9 / radius).epsilon(1e-12));
  // Velocities: the radial part of (0.3, 0.4) along the unit normal n goes.
  runtime::ProjectionResult velocities = projector.projectVelocities(0, x.data());
  REQUIRE(velocities.ok);
  double nx = 0.6 / radius, ny = -0.9 / radius, radial = 0.3 * nx + 0.4 * ny;
  CHECK(x[2] == Approx(0.3 - radial * nx).epsilon(1e-12));
  CHECK(x[3] == Approx(0.4 - radial * ny).epsilon(1e-12));
  CHECK(projector.residual(0, x.data()) < 1e-12);
}

TEST_CASE("projection: a kept coordinate stays where the constraints allow") {
  CartesianPendulum pendulum;
  runtime::ConstraintProjector projector(pendulum);
  // x = 0.6 kept: y = -sqrt(1 - 0.36) = -0.8 on the side it started.
  std::vector<double> x = {0.6, -0.9, 0, 0};
  REQUIRE(projector.projectPositions(0, x.data(), {{true, false}}).ok);
  CHECK(x[0] == 0.6);
  CHECK(x[1] == Approx(-0.8).epsilon(1e-12));
  // x = 1.5 cannot be kept on a circle of radius 1: the next choice (none kept).
  std::vector<double> far = {1.5, 0.2, 0, 0};
  REQUIRE(projector.projectPositions(0, far.data(), {{true, false}}).ok);
  CHECK(std::hypot(far[0], far[1]) == Approx(1).epsilon(1e-12));
}

TEST_CASE("projection: a held coordinate stays, or the projection fails leaving x as it was") {
  CartesianPendulum pendulum;
  runtime::ConstraintProjector projector(pendulum);
  // Held (no fallback): x = 0.6 stays, y goes to +0.8, the side it started.
  std::vector<double> x = {0.6, 0.3, 0, 0};
  REQUIRE(projector.projectPositions(0, x.data(), {{true, false}}, /*orNoneKept=*/false).ok);
  CHECK(x[0] == 0.6);
  CHECK(x[1] == Approx(0.8).epsilon(1e-12));
  // x = 1.5 held: no y puts it on the circle. The best the free y reaches
  // is y = 0, |Phi| = 1.5^2 - 1 = 1.25; the state is left as given.
  std::vector<double> far = {1.5, 0.2, 0, 0};
  runtime::ProjectionResult held =
      projector.projectPositions(0, far.data(), {{true, false}}, /*orNoneKept=*/false);
  CHECK_FALSE(held.ok);
  CHECK(held.residual == Approx(1.25).epsilon(1e-6));
  CHECK(far == std::vector<double>{1.5, 0.2, 0, 0});
  // Velocities: x' held at 1 at (0.6, 0.8) needs y' = -0.75 (psi = 0).
  std::vector<double> moving = {0.6, 0.8, 1, 0};
  REQUIRE(projector.projectVelocities(0, moving.data(), {{true, false}}, false).ok);
  CHECK(moving[2] == 1);
  CHECK(moving[3] == Approx(-0.75).epsilon(1e-12));
}

TEST_CASE("projection: a degenerate start steps downhill and finds the hanging position") {
  CartesianPendulum pendulum;
  runtime::ConstraintProjector projector(pendulum);
  // At the origin the gradient (2x, 2y) vanishes: the nudge along gravity
  // (downhill) gives a direction, and the circle's nearest point is below.
  std::vector<double> x = {0, 0, 0, 0};
  REQUIRE(projector.projectPositions(0, x.data()).ok);
  CHECK(x[0] == Approx(0).margin(1e-12));
  CHECK(x[1] == Approx(-1).epsilon(1e-12));
}

TEST_CASE("projection: the least velocity change is measured in the metric of M") {
  RollingDisk disk;
  runtime::ConstraintProjector projector(disk);
  // psi = s' - r phi' = 1 - 0.5 * 0 = 1. Minimize m ds^2 + J dphi^2 with
  // ds - r dphi = -1: ds = -(1/m) / (1/m + r^2/J), dphi = (r/J) / (1/m + r^2/J).
  std::vector<double> x = {0, 0, 1, 0};
  REQUIRE(projector.projectVelocities(0, x.data()).ok);
  double denominator = 1 / disk.m + disk.r * disk.r / disk.J;            // 0.5 + 1 = 1.5
  CHECK(x[2] == Approx(1 - (1 / disk.m) / denominator).epsilon(1e-12));  // 2/3
  CHECK(x[3] == Approx((disk.r / disk.J) / denominator).epsilon(1e-12)); // 4/3
  CHECK(x[2] - disk.r * x[3] == Approx(0).margin(1e-14));
  // Keeping phi': s' alone moves, to r phi' = 0.
  std::vector<double> kept = {0, 0, 1, 0};
  REQUIRE(projector.projectVelocities(0, kept.data(), {{false, true}}).ok);
  CHECK(kept[2] == Approx(0).margin(1e-12));
  CHECK(kept[3] == 0);
}

TEST_CASE("projection: dependent rows of C are named with the rows they combine") {
  // Rows: a = (1, 0, 0), b = (0, 1, 0), c = a + 2 b, d = (0, 0, 1).
  std::vector<double> C = {1, 0, 0, 0, 1, 0, 1, 2, 0, 0, 0, 1};
  std::vector<std::string> dependent =
      runtime::dependentConstraints(C.data(), 4, 3, {"a", "b", "c", "d"});
  CHECK(dependent == std::vector<std::string>{"a", "b", "c"});
  std::vector<double> independent = {1, 0, 0, 0, 1, 0};
  CHECK(runtime::dependentConstraints(independent.data(), 2, 3, {"a", "b"}).empty());
}
