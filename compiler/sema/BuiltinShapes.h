// The shape rule of every built-in function, in one place: the checker
// (sema's resolution of calls) and the REPL's calculator both ask it, so
// that they accept the same calls and refuse the others with the same words.
// Dimensions are the checker's business alone (the calculator has none).
#pragma once

#include "sema/Model.h"

#include <string>
#include <variant>
#include <vector>

namespace mech::sema {

// Why a call cannot be made, located at its argument `argument` (or at the
// call itself when -1).
struct ShapeProblem {
  int argument = -1;
  std::string message;
};

// The shape of `builtin` applied to arguments of the shapes `args`, or why
// there is none ("dot expects vectors, found a scalar", "norm takes 1
// argument, 2 given").
std::variant<Shape, ShapeProblem> builtinShape(Builtin builtin, const std::vector<Shape> &args);

} // namespace mech::sema
