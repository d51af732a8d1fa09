// Built-in functions in the resolver: the number and the shapes of the
// arguments come from their one rule (sema/BuiltinShapes.h, which the REPL
// asks too); here is the dimension of each result (sin needs a pure number,
// sqrt halves the exponents, det raises the entries' dimension to the n-th
// power, ...). The numeric meaning of each is in mechanics/Builtins.
#include "sema/BuiltinShapes.h"
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
    std::vector<Shape> shapes;
    for (const ExprRef &a : args_)
      shapes.push_back(a->shape);
    auto shape = builtinShape(builtin_, shapes);
    if (auto *problem = std::get_if<ShapeProblem>(&shape)) {
      diagnostics_.error(problem->argument < 0
                             ? call_.location
                             : call_.args[static_cast<size_t>(problem->argument)]->location,
                         problem->message);
      return nullptr;
    }
    std::optional<DimInfo> dim = dimension();
    if (!dim)
      return nullptr;
    auto node = std::const_pointer_cast<Node>(
        resolver_.make(ExprKind::Call, std::get<Shape>(shape), *dim, call_.location, args_));
    node->builtin = builtin_;
    return node;
  }

private:
  // The dimension of the result, or nullopt after reporting why there is none.
  std::optional<DimInfo> dimension() {
    switch (builtin_) {
    case Builtin::Sqrt:
      return squareRoot();
    case Builtin::Abs:
    case Builtin::Norm:
    case Builtin::Transpose:
    case Builtin::Trace:
      return args_[0]->dim;
    case Builtin::Sign:
      return DimInfo::known(Dimension());
    case Builtin::Atan2:
      if (!resolver_.sumDimension(args_[0]->dim, args_[1]->dim, call_.location, "atan2"))
        return std::nullopt;
      return DimInfo::known(Dimension());
    case Builtin::Dot:
    case Builtin::Cross:
      return Resolver::productDimension(args_[0]->dim, args_[1]->dim);
    case Builtin::Diag:
      return diagonalDimension();
    case Builtin::Det:
    case Builtin::Inv:
      return determinantOrInverse();
    case Builtin::Solve: // A x = b
      return Resolver::productDimension(args_[1]->dim, inverseDimension(args_[0]->dim));
    case Builtin::Min:
    case Builtin::Max:
    case Builtin::Clamp:
      return commonDimension(0);
    case Builtin::If:
      return commonDimension(1);
    case Builtin::Smooth:
      return args_[0]->dim;
    default:
      return pureNumber(); // the elementary functions
    }
  }

  // sin, cos, tan, their inverses, sinh, cosh, tanh, exp and log: a pure
  // number of a pure number.
  std::optional<DimInfo> pureNumber() {
    if (!isDimensionless(args_[0]->dim)) {
      diagnostics_.error(call_.args[0]->location, name_ +
                                                      " needs a dimensionless argument, found " +
                                                      describeDimension(args_[0]->dim));
      return std::nullopt;
    }
    return DimInfo::known(Dimension());
  }

  std::optional<DimInfo> squareRoot() {
    DimInfo dim = args_[0]->dim;
    if (!dim.isKnown())
      return dim;
    auto root = dim.dimension.raisedTo(*Rational::make(1, 2));
    if (!root) {
      diagnostics_.error(call_.location, exponentLimitMessage(dim, "sqrt"));
      return std::nullopt;
    }
    return DimInfo::known(*root);
  }

  // diag(a, b) or diag(a, b, c): scalars of one dimension on the diagonal.
  std::optional<DimInfo> diagonalDimension() {
    DimInfo dim = DimInfo::pure();
    for (size_t i = 0; i < args_.size(); ++i) {
      auto combined = resolver_.sumDimension(dim, args_[i]->dim, call_.args[i]->location, "diag");
      if (!combined)
        return std::nullopt;
      dim = *combined;
    }
    return dim;
  }

  // min, max and clamp compare their arguments, and if's values (from
  // `first` on) stand for each other: one dimension for all.
  std::optional<DimInfo> commonDimension(size_t first) {
    DimInfo dim = args_[first]->dim;
    for (size_t i = first + 1; i < args_.size(); ++i) {
      auto combined = resolver_.sumDimension(dim, args_[i]->dim, call_.args[i]->location,
                                             std::string(name_) + "'s values", true);
      if (!combined)
        return std::nullopt;
      dim = *combined;
    }
    return dim;
  }

  // The entries share one dimension (resolveVector), so det has it to the
  // n-th power and inv inverts it.
  std::optional<DimInfo> determinantOrInverse() {
    const ExprRef &matrix = args_[0];
    DimInfo dim = matrix->dim;
    if (!dim.isKnown())
      return dim;
    auto power = builtin_ == Builtin::Det ? dim.dimension.raisedTo(Rational(matrix->shape.rows))
                                          : Dimension().over(dim.dimension);
    if (!power) {
      diagnostics_.error(call_.location, exponentLimitMessage(dim, builtinName(builtin_)));
      return std::nullopt;
    }
    return DimInfo::known(*power);
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
