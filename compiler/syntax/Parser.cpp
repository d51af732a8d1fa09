// Runs the ANTLR lexer and parser with our own error reporting: input is
// validated as UTF-8, unknown characters and over-deep nesting are refused
// before parsing, and syntax errors become located diagnostics.
#include "syntax/Parser.h"

#include "MechLexer.h"
#include "MechParser.h"
#include "support/Utf8.h"
#include "syntax/AstBuilder.h"

#include <antlr4-runtime.h>

#include <set>

namespace mech {

namespace {

Location tokenLocation(const SourceFile &source, antlr4::Token *token) {
  Location loc;
  loc.file = &source;
  loc.line = static_cast<int>(token->getLine());
  loc.column = static_cast<int>(token->getCharPositionInLine()) + 1;
  loc.length = token->getType() == antlr4::Token::EOF
                   ? 1
                   : static_cast<int>(token->getStopIndex() - token->getStartIndex() + 1);
  return loc;
}

std::string describeToken(antlr4::Token *token) {
  if (token->getType() == antlr4::Token::EOF)
    return "end of input";
  std::string text = sanitizeForTerminal(token->getText());
  switch (token->getType()) {
  case MechLexer::NUMBER:
    return "number " + text;
  case MechLexer::STRING:
    return "string " + text;
  case MechLexer::ID:
    return "name '" + text + "'";
  default:
    return "'" + text + "'";
  }
}

// Turns ANTLR's expected-token sets into the words of the language.
std::string describeExpected(const antlr4::misc::IntervalSet &expected,
                             const antlr4::dfa::Vocabulary &vocabulary) {
  std::vector<ssize_t> types;
  for (ssize_t type : expected.toList())
    types.push_back(type);
  std::set<ssize_t> declarationWords = {
      MechLexer::PARAM,   MechLexer::INPUT,       MechLexer::COORD,       MechLexer::LET,
      MechLexer::KINETIC, MechLexer::POTENTIAL,   MechLexer::FORCE,       MechLexer::PARTICLE,
      MechLexer::BODY,    MechLexer::CONSTRAINT,  MechLexer::INIT,        MechLexer::OUTPUT,
      MechLexer::FOR,     MechLexer::DISSIPATION, MechLexer::GENERALIZED, MechLexer::EVENT,
      MechLexer::DRAW,    MechLexer::CONTACT,     MechLexer::FRICTION};
  // The clause words, and `contact`, are also names (grammar/Mech.g4).
  auto nameWord = [](ssize_t type) {
    return (type >= MechLexer::MASS && type <= MechLexer::IN) || type == MechLexer::THEN ||
           type == MechLexer::RESTITUTION || type == MechLexer::CONTACT ||
           type == MechLexer::FRICTION || type == MechLexer::SLIP || type == MechLexer::NORMAL ||
           type == MechLexer::STATIC || (type >= MechLexer::TABLE && type <= MechLexer::HOLD);
  };
  int declarationCount = 0;
  bool expression = false;
  for (ssize_t type : types) {
    declarationCount += declarationWords.count(type);
    if (type == MechLexer::NUMBER)
      expression = true;
  }
  std::vector<std::string> words;
  if (declarationCount >= 5)
    words.push_back("a declaration");
  if (expression)
    words.push_back("an expression");
  for (ssize_t type : types) {
    if (declarationCount >= 5 &&
        (declarationWords.count(type) || type == MechLexer::TORQUE || type == MechLexer::GRAVITY ||
         type == MechLexer::SPRING || type == MechLexer::DEF || type == MechLexer::SEMI))
      continue;
    if (expression && (type == MechLexer::ID || type == MechLexer::NUMBER ||
                       type == MechLexer::TIME || type == MechLexer::PI || type == MechLexer::IF ||
                       type == MechLexer::LPAREN || type == MechLexer::LBRACK ||
                       type == MechLexer::PLUS || type == MechLexer::MINUS || nameWord(type)))
      continue;
    if (type == MechLexer::ID) {
      words.push_back("a name");
    } else if (nameWord(type)) {
      // Clause words are also names; list them only when asked for exactly.
      std::string literal = vocabulary.getLiteralName(type);
      if (types.size() <= 4)
        words.push_back(literal);
    } else if (type == MechLexer::NUMBER) {
      words.push_back("a number");
    } else if (type == MechLexer::STRING) {
      words.push_back("a file name in quotes");
    } else if (type == static_cast<ssize_t>(antlr4::Token::EOF)) {
      words.push_back("end of input");
    } else {
      std::string literal = vocabulary.getLiteralName(type);
      if (!literal.empty())
        words.push_back(literal);
    }
  }
  if (words.empty() || words.size() > 6)
    return "";
  std::string result = words[0];
  for (size_t i = 1; i < words.size(); ++i)
    result += (i + 1 == words.size() ? " or " : ", ") + words[i];
  return result;
}

class SyntaxErrorListener : public antlr4::BaseErrorListener {
public:
  SyntaxErrorListener(const SourceFile &source, Diagnostics &diagnostics)
      : source_(source), diagnostics_(diagnostics) {}

  void syntaxError(antlr4::Recognizer *recognizer, antlr4::Token *offending, size_t line,
                   size_t column, const std::string &, std::exception_ptr) override {
    Location loc;
    if (offending != nullptr) {
      loc = tokenLocation(source_, offending);
    } else {
      loc.file = &source_;
      loc.line = static_cast<int>(line);
      loc.column = static_cast<int>(column) + 1;
    }
    // One error per line: ANTLR's recovery may report the same spot again,
    // or the rest of a line it could not make sense of (`param input = 2`).
    if (loc.line == lastLine_ && loc.file == lastFile_)
      return;
    lastFile_ = loc.file;
    lastLine_ = loc.line, lastColumn_ = loc.column;
    std::string message =
        offending ? "unexpected " + describeToken(offending) : std::string("syntax error");
    if (auto *parser = dynamic_cast<antlr4::Parser *>(recognizer)) {
      std::string expected = describeExpected(parser->getExpectedTokens(), parser->getVocabulary());
      if (!expected.empty())
        message += ", expected " + expected;
    }
    if (offending && offending->getType() == MechLexer::DOT)
      message += " (numbers cannot end with '.'; write 1.0 or 1)";
    diagnostics_.error(loc, message);
  }

private:
  const SourceFile &source_;
  Diagnostics &diagnostics_;
  int lastLine_ = -1, lastColumn_ = -1;
  const SourceFile *lastFile_ = nullptr;
};

// Everything one parse needs, kept alive together.
struct ParseSession {
  antlr4::ANTLRInputStream input;
  MechLexer lexer;
  antlr4::CommonTokenStream tokens;
  MechParser parser;
  SyntaxErrorListener listener;

  ParseSession(const SourceFile &source, Diagnostics &diagnostics)
      : input(source.text()), lexer(&input), tokens(&lexer), parser(&tokens),
        listener(source, diagnostics) {
    lexer.removeErrorListeners();
    parser.removeErrorListeners();
    parser.addErrorListener(&listener);
  }
};

Location byteOffsetLocation(const SourceFile &source, size_t offset) {
  Location loc;
  loc.file = &source;
  loc.line = 1;
  size_t lineStart = 0;
  for (size_t i = 0; i < offset; ++i) {
    if (source.text()[i] == '\n')
      ++loc.line, lineStart = i + 1;
  }
  loc.column =
      static_cast<int>(
          decodeUtf8Lossy(std::string_view(source.text()).substr(lineStart, offset - lineStart))
              .size()) +
      1;
  return loc;
}

// Checks what the lexer produced before the recursive parser runs: unknown
// characters, unterminated strings and nesting deeper than the limit.
bool prescan(const SourceFile &source, antlr4::CommonTokenStream &tokens,
             Diagnostics &diagnostics) {
  tokens.fill();
  bool ok = true;
  int depth = 0;
  int reported = 0;
  for (antlr4::Token *token : tokens.getTokens()) {
    switch (token->getType()) {
    case MechLexer::UNKNOWN: {
      ok = false;
      if (++reported > 20)
        break;
      std::vector<char32_t> text = decodeUtf8Lossy(token->getText());
      char32_t c = text.empty() ? 0 : text[0];
      if (c == U'"')
        diagnostics.error(tokenLocation(source, token), "unterminated string");
      else
        diagnostics.error(tokenLocation(source, token),
                          "unexpected character " + describeCodePoint(c));
      break;
    }
    case MechLexer::DOT: {
      // `1.` is not a number (so that 1..n is a range): say so at the dot.
      size_t index = token->getTokenIndex();
      antlr4::Token *before = index > 0 ? tokens.get(index - 1) : nullptr;
      if (before != nullptr && before->getType() == MechLexer::NUMBER &&
          before->getStopIndex() + 1 == token->getStartIndex()) {
        diagnostics.error(tokenLocation(source, token), "numbers cannot end with '.'; write " +
                                                            before->getText() + ".0 or " +
                                                            before->getText());
        ok = false;
      }
      break;
    }
    case MechLexer::LPAREN:
    case MechLexer::LBRACK:
    case MechLexer::LBRACE:
      if (++depth > kMaxNestingDepth) {
        diagnostics.error(tokenLocation(source, token), "brackets nested deeper than " +
                                                            std::to_string(kMaxNestingDepth) +
                                                            " levels");
        return false;
      }
      break;
    case MechLexer::RPAREN:
    case MechLexer::RBRACK:
    case MechLexer::RBRACE:
      depth = std::max(depth - 1, 0);
      break;
    default:
      break;
    }
  }
  return ok;
}

bool validate(const SourceFile &source, Diagnostics &diagnostics) {
  if (auto offset = findInvalidUtf8(source.text())) {
    diagnostics.error(byteOffsetLocation(source, *offset), "the file is not valid UTF-8");
    return false;
  }
  return true;
}

} // namespace

namespace {

// The steps every entry point shares: validate, lex and prescan, run one
// parser rule, and build the AST from it; null when anything was reported.
template <typename Result, typename Rule, typename Build>
Result parseWith(const SourceFile &source, Diagnostics &diagnostics, Rule rule, Build build) {
  if (!validate(source, diagnostics))
    return nullptr;
  ParseSession session(source, diagnostics);
  if (!prescan(source, session.tokens, diagnostics))
    return nullptr;
  int errorsBefore = diagnostics.errorCount();
  auto *tree = rule(session.parser);
  if (diagnostics.errorCount() > errorsBefore)
    return nullptr;
  AstBuilder builder(source, session.tokens, diagnostics);
  Result result = build(builder, tree);
  if (diagnostics.errorCount() > errorsBefore)
    return nullptr;
  return result;
}

} // namespace

std::unique_ptr<ast::File> parseFile(const SourceFile &source, Diagnostics &diagnostics) {
  return parseWith<std::unique_ptr<ast::File>>(
      source, diagnostics, [](MechParser &p) { return p.file(); },
      [](AstBuilder &b, MechParser::FileContext *tree) { return b.file(tree); });
}

ast::ExprPtr parseExpression(const SourceFile &source, Diagnostics &diagnostics) {
  return parseWith<ast::ExprPtr>(
      source, diagnostics, [](MechParser &p) { return p.standaloneExpr(); },
      [](AstBuilder &b, MechParser::StandaloneExprContext *tree) { return b.expr(tree->expr()); });
}

std::unique_ptr<std::vector<ast::Decl>> parseDeclarations(const SourceFile &source,
                                                          Diagnostics &diagnostics) {
  return parseWith<std::unique_ptr<std::vector<ast::Decl>>>(
      source, diagnostics, [](MechParser &p) { return p.standaloneDecls(); },
      [](AstBuilder &b, MechParser::StandaloneDeclsContext *tree) {
        return std::make_unique<std::vector<ast::Decl>>(b.decls(tree->decl(), nullptr));
      });
}

std::unique_ptr<std::vector<ast::InitItem>> parseAssignments(const SourceFile &source,
                                                             Diagnostics &diagnostics) {
  return parseWith<std::unique_ptr<std::vector<ast::InitItem>>>(
      source, diagnostics, [](MechParser &p) { return p.standaloneAssignments(); },
      [](AstBuilder &b, MechParser::StandaloneAssignmentsContext *tree) {
        return std::make_unique<std::vector<ast::InitItem>>(b.assignments(tree));
      });
}

std::unique_ptr<ast::Decl> parseStopCondition(const SourceFile &source, Diagnostics &diagnostics,
                                              const std::string &name) {
  return parseWith<std::unique_ptr<ast::Decl>>(
      source, diagnostics, [](MechParser &p) { return p.standaloneStopCondition(); },
      [&name](AstBuilder &b, MechParser::StandaloneStopConditionContext *tree) {
        return std::make_unique<ast::Decl>(b.stopCondition(tree, name));
      });
}

} // namespace mech
