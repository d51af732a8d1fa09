// Events and contacts in the analyzer. An event compares two scalars of one
// dimension and observes the motion as an output does (it may read
// accelerations, multipliers, inputs and outputs); its resets assign
// coordinates and velocities from the state before it. A contact's gap is a
// function of the coordinates and t (an impact changes velocities, never
// positions, so a gap that moved with them would have no impact law), and
// its restitution is a constant in [0, 1].
#include "sema/AnalyzerInternal.h"
#include "support/NumberText.h"

#include <algorithm>

namespace mech::sema {

void Analyzer::checkDecl(const ast::EventDecl &e, const Instance &instance) {
  ExprRef lhs = resolve(*e.lhs, instance, /*allowMultipliers=*/true, /*allowInputs=*/true);
  ExprRef rhs = resolve(*e.rhs, instance, /*allowMultipliers=*/true, /*allowInputs=*/true);
  std::vector<Reset> resets = checkResets(e, instance);
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
  if (e.stop && !e.resets.empty()) {
    diagnostics_.error(e.resets.front().location,
                       "event '" + instance.name +
                           "' both stops the run and resets the state: 'stop' ends the run "
                           "at the event, 'then' continues it from the reset state");
    return;
  }
  int direction = e.direction == ast::EventDirection::Up     ? 1
                  : e.direction == ast::EventDirection::Down ? -1
                                                             : 0;
  model_->events.push_back(
      {instance.name, e.name.location, lhs, rhs, direction, e.stop, std::move(resets)});
}

// `then q = ..., q' = ...`: each target a coordinate (or a member of a
// family) or its velocity, once; each value of the target's dimension,
// from the state, t, params and inputs (not accelerations or multipliers:
// the reset happens between two motions, where neither is defined).
std::vector<Reset> Analyzer::checkResets(const ast::EventDecl &e, const Instance &instance) {
  std::vector<Reset> resets;
  for (const ast::InitItem &item : e.resets) {
    Env env = baseEnv(instance.bindings);
    env.allowInputs = true;
    ExprRef coordinate = initTarget(item, env, "a reset sets");
    if (!coordinate)
      continue;
    const Coord &coord = model_->coords[static_cast<size_t>(coordinate->index)];
    std::string target = coord.name + std::string(static_cast<size_t>(item.primes), '\'');
    ExprRef value = resolver_.resolve(*item.value, env);
    if (!value)
      continue;
    if (!value->shape.isScalar()) {
      diagnostics_.error(item.value->location, "the reset of '" + target +
                                                   "' must be a scalar, found " +
                                                   value->shape.toString());
      continue;
    }
    if (value->coordOrder > 1) {
      diagnostics_.error(item.value->location,
                         "the reset of '" + target +
                             "' uses accelerations: a reset is computed from the coordinates, "
                             "velocities, t, params and inputs before the event");
      continue;
    }
    if (!resolver_.sumDimension(stateDimension(coord, item.primes), value->dim,
                                item.value->location, "the reset of '" + target + "'"))
      continue;
    auto same = [&](const Reset &r) {
      return r.coord == coordinate->index && r.order == item.primes;
    };
    if (auto previous = std::find_if(resets.begin(), resets.end(), same);
        previous != resets.end()) {
      Diagnostic &d = diagnostics_.error(item.location, "event '" + instance.name + "' resets '" +
                                                            target + "' twice");
      Diagnostics::addNote(d, previous->location, "the first reset is here");
      continue;
    }
    resets.push_back({coordinate->index, item.primes, value, item.location});
  }
  return resets;
}

void Analyzer::checkDecl(const ast::ContactDecl &c, const Instance &instance) {
  const std::string what = "contact '" + instance.name + "'";
  ExprRef lhs = resolve(*c.lhs, instance), rhs = resolve(*c.rhs, instance);
  ExprRef restitution = resolve(*c.restitution, instance);
  if (!lhs || !rhs || !restitution)
    return;
  if (!lhs->shape.isScalar() || !rhs->shape.isScalar()) {
    diagnostics_.error(instance.decl->location,
                       "a contact compares two scalars, found " + lhs->shape.toString() +
                           (c.atLeast ? " >= " : " <= ") + rhs->shape.toString() +
                           " (write one contact per component)");
    return;
  }
  auto dim = resolver_.sumDimension(lhs->dim, rhs->dim, c.rhs->location, what);
  if (!dim)
    return;
  int order = std::max(lhs->coordOrder, rhs->coordOrder);
  if (order < 0) {
    diagnostics_.error(c.name.location,
                       "the gap of " + what + " does not depend on any coordinate");
    return;
  }
  if (order > 0) {
    diagnostics_.error(c.name.location, "the gap of " + what + " depends on " +
                                            (order == 1 ? "velocities" : "accelerations") +
                                            ": a gap is a function of the coordinates and t");
    return;
  }
  if (!checkRestitution(restitution, c.restitution->location, what))
    return;
  // Its force, as a holonomic constraint's multiplier: work over the gap.
  DimInfo forceDim = dim->isKnown() ? DimInfo::known(*Dimension::energy().over(dim->dimension))
                                    : DimInfo::unchecked();
  model_->contacts.push_back({instance.name, c.name.location, lhs, rhs, c.atLeast, restitution,
                              c.restitution->location, forceDim});
}

// A restitution is a dimensionless constant (numbers, pi and params) in
// [0, 1]; a param's value is checked again when set (mechanics/Contacts).
bool Analyzer::checkRestitution(const ExprRef &value, const Location &at, const std::string &what) {
  std::optional<double> number =
      value->shape.isScalar() ? resolver_.evaluateConstant(value) : std::nullopt;
  if (!number) {
    diagnostics_.error(at, "the restitution of " + what +
                               " must be a constant (numbers, pi and params)");
    return false;
  }
  if (!expectDimension(value, at, "the restitution of " + what, Dimension(), "a number"))
    return false;
  if (!(*number >= 0 && *number <= 1)) {
    diagnostics_.error(at, "the restitution of " + what + " is " + shortestNumber(*number) +
                               ", outside [0, 1] (0: the bodies stay together, 1: no energy "
                               "is lost)");
    return false;
  }
  return true;
}

} // namespace mech::sema
