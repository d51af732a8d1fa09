// Names of IR kinds and builtins, and small model queries.
#include "sema/Model.h"

namespace mech::sema {

std::string Shape::toString() const {
  if (isScalar())
    return "a scalar";
  if (isVector())
    return "a " + std::to_string(rows) + "-vector";
  return "a " + std::to_string(rows) + "x" + std::to_string(cols) + " matrix";
}

const char *builtinName(Builtin b) {
  switch (b) {
#define MECH_BUILTIN_NAME(id, name, arity)                                                         \
  case Builtin::id:                                                                                \
    return name;
    MECH_BUILTINS(MECH_BUILTIN_NAME)
#undef MECH_BUILTIN_NAME
  }
  return "?";
}

std::optional<Builtin> findBuiltin(const std::string &name) {
#define MECH_BUILTIN_FIND(id, text, arity)                                                         \
  if (name == text)                                                                                \
    return Builtin::id;
  MECH_BUILTINS(MECH_BUILTIN_FIND)
#undef MECH_BUILTIN_FIND
  return std::nullopt;
}

std::vector<std::string> builtinNames() {
  return {
#define MECH_BUILTIN_TEXT(id, text, arity) text,
      MECH_BUILTINS(MECH_BUILTIN_TEXT)
#undef MECH_BUILTIN_TEXT
  };
}

std::optional<std::string> squareMatrixProblem(Builtin b, Shape s) {
  std::string name = builtinName(b);
  if (!s.isMatrix() || s.rows != s.cols)
    return name + " expects a square matrix, found " + s.toString();
  if (b != Builtin::Trace && s.rows > kMaxMatrixSolveSize)
    return name + " takes matrices of at most " + std::to_string(kMaxMatrixSolveSize) + "x" +
           std::to_string(kMaxMatrixSolveSize) +
           " (above 4x4 it is computed numerically, and its derivatives grow as n^4), found " +
           s.toString();
  return std::nullopt;
}

const char *exprKindName(ExprKind kind) {
  switch (kind) {
#define MECH_SEMA_NAME(name)                                                                       \
  case ExprKind::name:                                                                             \
    return #name;
    MECH_SEMA_EXPR_KINDS(MECH_SEMA_NAME)
#undef MECH_SEMA_NAME
  }
  return "?";
}

size_t CheckedModel::inputCount() const {
  size_t count = 0;
  for (const Param &param : params)
    count += param.input ? 1 : 0;
  return count;
}

std::vector<double> CheckedModel::initialState() const {
  std::vector<double> state(2 * coords.size(), 0.0);
  for (const Initial &init : initial)
    state[static_cast<size_t>(init.order) * coords.size() + static_cast<size_t>(init.coord)] =
        init.value;
  return state;
}

} // namespace mech::sema
