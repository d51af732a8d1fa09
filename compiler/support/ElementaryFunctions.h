// The elementary functions of the language, in one list (name, spelling,
// arity) shared by the checker's built-ins and the symbolic engine, and
// their numeric values.
#pragma once

#define MECH_ELEMENTARY_FUNCTIONS(X)                                                               \
  X(Sin, "sin", 1)                                                                                 \
  X(Cos, "cos", 1)                                                                                 \
  X(Tan, "tan", 1)                                                                                 \
  X(Asin, "asin", 1)                                                                               \
  X(Acos, "acos", 1)                                                                               \
  X(Atan, "atan", 1)                                                                               \
  X(Atan2, "atan2", 2)                                                                             \
  X(Sinh, "sinh", 1)                                                                               \
  X(Cosh, "cosh", 1)                                                                               \
  X(Tanh, "tanh", 1)                                                                               \
  X(Exp, "exp", 1)                                                                                 \
  X(Log, "log", 1)                                                                                 \
  X(Abs, "abs", 1)                                                                                 \
  X(Sign, "sign", 1)

namespace mech {

enum class ElementaryFunction {
#define MECH_ELEMENTARY_ENUM(id, name, arity) id,
  MECH_ELEMENTARY_FUNCTIONS(MECH_ELEMENTARY_ENUM)
#undef MECH_ELEMENTARY_ENUM
};

// f(x), or f(x, y) for atan2(x, y); sign(0) is 0.
double evaluateElementary(ElementaryFunction fn, double x, double y = 0);

} // namespace mech
