// Units and dimensions in the resolver: the dimension of sums and products
// (and the arithmetic on dimensions the other rules share), literals with a
// unit converted to SI, the unit declared on a let's name, and the hint for a
// unit written where only a number or a declared name may carry one.
#include "sema/Resolver.h"
#include "sema/ResolverInternal.h"

#include "sema/Units.h"
#include "syntax/Printer.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace mech::sema {

// ---------------------------------------------------------------------------
// Dimensions

std::optional<DimInfo> Resolver::sumDimension(const DimInfo &a, const DimInfo &b, Location loc,
                                              const std::string &context, bool plural) {
  if (a.isKnown() && b.isKnown()) {
    if (a.dimension == b.dimension)
      return a;
    diagnostics_.error(loc, context + (plural ? " mix" : " mixes") + " dimensions " +
                                a.dimension.toString() + " and " + b.dimension.toString());
    return std::nullopt;
  }
  if (a.isKnown())
    return a;
  if (b.isKnown())
    return b;
  if (a.state == DimInfo::Unchecked || b.state == DimInfo::Unchecked)
    return DimInfo::unchecked();
  return DimInfo::pure();
}

DimInfo Resolver::productDimension(const DimInfo &a, const DimInfo &b) {
  if (a.state == DimInfo::Unchecked || b.state == DimInfo::Unchecked)
    return DimInfo::unchecked();
  if (a.state == DimInfo::Pure && b.state == DimInfo::Pure)
    return DimInfo::pure();
  auto product = a.dimension.times(b.dimension);
  return product ? DimInfo::known(*product) : DimInfo::unchecked();
}

DimInfo inverseDimension(const DimInfo &d) {
  if (d.state != DimInfo::Known)
    return d;
  auto inverse = Dimension().over(d.dimension);
  return inverse ? DimInfo::known(*inverse) : DimInfo::unchecked();
}

std::string exponentLimitMessage(const DimInfo &operand, const std::string &operation) {
  return "the dimension of this " + operation + " leaves the limits (from " +
         operand.dimension.toString() +
         "): dimension exponents are rationals with numerator "
         "and denominator at most " +
         std::to_string(kMaxExponent) + " in magnitude";
}

bool isDimensionless(const DimInfo &d) {
  return !d.isKnown() || d.dimension.isDimensionless();
}

std::string describeDimension(const DimInfo &d) {
  return d.dimension.toString();
}

// ---------------------------------------------------------------------------
// Numbers with a unit

ExprRef Resolver::resolveNumber(const ast::Number &literal) {
  double value = 0;
  auto [end, error] =
      std::from_chars(literal.text.data(), literal.text.data() + literal.text.size(), value);
  (void)end;
  if (error == std::errc::result_out_of_range || !std::isfinite(value)) {
    bool tiny = literal.text.find("e-") != std::string::npos ||
                literal.text.find("E-") != std::string::npos;
    if (!tiny) {
      diagnostics_.error(literal.location, "number " + literal.text + " is too large");
      return nullptr;
    }
    value = 0;
  }
  std::optional<Rational> exact = Rational::fromDecimal(literal.text);
  if (!literal.unit)
    return number(value, exact, literal.location);

  std::optional<UnitValue> unit = evaluateUnit(*literal.unit, diagnostics_);
  if (!unit)
    return nullptr;
  if (exact)
    exact = mul(*exact, unit->scale);
  ExprRef scaled = number(value * unit->scale.toDouble(), exact, literal.location);
  ExprRef result = scaled;
  if (unit->piPower != 0) {
    // deg is exactly pi/180: keep pi symbolic.
    ExprRef pi = make(ExprKind::Pi, Shape::scalar(), DimInfo::pure(), literal.location, {});
    if (unit->piPower != 1)
      pi = make(ExprKind::Pow, Shape::scalar(), DimInfo::pure(), literal.location,
                {pi, number(unit->piPower, Rational(unit->piPower), literal.location)});
    result = make(ExprKind::Mul, Shape::scalar(), DimInfo::pure(), literal.location, {scaled, pi});
  }
  auto node = std::const_pointer_cast<Node>(result);
  node->dim = DimInfo::known(unit->dimension);
  return node;
}

// ---------------------------------------------------------------------------
// The unit on a let's name

// `let d [cm] = 30`: a plain number or an unchecked value is taken in the
// declared unit; a value with a dimension must have the unit's dimension and
// may not be rescaled by it. Null after an error.
ExprRef Resolver::applyLetUnit(size_t let, ExprRef value, std::optional<DeclaredUnit> &declared) {
  const PendingLet &pending = pendingLets_[let];
  std::optional<UnitValue> unit = evaluateUnit(*pending.unit, diagnostics_);
  if (!unit)
    return nullptr;
  declared = DeclaredUnit{formatUnit(*pending.unit), unit->scaleAsDouble()};
  if (value->dim.isKnown()) {
    if (!(value->dim.dimension == unit->dimension)) {
      diagnostics_.error(pending.value->location,
                         "'" + model_.lets[let].name + "' is declared in [" +
                             formatUnit(*pending.unit) + "] (" + unit->dimension.toString() +
                             ") but its value has dimension " + value->dim.dimension.toString());
      return nullptr;
    }
    if (!(unit->scale == Rational(1)) || unit->piPower != 0) {
      diagnostics_.error(pending.unit->location,
                         "the value already has a unit; a unit on the name would rescale it "
                         "(remove one of the two)");
      return nullptr;
    }
    return value;
  }
  // A plain number or unchecked value is taken in the declared unit.
  Location loc = pending.unit->location;
  std::vector<ExprRef> factors = {
      value, number(unit->scaleAsDouble(),
                    unit->piPower == 0 ? std::optional(unit->scale) : std::nullopt, loc)};
  return make(ExprKind::Mul, value->shape, DimInfo::known(unit->dimension), loc, factors);
}

// ---------------------------------------------------------------------------
// Misplaced units

namespace {

bool looksLikeUnitPart(const ast::Expr &e);

bool mentionsUnitName(const ast::Expr &e) {
  switch (e.kind) {
  case ast::ExprKind::Name:
    return true;
  case ast::ExprKind::Mul:
    for (const auto &factor : static_cast<const ast::Mul &>(e).factors)
      if (mentionsUnitName(*factor.value))
        return true;
    return false;
  case ast::ExprKind::Pow:
    return mentionsUnitName(*static_cast<const ast::Pow &>(e).base);
  default:
    return false;
  }
}

// True when every leaf of e is a known unit symbol or a number.
bool looksLikeUnitPart(const ast::Expr &e) {
  switch (e.kind) {
  case ast::ExprKind::Name: {
    std::vector<std::string> units = knownUnitSymbols();
    return std::find(units.begin(), units.end(), static_cast<const ast::Name &>(e).name) !=
           units.end();
  }
  case ast::ExprKind::Number:
    return true;
  case ast::ExprKind::Mul:
    for (const auto &factor : static_cast<const ast::Mul &>(e).factors)
      if (!looksLikeUnitPart(*factor.value))
        return false;
    return true;
  case ast::ExprKind::Pow:
    return looksLikeUnitPart(*static_cast<const ast::Pow &>(e).base);
  default:
    return false;
  }
}

// A whole-number exponent as the grammar of units takes it: 2, -1.
bool wholeExponent(const ast::Expr &e) {
  if (e.kind == ast::ExprKind::Neg)
    return wholeExponent(*static_cast<const ast::Neg &>(e).operand);
  if (e.kind != ast::ExprKind::Number)
    return false;
  const std::string &text = static_cast<const ast::Number &>(e).text;
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string withoutSpaces(std::string text) {
  text.erase(std::remove(text.begin(), text.end(), ' '), text.end());
  return text;
}

} // namespace

bool looksLikeUnit(const ast::Expr &e) {
  return looksLikeUnitPart(e) && mentionsUnitName(e);
}

namespace {

bool hasFractionalExponent(const ast::Expr &e) {
  switch (e.kind) {
  case ast::ExprKind::Mul:
    for (const auto &factor : static_cast<const ast::Mul &>(e).factors)
      if (hasFractionalExponent(*factor.value))
        return true;
    return false;
  case ast::ExprKind::Pow:
    return !wholeExponent(*static_cast<const ast::Pow &>(e).exponent);
  default:
    return false;
  }
}

} // namespace

bool reportFractionalUnit(Diagnostics &diagnostics, const ast::Index &index) {
  if (index.indices.size() != 1 || !looksLikeUnit(*index.indices[0]) ||
      !hasFractionalExponent(*index.indices[0]))
    return false;
  std::string unitText = withoutSpaces(formatExpr(*index.indices[0]));
  Diagnostic &d = diagnostics.error(
      index.location, "[" + unitText +
                          "] is not a unit: a unit's exponents are whole numbers (m^2, s^-1), "
                          "so a fractional power such as m^(1/2) cannot be written in one");
  Diagnostics::addNote(d, {}, "raise a quantity to the power instead, as in (1 [m])^(1/2)");
  return true;
}

void Resolver::reportMisplacedUnit(const ast::Index &index, const Env &env) {
  std::string unitText = withoutSpaces(formatExpr(*index.indices[0]));
  Diagnostic &d = diagnostics_.error(
      index.location, "a unit can only follow a number or the name in a param, coord or let "
                      "declaration");
  if (!env.declaringName.empty() && env.declaringValue != nullptr) {
    std::string whole = formatExpr(*env.declaringValue);
    std::string misplaced = formatExpr(index);
    std::string operand = formatExpr(*index.operand);
    size_t at = whole.find(misplaced);
    if (at != std::string::npos)
      whole.replace(at, misplaced.size(), operand);
    Diagnostics::addNote(d, {},
                         "write `" + env.declaringKeyword + " " + env.declaringName + " [" +
                             unitText + "] = " + whole + "`");
  } else {
    Diagnostics::addNote(d, {}, "put the unit on a number, as in `2 [" + unitText + "]`");
  }
}

} // namespace mech::sema
