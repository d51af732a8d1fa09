// Translates ANTLR parse-tree contexts into our AST, in one place (the only
// file besides Parser.cpp that includes generated headers).
#pragma once

#include "MechParser.h"
#include "support/Diagnostics.h"
#include "syntax/Ast.h"

#include <antlr4-runtime.h>

namespace mech {

class AstBuilder {
public:
  AstBuilder(const SourceFile &source, antlr4::CommonTokenStream &tokens, Diagnostics &diagnostics);

  std::unique_ptr<ast::File> file(MechParser::FileContext *ctx);
  ast::ExprPtr expr(MechParser::ExprContext *ctx);
  std::vector<ast::Decl> decls(const std::vector<MechParser::DeclContext *> &ctxs,
                               antlr4::Token *closing);
  std::vector<ast::InitItem> assignments(MechParser::StandaloneAssignmentsContext *ctx);
  // --stop-when's condition as an event named `name` that stops the run.
  ast::Decl stopCondition(MechParser::StandaloneStopConditionContext *ctx, const std::string &name);

private:
  Location at(antlr4::Token *token) const;
  Location at(antlr4::ParserRuleContext *ctx) const;
  Location span(antlr4::Token *first, antlr4::Token *last) const;

  ast::ExprPtr term(MechParser::TermContext *ctx);
  // Records the node's depth and refuses trees deeper than the limit.
  ast::ExprPtr measured(ast::ExprPtr e);
  ast::ExprPtr signedTerm(MechParser::SignedTermContext *ctx);
  ast::ExprPtr power(MechParser::PowerContext *ctx);
  ast::ExprPtr postfix(MechParser::PostfixContext *ctx);
  ast::ExprPtr primary(MechParser::PrimaryContext *ctx);
  // if's condition: comparisons, `and`, `or`, `not`.
  ast::ExprPtr condition(MechParser::ConditionContext *ctx);
  ast::ExprPtr negation(MechParser::NegationContext *ctx);
  ast::ExprPtr joined(ast::Logic::Op op, Location loc, std::vector<ast::ExprPtr> operands);
  ast::Unit unit(MechParser::UnitContext *ctx);
  void unitFactors(MechParser::UnitExprContext *ctx, int sign, ast::Unit &out);
  std::string name(MechParser::NameContext *ctx) const;
  ast::DeclName declName(MechParser::DeclNameContext *ctx);
  std::vector<ast::ExprPtr> exprs(const std::vector<MechParser::ExprContext *> &ctxs);

  ast::Decl decl(MechParser::DeclContext *ctx);
  ast::Decl forBlock(MechParser::DeclContext *ctx, MechParser::ForDeclContext *c);
  ast::ParamDecl paramDecl(MechParser::ParamDeclContext *c);
  ast::InputDecl inputDecl(MechParser::InputDeclContext *c);
  ast::CoordDecl coordDecl(MechParser::CoordDeclContext *c);
  ast::LetDecl letDecl(MechParser::LetDeclContext *c);
  ast::EnergyDecl energyDecl(MechParser::DeclContext *ctx);
  ast::BodyDecl bodyDecl(MechParser::BodyDeclContext *c);
  ast::SpringDecl springDecl(MechParser::SpringDeclContext *c);
  ast::ConstraintDecl constraintDecl(MechParser::ConstraintDeclContext *c);
  ast::EventDecl eventDecl(MechParser::EventDeclContext *c);
  ast::ContactDecl contactDecl(MechParser::ContactDeclContext *c);
  ast::FrictionDecl frictionDecl(MechParser::FrictionDeclContext *c);
  ast::TableDecl tableDecl(MechParser::TableDeclContext *c);
  ast::InitDecl initDecl(MechParser::InitDeclContext *c);
  ast::InitItem initItem(MechParser::InitItemContext *ctx);
  ast::DefDecl defDecl(MechParser::DefDeclContext *ctx);
  ast::ForDecl forDecl(MechParser::ForDeclContext *ctx);

  // Comments are handed out in source order as declarations are built.
  ast::Comments takeComments(antlr4::ParserRuleContext *ctx);
  ast::Comments takeLeadingComments(antlr4::Token *start);
  std::optional<std::string> takeTrailingComment(antlr4::Token *stop);
  std::vector<std::string> takeCommentsBefore(antlr4::Token *token);

  const SourceFile &source_;
  antlr4::CommonTokenStream &tokens_;
  Diagnostics &diagnostics_;
  std::vector<antlr4::Token *> comments_;
  size_t nextComment_ = 0;
  size_t lastLine_ = 0; // last line consumed by a declaration or comment
  bool depthReported_ = false;
};

} // namespace mech
