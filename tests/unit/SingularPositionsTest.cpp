// mechanics::SingularPositionWatch on constraints written out by hand:
// a crank-rocker four-bar (crank a = 0.4 about the origin, coupler b = 1,
// rocker c = 0.8 about (d, 0) = (1, 0)), whose two assembly modes for a
// crank angle are where the circles of radius b about the crank's tip and
// c about the rocker's pivot meet, and a slider-crank with crank and rod
// equally long (x = 2 r cos phi, psi = -phi), singular where the slider
// passes the crank's pivot (phi = pi/2).
#include "mechanics/SingularPositions.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

using namespace mech;

namespace {

// Only constraints() matters to the watch.
class ConstraintsOnly : public mechanics::Kernels {
public:
  int massMatrix(double, const double *, const double *, double *) override { return 0; }
  int forcing(double, const double *, const double *, double *) override { return 0; }
  int rhs(double, const double *, const double *, double *) override { return 0; }
  int energy(double, const double *, const double *, double *) override { return 0; }
  int outputs(double, const double *, const double *, double *) override { return 0; }
  int momentumForce(double, const double *, const double *, double *) override { return 0; }
  int multipliers(double, const double *, const double *, double *) override { return 0; }
};

// Two constraints on three coordinates, as Kernels::constraints lays them
// out: Phi, psi = C q', then the rows of C.
void twoRows(double *out, double phiX, double phiY, const double (&Cx)[3], const double (&Cy)[3],
             const double *qd) {
  out[0] = phiX, out[1] = phiY, out[2] = out[3] = 0;
  for (int j = 0; j < 3; ++j) {
    out[2] += Cx[j] * qd[j], out[3] += Cy[j] * qd[j];
    out[4 + j] = Cx[j], out[7 + j] = Cy[j];
  }
}

constexpr double a = 0.4, b = 1.0, c = 0.8, d = 1.0;

// q = (th1, th2, th3): the loop closing along x and y.
class FourBar : public ConstraintsOnly {
public:
  FourBar() { coordinates = 3, constraintCount = 2; }
  int constraints(double, const double *x, const double *, double *out) override {
    double s1 = std::sin(x[0]), s2 = std::sin(x[1]), s3 = std::sin(x[2]);
    double c1 = std::cos(x[0]), c2 = std::cos(x[1]), c3 = std::cos(x[2]);
    double Cx[3] = {-a * s1, -b * s2, c * s3}, Cy[3] = {a * c1, b * c2, -c * c3};
    twoRows(out, a * c1 + b * c2 - d - c * c3, a * s1 + b * s2 - c * s3, Cx, Cy, x + 3);
    return 0;
  }
};

// x = (th1, th2, th3, th1', th2', th3') on assembly mode `up` (+1 elbow
// up, -1 down) at crank angle th1 turning at w.
std::vector<double> fourBarState(double th1, double w, int up) {
  auto angles = [&](double t1) {
    double bx = a * std::cos(t1), by = a * std::sin(t1), dx = d - bx, dy = -by;
    double L = std::hypot(dx, dy), along = (b * b - c * c + L * L) / (2 * L);
    double h = std::sqrt(b * b - along * along);
    double px = bx + along * dx / L - up * h * dy / L, py = by + along * dy / L + up * h * dx / L;
    return std::pair{std::atan2(py - by, px - bx), std::atan2(py, px - d)};
  };
  auto [t2, t3] = angles(th1);
  double e = 1e-6;
  auto [p2, p3] = angles(th1 + e);
  auto [m2, m3] = angles(th1 - e);
  return {th1, t2, t3, w, w * (p2 - m2) / (2 * e), w * (p3 - m3) / (2 * e)};
}

mechanics::Equations named(std::vector<std::string> coordinates,
                           std::vector<std::string> constraints) {
  mechanics::Equations eq;
  eq.coordinates = std::move(coordinates);
  for (const std::string &name : constraints) {
    eq.constraints.emplace_back();
    eq.constraints.back().name = name;
  }
  return eq;
}

// A watch on hand-written kernels K, with the names its notes use.
template <class K> struct Watched {
  Watched(std::vector<std::string> coordinates, std::vector<std::string> constraints)
      : eq(named(std::move(coordinates), std::move(constraints))) {}
  K kernels;
  mechanics::Equations eq;
  std::vector<double> params;
  mechanics::SingularPositionWatch watch{eq, kernels, params};
};

} // namespace

TEST_CASE("singular positions: a crank-rocker turning round meets none and keeps its mode") {
  Watched<FourBar> watched({"th1", "th2", "th3"}, {"x", "y"});
  mechanics::SingularPositionWatch &watch = watched.watch;
  watch.start(0, fourBarState(1, 2, 1).data());
  for (int k = 1; k <= 200; ++k) // two turns in steps of 0.0628 rad
    watch.step(0.01 * k, fourBarState(1 + 0.02 * M_PI * k, 2, 1).data());
  CHECK(watch.passages().empty());
  CHECK(watch.jumps().empty());
  CHECK(watch.notes().empty());
  CHECK(watch.warnings().empty());
}

TEST_CASE("singular positions: a step from one assembly mode to the other is a jump") {
  Watched<FourBar> watched({"th1", "th2", "th3"}, {"x", "y"});
  mechanics::SingularPositionWatch &watch = watched.watch;
  watch.start(0, fourBarState(1, 2, 1).data());
  watch.step(0.01, fourBarState(1.02, 2, 1).data());
  watch.step(0.02, fourBarState(1.04, 2, -1).data()); // elbow down: a jump
  watch.step(0.03, fourBarState(1.06, 2, -1).data());
  REQUIRE(watch.jumps().size() == 1);
  CHECK(watch.jumps()[0].from == 0.01);
  CHECK(watch.jumps()[0].to == 0.02);
  CHECK(watch.jumps()[0].off > 1e-2);
  CHECK(watch.passages().empty());
  REQUIRE(watch.warnings().size() == 1);
  CHECK(watch.warnings()[0].find("may have jumped to another assembly mode, first between "
                                 "t = 0.01 and 0.02") != std::string::npos);
}

namespace {

constexpr double r = 0.1; // crank and rod

// q = (phi, psi, x): the pin joint closing along x and y.
class SliderCrank : public ConstraintsOnly {
public:
  SliderCrank() { coordinates = 3, constraintCount = 2; }
  int constraints(double, const double *q, const double *, double *out) override {
    double Cx[3] = {-r * std::sin(q[0]), -r * std::sin(q[1]), -1};
    double Cy[3] = {r * std::cos(q[0]), r * std::cos(q[1]), 0};
    twoRows(out, r * std::cos(q[0]) + r * std::cos(q[1]) - q[2],
            r * std::sin(q[0]) + r * std::sin(q[1]), Cx, Cy, q + 3);
    return 0;
  }
};

} // namespace

TEST_CASE("singular positions: a slider-crank's passages, at the times the geometry gives") {
  Watched<SliderCrank> watched({"phi", "psi", "x"}, {"pin_x", "pin_y"});
  mechanics::SingularPositionWatch &watch = watched.watch;
  // phi = 0.3 + 2 t: singular where phi = pi/2 + k pi (the rows of C both
  // end in (0, 0, ..) but for pin_x's -1: pin_y's row vanishes).
  auto state = [](double t) {
    double phi = 0.3 + 2 * t;
    return std::vector<double>{phi, -phi, 2 * r * std::cos(phi), 2, -2, -4 * r * std::sin(phi)};
  };
  watch.start(0, state(0).data());
  for (int k = 1; k <= 400; ++k)
    watch.step(0.0123 * k, state(0.0123 * k).data());
  // phi from 0.3 to 10.14: pi/2, 3pi/2, 5pi/2 passed.
  REQUIRE(watch.passages().size() == 3);
  for (size_t i = 0; i < 3; ++i) {
    CHECK(watch.passages()[i].t == Approx((M_PI / 2 + M_PI * i - 0.3) / 2).margin(1e-6));
    CHECK(watch.passages()[i].constraints == std::vector<size_t>{1});
    CHECK(watch.passages()[i].flipped);
  }
  CHECK(watch.jumps().empty());
  REQUIRE(watch.notes().size() == 1);
  CHECK(watch.notes()[0].find("the run passed 3 singular positions of the constraints, at t = "
                              "0.6354, 2.206 and 3.777: at the first, the rows of C of constraints "
                              "'pin_y' became dependent") != std::string::npos);
}
