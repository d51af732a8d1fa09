// The checks of a friction declaration: the slip is a velocity (it depends
// on the velocities, not on accelerations), the normal force has no
// accelerations and the unit of a force along the slip (power over the
// slip's unit: a force when the slip is a speed), and the coefficients are
// dimensionless constants with mu_s >= mu_k >= 0.
#include "sema/AnalyzerInternal.h"

#include "support/NumberText.h"

namespace mech::sema {

namespace {

// A coefficient's value: a dimensionless constant >= 0, or nullopt (with
// the error said).
std::optional<double> coefficient(Resolver &resolver, Diagnostics &diagnostics,
                                  const ExprRef &value, const Location &at,
                                  const std::string &what) {
  std::optional<double> number =
      value->shape.isScalar() ? resolver.evaluateConstant(value) : std::nullopt;
  if (!number) {
    diagnostics.error(at, what + " must be a constant (numbers, pi and params)");
    return std::nullopt;
  }
  if (!(*number >= 0)) {
    diagnostics.error(at, what + " is " + shortestNumber(*number) + ", below 0");
    return std::nullopt;
  }
  return number;
}

} // namespace

// `normal floor`: the normal force is contact floor's force (a bare name of
// a contact, which is no value elsewhere); "" otherwise.
std::string Analyzer::normalContact(const ast::FrictionDecl &f) const {
  const auto *name = f.normal->kind == ast::ExprKind::Name
                         ? static_cast<const ast::Name *>(f.normal.get())
                         : nullptr;
  if (!name)
    return "";
  auto found = resolver_.symbols.find(name->name);
  return found != resolver_.symbols.end() && found->second.kind == SymbolKind::Contact ? name->name
                                                                                       : "";
}

void Analyzer::checkDecl(const ast::FrictionDecl &f, const Instance &instance) {
  const std::string what = "friction '" + instance.name + "'";
  const std::string contact = normalContact(f);
  ExprRef slip = resolve(*f.slip, instance);
  // A contact's force: a placeholder of the contact's unit, checked against
  // the force along the slip when the equations are derived.
  ExprRef normal = contact.empty() ? resolve(*f.normal, instance, false, true)
                                   : resolve(ast::Number(f.normal->location, "0"), instance);
  ExprRef mus = resolve(*f.staticCoefficient, instance);
  ExprRef muk = f.kineticCoefficient ? resolve(*f.kineticCoefficient, instance) : mus;
  if (!slip || !normal || !mus || !muk)
    return;
  if (!expectShape(slip, f.slip->location, "the slip of " + what, isScalar, "a scalar") ||
      !expectShape(normal, f.normal->location, "the normal force of " + what, isScalar, "a scalar"))
    return;
  if (slip->coordOrder != 1) {
    diagnostics_.error(f.slip->location,
                       "the slip of " + what +
                           (slip->coordOrder < 1 ? " does not depend on any velocity"
                                                 : " depends on accelerations") +
                           ": a slip is a velocity, affine in the coordinates' velocities");
    return;
  }
  if (!expectOrder(normal, f.normal->location, "the normal force of " + what, 1))
    return;
  const Location &kineticAt =
      f.kineticCoefficient ? f.kineticCoefficient->location : f.staticCoefficient->location;
  std::optional<double> staticValue =
      coefficient(resolver_, diagnostics_, mus, f.staticCoefficient->location,
                  "the static coefficient of " + what);
  std::optional<double> kineticValue = f.kineticCoefficient
                                           ? coefficient(resolver_, diagnostics_, muk, kineticAt,
                                                         "the kinetic coefficient of " + what)
                                           : staticValue;
  if (!staticValue || !kineticValue ||
      !expectDimension(mus, f.staticCoefficient->location, "the static coefficient of " + what,
                       Dimension(), "a number") ||
      !expectDimension(muk, kineticAt, "the kinetic coefficient of " + what, Dimension(),
                       "a number"))
    return;
  if (*kineticValue > *staticValue) {
    diagnostics_.error(kineticAt, "the kinetic coefficient of " + what + " (" +
                                      shortestNumber(*kineticValue) + ") exceeds the static one (" +
                                      shortestNumber(*staticValue) + ")");
    return;
  }
  // The force along the slip does work at the rate force * slip.
  DimInfo forceDim = DimInfo::unchecked();
  if (std::optional<Dimension> slipDim = slip->dim.effective(); slipDim && slip->dim.isKnown())
    if (std::optional<Dimension> force = Dimension::power().over(*slipDim)) {
      forceDim = DimInfo::known(*force);
      if (contact.empty() &&
          !expectDimension(normal, f.normal->location, "the normal force of " + what, *force,
                           "a force along the slip"))
        return;
    }
  model_->frictions.push_back({instance.name, f.name.location, slip, normal, mus, muk,
                               f.normal->location, forceDim, contact});
}

// A contact's force as a friction's normal force has the unit of a force
// along the slip (checked once every contact is: they may come later).
void Analyzer::checkFrictionNormals() {
  for (const Friction &f : model_->frictions) {
    if (f.normalContact.empty())
      continue;
    for (const Contact &c : model_->contacts)
      if (c.name == f.normalContact && c.forceDim.isKnown() && f.forceDim.isKnown() &&
          !(c.forceDim.dimension == f.forceDim.dimension))
        diagnostics_.error(f.normalLocation, "the force of contact '" + c.name + "' is in " +
                                                 c.forceDim.dimension.toString() +
                                                 ", not a force along the slip of friction '" +
                                                 f.name + "' (" + f.forceDim.dimension.toString() +
                                                 ")");
  }
}

} // namespace mech::sema
