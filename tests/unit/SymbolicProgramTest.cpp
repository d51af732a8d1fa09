// Straight-line programs: values against direct evaluation written in C++,
// one instruction per distinct subexpression, tree sizes, output order and
// input mapping.
#include "SymbolicTestSupport.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

using namespace mech;
using namespace mech::symtest;
using sym::apply;
using sym::atan2;
using sym::pow;
using sym::Program;
using sym::sqrt;

namespace {

struct Setup {
  Context c;
  Expr x = c.symbol("x", SymbolKind::Free);
  Expr y = c.symbol("y", SymbolKind::Free);
  Expr z = c.symbol("z", SymbolKind::Free);
  Expr m = c.symbol("m", SymbolKind::Param, 0);
  Expr n(int64_t v) { return c.integer(v); }
  Expr q(int64_t p, int64_t r) { return c.rational(p, r); }
};

} // namespace

TEST_CASE("programs compute the values written by hand", "[symbolic]") {
  Setup s;
  Context &c = s.c;
  Expr x = s.x, y = s.y, z = s.z, m = s.m;
  using F = std::function<double(double, double, double, double)>;
  struct Case {
    const char *what;
    Expr e;
    F value;
  };
  const std::vector<Case> cases = {
      {"x + 2y - z/3", x + s.n(2) * y - z / s.n(3),
       [](double x, double y, double z, double) { return x + 2 * y - z / 3; }},
      {"x*y*z^2", x * y * pow(z, 2),
       [](double x, double y, double z, double) { return x * y * z * z; }},
      {"sin(x)cos(y) + exp(z)", apply(Fn::Sin, x) * apply(Fn::Cos, y) + apply(Fn::Exp, z),
       [](double x, double y, double z, double) {
         return std::sin(x) * std::cos(y) + std::exp(z);
       }},
      {"sqrt(x^2 + y^2)", sqrt(pow(x, 2) + pow(y, 2)),
       [](double x, double y, double, double) { return std::sqrt(x * x + y * y); }},
      {"1/sqrt(1 + x^2)", pow(s.n(1) + pow(x, 2), s.q(-1, 2)),
       [](double x, double, double, double) { return 1 / std::sqrt(1 + x * x); }},
      {"(1 + x^2)^(1/3)", pow(s.n(1) + pow(x, 2), s.q(1, 3)),
       [](double x, double, double, double) { return std::cbrt(1 + x * x); }},
      {"(2 + y)^z", pow(s.n(2) + y, z),
       [](double, double y, double z, double) { return std::pow(2 + y, z); }},
      {"x^-3 * y^5", pow(x, -3) * pow(y, 5),
       [](double x, double y, double, double) { return std::pow(y, 5) / (x * x * x); }},
      {"atan2(y, x)", atan2(y, x),
       [](double x, double y, double, double) { return std::atan2(y, x); }},
      {"abs(x - y) + sign(z)", apply(Fn::Abs, x - y) + apply(Fn::Sign, z),
       [](double x, double y, double z, double) {
         return std::abs(x - y) + (z > 0 ? 1.0 : z < 0 ? -1.0 : 0.0);
       }},
      {"log(1 + z^2)*tan(x/4)", apply(Fn::Log, s.n(1) + pow(z, 2)) * apply(Fn::Tan, x / s.n(4)),
       [](double x, double, double z, double) { return std::log(1 + z * z) * std::tan(x / 4); }},
      {"asin(x/3) - acos(y/3) + atan(z)",
       apply(Fn::Asin, x / s.n(3)) - apply(Fn::Acos, y / s.n(3)) + apply(Fn::Atan, z),
       [](double x, double y, double z, double) {
         return std::asin(x / 3) - std::acos(y / 3) + std::atan(z);
       }},
      {"sinh(x) cosh(y) tanh(z)", apply(Fn::Sinh, x) * apply(Fn::Cosh, y) * apply(Fn::Tanh, z),
       [](double x, double y, double z, double) {
         return std::sinh(x) * std::cosh(y) * std::tanh(z);
       }},
      {"pi*m*x^2/12", c.pi() * m * pow(x, 2) / s.n(12),
       [](double x, double, double, double m) { return M_PI * m * x * x / 12; }},
      {"5/6", s.q(5, 6), [](double, double, double, double) { return 5.0 / 6.0; }},
      {"m/(x*y) - 1", m / (x * y) - s.n(1),
       [](double x, double y, double, double m) { return m / (x * y) - 1; }},
      {"(x + y)^2 * (x - y)", pow(x + y, 2) * (x - y),
       [](double x, double y, double, double) { return (x + y) * (x + y) * (x - y); }},
  };
  Inputs in{x, y, z, m};
  const double points[][4] = {{0.7, -1.3, 0.4, 2.0}, {1.9, 0.25, -2.2, 0.5}, {-0.6, 2.4, 1.1, 3.5}};
  for (const Case &k : cases) {
    Program program({k.e}, in.map());
    for (const auto &p : points) {
      INFO(k.what << " at " << p[0] << ", " << p[1] << ", " << p[2] << ", " << p[3]);
      double got = program.evaluate({p[0], p[1], p[2], p[3]})[0];
      CHECK(close(got, k.value(p[0], p[1], p[2], p[3]), 1e-13));
    }
  }
}

TEST_CASE("shared subexpressions are computed once", "[symbolic]") {
  Setup s;
  Expr x = s.x, y = s.y, z = s.z;
  Inputs in{x, y, z};
  Expr f = apply(Fn::Sin, x * y + z);
  Program alone({f}, in.map());
  Program shared({f + f * f}, in.map());
  size_t extra = shared.instructions().size() - alone.instructions().size();
  INFO("f alone: " << alone.instructions().size()
                   << " instructions, f + f*f: " << shared.instructions().size());
  CHECK(shared.instructions().size() > alone.instructions().size());
  CHECK(extra <= 4);
  // As a tree, f + f*f holds f twice.
  CHECK(shared.treeSize() > 2 * alone.treeSize());
  double fv = std::sin(0.3 * 1.7 - 0.4);
  CHECK(close(shared.evaluate({0.3, 1.7, -0.4})[0], fv + fv * fv));

  // Several outputs share one program.
  Program both({f, pow(f, 2), f + f * f}, in.map());
  CHECK(both.instructions().size() <= shared.instructions().size() + 1);

  // f_{k+1} = sin(f_k) + cos(f_k): exponential as a tree, linear as a program.
  Expr g = x;
  double size = 1;
  for (int k = 0; k < 40; ++k) {
    g = apply(Fn::Sin, g) + apply(Fn::Cos, g);
    size = 5 + 2 * size; // sum node, sin and cos nodes, two coefficients
  }
  Program chain({g}, in.map());
  CHECK(chain.treeSize() == size);
  CHECK(chain.instructions().size() <= 3 * 40 + 2);
  double gv = 0.6;
  for (int k = 0; k < 40; ++k)
    gv = std::sin(gv) + std::cos(gv);
  CHECK(close(chain.evaluate({0.6, 0, 0})[0], gv));
}

TEST_CASE("treeSize counts the expressions written as trees", "[symbolic]") {
  Setup s;
  Expr x = s.x, y = s.y;
  Inputs in{x, y};
  struct Case {
    const char *what;
    Expr e;
    double size;
  };
  // Every node counts once per occurrence, including the coefficient and
  // exponent numbers stored as operands of sums and powers.
  const std::vector<Case> cases = {
      {"x", x, 1},
      {"7", s.n(7), 1},
      {"x + y: sum, two terms, two coefficients", x + y, 5},
      {"x + 1: the constant is not an operand", x + s.n(1), 3},
      {"sin(x)", apply(Fn::Sin, x), 2},
      {"x^2: power, base, exponent", pow(x, 2), 3},
      {"2*x*y: the coefficient is not an operand", s.n(2) * x * y, 5},
      {"atan2(x, y)", atan2(x, y), 3},
      {"sin(x)^2 + sin(x)", pow(apply(Fn::Sin, x), 2) + apply(Fn::Sin, x), 9},
  };
  for (const Case &k : cases) {
    INFO(k.what);
    CHECK(k.e->treeSize == k.size);
    CHECK(Program({k.e}, in.map()).treeSize() == k.size);
  }
  // Summed over outputs, shared or not.
  CHECK(Program({x + y, apply(Fn::Sin, x)}, in.map()).treeSize() == 7);
  CHECK(Program({apply(Fn::Sin, x), apply(Fn::Sin, x)}, in.map()).treeSize() == 4);
}

TEST_CASE("outputs come in the order given", "[symbolic]") {
  Setup s;
  Expr x = s.x, y = s.y, z = s.z;
  Inputs in{x, y, z};
  Program program({z, y, x, x + y, x, s.n(3)}, in.map());
  REQUIRE(program.outputs().size() == 6);
  std::vector<double> v = program.evaluate({1, 2, 3});
  REQUIRE(v.size() == 6);
  CHECK(v[0] == 3);
  CHECK(v[1] == 2);
  CHECK(v[2] == 1);
  CHECK(v[3] == 3);
  CHECK(v[4] == 1);
  CHECK(v[5] == 3);
  // A repeated output is one instruction.
  CHECK(program.outputs()[2] == program.outputs()[4]);
  const sym::Instruction &input = program.instructions()[program.outputs()[2]];
  CHECK(input.op == sym::Instruction::Op::Input);
  CHECK(input.first == 0);
  const sym::Instruction &constant = program.instructions()[program.outputs()[5]];
  CHECK(constant.op == sym::Instruction::Op::Constant);
  CHECK(constant.constant == 3);

  // The raw interface, with scratch space reused across calls.
  std::vector<double> scratch;
  double inputs[3] = {4, 5, 6}, outputs[6];
  program.evaluate(inputs, outputs, scratch);
  CHECK(outputs[0] == 6);
  CHECK(outputs[3] == 9);
  inputs[0] = -1;
  program.evaluate(inputs, outputs, scratch);
  CHECK(outputs[2] == -1);
  CHECK(outputs[3] == 4);

  // No outputs: an empty program.
  Program empty({}, in.map());
  CHECK(empty.instructions().empty());
  CHECK(empty.evaluate({1, 2, 3}).empty());
}

TEST_CASE("inputs are mapped by the caller", "[symbolic]") {
  Setup s;
  Context &c = s.c;
  Expr x = s.x, y = s.y, z = s.z;
  // A permuted mapping: y -> 0, z -> 1, x -> 2.
  Inputs permuted{y, z, x};
  Program program({x - s.n(2) * y + s.n(10) * z}, permuted.map());
  CHECK(program.evaluate({1, 2, 3})[0] == 3 - 2 * 1 + 10 * 2);

  // A symbol without an input is an internal error.
  Inputs partial{x};
  CHECK_THROWS_AS(Program({x + y}, partial.map()), mech::InternalError);
  CHECK_THROWS_AS(Program({x, apply(Fn::Sin, z)}, partial.map()), mech::InternalError);
  // The constant pi needs no input.
  Program pi({c.pi() * x}, partial.map());
  CHECK(close(pi.evaluate({2})[0], 2 * M_PI, 1e-15));
  Program none({c.pi()}, [](const SymbolInfo &) { return -1; });
  CHECK(none.evaluate({})[0] == M_PI);
}
