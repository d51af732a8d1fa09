// Small helpers of the AST.
#include "syntax/Ast.h"

namespace mech::ast {

const char *exprKindName(ExprKind kind) {
  switch (kind) {
#define MECH_AST_NAME(name)                                                                        \
  case ExprKind::name:                                                                             \
    return #name;
    MECH_AST_EXPR_KINDS(MECH_AST_NAME)
#undef MECH_AST_NAME
  }
  return "?";
}

const char *compareSpelling(Compare::Op op) {
  switch (op) {
  case Compare::Op::Less:
    return "<";
  case Compare::Op::LessEqual:
    return "<=";
  case Compare::Op::Greater:
    return ">";
  case Compare::Op::GreaterEqual:
    return ">=";
  }
  return "?";
}

const ModelDecl *File::model() const {
  for (const TopItem &item : items) {
    if (auto *model = std::get_if<ModelDecl>(&item.node))
      return model;
  }
  return nullptr;
}

} // namespace mech::ast
