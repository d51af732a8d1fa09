// Helpers shared by the tests of the mechanics layer: derive the equations of
// a model held in memory or read from examples/, evaluate them at a state,
// and compare numbers with closed forms worked out by hand.
#pragma once

#include "TestSupport.h"

#include "driver/Pipeline.h"
#include "mechanics/Evaluation.h"
#include "mechanics/Lagrange.h"
#include "symbolic/Program.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace mech::test {

constexpr double kPi = 3.141592653589793238462643383279502884;

// A model analysed and (when it can be) derived from text.
struct DerivedModel {
  Session session;
  sema::Analysis analysis;
  std::optional<mechanics::Derivation> derivation;

  const sema::CheckedModel &model() const { return *analysis.model; }
  const mechanics::Equations &equations() const { return derivation->equations; }

  // The parameter values of the checked model (overrides applied), in order.
  std::vector<double> params() const {
    std::vector<double> values;
    for (const sema::Param &p : model().params)
      values.push_back(p.value);
    return values;
  }

  double param(const std::string &name) const {
    for (const sema::Param &p : model().params)
      if (p.name == name)
        return p.value;
    FAIL("no param " << name);
    return 0;
  }

  size_t coord(const std::string &name) const {
    const auto &names = equations().coordinates;
    for (size_t j = 0; j < names.size(); ++j)
      if (names[j] == name)
        return j;
    FAIL("no coordinate " << name);
    return 0;
  }
};

// Analyses text that must check cleanly and derives its equations; the
// derivation may be refused (derivation is then empty).
inline std::unique_ptr<DerivedModel> tryDerive(const std::string &text,
                                               const sema::AnalysisOptions &options = {}) {
  auto result = std::make_unique<DerivedModel>();
  result->analysis = result->session.analyze(text, options);
  INFO(text << "\n" << result->session.messages());
  REQUIRE(result->analysis.ok);
  REQUIRE(result->analysis.model != nullptr);
  result->derivation =
      mechanics::deriveEquations(*result->analysis.model, result->session.diagnostics());
  return result;
}

// The same for a model whose derivation must succeed.
inline std::unique_ptr<DerivedModel> derive(const std::string &text,
                                            const sema::AnalysisOptions &options = {}) {
  auto result = tryDerive(text, options);
  INFO(text << "\n" << result->session.messages());
  REQUIRE(result->derivation.has_value());
  REQUIRE_FALSE(result->session.diagnostics().hasErrors());
  return result;
}

// Parameter overrides as `--set` gives them (plain numbers, SI).
inline sema::AnalysisOptions overrides(std::vector<std::pair<std::string, double>> values) {
  sema::AnalysisOptions options;
  for (auto &[name, value] : values) {
    sema::ParamOverride o;
    o.name = name;
    o.value = value;
    options.overrides.push_back(o);
  }
  return options;
}

inline std::string examplePath(const std::string &name) {
  return std::string(MECH_SOURCE_ROOT) + "/examples/" + name;
}

// Loads and derives a file through the shared pipeline, with `--set` texts.
inline std::unique_ptr<driver::LoadedModel>
loadExample(const std::string &name, const std::vector<std::string> &settings = {}) {
  auto loaded = driver::loadModel(examplePath(name), settings, Session::defaultSearchPath(), true);
  std::ostringstream messages;
  loaded->diagnostics().print(messages);
  INFO(name << "\n" << messages.str());
  REQUIRE(loaded->analysis.model != nullptr);
  REQUIRE(loaded->derivation.has_value());
  REQUIRE_FALSE(loaded->diagnostics().hasErrors());
  return loaded;
}

inline mechanics::State state(std::vector<double> q, std::vector<double> qd, double t = 0) {
  mechanics::State s;
  s.t = t;
  s.q = std::move(q);
  s.qd = std::move(qd);
  return s;
}

// Evaluates at a state that must have a regular mass matrix.
inline mechanics::Evaluation evaluate(const mechanics::Evaluator &evaluator,
                                      const mechanics::State &s) {
  Diagnostics diagnostics;
  std::optional<mechanics::Evaluation> e = evaluator.at(s, diagnostics);
  std::ostringstream messages;
  diagnostics.print(messages);
  INFO(messages.str());
  REQUIRE(e.has_value());
  REQUIRE(e->qdd.has_value());
  return *e;
}

// Numeric values of arbitrary derived expressions (T2, T1, ...) at a state,
// with the evaluator's input layout: params, q, q', q'', t.
inline std::vector<double> evaluateExpressions(const mechanics::Equations &eq,
                                               const std::vector<sym::Expr> &exprs,
                                               const std::vector<double> &params,
                                               const mechanics::State &s,
                                               const std::vector<double> &qdd = {}) {
  mechanics::InputLayout layout;
  layout.params = params.size();
  layout.coordinates = eq.coordinates.size();
  layout.multipliers = eq.constraints.size();
  sym::Program program(exprs, [&](const sym::SymbolInfo &info) { return layout.index(info); });
  std::vector<double> inputs = layout.inputs(params, s);
  std::copy(qdd.begin(), qdd.end(),
            inputs.begin() + static_cast<long>(layout.params + 2 * layout.coordinates));
  return program.evaluate(inputs);
}

// |actual - expected| <= rel * max(|expected|, scale): a relative comparison
// that does not break down where the expected value passes through zero
// (scale is the typical size of the quantity).
inline bool near(double actual, double expected, double rel, double scale = 0) {
  double size = std::max(std::abs(expected), std::abs(scale));
  return std::abs(actual - expected) <= rel * size || actual == expected;
}

// Catch assertion of `near` with both numbers in the message.
#define MECH_CHECK_NEAR(actual, expected, rel, scale)                                              \
  do {                                                                                             \
    double mech_actual_ = (actual), mech_expected_ = (expected);                                   \
    INFO(#actual " = " << std::setprecision(17) << mech_actual_ << ", expected " << mech_expected_ \
                       << " (rel " << (rel) << ")");                                               \
    CHECK(::mech::test::near(mech_actual_, mech_expected_, (rel), (scale)));                       \
  } while (false)

// A small deterministic generator of states (no global random state).
class Lcg {
public:
  explicit Lcg(uint64_t seed) : state_(seed * 6364136223846793005ull + 1442695040888963407ull) {}
  // Uniform in [lo, hi).
  double uniform(double lo, double hi) {
    state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
    double unit = static_cast<double>(state_ >> 11) * (1.0 / 9007199254740992.0);
    return lo + (hi - lo) * unit;
  }

private:
  uint64_t state_;
};

// Models shared by the mechanics tests, written as .mech text.
namespace models {

inline constexpr const char *kPendulum = R"(
model Pendulum {
  param m = 0.7 [kg], l = 1.3 [m], g = 9.81 [m/s^2]
  coord th [rad]
  particle bob mass m at l * [sin(th), -cos(th)]
  gravity [0, -g]
}
)";

inline constexpr const char *kNamedPendulum = R"(
model NamedPendulum {
  param m = 0.7 [kg], l = 1.3 [m], g = 9.81 [m/s^2]
  coord th [rad]
  kinetic T = m/2 * l^2 * th'^2
  potential V = -m * g * l * cos(th)
}
)";

inline constexpr const char *kSplitPendulum = R"(
model SplitPendulum {
  param m = 0.7 [kg], l = 1.3 [m], g = 9.81 [m/s^2]
  coord th [rad]
  kinetic Ta = m/4 * l^2 * th'^2
  kinetic Tb = m/4 * l^2 * th'^2
  potential Va = -m * g * l * cos(th) / 3
  potential Vb = -2 * m * g * l * cos(th) / 3
}
)";

inline constexpr const char *kDoublePendulumText = R"(
model DoublePendulum {
  param m1 = 1.0 [kg], m2 = 1.0 [kg]
  param l1 = 1.0 [m],  l2 = 0.8 [m]
  param g  = 9.81 [m/s^2]
  coord th1 [rad], th2 [rad]
  let p1 = l1 * [sin(th1), -cos(th1)]
  let p2 = p1 + l2 * [sin(th2), -cos(th2)]
  kinetic   T = m1/2 * dot(p1', p1') + m2/2 * dot(p2', p2')
  potential V = g * (m1 * p1.y + m2 * p2.y)
}
)";

inline constexpr const char *kTop = R"(
import "spatial.mech"
model HeavyTop {
  param m = 1.3 [kg], h = 0.2 [m], g = 9.81 [m/s^2]
  param I1 = 0.03 [kg*m^2], I3 = 0.05 [kg*m^2]
  coord phi [rad], theta [rad], psi [rad]
  body top mass m at euler_zxz(phi, theta, psi) * [0, 0, h] rotation euler_zxz(phi, theta, psi) inertia diag(I1, I1, I3)
  gravity [0, 0, -g]
  init theta = 0.7
}
)";

inline constexpr const char *kCompoundPendulum = R"(
model CompoundPendulum {
  param M = 2 [kg], a = 0.6 [m], g = 9.81 [m/s^2]
  coord phi [rad]
  body rod mass M at a/2 * [sin(phi), -cos(phi)] angle phi inertia M*a^2/12
  gravity [0, -g]
}
)";

// The same with the standard library's helpers.
inline constexpr const char *kCompoundPendulumLibrary = R"(
import "inertia.mech"
import "planar.mech"
model CompoundPendulum {
  param M = 2 [kg], a = 0.6 [m], g = 9.81 [m/s^2]
  coord phi [rad]
  body rod mass M at a/2 * down(phi) angle phi inertia rod_center(M, a)
  gravity [0, -g]
}
)";

// A uniform disk rolling down an incline without slipping, with s the
// distance travelled along the incline.
inline constexpr const char *kRollingDisk = R"(
model RollingDisk {
  param m = 2 [kg], r = 0.3 [m], g = 9.81 [m/s^2], alpha = 0.4 [rad]
  coord s [m]
  body disk mass m at s * [cos(alpha), -sin(alpha)] angle s/r inertia m*r^2/2
  gravity [0, -g]
}
)";

// The same with the rolling angle phi as the coordinate (s = r*phi; the
// disk turns clockwise as it rolls towards +x).
inline constexpr const char *kRollingDiskAngle = R"(
model RollingDiskAngle {
  param m = 2 [kg], r = 0.3 [m], g = 9.81 [m/s^2], alpha = 0.4 [rad]
  coord phi [rad]
  body disk mass m at r*phi * [cos(alpha), -sin(alpha)] angle -phi inertia m*r^2/2
  gravity [0, -g]
}
)";

// A pendulum whose support moves vertically as A*cos(w*t).
inline constexpr const char *kDrivenSupport = R"(
model DrivenSupport {
  param m = 0.7 [kg], l = 0.9 [m], g = 9.81 [m/s^2], A = 0.05 [m], w = 30 [1/s]
  coord th [rad]
  let support = [0, A*cos(w*t)]
  particle bob mass m at support + l * [sin(th), -cos(th)]
  gravity [0, -g]
}
)";

// A damped, harmonically forced mass on a spring, with the force applied at
// a point and, in the second form, given directly as a generalized force.
inline constexpr const char *kOscillatorForce = R"(
model Oscillator {
  param m = 2 [kg], k = 5 [N/m], c = 0.3 [N*s/m], F0 = 1.5 [N], w = 1.7 [1/s]
  coord x [m]
  particle block mass m at [x, 0]
  spring k between [0, 0] and [x, 0] rest 0
  dissipation D = c/2 * x'^2
  force [F0*cos(w*t), 0] at [x, 0]
}
)";

inline constexpr const char *kOscillatorGeneralized = R"(
model Oscillator {
  param m = 2 [kg], k = 5 [N/m], c = 0.3 [N*s/m], F0 = 1.5 [N], w = 1.7 [1/s]
  coord x [m]
  kinetic T = m/2 * x'^2
  potential V = k/2 * x^2
  dissipation D = c/2 * x'^2
  generalized F0*cos(w*t) on x
}
)";

// A bead on a circular hoop of radius R turning about the vertical at the
// constant rate W: th'' = sin(th)*(W^2*cos(th) - g/R), with T0 = m/2*R^2*
// W^2*sin(th)^2 from the motion of the hoop and T1 = 0.
inline constexpr const char *kRotatingHoop = R"(
model RotatingHoop {
  param m = 0.3 [kg], R = 0.5 [m], W = 6 [1/s], g = 9.81 [m/s^2]
  coord th [rad]
  particle bead mass m at R * [sin(th)*cos(W*t), sin(th)*sin(W*t), -cos(th)]
  gravity [0, 0, -g]
}
)";

// A point mass on a spring of rest length L0 hung from the origin.
inline constexpr const char *kElasticPendulum = R"(
model ElasticPendulum {
  param m = 0.4 [kg], k = 30 [N/m], L0 = 0.5 [m], g = 9.81 [m/s^2]
  coord x [m], y [m]
  particle bob mass m at [x, y]
  spring k between [0, 0] and [x, y] rest L0
  gravity [0, -g]
}
)";

} // namespace models

} // namespace mech::test
