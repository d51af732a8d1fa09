// The unit table. Values from the SI brochure (BIPM, 9th edition).
#include "sema/Units.h"

#include <cmath>
#include <map>

namespace mech::sema {

namespace {

Dimension dim(int mass, int length, int time, int current = 0) {
  Dimension d;
  auto raise = [](Dimension base, int n) { return *base.raisedTo(Rational(n)); };
  d = *d.times(raise(Dimension::base(Dimension::Mass), mass));
  d = *d.times(raise(Dimension::base(Dimension::Length), length));
  d = *d.times(raise(Dimension::base(Dimension::Time), time));
  d = *d.times(raise(Dimension::base(Dimension::Current), current));
  return d;
}

UnitValue unit(int64_t num, int64_t den, int piPower, Dimension d) {
  return {*Rational::make(num, den), piPower, d};
}

const std::map<std::string, UnitValue> &table() {
  static const std::map<std::string, UnitValue> units = [] {
    std::map<std::string, UnitValue> u;
    Dimension none;
    Dimension length = dim(0, 1, 0), mass = dim(1, 0, 0), time = dim(0, 0, 1);
    Dimension force = dim(1, 1, -2), energy = dim(1, 2, -2), power = dim(1, 2, -3);
    Dimension pressure = dim(1, -1, -2), frequency = dim(0, 0, -1);
    u["1"] = unit(1, 1, 0, none);
    u["m"] = unit(1, 1, 0, length);
    u["km"] = unit(1000, 1, 0, length);
    u["cm"] = unit(1, 100, 0, length);
    u["mm"] = unit(1, 1000, 0, length);
    u["um"] = unit(1, 1000000, 0, length);
    u["kg"] = unit(1, 1, 0, mass);
    u["g"] = unit(1, 1000, 0, mass);
    u["s"] = unit(1, 1, 0, time);
    u["ms"] = unit(1, 1000, 0, time);
    u["min"] = unit(60, 1, 0, time);
    u["h"] = unit(3600, 1, 0, time);
    u["A"] = unit(1, 1, 0, Dimension::base(Dimension::Current));
    u["K"] = unit(1, 1, 0, Dimension::base(Dimension::Temperature));
    u["mol"] = unit(1, 1, 0, Dimension::base(Dimension::Amount));
    u["cd"] = unit(1, 1, 0, Dimension::base(Dimension::Luminosity));
    u["rad"] = unit(1, 1, 0, none);
    u["deg"] = unit(1, 180, 1, none);
    u["rev"] = unit(2, 1, 1, none);
    u["N"] = unit(1, 1, 0, force);
    u["kN"] = unit(1000, 1, 0, force);
    u["J"] = unit(1, 1, 0, energy);
    u["kJ"] = unit(1000, 1, 0, energy);
    u["W"] = unit(1, 1, 0, power);
    u["kW"] = unit(1000, 1, 0, power);
    u["Pa"] = unit(1, 1, 0, pressure);
    u["kPa"] = unit(1000, 1, 0, pressure);
    u["Hz"] = unit(1, 1, 0, frequency);
    u["rpm"] = unit(1, 30, 1, frequency);
    return u;
  }();
  return units;
}

} // namespace

double UnitValue::scaleAsDouble() const {
  return scale.toDouble() * std::pow(M_PI, piPower);
}

std::optional<UnitValue> evaluateUnit(const ast::Unit &unit, Diagnostics &diagnostics) {
  UnitValue result;
  bool ok = true;
  for (const ast::UnitFactor &factor : unit.factors) {
    auto it = table().find(factor.symbol);
    if (it == table().end()) {
      std::string known;
      for (const std::string &symbol : knownUnitSymbols())
        known += (known.empty() ? "" : " ") + symbol;
      Diagnostic &d = diagnostics.error(factor.location, "unknown unit '" + factor.symbol + "'");
      Diagnostics::addNote(d, {}, "known units: " + known);
      ok = false;
      continue;
    }
    // Written exponents arrive clamped one past the limit (Rational.h).
    if (factor.exponent > kMaxExponent || factor.exponent < -kMaxExponent) {
      diagnostics.error(factor.location, "the exponent of '" + factor.symbol +
                                             "' is beyond the limit: unit exponents are at most " +
                                             std::to_string(kMaxExponent) + " in magnitude");
      ok = false;
      continue;
    }
    const UnitValue &u = it->second;
    auto scale = pow(u.scale, factor.exponent);
    auto scaled = scale ? mul(result.scale, *scale) : std::nullopt;
    auto dimension = u.dimension.raisedTo(Rational(factor.exponent));
    auto combined = dimension ? result.dimension.times(*dimension) : std::nullopt;
    if (!scaled || !combined) {
      diagnostics.error(factor.location, "unit exponent too large: the scale or an exponent of "
                                         "the dimension leaves the limits");
      ok = false;
      continue;
    }
    result.scale = *scaled;
    result.piPower += u.piPower * factor.exponent;
    result.dimension = *combined;
  }
  if (!ok)
    return std::nullopt;
  return result;
}

std::vector<std::string> knownUnitSymbols() {
  std::vector<std::string> symbols;
  for (const auto &[symbol, value] : table())
    if (symbol != "1")
      symbols.push_back(symbol);
  return symbols;
}

} // namespace mech::sema
