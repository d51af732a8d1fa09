// Parse tree to AST. Operator chains arrive flat from the grammar and stay
// flat; `^` chains fold to the right; runs of unary signs fold by parity.
#include "syntax/AstBuilder.h"

#include "MechLexer.h"
#include "support/Rational.h"
#include "syntax/Parser.h"

namespace mech {

using namespace ast;
using P = MechParser;

AstBuilder::AstBuilder(const SourceFile &source, antlr4::CommonTokenStream &tokens,
                       Diagnostics &diagnostics)
    : source_(source), tokens_(tokens), diagnostics_(diagnostics) {
  for (antlr4::Token *token : tokens_.getTokens()) {
    if (token->getType() == MechLexer::COMMENT)
      comments_.push_back(token);
  }
}

Location AstBuilder::at(antlr4::Token *token) const {
  Location loc;
  loc.file = &source_;
  loc.line = static_cast<int>(token->getLine());
  loc.column = static_cast<int>(token->getCharPositionInLine()) + 1;
  if (token->getType() == antlr4::Token::EOF || token->getStopIndex() < token->getStartIndex())
    loc.length = 1;
  else
    loc.length = static_cast<int>(token->getStopIndex() - token->getStartIndex() + 1);
  return loc;
}

Location AstBuilder::span(antlr4::Token *first, antlr4::Token *last) const {
  Location loc = at(first);
  if (last != nullptr && last->getLine() == first->getLine() &&
      last->getStopIndex() >= first->getStartIndex())
    loc.length = static_cast<int>(last->getStopIndex() - first->getStartIndex() + 1);
  else if (last != nullptr && last->getLine() != first->getLine())
    loc.length = 1 << 20; // to the end of the first line
  return loc;
}

Location AstBuilder::at(antlr4::ParserRuleContext *ctx) const {
  return span(ctx->getStart(), ctx->getStop());
}

std::string AstBuilder::name(P::NameContext *ctx) const {
  return ctx->getText();
}

std::vector<ExprPtr> AstBuilder::exprs(const std::vector<P::ExprContext *> &ctxs) {
  std::vector<ExprPtr> result;
  result.reserve(ctxs.size());
  for (P::ExprContext *ctx : ctxs)
    result.push_back(expr(ctx));
  return result;
}

// ---------------------------------------------------------------------------
// Expressions

namespace {

int childDepth(const Expr &e) {
  int depth = 0;
  auto take = [&depth](const ExprPtr &child) {
    if (child)
      depth = std::max(depth, child->depth);
  };
  switch (e.kind) {
  case ExprKind::Call:
    for (const ExprPtr &arg : static_cast<const Call &>(e).args)
      take(arg);
    break;
  case ExprKind::SumOver: {
    auto &s = static_cast<const SumOver &>(e);
    take(s.from), take(s.to), take(s.body);
    break;
  }
  case ExprKind::Vector:
    for (const ExprPtr &x : static_cast<const Vector &>(e).elements)
      take(x);
    break;
  case ExprKind::Add:
    for (const auto &t : static_cast<const Add &>(e).terms)
      take(t.value);
    break;
  case ExprKind::Mul:
    for (const auto &f : static_cast<const Mul &>(e).factors)
      take(f.value);
    break;
  case ExprKind::Neg:
    take(static_cast<const Neg &>(e).operand);
    break;
  case ExprKind::Pow:
    take(static_cast<const Pow &>(e).base), take(static_cast<const Pow &>(e).exponent);
    break;
  case ExprKind::Prime:
    take(static_cast<const Prime &>(e).operand);
    break;
  case ExprKind::Component:
    take(static_cast<const Component &>(e).operand);
    break;
  case ExprKind::Index: {
    auto &x = static_cast<const Index &>(e);
    take(x.operand);
    for (const ExprPtr &i : x.indices)
      take(i);
    break;
  }
  case ExprKind::Compare:
    take(static_cast<const Compare &>(e).lhs), take(static_cast<const Compare &>(e).rhs);
    break;
  case ExprKind::Logic:
    for (const ExprPtr &operand : static_cast<const Logic &>(e).operands)
      take(operand);
    break;
  default:
    break;
  }
  return depth;
}

} // namespace

ExprPtr AstBuilder::measured(ExprPtr e) {
  if (!e)
    return e;
  e->depth = childDepth(*e) + 1;
  if (e->depth > kMaxExpressionDepth) {
    if (!depthReported_)
      diagnostics_.error(e->location, "expression nested deeper than " +
                                          std::to_string(kMaxExpressionDepth) + " levels");
    depthReported_ = true;
    // Keep the tree shallow from here on: the file is rejected anyway.
    return std::make_unique<Number>(e->location, "0");
  }
  return e;
}

ExprPtr AstBuilder::expr(P::ExprContext *ctx) {
  std::vector<P::TermContext *> terms = ctx->term();
  if (terms.size() == 1)
    return term(terms[0]);
  auto add = std::make_unique<Add>(at(ctx));
  std::vector<P::AddOpContext *> ops = ctx->addOp();
  add->terms.reserve(terms.size());
  for (size_t i = 0; i < terms.size(); ++i) {
    bool negated = i > 0 && ops[i - 1]->MINUS() != nullptr;
    add->terms.push_back({negated, term(terms[i])});
  }
  return measured(std::move(add));
}

ExprPtr AstBuilder::term(P::TermContext *ctx) {
  std::vector<P::SignedTermContext *> factors = ctx->signedTerm();
  if (factors.size() == 1)
    return signedTerm(factors[0]);
  auto mul = std::make_unique<Mul>(at(ctx));
  std::vector<P::MulOpContext *> ops = ctx->mulOp();
  mul->factors.reserve(factors.size());
  for (size_t i = 0; i < factors.size(); ++i) {
    bool divides = i > 0 && ops[i - 1]->SLASH() != nullptr;
    mul->factors.push_back({divides, signedTerm(factors[i])});
  }
  return measured(std::move(mul));
}

ExprPtr AstBuilder::signedTerm(P::SignedTermContext *ctx) {
  ExprPtr value = power(ctx->power());
  if (ctx->MINUS().size() % 2 == 1)
    return measured(std::make_unique<Neg>(at(ctx), std::move(value)));
  return value;
}

ExprPtr AstBuilder::power(P::PowerContext *ctx) {
  ExprPtr base = postfix(ctx->postfix());
  std::vector<P::ExponentContext *> exponents = ctx->exponent();
  if (exponents.empty())
    return base;
  if (static_cast<int>(exponents.size()) > kMaxOperatorChain) {
    diagnostics_.error(at(ctx), "chain of '^' longer than " + std::to_string(kMaxOperatorChain) +
                                    " operators");
    return base;
  }
  // a ^ s1 p1 ^ s2 p2: right-associative, each sign applying to the rest of
  // the chain, so a^-b^c is a^(-(b^c)).
  ExprPtr result;
  for (size_t i = exponents.size(); i-- > 0;) {
    P::ExponentContext *exponent = exponents[i];
    ExprPtr operand = postfix(exponent->postfix());
    if (result)
      operand =
          measured(std::make_unique<Pow>(at(exponent), std::move(operand), std::move(result)));
    if (exponent->MINUS().size() % 2 == 1)
      operand = measured(std::make_unique<Neg>(at(exponent), std::move(operand)));
    result = std::move(operand);
  }
  return measured(std::make_unique<Pow>(at(ctx), std::move(base), std::move(result)));
}

ExprPtr AstBuilder::postfix(P::PostfixContext *ctx) {
  ExprPtr value = primary(ctx->primary());
  std::vector<P::PostfixOpContext *> ops = ctx->postfixOp();
  if (static_cast<int>(ops.size()) > kMaxOperatorChain) {
    diagnostics_.error(at(ctx), "chain of postfix operators longer than " +
                                    std::to_string(kMaxOperatorChain));
    return value;
  }
  antlr4::Token *first = ctx->getStart();
  for (size_t i = 0; i < ops.size(); ++i) {
    P::PostfixOpContext *op = ops[i];
    Location loc = span(first, op->getStop());
    if (dynamic_cast<P::PrimeOpContext *>(op)) {
      int order = 1;
      while (i + 1 < ops.size() && dynamic_cast<P::PrimeOpContext *>(ops[i + 1])) {
        ++order;
        ++i;
      }
      loc = span(first, ops[i]->getStop());
      value = measured(std::make_unique<Prime>(loc, std::move(value), order));
    } else if (auto *component = dynamic_cast<P::ComponentOpContext *>(op)) {
      auto node = std::make_unique<Component>(loc, std::move(value), name(component->name()));
      node->componentLocation = at(component->name());
      value = measured(std::move(node));
    } else if (auto *index = dynamic_cast<P::IndexOpContext *>(op)) {
      auto node = std::make_unique<Index>(loc, std::move(value));
      for (P::IndexItemContext *item : index->indexItem())
        node->indices.push_back(item->COLON() ? std::make_unique<Colon>(at(item))
                                              : expr(item->expr()));
      value = measured(std::move(node));
    }
  }
  return value;
}

ExprPtr AstBuilder::primary(P::PrimaryContext *ctx) {
  Location loc = at(ctx);
  if (auto *number = dynamic_cast<P::NumberPrimaryContext *>(ctx)) {
    auto node = std::make_unique<Number>(loc, number->NUMBER()->getText());
    if (number->unit())
      node->unit = unit(number->unit());
    return node;
  }
  if (dynamic_cast<P::TimePrimaryContext *>(ctx))
    return std::make_unique<Time>(loc);
  if (dynamic_cast<P::PiPrimaryContext *>(ctx))
    return std::make_unique<Pi>(loc);
  if (auto *sum = dynamic_cast<P::SumPrimaryContext *>(ctx)) {
    auto node = std::make_unique<SumOver>(loc);
    node->function = name(sum->name());
    node->index = name(sum->indexName()->name());
    node->indexLocation = at(sum->indexName());
    node->from = expr(sum->expr(0));
    node->to = expr(sum->expr(1));
    node->body = expr(sum->expr(2));
    return measured(std::move(node));
  }
  if (auto *choice = dynamic_cast<P::IfPrimaryContext *>(ctx)) {
    auto node = std::make_unique<Call>(loc, "if");
    node->calleeLocation = at(choice->IF()->getSymbol());
    node->args.push_back(condition(choice->condition()));
    for (P::ExprContext *branch : choice->expr())
      node->args.push_back(expr(branch));
    return measured(std::move(node));
  }
  if (auto *call = dynamic_cast<P::CallPrimaryContext *>(ctx)) {
    // I.f(...) calls the def f of the file imported as I.
    std::string callee = name(call->name(0));
    if (call->DOT())
      callee += "." + name(call->name(1));
    auto node = std::make_unique<Call>(loc, callee);
    node->calleeLocation = at(call->name(0));
    node->args = exprs(call->expr());
    return measured(std::move(node));
  }
  if (auto *plain = dynamic_cast<P::NamePrimaryContext *>(ctx))
    return std::make_unique<Name>(loc, name(plain->name()));
  if (auto *paren = dynamic_cast<P::ParenPrimaryContext *>(ctx))
    return expr(paren->expr());
  if (auto *vector = dynamic_cast<P::VectorPrimaryContext *>(ctx)) {
    auto node = std::make_unique<Vector>(loc);
    node->elements = exprs(vector->expr());
    return measured(std::move(node));
  }
  internalError("unhandled primary expression");
}

// A condition's operands joined by one operator (the operand alone when
// there is one).
ExprPtr AstBuilder::joined(Logic::Op op, Location loc, std::vector<ExprPtr> operands) {
  if (operands.size() == 1)
    return std::move(operands[0]);
  auto node = std::make_unique<Logic>(loc, op);
  node->operands = std::move(operands);
  return measured(std::move(node));
}

ExprPtr AstBuilder::condition(P::ConditionContext *ctx) {
  std::vector<ExprPtr> operands;
  for (P::ConjunctionContext *c : ctx->conjunction()) {
    std::vector<ExprPtr> factors;
    for (P::NegationContext *n : c->negation())
      factors.push_back(negation(n));
    operands.push_back(joined(Logic::Op::And, at(c), std::move(factors)));
  }
  return joined(Logic::Op::Or, at(ctx), std::move(operands));
}

ExprPtr AstBuilder::negation(P::NegationContext *ctx) {
  if (ctx->NOT()) {
    auto node = std::make_unique<Logic>(at(ctx), Logic::Op::Not);
    node->operands.push_back(negation(ctx->negation()));
    return measured(std::move(node));
  }
  if (ctx->condition())
    return condition(ctx->condition());
  P::ComparisonContext *c = ctx->comparison();
  Compare::Op op = c->LT()   ? Compare::Op::Less
                   : c->LE() ? Compare::Op::LessEqual
                   : c->GT() ? Compare::Op::Greater
                             : Compare::Op::GreaterEqual;
  return measured(std::make_unique<Compare>(at(c), op, expr(c->expr(0)), expr(c->expr(1))));
}

Unit AstBuilder::unit(P::UnitContext *ctx) {
  Unit result;
  result.location = at(ctx);
  unitFactors(ctx->unitExpr(), 1, result);
  return result;
}

void AstBuilder::unitFactors(P::UnitExprContext *ctx, int sign, Unit &out) {
  int currentSign = sign;
  for (antlr4::tree::ParseTree *child : ctx->children) {
    if (auto *terminal = dynamic_cast<antlr4::tree::TerminalNode *>(child)) {
      currentSign = terminal->getSymbol()->getType() == MechLexer::SLASH ? -sign : sign;
      continue;
    }
    auto *factor = dynamic_cast<P::UnitFactorContext *>(child);
    if (factor == nullptr)
      continue;
    int exponent = 1;
    if (factor->CARET()) {
      std::vector<antlr4::tree::TerminalNode *> numbers = factor->NUMBER();
      antlr4::tree::TerminalNode *exponentToken = numbers.back();
      std::string text = exponentToken->getText();
      bool integral = text.find_first_not_of("0123456789") == std::string::npos;
      if (!integral) {
        diagnostics_.error(at(exponentToken->getSymbol()),
                           "a unit exponent must be a small integer, found " + text);
      } else {
        exponent = clampedExponent(text); // the unit check reports a value past the limit
      }
      if (factor->MINUS())
        exponent = -exponent;
    }
    if (factor->unitExpr()) {
      Unit inner;
      unitFactors(factor->unitExpr(), 1, inner);
      for (UnitFactor &f : inner.factors) {
        f.exponent = clampedExponentProduct(f.exponent, exponent * currentSign);
        out.factors.push_back(f);
      }
      continue;
    }
    UnitFactor f;
    if (factor->name()) {
      f.symbol = name(factor->name());
      f.location = at(factor->name());
    } else {
      antlr4::tree::TerminalNode *number = factor->NUMBER(0);
      f.symbol = number->getText();
      f.location = at(number->getSymbol());
    }
    f.exponent = exponent * currentSign;
    out.factors.push_back(f);
  }
}

// ---------------------------------------------------------------------------
// Declarations

DeclName AstBuilder::declName(P::DeclNameContext *ctx) {
  DeclName result;
  result.name = name(ctx->name());
  result.location = at(ctx->name());
  if (ctx->LBRACK())
    result.indices = exprs(ctx->expr());
  return result;
}

DefDecl AstBuilder::defDecl(P::DefDeclContext *ctx) {
  DefDecl def;
  std::vector<P::NameContext *> names = ctx->name();
  def.name = name(names[0]);
  def.location = at(names[0]);
  for (size_t i = 1; i < names.size(); ++i) {
    def.params.push_back(name(names[i]));
    def.paramLocations.push_back(at(names[i]));
  }
  def.body = expr(ctx->expr());
  return def;
}

ForDecl AstBuilder::forDecl(P::ForDeclContext *ctx) {
  ForDecl result;
  result.index = name(ctx->indexName()->name());
  result.indexLocation = at(ctx->indexName());
  result.range.from = expr(ctx->expr(0));
  result.range.to = expr(ctx->expr(1));
  result.body = decls(ctx->decl(), ctx->RBRACE()->getSymbol());
  return result;
}

std::vector<Decl> AstBuilder::decls(const std::vector<P::DeclContext *> &ctxs,
                                    antlr4::Token *closing) {
  std::vector<Decl> result;
  for (P::DeclContext *ctx : ctxs) {
    if (ctx->SEMI())
      continue;
    result.push_back(decl(ctx));
  }
  (void)closing;
  return result;
}

Decl AstBuilder::decl(P::DeclContext *ctx) {
  // A block takes its comments in three places (header, closing brace,
  // after it), every other declaration all at once.
  if (auto *c = ctx->forDecl())
    return forBlock(ctx, c);
  Decl result;
  result.location = at(ctx->getStart());
  result.comments = takeComments(ctx);

  if (auto *c = ctx->paramDecl()) {
    result.node = paramDecl(c);
  } else if (auto *c = ctx->inputDecl()) {
    result.node = inputDecl(c);
  } else if (auto *c = ctx->coordDecl()) {
    result.node = coordDecl(c);
  } else if (auto *c = ctx->letDecl()) {
    result.node = letDecl(c);
  } else if (auto *c = ctx->defDecl()) {
    result.node = defDecl(c);
  } else if (ctx->kineticDecl() || ctx->potentialDecl() || ctx->dissipationDecl()) {
    result.node = energyDecl(ctx);
  } else if (auto *c = ctx->forceDecl()) {
    result.node = ForceDecl{expr(c->expr(0)), expr(c->expr(1))};
  } else if (auto *c = ctx->torqueDecl()) {
    result.node = TorqueDecl{expr(c->expr(0)), expr(c->expr(1))};
  } else if (auto *c = ctx->generalizedDecl()) {
    result.node = GeneralizedDecl{expr(c->expr(0)), expr(c->expr(1))};
  } else if (auto *c = ctx->particleDecl()) {
    result.node = ParticleDecl{declName(c->declName()), expr(c->expr(0)), expr(c->expr(1))};
  } else if (auto *c = ctx->bodyDecl()) {
    result.node = bodyDecl(c);
  } else if (auto *c = ctx->gravityDecl()) {
    result.node = GravityDecl{expr(c->expr())};
  } else if (auto *c = ctx->springDecl()) {
    result.node = springDecl(c);
  } else if (auto *c = ctx->constraintDecl()) {
    result.node = constraintDecl(c);
  } else if (auto *c = ctx->initDecl()) {
    result.node = initDecl(c);
  } else if (auto *c = ctx->outputDecl()) {
    result.node = OutputDecl{declName(c->declName()), expr(c->expr())};
  } else if (auto *c = ctx->eventDecl()) {
    result.node = eventDecl(c);
  } else if (auto *c = ctx->contactDecl()) {
    result.node = contactDecl(c);
  } else if (auto *f = ctx->frictionDecl()) {
    result.node = frictionDecl(f);
  } else if (auto *t = ctx->tableDecl()) {
    result.node = tableDecl(t);
  } else if (auto *c = ctx->drawDecl()) {
    auto *shape = c->drawShape();
    DrawDecl draw{shape->name() ? name(shape->name()) : "spring", at(shape), {}};
    for (auto *e : c->expr())
      draw.args.push_back(expr(e));
    result.node = std::move(draw);
  } else {
    internalError("unhandled declaration");
  }
  return result;
}

// The comments of a for block are split: those before it and inside its
// header lead, those before the closing brace stay inside the block (for
// `mech fmt`), and the one after the brace trails. lastLine_ moves to the
// opening brace before the body so its declarations take their own comments.
Decl AstBuilder::forBlock(P::DeclContext *ctx, P::ForDeclContext *c) {
  Decl result;
  result.location = at(ctx->getStart());
  result.comments = takeLeadingComments(c->getStart());
  std::vector<std::string> header = takeCommentsBefore(c->LBRACE()->getSymbol());
  result.comments.leading.insert(result.comments.leading.end(), header.begin(), header.end());
  lastLine_ = c->LBRACE()->getSymbol()->getLine();
  ForDecl node = forDecl(c);
  node.closingComments = takeCommentsBefore(c->RBRACE()->getSymbol());
  result.comments.trailing = takeTrailingComment(c->RBRACE()->getSymbol());
  result.node = std::move(node);
  return result;
}

ParamDecl AstBuilder::paramDecl(P::ParamDeclContext *c) {
  ParamDecl node;
  for (P::ParamItemContext *item : c->paramItem()) {
    ParamItem p;
    p.name = name(item->name());
    p.location = at(item->name());
    std::vector<P::ExprContext *> e = item->expr();
    // A family, `param m[k in a..b] = e`: the bounds are the first two
    // expressions, the value the last.
    if (item->RANGE()) {
      if (item->indexName()) {
        p.familyIndex = name(item->indexName()->name());
        p.familyIndexLocation = at(item->indexName());
      }
      p.family = Range{expr(e[0]), expr(e[1])};
    }
    if (item->unit())
      p.unit = unit(item->unit());
    p.value = expr(e.back());
    node.items.push_back(std::move(p));
  }
  return node;
}

InputDecl AstBuilder::inputDecl(P::InputDeclContext *c) {
  InputDecl node;
  for (P::InputItemContext *item : c->inputItem()) {
    InputItem u;
    u.name = name(item->name());
    u.location = at(item->name());
    if (item->unit())
      u.unit = unit(item->unit());
    node.items.push_back(std::move(u));
  }
  return node;
}

CoordDecl AstBuilder::coordDecl(P::CoordDeclContext *c) {
  CoordDecl node;
  for (P::CoordItemContext *item : c->coordItem()) {
    CoordItem q;
    q.name = name(item->name());
    q.location = at(item->name());
    if (item->RANGE())
      q.family = Range{expr(item->expr(0)), expr(item->expr(1))};
    if (item->unit())
      q.unit = unit(item->unit());
    node.items.push_back(std::move(q));
  }
  return node;
}

LetDecl AstBuilder::letDecl(P::LetDeclContext *c) {
  LetDecl node;
  node.target = declName(c->declName());
  std::vector<P::ExprContext *> e = c->expr();
  // A family, `let x[k in a..b] = e`: the bounds are the first two expressions.
  if (c->indexName()) {
    node.familyIndex = name(c->indexName()->name());
    node.familyIndexLocation = at(c->indexName());
    node.family = Range{expr(e[0]), expr(e[1])};
  }
  if (c->unit())
    node.unit = unit(c->unit());
  node.value = expr(e.back());
  return node;
}

// Kinetic, potential and dissipation energies share one node; the grammar
// has one rule each.
EnergyDecl AstBuilder::energyDecl(P::DeclContext *ctx) {
  EnergyDecl node;
  P::DeclNameContext *nameCtx = nullptr;
  P::ExprContext *valueCtx = nullptr;
  if (auto *k = ctx->kineticDecl()) {
    node.kind = EnergyKind::Kinetic, nameCtx = k->declName(), valueCtx = k->expr();
  } else if (auto *p = ctx->potentialDecl()) {
    node.kind = EnergyKind::Potential, nameCtx = p->declName(), valueCtx = p->expr();
  } else {
    auto *d = ctx->dissipationDecl();
    node.kind = EnergyKind::Dissipation, nameCtx = d->declName(), valueCtx = d->expr();
  }
  if (nameCtx)
    node.name = declName(nameCtx);
  node.value = expr(valueCtx);
  return node;
}

BodyDecl AstBuilder::bodyDecl(P::BodyDeclContext *c) {
  BodyDecl node;
  node.name = declName(c->declName());
  node.kind = c->ANGLE() ? BodyKind::Planar : BodyKind::Spatial;
  node.mass = expr(c->expr(0));
  node.position = expr(c->expr(1));
  node.orientation = expr(c->expr(2));
  node.inertia = expr(c->expr(3));
  if (c->ABOUT())
    node.about = expr(c->expr(4));
  return node;
}

SpringDecl AstBuilder::springDecl(P::SpringDeclContext *c) {
  SpringDecl node;
  node.stiffness = expr(c->expr(0));
  node.from = expr(c->expr(1));
  node.to = expr(c->expr(2));
  if (c->REST())
    node.rest = expr(c->expr(3));
  return node;
}

ConstraintDecl AstBuilder::constraintDecl(P::ConstraintDeclContext *c) {
  ConstraintDecl node;
  if (c->declName())
    node.name = declName(c->declName());
  node.lhs = expr(c->expr(0));
  node.rhs = expr(c->expr(1));
  return node;
}

EventDecl AstBuilder::eventDecl(P::EventDeclContext *c) {
  EventDecl node;
  node.name = declName(c->declName());
  node.lhs = expr(c->expr(0));
  node.rhs = expr(c->expr(1));
  bool directed = false;
  for (P::EventClauseContext *clause : c->eventClause()) {
    bool repeated = clause->STOP() ? node.stop : directed;
    if (repeated && !clause->THEN())
      diagnostics_.error(at(clause->getStart()),
                         std::string("event '") + node.name.name + "' has " +
                             (clause->STOP() ? "'stop'" : "a direction") + " twice");
    if (clause->THEN()) {
      if (!node.resets.empty())
        diagnostics_.error(at(clause->getStart()), "event '" + node.name.name +
                                                       "' has 'then' twice (list the resets, " +
                                                       "separated by commas, after one 'then')");
      for (P::InitItemContext *item : clause->initItem())
        node.resets.push_back(initItem(item));
    } else if (clause->STOP()) {
      node.stop = true;
    } else {
      node.direction = clause->UP() ? EventDirection::Up : EventDirection::Down;
      directed = true;
    }
  }
  return node;
}

ContactDecl AstBuilder::contactDecl(P::ContactDeclContext *c) {
  ContactDecl node;
  node.name = declName(c->declName());
  node.lhs = expr(c->expr(0));
  node.rhs = expr(c->expr(1));
  node.atLeast = c->GE() != nullptr;
  node.restitution = expr(c->expr(2));
  return node;
}

TableDecl AstBuilder::tableDecl(P::TableDeclContext *c) {
  TableDecl node;
  node.name = name(c->name(0));
  node.nameLocation = at(c->name(0));
  node.argument = name(c->name(1));
  node.argumentLocation = at(c->name(1));
  // The units: one after the argument (inside the parentheses), one after them.
  for (P::UnitContext *u : c->unit())
    (u->getStart()->getTokenIndex() < c->RPAREN()->getSymbol()->getTokenIndex() ? node.argumentUnit
                                                                                : node.unit) =
        unit(u);
  if (c->STRING()) {
    std::string text = c->STRING()->getText();
    node.path = text.substr(1, text.size() - 2);
    node.pathLocation = at(c->STRING()->getSymbol());
  } else {
    node.rows = expr(c->expr());
  }
  for (P::TableClauseContext *clause : c->tableClause()) {
    if (clause->CUBIC())
      node.cubic = true;
    else if (clause->EXTRAPOLATE())
      node.linearExtrapolation = clause->LINEAR() != nullptr;
    else
      node.cubic = false;
  }
  return node;
}

FrictionDecl AstBuilder::frictionDecl(P::FrictionDeclContext *c) {
  FrictionDecl node;
  node.name = declName(c->declName());
  node.slip = expr(c->expr(0));
  node.normal = expr(c->expr(1));
  node.staticCoefficient = expr(c->expr(2));
  if (c->KINETIC())
    node.kineticCoefficient = expr(c->expr(3));
  return node;
}

Decl AstBuilder::stopCondition(P::StandaloneStopConditionContext *ctx, const std::string &name) {
  EventDecl node;
  node.name.name = name;
  node.name.location = at(ctx->getStart());
  node.lhs = expr(ctx->expr(0));
  node.rhs = expr(ctx->expr(1));
  node.stop = true;
  if (ctx->UP())
    node.direction = EventDirection::Up;
  else if (ctx->DOWN())
    node.direction = EventDirection::Down;
  Decl result;
  result.location = node.name.location;
  result.node = std::move(node);
  return result;
}

InitDecl AstBuilder::initDecl(P::InitDeclContext *c) {
  InitDecl node;
  for (P::InitItemContext *item : c->initItem())
    node.items.push_back(initItem(item));
  return node;
}

InitItem AstBuilder::initItem(P::InitItemContext *item) {
  InitItem init;
  init.name = name(item->name());
  init.location = at(item->name());
  std::vector<P::ExprContext *> e = item->expr();
  for (size_t k = 0; k + 1 < e.size(); ++k)
    init.indices.push_back(expr(e[k]));
  init.primes = static_cast<int>(item->PRIME().size());
  init.value = expr(e.back());
  return init;
}

std::vector<InitItem> AstBuilder::assignments(P::StandaloneAssignmentsContext *ctx) {
  std::vector<InitItem> result;
  for (P::AssignmentContext *assignment : ctx->assignment()) {
    if (assignment->initItem()) {
      result.push_back(initItem(assignment->initItem()));
      continue;
    }
    // t = value: the time, which is a reserved word.
    InitItem time;
    time.name = "t";
    time.location = at(assignment->TIME()->getSymbol());
    time.value = expr(assignment->expr());
    result.push_back(std::move(time));
  }
  return result;
}

// ---------------------------------------------------------------------------
// Comments

std::vector<std::string> AstBuilder::takeCommentsBefore(antlr4::Token *token) {
  std::vector<std::string> result;
  while (nextComment_ < comments_.size() &&
         comments_[nextComment_]->getTokenIndex() < token->getTokenIndex()) {
    result.push_back(comments_[nextComment_]->getText());
    lastLine_ = comments_[nextComment_]->getLine();
    ++nextComment_;
  }
  return result;
}

Comments AstBuilder::takeComments(antlr4::ParserRuleContext *ctx) {
  Comments result = takeLeadingComments(ctx->getStart());
  // Comments inside the declaration that are not on its last line are kept
  // before it.
  antlr4::Token *stop = ctx->getStop();
  while (nextComment_ < comments_.size()) {
    antlr4::Token *comment = comments_[nextComment_];
    if (comment->getTokenIndex() > stop->getTokenIndex() || comment->getLine() >= stop->getLine())
      break;
    result.leading.push_back(comment->getText());
    ++nextComment_;
  }
  result.trailing = takeTrailingComment(stop);
  return result;
}

Comments AstBuilder::takeLeadingComments(antlr4::Token *start) {
  Comments result;
  size_t firstLine = start->getLine();
  if (nextComment_ < comments_.size() &&
      comments_[nextComment_]->getTokenIndex() < start->getTokenIndex())
    firstLine = comments_[nextComment_]->getLine();
  result.blankLineBefore = lastLine_ > 0 && firstLine > lastLine_ + 1;
  result.leading = takeCommentsBefore(start);
  lastLine_ = start->getLine();
  return result;
}

std::optional<std::string> AstBuilder::takeTrailingComment(antlr4::Token *stop) {
  lastLine_ = stop->getLine();
  if (nextComment_ >= comments_.size())
    return std::nullopt;
  // A comment after the last token on the same line, with only `;` between.
  antlr4::Token *comment = comments_[nextComment_];
  if (comment->getLine() != stop->getLine() || comment->getTokenIndex() < stop->getTokenIndex())
    return std::nullopt;
  for (size_t i = stop->getTokenIndex() + 1; i < comment->getTokenIndex(); ++i) {
    antlr4::Token *between = tokens_.get(i);
    if (between->getChannel() == antlr4::Token::DEFAULT_CHANNEL &&
        between->getType() != MechLexer::SEMI)
      return std::nullopt;
  }
  ++nextComment_;
  return comment->getText();
}

// ---------------------------------------------------------------------------
// File

std::unique_ptr<File> AstBuilder::file(P::FileContext *ctx) {
  auto result = std::make_unique<File>();
  result->source = &source_;
  for (antlr4::tree::ParseTree *child : ctx->children) {
    TopItem item;
    if (auto *import = dynamic_cast<P::ImportDeclContext *>(child)) {
      item.comments = takeComments(import);
      std::string text = import->STRING()->getText();
      ImportDecl node{
          text.substr(1, text.size() - 2), at(import->STRING()->getSymbol()), std::nullopt, {}};
      if (import->name()) {
        node.alias = name(import->name());
        node.aliasLocation = at(import->name());
      }
      item.location = at(import->getStart());
      item.node = std::move(node);
    } else if (auto *def = dynamic_cast<P::DefDeclContext *>(child)) {
      item.comments = takeComments(def);
      item.location = at(def->getStart());
      item.node = defDecl(def);
    } else if (auto *model = dynamic_cast<P::ModelDeclContext *>(child)) {
      // The model's own comments are those before `{`; the rest belong to
      // its declarations.
      item.location = at(model->getStart());
      antlr4::Token *open = model->LBRACE()->getSymbol();
      item.comments = takeLeadingComments(model->getStart());
      std::vector<std::string> header = takeCommentsBefore(open);
      item.comments.leading.insert(item.comments.leading.end(), header.begin(), header.end());
      lastLine_ = open->getLine();
      ModelDecl node;
      node.name = name(model->name());
      node.location = at(model->name());
      node.body = decls(model->decl(), model->RBRACE()->getSymbol());
      node.closingComments = takeCommentsBefore(model->RBRACE()->getSymbol());
      item.comments.trailing = takeTrailingComment(model->RBRACE()->getSymbol());
      item.node = std::move(node);
    } else {
      continue;
    }
    result->items.push_back(std::move(item));
  }
  while (nextComment_ < comments_.size())
    result->trailingComments.push_back(comments_[nextComment_++]->getText());
  return result;
}

} // namespace mech
