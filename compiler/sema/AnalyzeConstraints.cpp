// Constraints and outputs in the analyzer: a constraint relates two scalars
// of the positions (holonomic) or the velocities (nonholonomic), and its
// multiplier gets the dimension that makes it a generalized force; outputs
// are scalars, the only values that may read a multiplier.
#include "sema/AnalyzerInternal.h"

namespace mech::sema {

void Analyzer::checkDecl(const ast::ConstraintDecl &c, const Instance &instance) {
  Constraint &constraint = model_->constraints[static_cast<size_t>(instance.slot)];
  constraint.name = instance.name;
  Location where = c.name ? c.name->location : instance.decl->location;
  constraint.location = where;
  ExprRef lhs = resolve(*c.lhs, instance), rhs = resolve(*c.rhs, instance);
  if (!lhs || !rhs)
    return;
  if (!lhs->shape.isScalar() || !rhs->shape.isScalar()) {
    diagnostics_.error(instance.decl->location,
                       "a constraint relates two scalars, found " + lhs->shape.toString() +
                           " == " + rhs->shape.toString() + " (write one per component)");
    return;
  }
  auto dim = resolver_.sumDimension(lhs->dim, rhs->dim, c.rhs->location,
                                    "constraint '" + instance.name + "'");
  if (!dim)
    return;
  int order = std::max(lhs->coordOrder, rhs->coordOrder);
  if (order < 0) {
    diagnostics_.error(where,
                       "constraint '" + instance.name + "' does not depend on any coordinate");
    return;
  }
  if (order > 1) {
    diagnostics_.error(where, "constraint '" + instance.name +
                                  "' involves accelerations; a constraint relates positions "
                                  "(holonomic) or velocities (nonholonomic)");
    return;
  }
  // C^T lambda is a generalized force: lambda is work (holonomic) or power
  // (nonholonomic) over the dimension of the constraint function.
  Dimension numerator = order == 0 ? Dimension::energy() : Dimension::power();
  constraint.multiplierDim =
      dim->isKnown() ? DimInfo::known(*numerator.over(dim->dimension)) : DimInfo::unchecked();
  constraint.lhs = lhs;
  constraint.rhs = rhs;
}

// An output's value is a let (declared with it), so that other outputs can
// use it in any order; a cycle is the let's error.
void Analyzer::checkDecl(const ast::OutputDecl &o, const Instance &instance) {
  ExprRef value;
  if (instance.slot >= 0 && resolver_.letReference(instance.slot, instance.decl->location))
    value = model_->lets[static_cast<size_t>(instance.slot)].value;
  if (!value)
    return;
  if (!expectShape(value, o.value->location, "an output", isScalar,
                   "a scalar (write one output per component, e.g. p.x)"))
    return;
  model_->outputs.push_back({instance.name, instance.decl->location, value});
}

} // namespace mech::sema
