// The session's inputs. A model change rebuilds the model from its parts
// (the file's text, the typed declarations) and checks it; what does not
// check is refused with the compiler's diagnostics, and the previous model
// stays. Expressions are evaluated over the model's symbols (repl/
// Expressions.h); commands call the CLI's functions on the model's file.
#include "ReplSession.h"

#include "mechanics/Lagrange.h"
#include "repl/SavedModel.h"
#include "sema/Compilation.h"
#include "sema/ModelPrinter.h"
#include "sema/Values.h"
#include "support/EditDistance.h"
#include "support/InputFile.h"
#include "support/NumberText.h"
#include "support/OutputFile.h"
#include "symbolic/Readable.h"
#include "symbolic/Simplify.h"
#include "syntax/Parser.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

namespace mech::cli {

namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kModelKeywords = {
    "param",  "coord",      "let",         "kinetic",  "potential", "dissipation",
    "force",  "torque",     "generalized", "particle", "body",      "gravity",
    "spring", "constraint", "init",        "output",   "for"};

struct CommandHelp {
  const char *name, *usage, *what;
};
const CommandHelp kCommands[] = {
    {":load", ":load FILE", "load a model file (the session's declarations are dropped)"},
    {":reload", ":reload", "read the file again after an edit, keeping the typed declarations"},
    {":show", ":show", "the current model as .mech text"},
    {":undo", ":undo", "remove the last declaration typed"},
    {":save", ":save FILE", "write the current model to FILE"},
    {":eom", ":eom [--latex | --json]", "the equations of motion (as mech equations)"},
    {":eval", ":eval th1=0.3, th1'=0", "everything at a state, q'' solved (as mech eval)"},
    {":sim", ":sim T [options of mech simulate]",
     "simulate until T: a short table and the summary (--plot f.svg, -o f.csv as in the CLI)"},
    {":equilibria", ":equilibria [options]", "states of rest and their stability"},
    {":linearize", ":linearize --at \"q=v\"", "M, K, D and A at a state"},
    {":conserved", ":conserved", "cyclic coordinates and the energy integral"},
    {":solve", ":solve --at \"q=v\" --for P", "statics by virtual work"},
    {":build", ":build -o libNAME.so [options]", "compile the model to a shared library"},
    {":set", ":set m=2, l=30[cm]", "change params (no re-derivation unless the structure changes)"},
    {":latex", ":latex EXPR", "an expression in LaTeX"},
    {":time", ":time INPUT", "run an input and print how long it took"},
    {":vars", ":vars", "the session's variables"},
    {":help", ":help", "this list"},
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

// The offset of the `}` that closes the first model of `text` (comments
// and strings skipped), or npos.
size_t modelClosingBrace(const std::string &text) {
  int depth = 0;
  bool inModel = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '#') {
      while (i < text.size() && text[i] != '\n')
        ++i;
      continue;
    }
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i) {
      }
      continue;
    }
    if (!inModel && text.compare(i, 5, "model") == 0 &&
        (i == 0 || !std::isalnum(static_cast<unsigned char>(text[i - 1]))) &&
        (i + 5 < text.size() && std::isspace(static_cast<unsigned char>(text[i + 5])))) {
      inModel = true;
      continue;
    }
    if (inModel && c == '{')
      ++depth;
    if (inModel && c == '}' && --depth == 0)
      return i;
  }
  return std::string::npos;
}

// A model file's text, or nullopt with the reason printed.
std::optional<std::string> readModelFile(const std::string &path) {
  std::string error;
  std::optional<std::string> text = readInputFile(path, sema::kMaxFileSize, error);
  if (!text)
    std::cerr << "error: " << error << "\n";
  return text;
}

// MECH_PATH with `folder` first while alive, and as it was afterwards. The
// CLI's functions read the session's copy of the model from the scratch
// folder; with the folder the session's own text resolves its imports from
// first in the path, they find the same files. The session itself never
// changes the environment for longer: a folder left there would resolve the
// imports of a model loaded later that the CLI does not find.
class SearchFolderFirst {
public:
  explicit SearchFolderFirst(const std::string &folder) {
    if (const char *existing = std::getenv("MECH_PATH"))
      saved_ = existing;
    std::string list = saved_ && !saved_->empty() ? folder + ":" + *saved_ : folder;
    setenv("MECH_PATH", list.c_str(), 1);
  }
  ~SearchFolderFirst() {
    if (saved_)
      setenv("MECH_PATH", saved_->c_str(), 1);
    else
      unsetenv("MECH_PATH");
  }
  SearchFolderFirst(const SearchFolderFirst &) = delete;
  SearchFolderFirst &operator=(const SearchFolderFirst &) = delete;

private:
  std::optional<std::string> saved_;
};

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
void printAgainst(const Diagnostics &diagnostics, const SourceFile &parsed,
                  const SourceFile &shown) {
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
  out.print(std::cerr);
}

// Up to 11 evenly spaced rows of a simulation's CSV, in aligned columns of
// 6 significant digits; "" when it holds no samples.
std::string sampleTable(const fs::path &csv) {
  std::ifstream in(csv);
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
      std::snprintf(cell, sizeof cell, " %12.6g", std::atof(v.c_str()));
      out << cell;
    }
    out << "\n";
  }
  return out.str();
}

} // namespace

ReplSession::ReplSession(Invocation invocation)
    : invocation_(std::move(invocation)), scratch_("mech-repl") {
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
    std::cerr << "internal error: " << error.what() << "\n";
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
    std::string previous = filePath_;
    filePath_.clear();
    if (rebuild(input + "\n", {}, {}, "<session>")) {
      fileText_ = input + "\n";
      declarations_.clear();
      topLevel_.clear();
      typedOrder_.clear();
    } else {
      filePath_ = previous;
    }
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

std::string ReplSession::modelText() const {
  return composeModel(fileText_, declarations_, topLevel_);
}

std::string ReplSession::currentText() const {
  std::string text = modelText();
  return model_ ? repl::withParamValues(text, model_->model().params) : text;
}

std::string ReplSession::composeModel(const std::string &fileText,
                                      const std::vector<std::string> &declarations,
                                      const std::vector<std::string> &topLevel) {
  std::string top;
  for (const std::string &line : topLevel)
    top += line + "\n";
  if (fileText.empty()) {
    if (declarations.empty())
      return top;
    std::string text = top + "model Session {\n";
    for (const std::string &d : declarations)
      text += "  " + d + "\n";
    return text + "}\n";
  }
  std::string text = fileText;
  if (!declarations.empty()) {
    size_t brace = modelClosingBrace(text);
    std::string added;
    for (const std::string &d : declarations)
      added += "  " + d + "\n";
    if (brace != std::string::npos) {
      size_t lineStart = text.rfind('\n', brace);
      bool braceStartsLine =
          lineStart != std::string::npos && text.find_first_not_of(" \t", lineStart + 1) == brace;
      text.insert(braceStartsLine ? lineStart + 1 : brace, braceStartsLine ? added : "\n" + added);
    }
  }
  return top + text;
}

std::string ReplSession::modelPath() {
  if (declarations_.empty() && topLevel_.empty() && !filePath_.empty())
    return filePath_;
  fs::path path = scratch_.path() / "session.mech";
  std::string error;
  if (!writeOutputFile(path.string(), modelText(), error))
    std::cerr << "error: " << error << "\n";
  return path.string();
}

bool ReplSession::rebuild(const std::string &fileText, const std::vector<std::string> &declarations,
                          const std::vector<std::string> &topLevel, const std::string &name) {
  std::string text = composeModel(fileText, declarations, topLevel);
  std::unique_ptr<driver::LoadedModel> loaded;
  if (declarations.empty() && topLevel.empty() && !filePath_.empty() && name == filePath_)
    loaded = driver::loadModel(filePath_, settings_, searchPath(invocation_), false);
  else
    loaded = driver::loadModelText(name, text, settings_, searchPath(invocation_), false);
  // Only imports and defs, no model yet: the calculator gains the defs.
  if (loaded->analysis.ok && !loaded->analysis.model && fileText.empty() && declarations.empty()) {
    library_ = std::move(loaded);
    refreshScope();
    std::string names;
    for (const auto &[def, decl] : scope_.defs)
      names += (names.empty() ? "" : ", ") + def;
    std::cout << "defs: " << names << "\n";
    return true;
  }
  if (!loaded->analysis.ok || !loaded->analysis.model) {
    if (!loaded->diagnostics().hasErrors() && !loaded->analysis.model)
      std::cerr << "error: the input holds no model\n";
    loaded->diagnostics().print(std::cerr);
    return false;
  }
  Diagnostics derivation;
  auto derived = mechanics::deriveEquations(*loaded->analysis.model, derivation);
  derivationError_.clear();
  if (derived) {
    loaded->derivation = std::move(derived);
  } else {
    std::ostringstream why;
    derivation.print(why);
    derivationError_ = why.str();
  }
  if (!variables_.empty())
    std::cout << "(the model changed: the session's variables are cleared)\n";
  variables_.clear();
  model_ = std::move(loaded);
  refreshScope();
  const sema::CheckedModel &m = model_->model();
  std::string coordinates;
  for (const sema::Coord &c : m.coords)
    coordinates += (coordinates.empty() ? "" : ", ") + c.name;
  std::cout << m.name << ": " << m.coords.size() << " coordinate"
            << (m.coords.size() == 1 ? "" : "s")
            << (coordinates.empty() ? "" : " (" + coordinates + ")") << ", " << m.params.size()
            << " parameter" << (m.params.size() == 1 ? "" : "s");
  if (!model_->derivation)
    std::cout << "; no equations yet";
  std::cout << "\n";
  return true;
}

bool ReplSession::load(const std::string &path) {
  std::optional<std::string> read = readModelFile(path);
  if (!read)
    return false;
  const std::string &text = *read;
  std::string previousPath = filePath_;
  auto previousSettings = settings_;
  filePath_ = path;
  settings_.clear();
  if (!rebuild(text, {}, {}, path)) {
    filePath_ = previousPath;
    settings_ = previousSettings;
    return false;
  }
  fileText_ = text;
  declarations_.clear();
  topLevel_.clear();
  typedOrder_.clear();
  return true;
}

std::string ReplSession::importFolder() const {
  std::error_code error;
  fs::path folder = filePath_.empty() ? fs::current_path(error)
                                      : fs::absolute(fs::path(filePath_), error).parent_path();
  return error ? "" : folder.string();
}

void ReplSession::declaration(const std::string &text, bool topLevel) {
  auto declarations = declarations_;
  auto top = topLevel_;
  (topLevel ? top : declarations).push_back(text);
  std::string name = filePath_.empty() ? "<session>" : filePath_ + " (session)";
  if (rebuild(fileText_, declarations, top, name)) {
    declarations_ = declarations;
    topLevel_ = top;
    typedOrder_.push_back(topLevel);
  }
}

void ReplSession::refreshScope() {
  scope_ = repl::Scope{};
  const driver::LoadedModel *withDefs = model_ ? model_.get() : library_.get();
  if (withDefs && withDefs->analysis.file)
    for (const auto &[name, entry] : withDefs->analysis.file->scope.defs)
      scope_.defs[name] = entry.decl;
  if (!model_) {
    if (!ownContext_)
      ownContext_ = std::make_unique<sym::Context>();
    scope_.context = ownContext_.get();
    scope_.freeSymbols = true;
    for (const auto &[name, value] : variables_)
      scope_.names[name] = value;
    return;
  }
  const sema::CheckedModel &model = model_->model();
  mechanics::Lowering *lowering = nullptr;
  if (model_->derivation) {
    lowering = model_->derivation->lowering.get();
    scope_.context = model_->derivation->context.get();
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
      std::cerr << "note: '" << name << "' is not a name of the model: a free symbol"
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
  if (model_->derivation) {
    const mechanics::Equations &eq = model_->equations();
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
  std::optional<repl::Tensor> value;
  if (tree)
    value = repl::evaluate(*tree, scope_, diagnostics, series);
  if (!value) {
    printAgainst(diagnostics, source, typed);
    return std::nullopt;
  }
  if (model_ && series)
    simplifyTerms(*series);
  return model_ ? simplified(*value) : *value;
}

void ReplSession::expression(const std::string &text, bool latex) {
  repl::Series series;
  if (auto value = evaluateText(text, text, &series))
    std::cout << repl::format(*value, latex, &series) << "\n";
}

void ReplSession::assignment(const std::string &name, const std::string &text) {
  if (model_ && scope_.names.count(name) && !variables_.count(name) &&
      !(scope_.eom.count(name) && (name == "T" || name == "V" || name == "L"))) {
    bool isParam = false;
    for (const sema::Param &p : model_->model().params)
      isParam = isParam || p.name == name;
    std::cerr << "error: '" << name << "' is a name of the model"
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
  std::cout << name << " = " << repl::format(*value, false, &series) << "\n";
}

// ---- Commands ---------------------------------------------------------------

std::string ReplSession::runCli(int (*run)(const Invocation &),
                                const std::vector<std::string> &args) {
  std::string path = modelPath();
  SearchFolderFirst imports(importFolder());
  Invocation call{invocation_.executable, {path}};
  call.args.insert(call.args.end(), args.begin(), args.end());
  for (const std::string &s : settings_) {
    call.args.push_back("--set");
    call.args.push_back(s);
  }
  // Messages about the session's own copy of the model name it as
  // :show prints it.
  std::ostringstream errors;
  std::streambuf *stream = std::cerr.rdbuf(errors.rdbuf());
  run(call);
  std::cerr.rdbuf(stream);
  std::string text = errors.str();
  if (path != filePath_)
    for (size_t at = text.find(path); at != std::string::npos; at = text.find(path, at))
      text.replace(at, path.size(), "<session>");
  // A usage error points to the REPL's help, not the shell's.
  const std::string shellHelp = "(run 'mech --help' for usage)";
  for (size_t at = text.find(shellHelp); at != std::string::npos; at = text.find(shellHelp, at))
    text.replace(at, shellHelp.size(), "(:help lists the commands and their options)");
  std::cout.flush();
  return text;
}

void ReplSession::setParams(const std::string &text) {
  if (text.empty()) {
    for (const sema::Param &p : model_->model().params) {
      // As declared (k = 40 [N/m], m = 200 [g]); a pure number without a unit.
      std::string unit = p.unit || (p.dim.isKnown() && !p.dim.dimension.isDimensionless())
                             ? sema::unitOf(p.unit, p.dim)
                             : "";
      std::cout << p.name << " = " << sema::valueIn(p.value, p.unit)
                << (unit.empty() || unit == "1" ? "" : " [" + unit + "]") << "\n";
    }
    return;
  }
  auto settings = settings_;
  settings.push_back(text);
  // Checked as the CLI checks --set; only values move when no structural
  // param (a range bound) changed, so the derivation is kept.
  std::unique_ptr<driver::LoadedModel> checked =
      filePath_.empty() || !declarations_.empty() || !topLevel_.empty()
          ? driver::loadModelText("<session>", modelText(), settings, searchPath(invocation_),
                                  false)
          : driver::loadModel(filePath_, settings, searchPath(invocation_), false);
  if (!checked->analysis.ok || !checked->analysis.model) {
    checked->diagnostics().print(std::cerr);
    return;
  }
  sema::CheckedModel &current = *model_->analysis.model;
  const sema::CheckedModel &next = *checked->analysis.model;
  bool sameStructure =
      current.params.size() == next.params.size() && current.coords.size() == next.coords.size();
  for (size_t i = 0; sameStructure && i < current.params.size(); ++i)
    sameStructure =
        !current.params[i].structural || current.params[i].value == next.params[i].value;
  settings_ = settings;
  if (!sameStructure) {
    std::cout << "(a structural param changed: the equations are derived again)\n";
    std::string name = filePath_.empty() ? "<session>" : filePath_ + " (session)";
    bool plainFile = declarations_.empty() && topLevel_.empty() && !filePath_.empty();
    rebuild(fileText_, declarations_, topLevel_, plainFile ? filePath_ : name);
    return;
  }
  for (size_t i = 0; i < current.params.size(); ++i)
    if (current.params[i].value != next.params[i].value) {
      current.params[i].value = next.params[i].value;
      current.params[i].overridden = true;
      std::cout << current.params[i].name << " = " << shortestNumber(next.params[i].value) << "\n";
    }
  refreshScope();
}

void ReplSession::simulate(const std::vector<std::string> &given) {
  std::vector<std::string> args = given;
  if (args.empty() || args[0].empty() || args[0][0] == '-')
    args.insert(args.begin(), "10");
  char *end = nullptr;
  std::strtod(args[0].c_str(), &end);
  if (end == args[0].c_str() || *end != '\0') {
    std::cerr << "error: :sim takes the end time first (a number, as in :sim 5), found '" << args[0]
              << "'; :help lists the commands\n";
    return;
  }
  double until = std::atof(args[0].c_str()), dt = 0.01;
  std::vector<std::string> call{"--until", args[0]};
  bool ownCsv = true;
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "-o")
      ownCsv = false;
    if (args[i] == "--dt" && i + 1 < args.size())
      dt = std::atof(args[i + 1].c_str());
    call.push_back(args[i]);
  }
  fs::path csv = scratch_.path() / "sim.csv";
  std::error_code ignored;
  fs::remove(csv, ignored);
  // A table needs the samples on disk; beyond a million rows only the
  // summary is shown.
  bool table = ownCsv && dt > 0 && std::abs(until) / dt <= 1e6;
  if (ownCsv) {
    call.push_back("-o");
    call.push_back(table ? csv.string() : "/dev/null");
  }
  // The summary (stderr) follows the table, as it follows the CSV.
  std::string summary = runCli(runSimulate, call);
  if (table)
    std::cout << sampleTable(csv);
  std::cerr << summary;
}

void ReplSession::command(const std::string &name, const std::string &rest) {
  std::vector<std::string> args = words(rest);
  bool needsModel = name != ":load" && name != ":help" && name != ":latex" && name != ":time" &&
                    name != ":vars" && name != ":undo";
  bool known = false;
  for (const CommandHelp &c : kCommands)
    known = known || name == c.name;
  if (!known) {
    std::string best;
    int bestDistance = 3;
    for (const CommandHelp &c : kCommands) {
      int d = editDistance(name, c.name);
      if (d < bestDistance) {
        bestDistance = d;
        best = c.name;
      }
    }
    std::cerr << "error: unknown command '" << name << "'"
              << (best.empty() ? "" : " (did you mean '" + best + "'?)")
              << "; :help lists the commands\n";
    return;
  }
  if (needsModel && !model_) {
    std::cerr << "error: " << name
              << " needs a model: load one with :load FILE, or type declarations "
                 "(coord x [m], kinetic T = ...)\n";
    return;
  }
  if (name == ":help") {
    std::cout << "Type an expression to see it (simplified, over the model's names), name = "
                 "expression to keep it,\nor a declaration (param, coord, let, kinetic, ...) to "
                 "build the model. Functions: diff(e, x), simplify(e),\nexpand(e), subs(e, x = v), "
                 "taylor(e, x, x0, n), eval(e, x = 1), and the language's built-ins:\n"
              << builtinList() << ".\n"
              << "The derived quantities: eom.T, eom.V, eom.L, eom.M, eom.f, eom.Q (T, V, L also "
                 "plain).\n";
    for (const CommandHelp &c : kCommands) {
      char line[160];
      std::snprintf(line, sizeof line, "  %-36s %s\n", c.usage, c.what);
      std::cout << line;
    }
  } else if (name == ":load") {
    if (args.size() != 1)
      std::cerr << "error: :load takes one file\n";
    else
      load(args[0]);
  } else if (name == ":reload") {
    if (filePath_.empty()) {
      std::cerr << "error: :reload re-reads a model file; this session's model was typed\n";
      return;
    }
    std::optional<std::string> read = readModelFile(filePath_);
    if (!read)
      return;
    const std::string &text = *read;
    bool plain = declarations_.empty() && topLevel_.empty();
    if (rebuild(text, declarations_, topLevel_, plain ? filePath_ : filePath_ + " (session)"))
      fileText_ = text;
  } else if (name == ":undo") {
    if (typedOrder_.empty()) {
      std::cerr << "error: :undo removes typed declarations; there are none\n";
      return;
    }
    auto declarations = declarations_;
    auto top = topLevel_;
    std::vector<std::string> &list = typedOrder_.back() ? top : declarations;
    std::string removed = list.back();
    list.pop_back();
    bool plain = declarations.empty() && top.empty() && !filePath_.empty();
    std::string session = filePath_.empty() ? "<session>" : filePath_ + " (session)";
    if (declarations.empty() && top.empty() && fileText_.empty()) {
      // Back to no model at all: the calculator.
      model_.reset();
      library_.reset();
      variables_.clear();
      declarations_.clear();
      topLevel_.clear();
      typedOrder_.clear();
      refreshScope();
      std::cout << "removed: " << removed << "\n(no model)\n";
      return;
    }
    if (rebuild(fileText_, declarations, top, plain ? filePath_ : session)) {
      declarations_ = declarations;
      topLevel_ = top;
      typedOrder_.pop_back();
      std::cout << "removed: " << removed << "\n";
    }
  } else if (name == ":show") {
    std::cout << currentText();
  } else if (name == ":save") {
    if (args.size() != 1) {
      std::cerr << "error: :save takes one file\n";
      return;
    }
    std::string text = currentText(), error;
    if (!writeOutputFile(args[0], text, error)) {
      std::cerr << "error: " << error << "\n";
      return;
    }
    std::cout << "wrote " << args[0] << "\n";
    // Saved over the loaded file, the typed declarations are in the file now.
    std::error_code same;
    if (!filePath_.empty() && fs::equivalent(args[0], filePath_, same)) {
      fileText_ = text;
      declarations_.clear();
      topLevel_.clear();
      typedOrder_.clear();
    }
  } else if (name == ":eom") {
    std::cerr << runCli(runEquations, args);
  } else if (name == ":eval") {
    if (!rest.empty() && rest[0] != '-')
      std::cerr << runCli(runEval, {"--at", rest});
    else
      std::cerr << runCli(runEval, args);
  } else if (name == ":sim") {
    simulate(args);
  } else if (name == ":equilibria") {
    std::cerr << runCli(runEquilibria, args);
  } else if (name == ":linearize") {
    std::cerr << runCli(runLinearize, args);
  } else if (name == ":conserved") {
    std::cerr << runCli(runConserved, args);
  } else if (name == ":solve") {
    std::cerr << runCli(runSolve, args);
  } else if (name == ":build") {
    std::cerr << runCli(runBuild, args);
  } else if (name == ":set") {
    setParams(rest);
  } else if (name == ":latex") {
    expression(rest, true);
  } else if (name == ":vars") {
    for (const auto &[variable, value] : variables_)
      std::cout << variable << " = " << repl::format(value) << "\n";
  } else if (name == ":time") {
    auto start = std::chrono::steady_clock::now();
    handle(rest);
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    char line[64];
    std::snprintf(line, sizeof line, "time: %.3g ms\n", ms);
    std::cout << line;
  }
}

} // namespace mech::cli
