// The session's inputs. A typed declaration is an edit of the model's AST
// (sema::Addition) checked in a new driver::Session; what does not check is
// refused with the compiler's diagnostics, located in what was typed, and
// the previous model stays. Expressions are evaluated over the model's
// symbols (repl/Expressions.h); commands run the library's commands on the
// session's model.
#include "repl/ReplSession.h"

#include "driver/CommandFiles.h"
#include "driver/Commands.h"
#include "driver/Interrupt.h"
#include "driver/Pipeline.h"
#include "driver/Session.h"
#include "driver/Simulation.h"

#include "mechanics/Lagrange.h"
#include "repl/SavedModel.h"
#include "sema/Compilation.h"
#include "sema/ModelPrinter.h"
#include "sema/Values.h"
#include "support/EditDistance.h"
#include "support/InputFile.h"
#include "support/NumberText.h"
#include "support/OutputFile.h"
#include "support/Utf8.h"
#include "symbolic/Readable.h"
#include "symbolic/Simplify.h"
#include "syntax/Parser.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

namespace mech::repl {

namespace {

// The new nodes one evaluation may make (about 200 bytes each with the
// table that interns them).
constexpr size_t kMaxEvaluationNodes = 1'000'000;

namespace fs = std::filesystem;

const std::vector<std::string> kModelKeywords = {
    "param",       "coord",    "let",  "kinetic", "potential", "dissipation", "force", "torque",
    "generalized", "particle", "body", "gravity", "spring",    "constraint",  "init",  "output",
    "for",         "input",    "draw", "event",   "contact",   "friction",    "table"};

struct CommandHelp {
  const char *name, *usage, *what;
};
const CommandHelp kCommands[] = {
    {":load", ":load FILE", "load a model file (the session's declarations are dropped)"},
    {":reload", ":reload", "read the file again after an edit, keeping the typed declarations"},
    {":show", ":show", "the current model as .mech text"},
    {":undo", ":undo", "remove the last declaration typed"},
    {":save", ":save FILE", "write the current model to FILE"},
    {":eom", ":eom [--minimal] [--latex | --json]", "the equations of motion (as mech equations)"},
    {":eval", ":eval th1=0.3, th1'=0 [--json]", "everything at a state, q'' solved (as mech eval)"},
    {":sim", ":sim T [options of mech simulate]",
     "simulate until T: a short table and the summary (--plot f.svg, -o f.csv as in the CLI)"},
    {":plot", ":plot FILE [--plot-vars a,b ...]",
     "draw the last :sim (SVG, or PNG for .png), as mech simulate --plot"},
    {":animate", ":animate FILE.html [--trace p ...]",
     "the last :sim as the mechanism moving, as mech animate"},
    {":equilibria", ":equilibria [options]", "states of rest and their stability"},
    {":steady", ":steady --rates \"q'=w\"", "steady motions and their stability"},
    {":periodic", ":periodic --section EVENT ...",
     "a periodic motion, its multipliers and stability"},
    {":linearize", ":linearize --at \"q=v\"", "M, K, D and A at a state"},
    {":conserved", ":conserved", "cyclic coordinates and the energy integral"},
    {":solve", ":solve --at \"q=v\" --for P", "statics by virtual work"},
    {":build", ":build -o libNAME.so [options]", "compile the model to a shared library"},
    {":set", ":set m=2, l=30[cm]", "change params (no re-derivation unless the structure changes)"},
    {":latex", ":latex EXPR", "an expression in LaTeX"},
    {":time", ":time INPUT", "run an input and print how long it took"},
    {":vars", ":vars", "the session's variables"},
    {":help", ":help [CMD]", "this list, or the options of a command (:help sim)"},
    {":quit", ":quit", "leave (also Ctrl-D)"},
};

// The language's built-ins (from their one list), sum, then the calculator's.
const std::vector<std::string> kBuiltins = {
#define MECH_REPL_BUILTIN(id, name, arity) name,
    MECH_BUILTINS(MECH_REPL_BUILTIN)
#undef MECH_REPL_BUILTIN
        "sum"};
const std::vector<std::string> kCalculatorFunctions = {"diff", "simplify", "expand",
                                                       "subs", "taylor",   "eval"};

// The built-ins for :help, as lines of at most 100 characters.
std::string builtinList() {
  std::string text, line;
  for (const std::string &name : kBuiltins) {
    if (!line.empty() && line.size() + 1 + name.size() > 100) {
      text += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + name;
  }
  return text + line;
}

std::string trim(const std::string &text) {
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos)
    return "";
  size_t last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

// Bytes of UTF-8 sequences count as letters here: names such as θ1 or ξ
// are the language's (the parser decides which code points are letters).
bool isWordByte(char c) {
  auto byte = static_cast<unsigned char>(c);
  return std::isalnum(byte) || c == '_' || byte >= 0x80;
}

std::string firstWord(const std::string &text) {
  size_t end = 0;
  while (end < text.size() && (isWordByte(text[end]) || text[end] == ':'))
    ++end;
  return text.substr(0, end);
}

// Whether `word` is one name of the language (what a session variable may
// be called): it parses as exactly that name.
bool isIdentifier(const std::string &word) {
  if (word.empty() || std::isdigit(static_cast<unsigned char>(word[0])) || word[0] == ':')
    return false;
  SourceFile source("<name>", word);
  Diagnostics scratch;
  ast::ExprPtr tree = parseExpression(source, scratch);
  return tree && !scratch.hasErrors() && tree->kind == ast::ExprKind::Name &&
         static_cast<const ast::Name &>(*tree).name == word;
}

// Shell-like words: spaces separate, quotes group.
std::vector<std::string> words(const std::string &text) {
  std::vector<std::string> out;
  std::string word;
  bool any = false;
  char quote = 0;
  for (char c : text) {
    if (quote) {
      if (c == quote)
        quote = 0;
      else
        word += c;
    } else if (c == '"' || c == '\'') {
      quote = c;
      any = true;
    } else if (c == ' ' || c == '\t') {
      if (any || !word.empty())
        out.push_back(word);
      word.clear();
      any = false;
    } else {
      word += c;
    }
  }
  if (any || !word.empty())
    out.push_back(word);
  return out;
}

// :eval's words: a leading state (th1=0.3, th1'=0) is the --at text up to
// the first option, so that `:eval th1=0.3 --json` works as typed.
std::vector<std::string> evalArguments(const std::string &rest,
                                       const std::vector<std::string> &args) {
  if (rest.empty() || rest[0] == '-')
    return args;
  size_t option = rest.find(" --");
  std::vector<std::string> out{"--at", rest.substr(0, option)};
  if (option != std::string::npos)
    for (const std::string &word : words(rest.substr(option + 1)))
      out.push_back(word);
  return out;
}

// Whether an input starting with `word` declares something in the model:
// the word is a declaration keyword used as one, not a name in an
// expression (`force(1)`, `init'`, `output.x` or `spring = 2` are
// expressions or assignments with names that happen to be keywords).
bool isDeclaration(const std::string &input, const std::string &word) {
  if (std::find(kModelKeywords.begin(), kModelKeywords.end(), word) == kModelKeywords.end())
    return false;
  size_t next = input.find_first_not_of(" \t", word.size());
  if (next == std::string::npos || next == word.size())
    return false;
  // `contact`, `friction` and `table` are also names (grammar/Mech.g4):
  // a declaration names the contact next, `contact * 2` is an expression.
  if (word == "contact" || word == "friction" || word == "table")
    return std::isalpha(static_cast<unsigned char>(input[next])) || input[next] == '_' ||
           static_cast<unsigned char>(input[next]) >= 0x80;
  return input[next] != '(' && input[next] != '\'' && input[next] != '.' && input[next] != '=';
}

// '=' between parentheses becomes ',' so that eval(e, x = 1) and
// subs(e, x = y) parse as calls (columns stay where they were typed).
std::string pairsAsArguments(std::string text) {
  int depth = 0;
  for (char &c : text) {
    if (c == '(')
      ++depth;
    else if (c == ')')
      --depth;
    else if (c == '=' && depth > 0)
      c = ',';
  }
  return text;
}

// Prints diagnostics located in `parsed` (the text with pairs rewritten)
// against `shown` (the text as typed): same offsets, the line as typed.
void printAgainst(const Diagnostics &diagnostics, const SourceFile &parsed, const SourceFile &shown,
                  std::ostream &err) {
  auto relocate = [&](Location at) {
    if (at.file == &parsed)
      at.file = &shown;
    return at;
  };
  Diagnostics out;
  for (const Diagnostic &d : diagnostics.all()) {
    Diagnostic &copy = d.severity == Severity::Error ? out.error(relocate(d.location), d.message)
                                                     : out.warning(relocate(d.location), d.message);
    for (const Diagnostic &note : d.notes)
      Diagnostics::addNote(copy, relocate(note.location), note.message);
  }
  out.print(err);
}

// Up to 11 evenly spaced rows of a simulation's CSV, in aligned columns of
// 6 significant digits; "" when it holds no samples.
// Output nobody reads: the samples of a run too long for a table.
class NullStream : public std::ostream {
public:
  NullStream() : std::ostream(&buffer_) {}

private:
  struct Discard : std::streambuf {
    int overflow(int c) override { return c; }
  } buffer_;
};

std::string sampleTable(const std::string &csv) {
  std::istringstream in(csv);
  std::string header, line;
  std::vector<std::string> rows;
  if (!std::getline(in, header))
    return "";
  while (std::getline(in, line))
    rows.push_back(line);
  if (rows.empty())
    return "";
  std::ostringstream out;
  char cell[64];
  std::stringstream names(header);
  for (std::string name; std::getline(names, name, ',');) {
    std::snprintf(cell, sizeof cell, " %12s", name.c_str());
    out << cell;
  }
  out << "\n";
  size_t shown = std::min<size_t>(rows.size(), 11);
  for (size_t k = 0; k < shown; ++k) {
    size_t index = shown == 1 ? 0 : k * (rows.size() - 1) / (shown - 1);
    std::stringstream values(rows[index]);
    for (std::string v; std::getline(values, v, ',');) {
      std::snprintf(cell, sizeof cell, " %12s", formatNumber(std::atof(v.c_str()), 6).c_str());
      out << cell;
    }
    out << "\n";
  }
  return out.str();
}

} // namespace

ReplSession::ReplSession(sema::SearchPath searchPath, std::ostream &out, std::ostream &err)
    : searchPath_(std::move(searchPath)), out_(out), err_(err) {
  refreshScope();
}

ReplSession::~ReplSession() = default;

bool ReplSession::needsMoreInput(const std::string &text) {
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '#') {
      while (i < text.size() && text[i] != '\n')
        ++i;
    } else if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i) {
      }
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      --depth;
    }
  }
  return depth > 0;
}

std::vector<std::string> ReplSession::completions(const std::string &prefix) const {
  std::vector<std::string> candidates;
  if (!prefix.empty() && prefix[0] == ':') {
    for (const CommandHelp &c : kCommands)
      candidates.push_back(c.name);
  } else {
    for (const auto &[name, value] : scope_.names)
      candidates.push_back(name);
    for (const std::string &f : kBuiltins)
      candidates.push_back(f);
    for (const std::string &f : kCalculatorFunctions)
      candidates.push_back(f);
    for (const std::string &k : kModelKeywords)
      candidates.push_back(k);
    candidates.push_back("eom");
    for (const auto &[name, value] : scope_.eom)
      candidates.push_back("eom." + name);
  }
  std::vector<std::string> matching;
  for (const std::string &c : candidates)
    if (c.compare(0, prefix.size(), prefix) == 0)
      matching.push_back(c);
  std::sort(matching.begin(), matching.end());
  matching.erase(std::unique(matching.begin(), matching.end()), matching.end());
  return matching;
}

bool ReplSession::handle(const std::string &raw) {
  // A broken invariant ends the input, not the session.
  try {
    return handleInput(raw);
  } catch (const std::exception &error) {
    err_ << "internal error: " << error.what() << "\n";
    return true;
  }
}

bool ReplSession::handleInput(const std::string &raw) {
  std::string input = trim(raw);
  if (input.empty() || input[0] == '#')
    return true;
  if (input[0] == ':') {
    std::string name = firstWord(input);
    std::string rest = trim(input.substr(name.size()));
    if (name == ":quit" || name == ":q" || name == ":exit")
      return false;
    command(name, rest);
    return true;
  }
  std::string word = firstWord(input);
  if (word == "model") {
    replaceRoot("", input + "\n");
    return true;
  }
  if (word == "def" || word == "import") {
    declaration(input, true);
    return true;
  }
  if (isDeclaration(input, word)) {
    declaration(input, false);
    return true;
  }
  // name = expression: a session variable.
  size_t equals = input.find('=');
  if (equals != std::string::npos && trim(input.substr(0, equals)) == word && isIdentifier(word) &&
      (equals + 1 >= input.size() || input[equals + 1] != '=')) {
    assignment(word, input);
    return true;
  }
  expression(input, false);
  return true;
}

// ---- Model ------------------------------------------------------------------

std::string ReplSession::currentText() {
  if (!session_)
    return library_ ? library_->text() : "";
  return repl::withParamValues(session_->text(), model()->model().params);
}

std::unique_ptr<driver::Session>
ReplSession::sessionOf(const std::string &file, const std::string &text,
                       std::vector<sema::Addition> additions) const {
  auto session = std::make_unique<driver::Session>(searchPath_);
  if (!file.empty())
    session->loadFile(file, settings_);
  else
    session->loadText("<session>", text, settings_);
  session->setAdditions(std::move(additions));
  return session;
}

bool ReplSession::install(std::unique_ptr<driver::Session> candidate) {
  driver::LoadedModel *loaded = &candidate->loaded();
  const std::vector<sema::Addition> &typed = candidate->additions();
  bool onlyDefs = candidate->file().empty() && rootText_.empty() &&
                  std::all_of(typed.begin(), typed.end(), [](auto &a) { return a.topLevel; });
  // Only imports and defs, no model yet: the calculator gains the defs.
  if (loaded->analysis.ok && !loaded->analysis.model && onlyDefs) {
    loaded->diagnostics().clear(); // "a library of defs; it has no model": meant here
    library_ = std::move(candidate);
    session_.reset();
    refreshScope();
    std::string names;
    for (const auto &[def, decl] : scope_.defs)
      names += (names.empty() ? "" : ", ") + def;
    out_ << "defs: " << names << "\n";
    return true;
  }
  if (!loaded->analysis.ok || !loaded->analysis.model) {
    if (!loaded->diagnostics().hasErrors() && !loaded->analysis.model)
      err_ << "error: the input holds no model\n";
    loaded->diagnostics().print(err_);
    return false;
  }
  derivationError_.clear();
  if (!candidate->derive()) {
    std::ostringstream why;
    candidate->printDiagnostics(why);
    derivationError_ = why.str();
  }
  if (!variables_.empty())
    out_ << "(the model changed: the session's variables are cleared)\n";
  variables_.clear();
  session_ = std::move(candidate);
  library_.reset();
  refreshScope();
  printSummary();
  return true;
}

void ReplSession::printSummary() {
  const sema::CheckedModel &m = model()->model();
  std::string coordinates;
  for (const sema::Coord &c : m.coords)
    coordinates += (coordinates.empty() ? "" : ", ") + c.name;
  out_ << m.name << ": " << m.coords.size() << " coordinate" << (m.coords.size() == 1 ? "" : "s")
       << (coordinates.empty() ? "" : " (" + coordinates + ")") << ", "
       << m.params.size() - m.inputCount() << " parameter"
       << (m.params.size() - m.inputCount() == 1 ? "" : "s");
  if (m.inputCount() > 0)
    out_ << ", " << m.inputCount() << " input" << (m.inputCount() == 1 ? "" : "s");
  if (!model()->derivation)
    out_ << "; no equations yet";
  out_ << "\n";
}

bool ReplSession::replaceRoot(const std::string &file, const std::string &text) {
  std::string previousFile = filePath_, previousText = rootText_;
  auto previousSettings = settings_;
  filePath_ = file;
  rootText_ = text;
  settings_.clear();
  if (!install(sessionOf(file, text, {}))) {
    filePath_ = previousFile;
    rootText_ = previousText;
    settings_ = previousSettings;
    return false;
  }
  return true;
}

bool ReplSession::load(const std::string &path) {
  return replaceRoot(path, "");
}

std::vector<sema::Addition> ReplSession::additions() const {
  return session_   ? session_->additions()
         : library_ ? library_->additions()
                    : std::vector<sema::Addition>{};
}

void ReplSession::declaration(const std::string &text, bool topLevel) {
  std::vector<sema::Addition> typed = additions();
  typed.push_back({text, topLevel});
  install(sessionOf(filePath_, rootText_, std::move(typed)));
}

void ReplSession::refreshScope() {
  scope_ = repl::Scope{};
  const driver::LoadedModel *withDefs = session_   ? model()
                                        : library_ ? &library_->loaded()
                                                   : nullptr;
  if (withDefs && withDefs->analysis.file)
    for (const auto &[name, entry] : withDefs->analysis.file->scope.defs)
      scope_.defs[name] = entry.decl;
  if (!session_) {
    if (!ownContext_)
      ownContext_ = std::make_unique<sym::Context>();
    scope_.context = ownContext_.get();
    scope_.freeSymbols = true;
    for (const auto &[name, value] : variables_)
      scope_.names[name] = value;
    return;
  }
  driver::LoadedModel &loaded = *model();
  const sema::CheckedModel &model = loaded.model();
  mechanics::Lowering *lowering = nullptr;
  if (loaded.derivation) {
    lowering = loaded.derivation->lowering.get();
    scope_.context = loaded.derivation->context.get();
  } else {
    ownContext_ = std::make_unique<sym::Context>();
    ownLowering_ = std::make_unique<mechanics::Lowering>(model, *ownContext_);
    lowering = ownLowering_.get();
    scope_.context = ownContext_.get();
  }
  // Names that are not the model's are free symbols, as without a model
  // (diff(sin(x)^2, x) works with a model loaded); each is noted once, with
  // a suggestion in case it was a typo.
  scope_.freeSymbols = true;
  scope_.onFreeSymbol = [this](const std::string &name, const std::string &suggestion) {
    // A one-letter name is one edit from every other: no suggestion then.
    size_t letters = std::count_if(name.begin(), name.end(), [](char c) {
      return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    });
    if (notedFree_.insert(name).second)
      err_ << "note: '" << name << "' is not a name of the model: a free symbol"
           << (letters > 1 ? suggestion : "") << "\n";
  };
  std::vector<double> initial = model.initialState();
  size_t n = model.coords.size();
  for (size_t j = 0; j < n; ++j) {
    const auto &c = lowering->coordinates()[j];
    scope_.names[model.coords[j].name] = repl::Tensor::scalar(c.q);
    scope_.values[c.q.node()] = initial[j];
    scope_.values[c.qd.node()] = initial[n + j];
  }
  for (size_t i = 0; i < model.params.size(); ++i) {
    scope_.names[model.params[i].name] = repl::Tensor::scalar(lowering->params()[i]);
    scope_.values[lowering->params()[i].node()] = model.params[i].value;
  }
  for (const sema::Let &let : model.lets)
    scope_.names[let.name] = lowering->lower(let.value);
  scope_.timeDerivative = [lowering](const sym::Expr &e) { return lowering->timeDerivative()(e); };
  if (loaded.derivation) {
    const mechanics::Equations &eq = loaded.equations();
    auto vector = [](const std::vector<sym::Expr> &v) {
      return repl::Tensor{static_cast<int>(v.size()), 0, v};
    };
    repl::Tensor M{static_cast<int>(n), static_cast<int>(n), {}};
    for (const auto &row : eq.M)
      M.v.insert(M.v.end(), row.begin(), row.end());
    scope_.eom = {{"T", repl::Tensor::scalar(eq.T)},
                  {"V", repl::Tensor::scalar(eq.V)},
                  {"L", repl::Tensor::scalar(eq.L)},
                  {"D", repl::Tensor::scalar(eq.D)},
                  {"T2", repl::Tensor::scalar(eq.T2)},
                  {"T1", repl::Tensor::scalar(eq.T1)},
                  {"T0", repl::Tensor::scalar(eq.T0)},
                  {"M", M},
                  {"f", vector(eq.f)},
                  {"Q", vector(eq.Q)}};
    for (const char *name : {"T", "V", "L"})
      if (!scope_.names.count(name))
        scope_.names[name] = scope_.eom[name];
  }
  for (const auto &[name, value] : variables_)
    scope_.names[name] = value;
}

// ---- Expressions ------------------------------------------------------------

namespace {

repl::Tensor simplified(const repl::Tensor &value) {
  repl::Tensor out = value;
  out.v = sym::readableForms(value.v); // entries share their angle atoms
  return out;
}

// A series' coefficients simplified as the value is; the powers of x - x0
// stay as they are, so the terms keep their order.
void simplifyTerms(repl::Series &series) {
  std::vector<sym::Expr> coefficients;
  for (const auto &entry : series)
    for (const repl::SeriesTerm &term : entry)
      coefficients.push_back(term.coefficient);
  coefficients = sym::readableForms(coefficients);
  size_t next = 0;
  for (auto &entry : series)
    for (repl::SeriesTerm &term : entry)
      term.coefficient = coefficients[next++];
}

} // namespace

std::optional<repl::Tensor> ReplSession::evaluateText(const std::string &shown,
                                                      const std::string &parsed,
                                                      repl::Series *series) {
  const SourceFile &typed = inputs_.add("<input>", shown);
  const SourceFile &source = inputs_.add("<input>", pairsAsArguments(parsed));
  Diagnostics diagnostics;
  ast::ExprPtr tree = parseExpression(source, diagnostics);
  // An evaluation that grows without bound (diff of order 60 of
  // exp(sin(x)*x^2)) ends at kMaxEvaluationNodes new nodes, and Ctrl-C ends
  // any: the context throws before its next node, and the session goes on.
  try {
    sym::Context::WorkLimit limit(*scope_.context, kMaxEvaluationNodes, driver::interruptRequested);
    std::optional<repl::Tensor> value;
    if (tree)
      value = repl::evaluate(*tree, scope_, diagnostics, series);
    if (!value) {
      printAgainst(diagnostics, source, typed, err_);
      return std::nullopt;
    }
    if (session_ && series)
      simplifyTerms(*series);
    return session_ ? simplified(*value) : *value;
  } catch (const sym::WorkStopped &stopped) {
    if (stopped.interrupted)
      err_ << "error: interrupted: the evaluation was stopped\n";
    else
      err_ << "error: the evaluation grows past " << kMaxEvaluationNodes
           << " new expression nodes and was stopped; evaluate a smaller expression (a lower "
              "order of diff, a shorter taylor series)\n";
    if (series)
      series->clear();
    return std::nullopt;
  }
}

void ReplSession::expression(const std::string &text, bool latex) {
  repl::Series series;
  if (auto value = evaluateText(text, text, &series))
    out_ << repl::format(*value, latex, &series) << "\n";
}

void ReplSession::assignment(const std::string &name, const std::string &text) {
  if (session_ && scope_.names.count(name) && !variables_.count(name) &&
      !(scope_.eom.count(name) && (name == "T" || name == "V" || name == "L"))) {
    bool isParam = false;
    for (const sema::Param &p : model()->model().params)
      isParam = isParam || p.name == name;
    err_ << "error: '" << name << "' is a name of the model"
         << (isParam ? "; change a param with :set " + name + "=..." : "") << "\n";
    return;
  }
  // The expression keeps its columns: what precedes it becomes spaces.
  size_t equals = text.find('=');
  repl::Series series;
  std::optional<repl::Tensor> value =
      evaluateText(text, std::string(equals + 1, ' ') + text.substr(equals + 1), &series);
  if (!value)
    return;
  variables_[name] = *value;
  scope_.names[name] = *value;
  out_ << name << " = " << repl::format(*value, false, &series) << "\n";
}

// ---- Commands ---------------------------------------------------------------

int ReplSession::runCommand(const std::string &command, const std::vector<std::string> &args,
                            std::ostream *out, std::ostream *err) {
  // A usage error points to the REPL's help, not the shell's.
  driver::CommandIo io{out ? *out : out_, err ? *err : err_,
                       "(:help lists the commands and their options)"};
  std::string error;
  std::optional<driver::CommandLine> line =
      driver::parseCommandLine(*driver::findCommand(command), args, true, error);
  if (!line)
    return io.usageError(error);
  if (!line->has("--set") && !line->has("--stop-when"))
    return driver::runModelCommand(*line, *session_, io);
  // --set (or --stop-when) on one command: a session of its own with the
  // values (or the event) added, the session's model unchanged.
  std::unique_ptr<driver::Session> once = session_->withSettings(line->values("--set"));
  return driver::runModelCommand(*line, *once, io);
}

void ReplSession::setParams(const std::string &text) {
  if (text.empty()) {
    for (const sema::Param &p : model()->model().params) {
      // As declared (k = 40 [N/m], m = 200 [g]); a pure number without a unit.
      std::string unit = p.unit || (p.dim.isKnown() && !p.dim.dimension.isDimensionless())
                             ? sema::unitOf(p.unit, p.dim)
                             : "";
      out_ << p.name << " = " << sema::valueIn(p.value, p.unit)
           << (unit.empty() || unit == "1" ? "" : " [" + unit + "]") << "\n";
    }
    return;
  }
  // Checked as the CLI checks --set; only values move when no structural
  // param (a range bound) changed, so the derivation is kept.
  std::optional<driver::Session::SetOutcome> outcome = session_->set(text);
  if (!outcome) {
    session_->printDiagnostics(err_);
    return;
  }
  settings_ = session_->settings();
  if (outcome->rederived) {
    out_ << "(a structural param changed: the equations are derived again)\n";
    install(session_->withSettings({}));
    return;
  }
  for (const sema::Param &p : model()->model().params)
    if (std::find(outcome->changed.begin(), outcome->changed.end(), p.name) !=
        outcome->changed.end())
      out_ << p.name << " = " << shortestNumber(p.value) << "\n";
  refreshScope();
}

// How many rows a :sim with `call` would print, read from the options as
// simulate reads them (--until, --dt, and the start time --init may set);
// nullopt when they do not parse (the run then reports why).
std::optional<double> ReplSession::sampleRows(const std::vector<std::string> &call) {
  std::string error;
  std::optional<driver::CommandLine> line =
      driver::parseCommandLine(*driver::findCommand("simulate"), call, true, error);
  if (!line)
    return std::nullopt;
  runtime::IntegratorOptions defaults;
  double until = line->number("--until", defaults.tEnd), dt = line->number("--dt", defaults.dt);
  double t0 = 0;
  if (line->has("--init")) {
    std::optional<mechanics::State> start =
        driver::parseState(session_->loaded(), line->value("--init"), nullptr, "--init");
    // Its errors are the run's to report.
    session_->diagnostics().clear();
    if (!start)
      return std::nullopt;
    t0 = start->t;
  }
  if (!(dt > 0))
    return std::nullopt;
  return std::abs(until - t0) / dt;
}

void ReplSession::simulate(const std::vector<std::string> &given) {
  std::vector<std::string> args = given;
  if (args.empty() || args[0].empty() || args[0][0] == '-')
    args.insert(args.begin(), "10");
  char *end = nullptr;
  std::strtod(args[0].c_str(), &end);
  if (end == args[0].c_str() || *end != '\0') {
    err_ << "error: :sim takes the end time first (a number, as in :sim 5), found '"
         << escapeForTerminal(args[0]) << "'; :help lists the commands\n";
    return;
  }
  std::vector<std::string> call{"--until", args[0]};
  bool ownCsv = true;
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "-o")
      ownCsv = false;
    call.push_back(args[i]);
  }
  // A table needs the samples; beyond a million rows only the summary is
  // shown, and the samples are not kept.
  std::optional<double> rows = sampleRows(call);
  bool table = ownCsv && rows && *rows <= 1e6;
  std::ostringstream csv;
  NullStream discarded;
  // The summary (on err_) follows the table, as it follows the CSV.
  std::ostringstream summary;
  std::ostream *samples = table ? static_cast<std::ostream *>(&csv) : &discarded;
  int status = runCommand("simulate", call, ownCsv ? samples : nullptr, &summary);
  if (table)
    out_ << sampleTable(csv.str());
  err_ << summary.str();
  // What :plot and :animate run again: the run's options, without its files.
  if (status == driver::kExitOk) {
    lastSimulation_.clear();
    static const std::set<std::string> kFiles = {"-o",       "--plot",   "--plot-vars",
                                                 "--plot-x", "--window", "--events"};
    for (size_t i = 0; i < call.size(); ++i) {
      if (kFiles.count(call[i])) {
        ++i;
        continue;
      }
      lastSimulation_.push_back(call[i]);
    }
  }
}

// :plot and :animate: the last :sim, run again with its options (on the
// model as it is now), drawn as mech simulate --plot or mech animate draws.
void ReplSession::picture(const std::string &name, const std::vector<std::string> &args) {
  if (lastSimulation_.empty()) {
    err_ << "error: " << name << " draws the last :sim; run one first (:sim 10)\n";
    return;
  }
  if (args.empty() || args[0].empty() || args[0][0] == '-') {
    err_ << "error: " << name << " takes the file to write first ("
         << (name == ":plot" ? ":plot run.svg" : ":animate run.html") << ")\n";
    return;
  }
  std::vector<std::string> call = lastSimulation_;
  call.push_back(name == ":plot" ? "--plot" : "-o");
  call.insert(call.end(), args.begin(), args.end());
  NullStream discarded;
  std::ostringstream messages;
  int status = runCommand(name == ":plot" ? "simulate" : "animate", call, &discarded, &messages);
  if (status != driver::kExitOk) {
    err_ << messages.str();
    return;
  }
  out_ << (name == ":plot" ? "plot" : "animation") << " written to " << args[0] << "\n";
}

void ReplSession::helpOn(const std::string &topic) {
  // The REPL's names of the CLI's commands; the others are the same.
  std::string name = topic[0] == ':' ? topic.substr(1) : topic;
  name = name == "eom" ? "equations" : name == "sim" ? "simulate" : name;
  const driver::CommandSpec *spec = driver::findCommand(name);
  if (spec == nullptr || !spec->inRepl) {
    err_ << "error: :help takes a command that runs on the model (eom, eval, sim, equilibria, "
            "linearize, conserved, solve, build), not '"
         << escapeForTerminal(topic) << "'\n";
    return;
  }
  out_ << "(in the REPL: :" << topic.substr(topic[0] == ':') << " on the session's model, "
       << "without FILE)\n"
       << driver::commandHelp(*spec);
}

// Whether `name` is a command; an error with the nearest one otherwise.
bool ReplSession::knownCommand(const std::string &name) {
  for (const CommandHelp &c : kCommands)
    if (name == c.name)
      return true;
  std::string best;
  int bestDistance = 3;
  for (const CommandHelp &c : kCommands) {
    int d = editDistance(name, c.name);
    if (d < bestDistance) {
      bestDistance = d;
      best = c.name;
    }
  }
  err_ << "error: unknown command '" << escapeForTerminal(name) << "'"
       << (best.empty() ? "" : " (did you mean '" + best + "'?)") << "; :help lists the commands\n";
  return false;
}

void ReplSession::command(const std::string &name, const std::string &rest) {
  if (!knownCommand(name))
    return;
  bool needsModel = name != ":load" && name != ":help" && name != ":latex" && name != ":time" &&
                    name != ":vars" && name != ":undo";
  if (needsModel && !session_) {
    err_ << "error: " << name
         << " needs a model: load one with :load FILE, or type declarations "
            "(coord x [m], kinetic T = ...)\n";
    return;
  }
  std::vector<std::string> args = words(rest);
  // The commands the CLI has, under their REPL names, on the session's model.
  static const std::map<std::string, std::string> kModelCommands = {
      {":eom", "equations"},       {":equilibria", "equilibria"},
      {":steady", "steady"},       {":periodic", "periodic"},
      {":linearize", "linearize"}, {":conserved", "conserved"},
      {":solve", "solve"},         {":build", "build"}};
  if (auto found = kModelCommands.find(name); found != kModelCommands.end())
    runCommand(found->second, args);
  else if (name == ":eval")
    runCommand("eval", evalArguments(rest, args));
  else if (name == ":sim")
    simulate(args);
  else if (name == ":plot" || name == ":animate")
    picture(name, args);
  else if (name == ":help")
    help(rest);
  else if (name == ":load" || name == ":reload" || name == ":undo" || name == ":save")
    editCommand(name, args);
  else
    otherCommand(name, rest);
}

void ReplSession::help(const std::string &topic) {
  if (!topic.empty()) {
    helpOn(topic);
    return;
  }
  out_ << "Type an expression to see it (simplified, over the model's names), name = "
          "expression to keep it,\nor a declaration (param, coord, let, kinetic, ...) to "
          "build the model. Functions: diff(e, x), simplify(e),\nexpand(e), subs(e, x = v), "
          "taylor(e, x, x0, n), eval(e, x = 1), and the language's built-ins:\n"
       << builtinList() << ".\n"
       << "The derived quantities: eom.T, eom.V, eom.L, eom.M, eom.f, eom.Q (T, V, L also "
          "plain).\n";
  for (const CommandHelp &c : kCommands) {
    char line[160];
    std::snprintf(line, sizeof line, "  %-36s %s\n", c.usage, c.what);
    out_ << line;
  }
}

// :load, :reload, :undo and :save: the model's text changes.
void ReplSession::editCommand(const std::string &name, const std::vector<std::string> &args) {
  if (name == ":load") {
    lastSimulation_.clear(); // another model's run
    loadCommand(args);
  } else if (name == ":reload")
    reload();
  else if (name == ":undo")
    undo();
  else
    save(args);
}

void ReplSession::loadCommand(const std::vector<std::string> &args) {
  if (args.size() != 1)
    err_ << "error: :load takes one file\n";
  else
    load(args[0]);
}

void ReplSession::reload() {
  if (filePath_.empty()) {
    err_ << "error: :reload re-reads a model file; this session's model was typed\n";
    return;
  }
  install(sessionOf(filePath_, "", additions()));
}

void ReplSession::undo() {
  std::vector<sema::Addition> typed = additions();
  if (typed.empty()) {
    err_ << "error: :undo removes typed declarations; there are none\n";
    return;
  }
  std::string removed = typed.back().text;
  typed.pop_back();
  if (typed.empty() && filePath_.empty() && rootText_.empty()) {
    // Back to no model at all: the calculator.
    session_.reset();
    library_.reset();
    variables_.clear();
    refreshScope();
    out_ << "removed: " << removed << "\n(no model)\n";
    return;
  }
  if (install(sessionOf(filePath_, rootText_, std::move(typed))))
    out_ << "removed: " << removed << "\n";
}

void ReplSession::save(const std::vector<std::string> &args) {
  if (args.size() != 1) {
    err_ << "error: :save takes one file\n";
    return;
  }
  // Saving over the loaded file is what :save is for; over one of its
  // imports, the model would then import itself.
  if (session_) {
    std::vector<driver::NamedPath> imports = driver::modelFiles(*session_);
    std::erase_if(imports, [&](const driver::NamedPath &f) { return f.path == session_->file(); });
    if (std::string problem = driver::overwriteProblem({":save", args[0]}, imports, {});
        !problem.empty()) {
      err_ << "error: " << problem << "\n";
      return;
    }
  }
  std::string text = currentText(), error;
  if (!writeOutputFile(args[0], text, error)) {
    err_ << "error: " << escapeForTerminal(error) << "\n";
    return;
  }
  out_ << "wrote " << args[0] << "\n";
  // Saved over the loaded file, the typed declarations are in the file now:
  // the session reads it again, without them.
  std::error_code same;
  if (!filePath_.empty() && fs::equivalent(args[0], filePath_, same)) {
    std::unique_ptr<driver::Session> saved = sessionOf(filePath_, "", {});
    if (saved->checked() && session_) {
      saved->derive();
      session_ = std::move(saved);
      refreshScope();
    }
  }
}

// :show, :set, :latex, :vars and :time.
void ReplSession::otherCommand(const std::string &name, const std::string &rest) {
  if (name == ":show") {
    out_ << currentText();
  } else if (name == ":set") {
    setParams(rest);
  } else if (name == ":latex") {
    expression(rest, true);
  } else if (name == ":vars") {
    for (const auto &[variable, value] : variables_)
      out_ << variable << " = " << repl::format(value) << "\n";
  } else if (name == ":time") {
    auto start = std::chrono::steady_clock::now();
    handle(rest);
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    out_ << "time: " << formatNumber(ms, 3) << " ms\n";
  }
}

} // namespace mech::repl
