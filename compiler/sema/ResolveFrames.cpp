// The angular velocity of a rotation matrix in the resolver: omega(R) in
// world components and omega_body(R) in body components, the axial vectors
// of the skew matrices R'·Rᵀ and Rᵀ·R'. They are built from the same nodes a
// user would write (a derivative, a transpose, a product and three entries),
// so the mechanics layer needs no rule of its own. Their names are not
// reserved: a model may still call a param omega, and a def of that name
// hides them.
#include "sema/Resolver.h"
#include "sema/ResolverInternal.h"

namespace mech::sema {

bool isFrameFunction(const std::string &name) {
  return name == "omega" || name == "omega_body";
}

// The checks a rotation matrix passes before it is differentiated: one
// argument, 3x3, dimensionless, no input or multiplier (their rates are
// unknown). A planar angle's rate is simply a'.
bool Resolver::checkRotationArgument(const ast::Call &call, const std::vector<ExprRef> &args) {
  const std::string &name = call.callee;
  if (args.size() != 1) {
    diagnostics_.error(call.location,
                       name + " takes 1 argument, " + std::to_string(args.size()) + " given");
    return false;
  }
  const ExprRef &rotation = args[0];
  Location at = call.args[0]->location;
  if (!(rotation->shape == Shape::matrix(3, 3))) {
    std::string hint = rotation->shape == Shape::matrix(2, 2) || rotation->shape.isScalar()
                           ? "; in the plane, the angular velocity of a rotation by the angle a "
                             "is a'"
                           : "";
    diagnostics_.error(at, name + " expects a 3x3 rotation matrix, found " +
                               rotation->shape.toString() + hint);
    return false;
  }
  if (rotation->dim.isKnown() && !rotation->dim.dimension.isDimensionless()) {
    diagnostics_.error(at, "a rotation matrix is dimensionless, found " +
                               rotation->dim.dimension.toString());
    return false;
  }
  if (rotation->usesInput || rotation->usesMultiplier) {
    diagnostics_.error(at, name + " differentiates its argument, which uses " +
                               (rotation->usesInput ? "an input" : "a multiplier") +
                               " (its rate is not known)");
    return false;
  }
  return true;
}

ExprRef Resolver::resolveAngularVelocity(const ast::Call &call, std::vector<ExprRef> args) {
  if (!checkRotationArgument(call, args))
    return nullptr;
  const ExprRef &rotation = args[0];
  Location loc = call.location;
  DimInfo rate = DimInfo::known(*Dimension().over(Dimension::time()));
  auto rateOf = std::const_pointer_cast<Node>(
      make(ExprKind::Derivative, rotation->shape, rate, loc, {rotation}));
  if (rateOf->coordOrder >= 0)
    rateOf->coordOrder += 1;
  if (rateOf->coordOrder > 1) {
    diagnostics_.error(call.args[0]->location,
                       call.callee + " needs a rotation of the coordinates, not of their rates");
    return nullptr;
  }
  auto transposed = std::const_pointer_cast<Node>(
      make(ExprKind::Call, rotation->shape, rotation->dim, loc, {rotation}));
  transposed->builtin = Builtin::Transpose;
  bool body = call.callee == "omega_body";
  ExprRef skew = body ? make(ExprKind::Mul, rotation->shape, rate, loc, {transposed, rateOf})
                      : make(ExprKind::Mul, rotation->shape, rate, loc, {rateOf, transposed});
  // The axial vector of a skew matrix W: (W[3, 2], W[1, 3], W[2, 1]).
  return make(ExprKind::Vector, Shape::vector(3), rate, loc,
              {entry(skew, 7, loc), entry(skew, 2, loc), entry(skew, 3, loc)});
}

} // namespace mech::sema
