// The built-in functions on symbolic tensors (mechanics/Builtins.h).
#include "mechanics/Builtins.h"

#include "mechanics/MatrixBuiltins.h"
#include "support/Diagnostics.h"

namespace mech::mechanics {

namespace {

using sym::Expr;

// The elementary functions come first in the list of built-ins, in the
// order of the engine's functions (both are MECH_ELEMENTARY_FUNCTIONS).
std::optional<sym::Fn> elementary(sema::Builtin b) {
  constexpr int kElementary = 0
#define MECH_COUNT_ELEMENTARY(id, name, arity) +1
      MECH_ELEMENTARY_FUNCTIONS(MECH_COUNT_ELEMENTARY)
#undef MECH_COUNT_ELEMENTARY
      ;
  if (static_cast<int>(b) >= kElementary || b == sema::Builtin::Atan2)
    return std::nullopt;
  return static_cast<sym::Fn>(static_cast<int>(b));
}

Tensor crossProduct(const Tensor &a, const Tensor &b) {
  if (a.rows == 2)
    return Tensor::scalar(a.v[0] * b.v[1] - a.v[1] * b.v[0]);
  return {3,
          0,
          {a.v[1] * b.v[2] - a.v[2] * b.v[1], a.v[2] * b.v[0] - a.v[0] * b.v[2],
           a.v[0] * b.v[1] - a.v[1] * b.v[0]}};
}

Tensor transposed(const Tensor &a) {
  Tensor t{a.cols, a.rows, {}};
  for (int i = 0; i < a.cols; ++i)
    for (int j = 0; j < a.rows; ++j)
      t.v.push_back(a.v[static_cast<size_t>(j * a.cols + i)]);
  return t;
}

Tensor diagonal(sym::Context &c, const std::vector<Tensor> &args) {
  int size = static_cast<int>(args.size());
  Tensor t{size, size, {}};
  for (int i = 0; i < size; ++i)
    for (int j = 0; j < size; ++j)
      t.v.push_back(i == j ? args[static_cast<size_t>(i)].v[0] : c.zero());
  return t;
}

Expr sumOfProducts(sym::Context &c, const Tensor &a, const Tensor &b) {
  std::vector<Expr> terms;
  for (size_t k = 0; k < a.v.size(); ++k)
    terms.push_back(a.v[k] * b.v[k]);
  return c.add(terms);
}

} // namespace

Tensor applyBuiltin(sym::Context &c, sema::Builtin builtin, const std::vector<Tensor> &args) {
  using B = sema::Builtin;
  if (auto fn = elementary(builtin))
    return Tensor::scalar(sym::apply(*fn, args[0].v[0]));
  switch (builtin) {
  case B::Sqrt:
    return Tensor::scalar(sym::sqrt(args[0].v[0]));
  case B::Atan2:
    return Tensor::scalar(sym::atan2(args[0].v[0], args[1].v[0]));
  case B::Dot:
    return Tensor::scalar(sumOfProducts(c, args[0], args[1]));
  case B::Cross:
    return crossProduct(args[0], args[1]);
  case B::Norm:
    return Tensor::scalar(sym::sqrt(sumOfProducts(c, args[0], args[0])));
  case B::Transpose:
    return transposed(args[0]);
  case B::Min:
  case B::Max: {
    Expr result = args[0].v[0];
    for (size_t i = 1; i < args.size(); ++i)
      result = builtin == B::Min ? sym::minimum(result, args[i].v[0])
                                 : sym::maximum(result, args[i].v[0]);
    return Tensor::scalar(result);
  }
  case B::Clamp:
    return Tensor::scalar(sym::clamp(args[0].v[0], args[1].v[0], args[2].v[0]));
  case B::Smooth: {
    Tensor t = args[0];
    for (Expr &x : t.v)
      x = c.function(sym::Fn::Smooth, {x});
    return t;
  }
  case B::Diag:
    return diagonal(c, args);
  case B::Det:
    return Tensor::scalar(determinant(c, args[0]));
  case B::Trace:
    return Tensor::scalar(trace(c, args[0]));
  case B::Inv:
    return inverse(c, args[0]);
  case B::Solve:
    return solve(c, args[0], args[1]);
  default:
    internalError("unhandled builtin");
  }
}

} // namespace mech::mechanics
