// The shape rules of the built-in functions (sema/BuiltinShapes.h).
#include "sema/BuiltinShapes.h"

namespace mech::sema {

namespace {

using Result = std::variant<Shape, ShapeProblem>;

class ShapeRule {
public:
  ShapeRule(Builtin builtin, const std::vector<Shape> &args)
      : builtin_(builtin), args_(args), name_(builtinName(builtin)) {}

  Result check() {
    switch (builtin_) {
    case Builtin::Abs:
      return scalars(1, "a scalar (use norm for a vector)");
    case Builtin::Atan2:
      return scalars(2, "scalars");
    case Builtin::Dot:
    case Builtin::Cross:
      return dotOrCross();
    case Builtin::Norm:
      if (auto problem = arity(1))
        return *problem;
      if (!args_[0].isVector())
        return expected(0, "a vector (use abs for a scalar)");
      return Shape::scalar();
    case Builtin::Transpose:
      if (auto problem = arity(1))
        return *problem;
      if (!args_[0].isMatrix())
        return expected(0, "a matrix");
      return Shape::matrix(args_[0].cols, args_[0].rows);
    case Builtin::Diag:
      return diagonal();
    case Builtin::Det:
    case Builtin::Trace:
    case Builtin::Inv:
      return squareMatrix();
    case Builtin::Solve:
      return linearSystem();
    case Builtin::Min:
    case Builtin::Max:
      if (args_.size() < 2)
        return ShapeProblem{-1, name_ + " takes 2 or more scalars, " +
                                    std::to_string(args_.size()) + " given"};
      return scalars(args_.size(), "scalars");
    case Builtin::Clamp:
      return scalars(3, "scalars: clamp(x, lo, hi)");
    case Builtin::If:
      return choice();
    case Builtin::Smooth:
      if (auto problem = arity(1))
        return *problem;
      return args_[0];
    default:
      return scalars(1, "a scalar"); // sqrt and the elementary functions
    }
  }

private:
  std::optional<ShapeProblem> arity(size_t n) const {
    if (args_.size() == n)
      return std::nullopt;
    return ShapeProblem{-1, name_ + " takes " + std::to_string(n) + " argument" +
                                (n == 1 ? "" : "s") + ", " + std::to_string(args_.size()) +
                                " given"};
  }

  ShapeProblem expected(size_t i, const std::string &what) const {
    return {static_cast<int>(i), name_ + " expects " + what + ", found " + args_[i].toString()};
  }

  Result scalars(size_t n, const std::string &what) const {
    if (auto problem = arity(n))
      return *problem;
    for (size_t i = 0; i < n; ++i)
      if (!args_[i].isScalar())
        return expected(i, what);
    return Shape::scalar();
  }

  // The planar cross product is the scalar z-component.
  Result dotOrCross() const {
    if (auto problem = arity(2))
      return *problem;
    for (size_t i = 0; i < 2; ++i)
      if (!args_[i].isVector())
        return expected(i, "vectors");
    if (args_[0] != args_[1])
      return ShapeProblem{-1, name_ + " of vectors of different sizes (" + args_[0].toString() +
                                  " and " + args_[1].toString() + ")"};
    if (builtin_ == Builtin::Dot)
      return Shape::scalar();
    if (args_[0].rows != 2 && args_[0].rows != 3)
      return expected(0, "2-vectors or 3-vectors");
    return args_[0].rows == 3 ? Shape::vector(3) : Shape::scalar();
  }

  Result diagonal() const {
    if (args_.size() < 2 || args_.size() > 3)
      return ShapeProblem{-1,
                          "diag takes 2 or 3 scalars, " + std::to_string(args_.size()) + " given"};
    for (size_t i = 0; i < args_.size(); ++i)
      if (!args_[i].isScalar())
        return expected(i, "scalars");
    int n = static_cast<int>(args_.size());
    return Shape::matrix(n, n);
  }

  // if(condition, a, b): a and b of one shape, which is the result's.
  Result choice() const {
    if (auto problem = arity(3))
      return *problem;
    if (args_[1] != args_[2])
      return ShapeProblem{-1, "if's values have different shapes (" + args_[1].toString() +
                                  " and " + args_[2].toString() + ")"};
    return args_[1];
  }

  Result squareMatrix() const {
    if (auto problem = arity(1))
      return *problem;
    if (auto problem = squareMatrixProblem(builtin_, args_[0]))
      return ShapeProblem{0, *problem};
    return builtin_ == Builtin::Inv ? args_[0] : Shape::scalar();
  }

  // solve(A, b): A square, b a vector or matrix of as many rows; x has b's
  // shape.
  Result linearSystem() const {
    if (auto problem = arity(2))
      return *problem;
    if (auto problem = squareMatrixProblem(builtin_, args_[0]))
      return ShapeProblem{0, *problem};
    if (args_[1].isScalar() || args_[1].rows != args_[0].rows)
      return expected(1, "a vector or matrix of " + std::to_string(args_[0].rows) + " rows");
    return args_[1];
  }

  Builtin builtin_;
  const std::vector<Shape> &args_;
  std::string name_;
};

} // namespace

std::variant<Shape, ShapeProblem> builtinShape(Builtin builtin, const std::vector<Shape> &args) {
  return ShapeRule(builtin, args).check();
}

} // namespace mech::sema
