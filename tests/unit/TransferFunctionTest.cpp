// Poles, zeros, gain and cancellations of single-input, single-output
// systems (mechanics/TransferFunction) against transfer functions worked out
// by hand.
#include "mechanics/TransferFunction.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace mech;

TEST_CASE("a mode the input does not move cancels as uncontrollable", "[linearize]") {
  // Two oscillators, x1'' = -4 x1 + u and x2'' = -9 x2, both seen:
  // y = x1 + x2, so G(s) = 1 / (s^2 + 4); the second's poles +-3i cancel.
  mechanics::Matrix A = {{0, 0, 1, 0}, {0, 0, 0, 1}, {-4, 0, 0, 0}, {0, -9, 0, 0}};
  mechanics::TransferFunction tf = mechanics::transferFunction(A, {0, 0, 1, 0}, {1, 1, 0, 0}, 0);
  REQUIRE(tf.poles.size() == 2);
  CHECK(std::abs(tf.poles[0] - std::complex<double>(0, -2)) < 1e-12);
  CHECK(std::abs(tf.poles[1] - std::complex<double>(0, 2)) < 1e-12);
  CHECK(tf.zeros.empty());
  CHECK(tf.gain == Approx(1));
  REQUIRE(tf.cancelled.size() == 2);
  for (const mechanics::CancelledMode &m : tf.cancelled) {
    CHECK(std::abs(std::abs(m.pole) - 3) < 1e-12);
    CHECK(m.uncontrollable);
    CHECK_FALSE(m.unobservable);
  }
}

TEST_CASE("a feedthrough and a zero: G(s) = (s + 1) / (s + 2) + 0 has gain 1", "[linearize]") {
  // x' = -2 x + u, y = -x + u: G = -1/(s + 2) + 1 = (s + 1)/(s + 2).
  mechanics::TransferFunction tf = mechanics::transferFunction({{-2}}, {1}, {-1}, 1);
  REQUIRE(tf.poles.size() == 1);
  REQUIRE(tf.zeros.size() == 1);
  CHECK(tf.poles[0].real() == Approx(-2));
  CHECK(tf.zeros[0].real() == Approx(-1));
  CHECK(tf.gain == Approx(1));
  CHECK(tf.cancelled.empty());
}

TEST_CASE("an output that no mode reaches is identically zero", "[linearize]") {
  mechanics::TransferFunction tf =
      mechanics::transferFunction({{0, 1}, {-1, 0}}, {0, 1}, {0, 0}, 0);
  CHECK(tf.zero);
  CHECK(tf.poles.empty());
  CHECK(tf.cancelled.size() == 2);
}
