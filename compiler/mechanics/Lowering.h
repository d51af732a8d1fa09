// Lowers the checked model's expressions (sema IR) into the symbolic engine:
// params, coordinates (with their velocities and accelerations), t and the
// multipliers become symbols; vectors and matrices become Tensors of scalar
// expressions. Memoised per sema node and per let, so shared subexpressions
// are lowered once.
#pragma once

#include "sema/Model.h"
#include "symbolic/Diff.h"
#include "symbolic/Expr.h"
#include "symbolic/Piecewise.h"

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace mech::mechanics {

// A scalar (rows == 0), a vector (cols == 0) or a row-major matrix.
struct Tensor {
  int rows = 0, cols = 0;
  std::vector<sym::Expr> v;

  static Tensor scalar(sym::Expr e) { return {0, 0, {e}}; }
  bool isScalar() const { return rows == 0; }
  const sym::Expr &operator[](size_t i) const { return v[i]; }
};

// a*b: a scalar times anything, or a matrix times a vector or a matrix
// (shapes as sema checked them).
Tensor tensorProduct(sym::Context &context, const Tensor &a, const Tensor &b);

// A law the printed equations show as written: a table's interpolant and
// its call ("drive(th')").
struct NamedLaw {
  sym::Expr law;
  std::string text;
  std::string latex; // \operatorname{drive}\left(\dot{\theta}\right)
};

class Lowering {
public:
  Lowering(const sema::CheckedModel &model, sym::Context &context);

  Tensor lower(const sema::ExprRef &e);
  sym::Expr scalar(const sema::ExprRef &e);

  sym::Context &context() { return context_; }
  const std::vector<sym::Context::Coordinate> &coordinates() const { return coordinates_; }
  const std::vector<sym::Expr> &params() const { return params_; }
  const std::vector<sym::Expr> &multipliers() const { return multipliers_; }
  // d/dt along the motion, shared so that its memo serves every caller.
  sym::Differentiator &timeDerivative() { return timeDerivative_; }
  // Where each choice (select), abs and sign of the lowered expressions was
  // written: the call of if, min, max, clamp, abs or sign that made it.
  const std::unordered_map<const sym::Node *, Location> &piecewiseLocations() const {
    return piecewiseAt_;
  }
  // Each table call's interpolant and how it is written (Equations::tableCalls).
  const std::vector<NamedLaw> &tableCalls() const { return tableCalls_; }

private:
  // One rule per kind family of the sema IR (see Lowering.cpp).
  Tensor lowerNode(const sema::Node &n);
  Tensor lowerSum(const sema::Node &n);
  Tensor lowerMul(const sema::Node &n);
  Tensor lowerCall(const sema::Node &n);
  sym::Condition lowerCondition(const sema::Node &n);
  // The i-th operand of n, lowered (memoised).
  Tensor child(const sema::Node &n, size_t i);
  Tensor product(const Tensor &a, const Tensor &b);
  // Records the choices, abs and sign in `t` not seen before as written at `at`.
  void notePiecewise(const Tensor &t, Location at);

  const sema::CheckedModel &model_;
  sym::Context &context_;
  std::vector<sym::Context::Coordinate> coordinates_;
  std::vector<sym::Expr> params_;
  std::vector<sym::Expr> multipliers_;
  sym::Differentiator timeDerivative_;
  std::unordered_map<const sema::Node *, Tensor> memo_;
  std::unordered_map<int, Tensor> lets_;
  std::unordered_map<const sym::Node *, Location> piecewiseAt_;
  std::unordered_set<const sym::Node *> walked_;
  std::vector<NamedLaw> tableCalls_;
};

} // namespace mech::mechanics
