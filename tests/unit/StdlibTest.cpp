// The standard library (stdlib/planar.mech, spatial.mech, inertia.mech)
// against facts that do not come from it: rotations composed with their
// inverses, matrices built here in C++ from their textbook definitions, the
// parallel-axis and perpendicular-axis theorems.
#include "TestSupport.h"

#include "mechanics/Lowering.h"
#include "symbolic/Program.h"

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <string>
#include <vector>

using namespace mech;

namespace {

using Matrix3 = std::array<std::array<double, 3>, 3>;

// The entries of the lets of a model that imports `library` and declares
// `declarations` (params and lets only), params at their values.
std::vector<double> letEntries(const std::string &library, const std::string &declarations,
                               const std::string &let) {
  test::Session session;
  std::string text =
      "import \"" + library + "\"\nmodel Facts {\n  coord unused [m]\n" + declarations + "\n}\n";
  sema::Analysis analysis = session.analyze(text);
  INFO(text << "\n" << session.messages());
  REQUIRE(analysis.ok);
  const sema::CheckedModel &model = *analysis.model;
  sym::Context context;
  mechanics::Lowering lowering(model, context);
  for (const sema::Let &l : model.lets)
    if (l.name == let) {
      mechanics::Tensor value = lowering.lower(l.value);
      std::vector<double> params;
      for (const sema::Param &p : model.params)
        params.push_back(p.value);
      sym::Program program(value.v, [](const sym::SymbolInfo &info) {
        return info.kind == sym::SymbolKind::Param ? info.index : -1;
      });
      return program.evaluate(params);
    }
  FAIL("no let " << let);
  return {};
}

Matrix3 rotX(double a) {
  return {{{1, 0, 0}, {0, std::cos(a), -std::sin(a)}, {0, std::sin(a), std::cos(a)}}};
}
Matrix3 rotY(double a) {
  return {{{std::cos(a), 0, std::sin(a)}, {0, 1, 0}, {-std::sin(a), 0, std::cos(a)}}};
}
Matrix3 rotZ(double a) {
  return {{{std::cos(a), -std::sin(a), 0}, {std::sin(a), std::cos(a), 0}, {0, 0, 1}}};
}
Matrix3 times(const Matrix3 &a, const Matrix3 &b) {
  Matrix3 c{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k)
        c[i][j] += a[i][k] * b[k][j];
  return c;
}

void checkEntries(const std::vector<double> &got, const std::vector<double> &want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("entry " << i);
    CHECK(got[i] == Approx(want[i]).margin(1e-14));
  }
}

void checkMatrix(const std::vector<double> &got, const Matrix3 &want) {
  std::vector<double> flat;
  for (const auto &row : want)
    flat.insert(flat.end(), row.begin(), row.end());
  checkEntries(got, flat);
}

} // namespace

TEST_CASE("planar.mech: rotations turn counter-clockwise and compose", "[stdlib]") {
  const double a = 0.7, b = -1.9;
  std::string params = "  param a = 0.7, b = -1.9, x = 0.3 [m], y = -1.2 [m]\n";
  // rot(a) rot(-a) = I
  checkEntries(letEntries("planar.mech", params + "  let I2 = rot(a) * rot(-a)", "I2"),
               {1, 0, 0, 1});
  // rot(a) dir(b) = dir(a + b), and dir(b) = (cos b, sin b)
  checkEntries(letEntries("planar.mech", params + "  let v = rot(a) * dir(b)", "v"),
               {std::cos(a + b), std::sin(a + b)});
  // down(a) is the pendulum's direction: rot(a) applied to (0, -1)
  checkEntries(letEntries("planar.mech", params + "  let d = down(a)", "d"),
               {std::sin(a), -std::cos(a)});
  // perp turns by +90 degrees: (x, y) -> (-y, x)
  checkEntries(letEntries("planar.mech", params + "  let p = perp([x, y])", "p"), {1.2, 0.3});
}

TEST_CASE("spatial.mech: axis rotations, Euler angles and the cross-product matrix", "[stdlib]") {
  const double p = 0.4, q = 1.1, s = -2.3;
  std::string params =
      "  param p = 0.4, q = 1.1, s = -2.3\n  param vx = 0.5, vy = -1.5, vz = 2, wx = 3, "
      "wy = 0.25, wz = -1\n";
  // Right-handed: rot_z(p) e_x = (cos p, sin p, 0), rot_x(p) e_y = (0, cos p, sin p),
  // rot_y(p) e_z = (sin p, 0, cos p).
  checkEntries(letEntries("spatial.mech", params + "  let u = rot_z(p) * [1, 0, 0]", "u"),
               {std::cos(p), std::sin(p), 0});
  checkEntries(letEntries("spatial.mech", params + "  let u = rot_x(p) * [0, 1, 0]", "u"),
               {0, std::cos(p), std::sin(p)});
  checkEntries(letEntries("spatial.mech", params + "  let u = rot_y(p) * [0, 0, 1]", "u"),
               {std::sin(p), 0, std::cos(p)});
  // Each rotation times its transpose is the identity.
  Matrix3 identity{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
  for (const char *axis : {"rot_x", "rot_y", "rot_z"})
    checkMatrix(letEntries("spatial.mech",
                           params + "  let R = " + axis + "(q) * transpose(" + axis + "(q))", "R"),
                identity);
  // Euler angles: the products of the axis rotations, built here.
  checkMatrix(letEntries("spatial.mech", params + "  let R = euler_zxz(p, q, s)", "R"),
              times(times(rotZ(p), rotX(q)), rotZ(s)));
  checkMatrix(letEntries("spatial.mech", params + "  let R = euler_zyx(p, q, s)", "R"),
              times(times(rotZ(p), rotY(q)), rotX(s)));
  // skew(v) w = v x w = (vy wz - vz wy, vz wx - vx wz, vx wy - vy wx)
  double vx = 0.5, vy = -1.5, vz = 2, wx = 3, wy = 0.25, wz = -1;
  checkEntries(
      letEntries("spatial.mech", params + "  let c = skew([vx, vy, vz]) * [wx, wy, wz]", "c"),
      {vy * wz - vz * wy, vz * wx - vx * wz, vx * wy - vy * wx});
}

TEST_CASE("inertia.mech: the parallel- and perpendicular-axis theorems", "[stdlib]") {
  const double m = 2.5, l = 0.8, r = 0.3, h = 1.2, a = 0.2, b = 0.5, c = 0.7;
  std::string params =
      "  param m = 2.5 [kg], l = 0.8 [m], r = 0.3 [m], h = 1.2 [m], a = 0.2 [m], b = 0.5 [m], "
      "c = 0.7 [m]\n";
  // About the end, a rod's moment is the central one plus m (l/2)^2: m l^2/3.
  double end = letEntries("inertia.mech", params + "  let I = rod_end(m, l)", "I")[0];
  double center = letEntries("inertia.mech", params + "  let I = rod_center(m, l)", "I")[0];
  CHECK(end == Approx(center + m * (l / 2) * (l / 2)).epsilon(1e-14));
  CHECK(end == Approx(m * l * l / 3).epsilon(1e-14));
  // A flat disk: Izz = Ixx + Iyy, and Izz is the disk's axial moment m r^2/2.
  std::vector<double> disk =
      letEntries("inertia.mech", params + "  let J = disk_tensor(m, r)", "J");
  CHECK(disk[8] == Approx(disk[0] + disk[4]).epsilon(1e-14));
  CHECK(disk[8] ==
        Approx(letEntries("inertia.mech", params + "  let I = disk_axis(m, r)", "I")[0]));
  // A box: I_x = m (b^2 + c^2)/12, ...; zero products of inertia.
  checkEntries(letEntries("inertia.mech", params + "  let J = box_tensor(m, a, b, c)", "J"),
               {m * (b * b + c * c) / 12, 0, 0, 0, m * (a * a + c * c) / 12, 0, 0, 0,
                m * (a * a + b * b) / 12});
  // A cylinder thinner and thinner tends to a rod about its centre: m h^2/12 at r = 0.
  std::string thin = "  param m = 2.5 [kg], h = 1.2 [m], r = 0 [m]\n";
  CHECK(letEntries("inertia.mech", thin + "  let I = cylinder_transverse(m, r, h)", "I")[0] ==
        Approx(m * h * h / 12).epsilon(1e-14));
  // A shell carries its mass at the radius: 2/3 m r^2 against 2/5 m r^2.
  CHECK(letEntries("inertia.mech", params + "  let I = hollow_sphere(m, r)", "I")[0] ==
        Approx(2.0 / 3 * m * r * r).epsilon(1e-14));
  CHECK(letEntries("inertia.mech", params + "  let I = solid_sphere(m, r)", "I")[0] ==
        Approx(0.4 * m * r * r).epsilon(1e-14));
  // The shifts: a rod about its end from its centre (d = l/2 along x); a
  // box about a corner, written out by hand: I_xx = m((b^2 + c^2)/12 +
  // (dy^2 + dz^2)), I_xy = -m dx dy with d = (a, b, c)/2.
  CHECK(letEntries("inertia.mech",
                   params + "  let I = parallel_axis(rod_center(m, l), m, [l/2, 0])",
                   "I")[0] == Approx(m * l * l / 3).epsilon(1e-14));
  double dx = a / 2, dy = b / 2, dz = c / 2;
  checkEntries(
      letEntries("inertia.mech",
                 params + "  let J = parallel_axis_tensor(box_tensor(m, a, b, c), m, [a, b, c]/2)",
                 "J"),
      {m * ((b * b + c * c) / 12 + dy * dy + dz * dz), -m * dx * dy, -m * dx * dz, -m * dx * dy,
       m * ((a * a + c * c) / 12 + dx * dx + dz * dz), -m * dy * dz, -m * dx * dz, -m * dy * dz,
       m * ((a * a + b * b) / 12 + dx * dx + dy * dy)});
  (void)h;
}
