// What every checked value of a declaration is held to, in the analyzer: the
// dispatch of the checks over declaration kinds, and the expectations they
// share on a value's shape, dimension, order of derivatives and work.
#include "sema/AnalyzerInternal.h"

namespace mech::sema {

// Each declaration kind has its checkDecl; the kinds without one have nothing
// to check after declaration.
void Analyzer::check(const Instance &instance) {
  const ast::Decl &decl = *instance.decl;
  std::visit([&](const auto &node) { checkDecl(node, instance); }, decl.node);
}

// A value of a declaration, under the loop indices it was expanded with;
// multipliers are allowed only in outputs, inputs in forces and outputs.
ExprRef Analyzer::resolve(const ast::Expr &e, const Instance &instance, bool allowMultipliers,
                          bool allowInputs) {
  Env env = baseEnv(instance.bindings);
  env.allowMultipliers = allowMultipliers;
  env.allowInputs = allowInputs;
  return resolver_.resolve(e, env);
}

// Checks that a value has the expected dimension, where it is known.
bool Analyzer::expectDimension(const ExprRef &value, const Location &loc, const std::string &what,
                               const Dimension &expected, const std::string &expectedName) {
  if (!value->dim.isKnown() || value->dim.dimension == expected)
    return true;
  diagnostics_.error(loc, what + " has dimension " + value->dim.dimension.toString() + ", " +
                              expectedName + " (" + expected.toString() + ") was expected");
  return false;
}

// Checks that a value has a shape the predicate accepts.
bool Analyzer::expectShape(const ExprRef &value, const Location &loc, const std::string &what,
                           bool (*predicate)(const Shape &), const std::string &expected) {
  if (predicate(value->shape))
    return true;
  diagnostics_.error(loc, what + " must be " + expected + ", found " + value->shape.toString());
  return false;
}

// Energies, forces and positions may not depend on more than the given
// derivative order of the coordinates.
bool Analyzer::expectOrder(const ExprRef &value, const Location &loc, const std::string &what,
                           int maxOrder) {
  if (value->coordOrder <= maxOrder)
    return true;
  const char *found = value->coordOrder == 1 ? "velocities" : "accelerations";
  diagnostics_.error(loc, what + " depends on " + std::string(found) +
                              (maxOrder == 0 ? "; it may depend only on the coordinates and t"
                                             : "; it may depend only on coordinates, "
                                               "velocities and t"));
  return false;
}

// Product of two dimensions must be work, where both are known.
bool Analyzer::expectWork(const ExprRef &a, const ExprRef &b, const Location &loc,
                          const std::string &what) {
  // A plain number adapts, as it does in a sum.
  if (a->dim.state == DimInfo::Pure || b->dim.state == DimInfo::Pure)
    return true;
  DimInfo product = Resolver::productDimension(a->dim, b->dim);
  if (!product.isKnown() || product.dimension == Dimension::energy())
    return true;
  diagnostics_.error(loc, what + ": " + a->dim.dimension.toString() + " times " +
                              b->dim.dimension.toString() + " is " + product.dimension.toString() +
                              ", not work (" + Dimension::energy().toString() + ")");
  return false;
}

} // namespace mech::sema
