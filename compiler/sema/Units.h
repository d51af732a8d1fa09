// The units the language knows, each an exact scale to SI (a rational times
// a power of pi, so deg is exactly pi/180) and a dimension.
#pragma once

#include "sema/Dimension.h"
#include "support/Diagnostics.h"
#include "syntax/Ast.h"

#include <optional>
#include <string>
#include <vector>

namespace mech::sema {

struct UnitValue {
  Rational scale{1}; // SI value = written value * scale * pi^piPower
  int piPower = 0;
  Dimension dimension;

  double scaleAsDouble() const;
};

// Looks up every factor; reports unknown units and returns nullopt.
std::optional<UnitValue> evaluateUnit(const ast::Unit &unit, Diagnostics &diagnostics);

// The symbols of all known units, for help texts and suggestions.
std::vector<std::string> knownUnitSymbols();

} // namespace mech::sema
