// The front end's entry points: text in, AST (or diagnostics) out. ANTLR is
// used behind this interface only.
#pragma once

#include "support/Diagnostics.h"
#include "syntax/Ast.h"

#include <memory>
#include <vector>

namespace mech {

// The deepest bracket nesting accepted; deeper input is refused before the
// (recursive) parser sees it, so no input can exhaust the stack.
inline constexpr int kMaxNestingDepth = 256;
// The longest chain of ^, . or [] accepted after one operand.
inline constexpr int kMaxOperatorChain = 256;
// The deepest expression tree accepted (brackets and chains together), so
// that no later recursive pass can exhaust the stack.
inline constexpr int kMaxExpressionDepth = 1000;

// Parses a whole .mech file. Returns null when there were syntax errors (all
// of which are reported).
std::unique_ptr<ast::File> parseFile(const SourceFile &source, Diagnostics &diagnostics);

// Parses a single expression (command-line values, REPL input).
ast::ExprPtr parseExpression(const SourceFile &source, Diagnostics &diagnostics);

// Parses a sequence of model declarations (REPL input).
std::unique_ptr<std::vector<ast::Decl>> parseDeclarations(const SourceFile &source,
                                                          Diagnostics &diagnostics);

// Parses `name = expr, th[1]' = expr, ...` (command-line --set and --at).
std::unique_ptr<std::vector<ast::InitItem>> parseAssignments(const SourceFile &source,
                                                             Diagnostics &diagnostics);

// Parses `lhs == rhs[, up|down]` (--stop-when) as an event named `name`
// that stops the run.
std::unique_ptr<ast::Decl> parseStopCondition(const SourceFile &source, Diagnostics &diagnostics,
                                              const std::string &name);

} // namespace mech
