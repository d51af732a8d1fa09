// Events in the analyzer: an event compares two scalars of one dimension,
// and observes the motion as an output does (it may read accelerations,
// multipliers, inputs and outputs), since it shapes nothing.
#include "sema/AnalyzerInternal.h"

namespace mech::sema {

void Analyzer::checkDecl(const ast::EventDecl &e, const Instance &instance) {
  ExprRef lhs = resolve(*e.lhs, instance, /*allowMultipliers=*/true, /*allowInputs=*/true);
  ExprRef rhs = resolve(*e.rhs, instance, /*allowMultipliers=*/true, /*allowInputs=*/true);
  if (!lhs || !rhs)
    return;
  if (!lhs->shape.isScalar() || !rhs->shape.isScalar()) {
    diagnostics_.error(instance.decl->location,
                       "an event compares two scalars, found " + lhs->shape.toString() +
                           " == " + rhs->shape.toString() + " (write one event per component)");
    return;
  }
  if (!resolver_.sumDimension(lhs->dim, rhs->dim, e.rhs->location, "event '" + instance.name + "'"))
    return;
  int direction = e.direction == ast::EventDirection::Up     ? 1
                  : e.direction == ast::EventDirection::Down ? -1
                                                             : 0;
  model_->events.push_back({instance.name, e.name.location, lhs, rhs, direction, e.stop});
}

} // namespace mech::sema
