// Built-in functions in the resolver: for each built-in, the number and the
// shapes of its arguments and the dimension of its result (sin needs a pure
// number, sqrt halves the exponents, det raises the entries' dimension to the
// n-th power, ...). The numeric meaning of each is in mechanics/.
#include "sema/Resolver.h"
#include "sema/ResolverInternal.h"

namespace mech::sema {

namespace {

// One call of a built-in function, its arguments resolved.
class BuiltinCall {
public:
  BuiltinCall(Resolver &resolver, Builtin builtin, const ast::Call &call, std::vector<ExprRef> args)
      : resolver_(resolver), diagnostics_(resolver.diagnostics()), builtin_(builtin), call_(call),
        args_(std::move(args)), name_(builtinName(builtin)) {}

  ExprRef resolve() {
    switch (builtin_) {
    case Builtin::Sin:
    case Builtin::Cos:
    case Builtin::Tan:
    case Builtin::Asin:
    case Builtin::Acos:
    case Builtin::Atan:
    case Builtin::Sinh:
    case Builtin::Cosh:
    case Builtin::Tanh:
    case Builtin::Exp:
    case Builtin::Log:
      return elementaryFunction();
    case Builtin::Sqrt:
      return squareRoot();
    case Builtin::Abs:
      return absoluteValue();
    case Builtin::Sign:
      return sign();
    case Builtin::Atan2:
      return angleOfPoint();
    case Builtin::Dot:
    case Builtin::Cross:
      return dotOrCross();
    case Builtin::Norm:
      return norm();
    case Builtin::Transpose:
      return transpose();
    case Builtin::Diag:
      return diagonalMatrix();
    case Builtin::Det:
    case Builtin::Trace:
    case Builtin::Inv:
      if (!arity(1))
        return nullptr;
      return squareMatrixFunction();
    }
    internalError("unhandled builtin");
  }

private:
  bool arity(size_t n) {
    if (args_.size() == n)
      return true;
    diagnostics_.error(call_.location, name_ + " takes " + std::to_string(n) + " argument" +
                                           (n == 1 ? "" : "s") + ", " +
                                           std::to_string(args_.size()) + " given");
    return false;
  }

  ExprRef shapeError(size_t i, const std::string &expected) {
    diagnostics_.error(call_.args[i]->location,
                       name_ + " expects " + expected + ", found " + args_[i]->shape.toString());
    return nullptr;
  }

  ExprRef makeCall(Shape shape, DimInfo dim) {
    auto node = std::const_pointer_cast<Node>(
        resolver_.make(ExprKind::Call, shape, dim, call_.location, args_));
    node->builtin = builtin_;
    return node;
  }

  // sin, cos, tan, their inverses, sinh, cosh, tanh, exp and log: a pure
  // number of a pure number.
  ExprRef elementaryFunction() {
    if (!arity(1))
      return nullptr;
    if (!args_[0]->shape.isScalar())
      return shapeError(0, "a scalar");
    if (!isDimensionless(args_[0]->dim)) {
      diagnostics_.error(call_.args[0]->location, name_ +
                                                      " needs a dimensionless argument, found " +
                                                      describeDimension(args_[0]->dim));
      return nullptr;
    }
    return makeCall(Shape::scalar(), DimInfo::known(Dimension()));
  }

  ExprRef squareRoot() {
    if (!arity(1))
      return nullptr;
    if (!args_[0]->shape.isScalar())
      return shapeError(0, "a scalar");
    DimInfo dim = args_[0]->dim;
    if (dim.isKnown()) {
      auto root = dim.dimension.raisedTo(*Rational::make(1, 2));
      if (!root) {
        diagnostics_.error(call_.location, exponentLimitMessage(dim, "sqrt"));
        return nullptr;
      }
      dim = DimInfo::known(*root);
    }
    return makeCall(Shape::scalar(), dim);
  }

  ExprRef absoluteValue() {
    if (!arity(1))
      return nullptr;
    if (!args_[0]->shape.isScalar())
      return shapeError(0, "a scalar (use norm for a vector)");
    return makeCall(Shape::scalar(), args_[0]->dim);
  }

  ExprRef sign() {
    if (!arity(1))
      return nullptr;
    if (!args_[0]->shape.isScalar())
      return shapeError(0, "a scalar");
    return makeCall(Shape::scalar(), DimInfo::known(Dimension()));
  }

  // atan2(y, x): two scalars of one dimension, a pure angle.
  ExprRef angleOfPoint() {
    if (!arity(2))
      return nullptr;
    for (size_t i = 0; i < 2; ++i)
      if (!args_[i]->shape.isScalar())
        return shapeError(i, "scalars");
    if (!resolver_.sumDimension(args_[0]->dim, args_[1]->dim, call_.location, "atan2"))
      return nullptr;
    return makeCall(Shape::scalar(), DimInfo::known(Dimension()));
  }

  ExprRef dotOrCross() {
    if (!arity(2))
      return nullptr;
    for (size_t i = 0; i < 2; ++i)
      if (!args_[i]->shape.isVector())
        return shapeError(i, "vectors");
    if (args_[0]->shape != args_[1]->shape) {
      diagnostics_.error(call_.location, name_ + " of vectors of different sizes (" +
                                             args_[0]->shape.toString() + " and " +
                                             args_[1]->shape.toString() + ")");
      return nullptr;
    }
    DimInfo dim = Resolver::productDimension(args_[0]->dim, args_[1]->dim);
    if (builtin_ == Builtin::Dot)
      return makeCall(Shape::scalar(), dim);
    // The planar cross product is the scalar z-component.
    return makeCall(args_[0]->shape.rows == 3 ? Shape::vector(3) : Shape::scalar(), dim);
  }

  ExprRef norm() {
    if (!arity(1))
      return nullptr;
    if (!args_[0]->shape.isVector())
      return shapeError(0, "a vector (use abs for a scalar)");
    return makeCall(Shape::scalar(), args_[0]->dim);
  }

  ExprRef transpose() {
    if (!arity(1))
      return nullptr;
    if (!args_[0]->shape.isMatrix())
      return shapeError(0, "a matrix");
    return makeCall(Shape::matrix(args_[0]->shape.cols, args_[0]->shape.rows), args_[0]->dim);
  }

  // diag(a, b) or diag(a, b, c): scalars of one dimension on the diagonal.
  ExprRef diagonalMatrix() {
    if (args_.size() < 2 || args_.size() > 3) {
      diagnostics_.error(call_.location,
                         "diag takes 2 or 3 scalars, " + std::to_string(args_.size()) + " given");
      return nullptr;
    }
    DimInfo dim = DimInfo::pure();
    for (size_t i = 0; i < args_.size(); ++i) {
      if (!args_[i]->shape.isScalar())
        return shapeError(i, "scalars");
      auto combined = resolver_.sumDimension(dim, args_[i]->dim, call_.args[i]->location, "diag");
      if (!combined)
        return nullptr;
      dim = *combined;
    }
    int n = static_cast<int>(args_.size());
    return makeCall(Shape::matrix(n, n), dim);
  }

  // det, trace and inv: the shape rule is shared with the REPL
  // (squareMatrixProblem); the entries share one dimension (resolveVector),
  // so det has it to the n-th power, trace keeps it and inv inverts it.
  ExprRef squareMatrixFunction() {
    const ExprRef &matrix = args_[0];
    if (auto problem = squareMatrixProblem(builtin_, matrix->shape)) {
      diagnostics_.error(call_.args[0]->location, *problem);
      return nullptr;
    }
    DimInfo dim = matrix->dim;
    if (dim.isKnown() && builtin_ != Builtin::Trace) {
      auto power = builtin_ == Builtin::Det ? dim.dimension.raisedTo(Rational(matrix->shape.rows))
                                            : Dimension().over(dim.dimension);
      if (!power) {
        diagnostics_.error(call_.location, exponentLimitMessage(dim, builtinName(builtin_)));
        return nullptr;
      }
      dim = DimInfo::known(*power);
    }
    return makeCall(builtin_ == Builtin::Inv ? matrix->shape : Shape::scalar(), dim);
  }

  Resolver &resolver_;
  Diagnostics &diagnostics_;
  Builtin builtin_;
  const ast::Call &call_;
  std::vector<ExprRef> args_;
  const std::string name_;
};

} // namespace

ExprRef Resolver::resolveBuiltin(Builtin builtin, const ast::Call &call,
                                 std::vector<ExprRef> args) {
  return BuiltinCall(*this, builtin, call, std::move(args)).resolve();
}

} // namespace mech::sema
