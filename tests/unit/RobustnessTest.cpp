// No input, however malformed or large, crashes the front end: huge flat
// expressions are accepted, deep nesting and long operator chains are refused
// with a clear error, junk bytes are reported with a location, and a
// fixed-seed fuzzer feeds mutated examples, random token sequences and random
// well-formed models through parsing, semantic analysis and the printer.
#include "TestSupport.h"
#include "support/Utf8.h"
#include "syntax/AstDump.h"
#include "syntax/Printer.h"

#include <catch2/catch.hpp>

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace mech;

namespace {

std::string repeat(const std::string &text, size_t count) {
  std::string out;
  out.reserve(text.size() * count);
  for (size_t i = 0; i < count; ++i)
    out += text;
  return out;
}

std::string readFile(const std::filesystem::path &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Shows an input in a failure message: bytes outside printable ASCII escaped.
std::string printable(const std::string &text, size_t limit = 1500) {
  std::string out;
  for (size_t i = 0; i < text.size() && i < limit; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n' || (c >= 0x20 && c < 0x7f)) {
      out += static_cast<char>(c);
    } else {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\x%02x", c);
      out += buffer;
    }
  }
  if (text.size() > limit)
    out += "... (" + std::to_string(text.size()) + " bytes)";
  return out;
}

// Collects what went wrong over many inputs, with the first few inputs shown.
struct Problems {
  int count = 0;
  std::string report;

  void add(const std::string &input, const std::string &what) {
    if (++count <= 8)
      report += "--- " + what + "\n--- input:\n" + printable(input) + "\n";
  }
};

bool isLocated(const Diagnostic &d) {
  return d.location.file != nullptr && d.location.line >= 1 && d.location.column >= 1 &&
         d.location.line <= d.location.file->lineCount();
}

// A file-level error names its file but no position in it.
bool isFileLevel(const Diagnostic &d) {
  return d.location.file != nullptr && d.location.line == 0;
}

// The checks every diagnostic of every input must pass.
void checkDiagnostics(const std::string &input, const Diagnostics &diagnostics,
                      Problems &problems) {
  for (const Diagnostic &d : diagnostics.all()) {
    if (d.severity == Severity::Error && !isLocated(d) && !isFileLevel(d))
      problems.add(input, "error without a location: " + d.message + " @" +
                              std::to_string(d.location.line) + ":" +
                              std::to_string(d.location.column));
    if (d.message.empty())
      problems.add(input, "diagnostic without a message");
    try {
      std::string rendered = render(d);
      // The message as shown: a user's text in it with its controls escaped.
      if (rendered.find(escapeForTerminal(d.message, true)) == std::string::npos)
        problems.add(input, "rendering lost the message: " + rendered);
      if (d.severity == Severity::Error && rendered.find("error: ") == std::string::npos)
        problems.add(input, "rendered error does not say error: " + rendered);
      if (isLocated(d) && rendered.find('^') == std::string::npos)
        problems.add(input, "rendered error has no caret: " + rendered);
    } catch (const std::exception &e) {
      problems.add(input, std::string("render threw: ") + e.what());
    }
  }
}

// Formats a parsed file and checks that the text reads back as the same tree
// and formats to itself.
void checkFormatting(const std::string &input, const ast::File &file, Problems &problems) {
  try {
    std::string formatted = formatFile(file);
    SourceFile source("formatted.mech", formatted);
    Diagnostics diagnostics;
    std::unique_ptr<ast::File> again = parseFile(source, diagnostics);
    if (!again) {
      std::string first = diagnostics.all().empty() ? "" : render(diagnostics.all()[0]);
      problems.add(input, "the formatted text does not parse:\n" + first + "formatted:\n" +
                              printable(formatted));
      return;
    }
    if (dumpAst(*again, false) != dumpAst(file, false)) {
      problems.add(input, "the formatted text parses to another tree; formatted:\n" +
                              printable(formatted));
      return;
    }
    if (formatFile(*again) != formatted)
      problems.add(input, "formatting is not idempotent; formatted:\n" + printable(formatted));
  } catch (const std::exception &e) {
    problems.add(input, std::string("formatting threw: ") + e.what());
  }
}

// Shapes that have a round-trip test of their own in PrinterTest.cpp, found
// in a tree dump: a prime applied directly to a prime, a component or index
// of a bare number, and a let name with both an index and a family range.
// The fuzzer leaves their round trip to those tests.
std::string shapeWithOwnRoundTripTest(const std::string &dump) {
  std::vector<std::string> lines;
  std::istringstream in(dump);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  auto body = [](const std::string &line, size_t &indent) {
    indent = line.find_first_not_of(' ');
    std::string rest = line.substr(indent == std::string::npos ? line.size() : indent);
    size_t colon = rest.find(": ");
    if (colon != std::string::npos && rest.compare(0, 6, "Number") != 0 &&
        rest.compare(0, 4, "Name") != 0)
      rest = rest.substr(colon + 2);
    return rest;
  };
  for (size_t i = 0; i + 1 < lines.size(); ++i) {
    size_t indent = 0, childIndent = 0;
    std::string node = body(lines[i], indent);
    std::string child = body(lines[i + 1], childIndent);
    if (childIndent != indent + 2)
      continue;
    if (node.rfind("Prime order", 0) == 0 && child.rfind("Prime order", 0) == 0)
      return "a prime of a prime";
    if ((node.rfind("Component", 0) == 0 || node == "Index") && child.rfind("Number", 0) == 0)
      return "a component or index of a number";
    if (node.rfind("Let ", 0) == 0 && lines[i + 1].find("index: ") != std::string::npos) {
      for (size_t k = i + 1; k < lines.size() && lines[k].find_first_not_of(' ') > indent; ++k)
        if (lines[k].find("family index") != std::string::npos)
          return "an indexed let name with a family range";
    }
  }
  return "";
}

struct Outcome {
  bool parsed = false;
  bool ok = false;
  bool ownRoundTripTest = false;
};

// Parses and analyses one input and checks everything that must hold for
// any input at all.
Outcome examine(const std::string &input, Problems &problems, bool format = true) {
  Outcome outcome;
  test::Session session;
  sema::Analysis analysis;
  try {
    analysis = session.analyze(input);
  } catch (const std::exception &e) {
    problems.add(input, std::string("exception escaped the analysis: ") + e.what());
    return outcome;
  } catch (...) {
    problems.add(input, "unknown exception escaped the analysis");
    return outcome;
  }
  const Diagnostics &diagnostics = session.diagnostics();
  if (!analysis.ok && diagnostics.errorCount() == 0)
    problems.add(input, "the analysis failed without reporting an error");
  if (analysis.ok && diagnostics.errorCount() > 0)
    problems.add(input, "the analysis succeeded although errors were reported");
  checkDiagnostics(input, diagnostics, problems);
  try {
    std::ostringstream all;
    diagnostics.print(all);
  } catch (const std::exception &e) {
    problems.add(input, std::string("printing the diagnostics threw: ") + e.what());
  }
  outcome.ok = analysis.ok;
  outcome.parsed = session.file != nullptr && session.file->ast != nullptr;
  if (outcome.parsed && format) {
    outcome.ownRoundTripTest =
        !shapeWithOwnRoundTripTest(dumpAst(*session.file->ast, false)).empty();
    if (!outcome.ownRoundTripTest)
      checkFormatting(input, *session.file->ast, problems);
  }
  return outcome;
}

// The errors of one analysis, for the tests of specific limits; the session
// keeps the sources their locations point into.
struct Result {
  std::unique_ptr<test::Session> session;
  bool parsed = false;
  bool ok = false;
  std::vector<Diagnostic> errors;
  std::string messages;
};

Result analyze(const std::string &text) {
  Result result;
  result.session = std::make_unique<test::Session>();
  test::Session &session = *result.session;
  sema::Analysis analysis = session.analyze(text);
  result.parsed = session.file != nullptr && session.file->ast != nullptr;
  result.ok = analysis.ok;
  for (const Diagnostic &d : session.diagnostics().all())
    if (d.severity == Severity::Error)
      result.errors.push_back(d);
  result.messages = session.messages();
  if (result.messages.size() > 4000)
    result.messages.resize(4000);
  return result;
}

// Runs fn in a child process, so that a crash is a failed check rather than
// the end of the test run. True when the child returned 0.
bool completesInChild(const std::function<int()> &fn) {
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid < 0)
    return false;
  if (pid == 0) {
    for (int sig : {SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE})
      std::signal(sig, SIG_DFL);
    int code = 3;
    try {
      code = fn();
    } catch (...) {
      code = 4;
    }
    std::_Exit(code);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid)
    return false;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// 0 when the analysis of text finishes and is consistent: ok, or with errors
// that all have locations.
int analysisCompletes(const std::string &text) {
  Result result = analyze(text);
  if (result.ok)
    return 0;
  if (result.errors.empty())
    return 1;
  for (const Diagnostic &d : result.errors)
    if (!isLocated(d) && !isFileLevel(d))
      return 2;
  return 0;
}

// A deterministic source of choices.
class Random {
public:
  explicit Random(unsigned seed) : engine_(seed) {}
  size_t below(size_t n) { return n == 0 ? 0 : engine_() % n; }
  bool chance(unsigned percent) { return below(100) < percent; }
  template <typename T> const T &pick(const std::vector<T> &items) {
    return items[below(items.size())];
  }
  unsigned char byte() { return static_cast<unsigned char>(engine_() & 0xff); }

private:
  std::mt19937 engine_;
};

// ---------------------------------------------------------------------------
// Inputs for the fuzzer

// The examples, the standard library and the corpus of valid snippets.
std::vector<std::string> seedTexts() {
  std::vector<std::string> texts;
  for (std::string folder :
       {std::string(MECH_SOURCE_ROOT) + "/examples", std::string(MECH_SOURCE_ROOT) + "/stdlib",
        std::string(MECH_TEST_DATA) + "/corpus"}) {
    std::vector<std::filesystem::path> files;
    for (const auto &entry : std::filesystem::directory_iterator(folder))
      if (entry.path().extension() == ".mech")
        files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const auto &path : files)
      texts.push_back(readFile(path));
  }
  return texts;
}

bool isWordByte(unsigned char c) {
  return std::isalnum(c) || c == '_' || c >= 0x80;
}

// Splits text into rough tokens: words and numbers, runs of blanks,
// comments, strings and single punctuation (`..` and `==` kept whole).
std::vector<std::string> roughTokens(const std::string &text) {
  std::vector<std::string> tokens;
  size_t i = 0;
  while (i < text.size()) {
    size_t start = i;
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '#') {
      while (i < text.size() && text[i] != '\n')
        ++i;
    } else if (c == '"') {
      ++i;
      while (i < text.size() && text[i] != '"' && text[i] != '\n')
        ++i;
      if (i < text.size() && text[i] == '"')
        ++i;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      while (i < text.size() &&
             (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
        ++i;
    } else if (std::isdigit(c)) {
      while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) ||
                                 (text[i] == '.' && i + 1 < text.size() &&
                                  std::isdigit(static_cast<unsigned char>(text[i + 1]))) ||
                                 text[i] == 'e'))
        ++i;
    } else if (isWordByte(c)) {
      while (i < text.size() && isWordByte(static_cast<unsigned char>(text[i])))
        ++i;
    } else if ((c == '.' || c == '=') && i + 1 < text.size() && text[i + 1] == text[i]) {
      i += 2;
    } else {
      ++i;
    }
    tokens.push_back(text.substr(start, i - start));
  }
  return tokens;
}

const std::vector<std::string> &vocabulary() {
  static const std::vector<std::string> words = {
      // declaration words, t and pi
      "model",
      "import",
      "param",
      "coord",
      "let",
      "def",
      "kinetic",
      "potential",
      "dissipation",
      "force",
      "torque",
      "generalized",
      "particle",
      "body",
      "gravity",
      "spring",
      "constraint",
      "init",
      "output",
      "for",
      "t",
      "pi",
      // clause words
      "mass",
      "at",
      "angle",
      "rotation",
      "inertia",
      "between",
      "and",
      "rest",
      "on",
      "in",
      // names and functions
      "x",
      "y",
      "th",
      "q",
      "m",
      "k",
      "n",
      "g",
      "l",
      "p",
      "r",
      "M",
      "T",
      "V",
      "D",
      "e",
      "sum",
      "sin",
      "cos",
      "sqrt",
      "atan2",
      "dot",
      "cross",
      "norm",
      "diag",
      "transpose",
      "det",
      "trace",
      "inv",
      "exp",
      "θ",
      "φ",
      "th₁",
      "rot",
      "down",
      "skew",
      // numbers
      "0",
      "1",
      "2",
      "3",
      "10",
      "0.5",
      "1e-3",
      "6.02e23",
      "100000",
      "1e308",
      "2.5",
      // operators and punctuation
      "+",
      "-",
      "*",
      "/",
      "^",
      "'",
      "''",
      ".",
      "..",
      "==",
      "=",
      ",",
      ":",
      ";",
      "(",
      ")",
      "[",
      "]",
      "{",
      "}",
      ".x",
      ".y",
      ".z",
      // units, strings, comments, line breaks
      "[m]",
      "[kg]",
      "[rad]",
      "[m/s^2]",
      "[1/s]",
      "[kg*m^2]",
      "[deg]",
      "\"planar.mech\"",
      "\"spatial.mech\"",
      "\"missing.mech\"",
      "\"\"",
      "# comment\n",
      "\n",
  };
  return words;
}

const std::vector<std::string> &alphabet() {
  static const std::vector<std::string> characters = {
      "a", "e", "k", "m",        "n",        "t", "x", "y",  "_",  "0",  "1",  "2",
      "9", ".", "'", "^",        "*",        "/", "+", "-",  "=",  "[",  "]",  "(",
      ")", "{", "}", ",",        ":",        ";", "#", "\"", " ",  "\n", "\t", "\r",
      "θ", "φ", "₁", "\xcc\x87", "\xc2\xa0", "$", "@", "`",  "\\", "!",
  };
  return characters;
}

std::string join(const std::vector<std::string> &tokens) {
  std::string out;
  for (const std::string &token : tokens)
    out += token;
  return out;
}

// One random change to a text.
std::string mutate(const std::string &text, const std::vector<std::string> &seeds, Random &random) {
  std::vector<std::string> tokens = roughTokens(text);
  switch (random.below(11)) {
  case 0: // delete a token
    if (!tokens.empty())
      tokens.erase(tokens.begin() + static_cast<long>(random.below(tokens.size())));
    return join(tokens);
  case 1: // duplicate a token
    if (!tokens.empty()) {
      size_t i = random.below(tokens.size());
      tokens.insert(tokens.begin() + static_cast<long>(i), tokens[i]);
    }
    return join(tokens);
  case 2: // swap two tokens
    if (tokens.size() > 1)
      std::swap(tokens[random.below(tokens.size())], tokens[random.below(tokens.size())]);
    return join(tokens);
  case 3: // replace a token with a word of the language
    if (!tokens.empty())
      tokens[random.below(tokens.size())] = random.pick(vocabulary());
    return join(tokens);
  case 4: { // insert a word of the language
    size_t i = random.below(tokens.size() + 1);
    tokens.insert(tokens.begin() + static_cast<long>(i), " " + random.pick(vocabulary()) + " ");
    return join(tokens);
  }
  case 5: { // insert a character of the language's alphabet
    std::string out = text;
    out.insert(random.below(out.size() + 1), random.pick(alphabet()));
    return out;
  }
  case 6: { // insert random bytes
    std::string out = text;
    size_t count = 1 + random.below(3);
    for (size_t i = 0; i < count; ++i)
      out.insert(out.begin() + static_cast<long>(random.below(out.size() + 1)),
                 static_cast<char>(random.byte()));
    return out;
  }
  case 7: // truncate
    return text.substr(0, random.below(text.size() + 1));
  case 8: { // splice with another seed
    const std::string &other = random.pick(seeds);
    return text.substr(0, random.below(text.size() + 1)) +
           other.substr(random.below(other.size() + 1));
  }
  case 9: { // delete a character
    std::string out = text;
    if (!out.empty())
      out.erase(random.below(out.size()), 1);
    return out;
  }
  default: { // change a number
    std::vector<size_t> numbers;
    for (size_t i = 0; i < tokens.size(); ++i)
      if (!tokens[i].empty() && std::isdigit(static_cast<unsigned char>(tokens[i][0])))
        numbers.push_back(i);
    static const std::vector<std::string> values = {
        "0",  "1",      "2",      "3",     "7",   "20",
        "-1", "100000", "100001", "1e308", "0.5", "99999999999999999999"};
    if (!numbers.empty())
      tokens[random.pick(numbers)] = random.pick(values);
    return join(tokens);
  }
  }
}

std::string randomTokens(Random &random) {
  std::string out;
  bool wrap = random.chance(50);
  if (wrap)
    out += "model M {\n";
  size_t length = 1 + random.below(60);
  for (size_t i = 0; i < length; ++i) {
    out += random.pick(vocabulary());
    switch (random.below(6)) {
    case 0:
      break; // tokens may run together
    case 1:
      out += '\n';
      break;
    default:
      out += ' ';
    }
  }
  if (wrap && random.chance(80))
    out += "\n}\n";
  return out;
}

// Random well-formed models: every declaration form with random expressions.
class ModelGenerator {
public:
  explicit ModelGenerator(Random &random) : random_(random) {}

  std::string model() {
    std::string out;
    if (random_.chance(20))
      out += "import \"planar.mech\"\n";
    if (random_.chance(20))
      out += "def f(a, b) = " + expr(2) + "\n";
    out += "model G {\n";
    out += "  param n = " + std::to_string(1 + random_.below(3)) + ", m = 1 [kg], l = 2 [m]\n";
    out += "  coord x [m], th[1..n] [rad]\n";
    size_t count = 1 + random_.below(8);
    for (size_t i = 0; i < count; ++i)
      out += "  " + decl(0) + (random_.chance(15) ? "  # note" : "") + "\n" +
             (random_.chance(10) ? "\n" : "");
    return out + "}\n";
  }

private:
  std::string name() {
    static const std::vector<std::string> names = {"x",     "m",     "l",    "n",  "p",  "q", "g",
                                                   "th[1]", "th[n]", "mass", "at", "in", "θ", "e"};
    return random_.pick(names);
  }

  std::string number() {
    static const std::vector<std::string> numbers = {
        "0",       "1",       "2", "0.5", "1e-3", "6.02e23", "3 [m]", "2 [kg]", "9.81 [m/s^2]",
        "1 [1/s]", "90 [deg]"};
    return random_.pick(numbers);
  }

  // Postfix operators never follow a number here, and a prime never follows
  // a prime directly (a parenthesized operand is always a sum): those shapes
  // have their own tests in PrinterTest.cpp.
  std::string primary(int depth) {
    size_t choice = depth >= 2 ? random_.below(2) : random_.below(9);
    switch (choice) {
    case 0:
      return number();
    case 1:
      return postfix(name(), depth);
    case 2:
      return postfix("(" + expr(depth + 1) + " + x)", depth);
    case 3:
      return postfix("[" + expr(depth + 1) + ", " + expr(depth + 1) + "]", depth);
    case 4:
      return postfix("sin(" + expr(depth + 1) + ")", depth);
    case 5:
      return "sum(i in 1..n, " + expr(depth + 1) + ")";
    case 6:
      return postfix("dot(" + expr(depth + 1) + ", " + expr(depth + 1) + ")", depth);
    case 7:
      return random_.chance(50) ? "t" : "pi";
    default:
      return postfix("[[1, 0], [0, " + expr(depth + 1) + "]]", depth);
    }
  }

  std::string postfix(const std::string &operand, int depth) {
    std::string out = operand;
    size_t count = random_.below(3);
    bool primed = false;
    for (size_t i = 0; i < count; ++i) {
      switch (random_.below(3)) {
      case 0:
        if (!primed)
          out += random_.chance(50) ? "'" : "''";
        primed = true;
        continue;
      case 1:
        out += random_.chance(50) ? ".x" : ".y";
        break;
      default:
        out += "[" + expr(depth + 1) + "]";
      }
      primed = false;
    }
    return out;
  }

  std::string power(int depth) {
    std::string out = primary(depth);
    if (random_.chance(20)) {
      out += "^";
      if (random_.chance(40))
        out += "-";
      out += primary(depth + 1);
    }
    return out;
  }

  std::string signedTerm(int depth) {
    std::string sign = random_.chance(15) ? "-" : random_.chance(5) ? "- -" : "";
    return sign + power(depth);
  }

  std::string term(int depth) {
    std::string out = signedTerm(depth);
    while (random_.chance(25))
      out += (random_.chance(50) ? " * " : " / ") + signedTerm(depth);
    return out;
  }

  std::string expr(int depth) {
    std::string out = term(depth);
    while (random_.chance(25))
      out += (random_.chance(50) ? " + " : " - ") + term(depth);
    return out;
  }

  std::string decl(int depth) {
    switch (random_.below(depth > 1 ? 17 : 18)) {
    case 0:
      return "param a" + std::to_string(counter_++) + (random_.chance(30) ? " [m]" : "") + " = " +
             expr(0);
    case 1:
      return "let v" + std::to_string(counter_++) + (random_.chance(30) ? "[k in 1..n]" : "") +
             (random_.chance(20) ? " [m]" : "") + " = " + expr(0);
    case 2:
      return "kinetic " +
             std::string(random_.chance(50) ? "T" + std::to_string(counter_++) + " = " : "") +
             expr(0);
    case 3:
      return "potential " + expr(0);
    case 4:
      return "dissipation D" + std::to_string(counter_++) + " = " + expr(0);
    case 5:
      return "force " + expr(0) + " at " + expr(0);
    case 6:
      return "torque " + expr(0) + " on " + expr(0);
    case 7:
      return "generalized " + expr(0) + " on x";
    case 8:
      return "particle b" + std::to_string(counter_++) + " mass " + expr(0) + " at " + expr(0);
    case 9:
      return "body b" + std::to_string(counter_++) + " mass m at " + expr(0) +
             (random_.chance(50) ? " angle " : " rotation ") + expr(0) + " inertia " + expr(0);
    case 10:
      return "gravity " + expr(0);
    case 11:
      return "spring " + expr(0) + " between " + expr(0) + " and " + expr(0) +
             (random_.chance(50) ? " rest " + expr(0) : "");
    case 12:
      return "constraint " +
             std::string(random_.chance(50) ? "c" + std::to_string(counter_++) + ": " : "") +
             expr(0) + " == " + expr(0);
    case 13:
      return "init x = " + expr(0) + ", th[1]' = " + expr(0);
    case 14:
      return "output o" + std::to_string(counter_++) + " = " + expr(0);
    case 15:
      return "def h" + std::to_string(counter_++) + "(u) = " + expr(0);
    case 16:
      return "coord z" + std::to_string(counter_++) + " [m]";
    default: {
      std::string index = "j" + std::to_string(depth);
      return "for " + index + " in 1..n { output w" + std::to_string(counter_++) + "[" + index +
             "] = " + expr(0) + "; " + decl(depth + 1) + " }";
    }
    }
  }

  Random &random_;
  int counter_ = 0;
};

} // namespace

// ---------------------------------------------------------------------------
// (a) Large flat expressions

TEST_CASE("a flat sum of 100000 terms parses and analyses", "[robustness]") {
  std::string sum = "1" + repeat(" + 1", 99999);
  std::string text = "model Big {\n  param a = " + sum + "\n}\n";
  test::Session session;
  sema::Analysis analysis = session.analyze(text);
  INFO(session.messages().substr(0, 2000));
  REQUIRE(analysis.ok);
  REQUIRE(analysis.model);
  REQUIRE(analysis.model->params.size() == 1);
  CHECK(analysis.model->params[0].value == Approx(100000));

  const ast::ModelDecl *model = session.file->ast->model();
  REQUIRE(model);
  auto &param = std::get<ast::ParamDecl>(model->body.at(0).node);
  REQUIRE(param.items.at(0).value->kind == ast::ExprKind::Add);
  CHECK(static_cast<const ast::Add &>(*param.items[0].value).terms.size() == 100000);

  Problems problems;
  examine("model Big {\n  param a = " + sum + "\n  param b = a - " + sum + "\n}\n", problems);
  INFO(problems.report);
  CHECK(problems.count == 0);
}

TEST_CASE("a flat product of 100000 factors parses and analyses", "[robustness]") {
  std::string product = "1" + repeat(" * 2 / 2", 50000);
  std::string text = "model Big {\n  param b = " + product + "\n}\n";
  test::Session session;
  sema::Analysis analysis = session.analyze(text);
  INFO(session.messages().substr(0, 2000));
  REQUIRE(analysis.ok);
  REQUIRE(analysis.model);
  CHECK(analysis.model->params.at(0).value == Approx(1));

  const ast::ModelDecl *model = session.file->ast->model();
  REQUIRE(model);
  auto &param = std::get<ast::ParamDecl>(model->body.at(0).node);
  REQUIRE(param.items.at(0).value->kind == ast::ExprKind::Mul);
  CHECK(static_cast<const ast::Mul &>(*param.items[0].value).factors.size() == 100001);

  Problems problems;
  examine(text, problems);
  INFO(problems.report);
  CHECK(problems.count == 0);
}

TEST_CASE("a sum of 100000 coordinates' terms analyses", "[robustness]") {
  std::string sum = "x'^2";
  for (int i = 1; i < 100000; ++i)
    sum += i % 2 ? " + x^2" : " - x'^2";
  Problems problems;
  Outcome outcome = examine("model Big {\n  coord x\n  kinetic T = " + sum + "\n}\n", problems);
  INFO(problems.report);
  CHECK(problems.count == 0);
  CHECK(outcome.parsed);
}

// ---------------------------------------------------------------------------
// (b) Nesting

TEST_CASE("100000 nested brackets of each kind are refused with the nesting error",
          "[robustness]") {
  struct Case {
    std::string text;
    int column; // of the bracket that goes past the limit
  };
  const std::string prefix = "model M { param a = "; // 20 characters, `{` at depth 1
  const Case cases[] = {
      {prefix + repeat("(", 100000) + "1" + repeat(")", 100000) + " }", 20 + 256},
      {prefix + repeat("[", 100000) + "1" + repeat("]", 100000) + " }", 20 + 256},
      {repeat("{", 100000), 257},
      {prefix + repeat("([{", 40000), 20 + 256},
      {prefix + repeat("(", 100000), 20 + 256},
      {prefix + "2 [" + repeat("(", 100000) + "m" + repeat(")", 100000) + "] }", 23 + 255},
  };
  for (const Case &c : cases) {
    INFO(c.text.substr(0, 60));
    Result result = analyze(c.text);
    INFO(result.messages);
    CHECK_FALSE(result.parsed);
    CHECK_FALSE(result.ok);
    REQUIRE(result.errors.size() == 1);
    const Diagnostic &error = result.errors[0];
    CHECK(error.message == "brackets nested deeper than 256 levels");
    CHECK(error.location.line == 1);
    CHECK(error.location.column == c.column);
    CHECK_FALSE(render(error).empty());
  }
}

TEST_CASE("the nesting limit is exactly 256 levels", "[robustness]") {
  // The model's `{` is the first level.
  std::string deepest = "model M { param a = " + repeat("(", 255) + "1" + repeat(")", 255) + " }";
  Result accepted = analyze(deepest);
  INFO(accepted.messages);
  CHECK(accepted.ok);

  std::string tooDeep = "model M { param a = " + repeat("(", 256) + "1" + repeat(")", 256) + " }";
  Result refused = analyze(tooDeep);
  CHECK_FALSE(refused.parsed);
  REQUIRE_FALSE(refused.errors.empty());
  CHECK(refused.errors[0].message.find("nested deeper than 256") != std::string::npos);

  // Nested for blocks count too.
  std::string fors = "model M {\n";
  for (int i = 1; i <= 255; ++i)
    fors += "for k" + std::to_string(i) + " in 1..1 {\n";
  fors += repeat("}\n", 255) + "}\n";
  Problems problems;
  Outcome outcome = examine(fors, problems);
  INFO(problems.report);
  CHECK(problems.count == 0);
  CHECK(outcome.parsed);
}

// ---------------------------------------------------------------------------
// (c) Operator chains

TEST_CASE("100000 ^ in a row give the chain error", "[robustness]") {
  Result result = analyze("model M {\n  param a = 1" + repeat("^1", 100000) + "\n}\n");
  CHECK_FALSE(result.parsed);
  REQUIRE(result.errors.size() == 1);
  CHECK(result.errors[0].message == "chain of '^' longer than 256 operators");
  CHECK(result.errors[0].location.line == 2);
  CHECK(result.errors[0].location.column == 13);

  Result signedChain = analyze("model M {\n  param a = 1" + repeat("^-1", 100000) + "\n}\n");
  CHECK_FALSE(signedChain.parsed);
  REQUIRE_FALSE(signedChain.errors.empty());
  CHECK(signedChain.errors[0].message.find("chain of '^'") != std::string::npos);

  // The longest chain accepted.
  Result longest = analyze("model M {\n  param a = 1" + repeat("^1", 256) + "\n}\n");
  INFO(longest.messages);
  CHECK(longest.ok);
}

TEST_CASE("100000 unary minus signs parse and fold", "[robustness]") {
  Result even = analyze("model M {\n  param a = " + repeat("-", 100000) + "2\n}\n");
  INFO(even.messages);
  CHECK(even.ok);
  test::Session session;
  sema::Analysis odd = session.analyze("model M {\n  param a = " + repeat("- ", 100001) + "2\n}\n");
  CHECK(odd.ok);
  REQUIRE(odd.model);
  CHECK(odd.model->params.at(0).value == Approx(-2));
  Result mixed = analyze("model M {\n  param a = 3 * " + repeat("+-", 50000) + "2\n}\n");
  CHECK(mixed.ok);
}

TEST_CASE("x followed by 100000 primes gives a clear error", "[robustness]") {
  Result result = analyze("model M {\n  coord x\n  output a = x" + repeat("'", 100000) + "\n}\n");
  INFO(result.messages.substr(0, 1000));
  CHECK_FALSE(result.ok);
  REQUIRE_FALSE(result.errors.empty());
  for (const Diagnostic &d : result.errors) {
    CHECK(isLocated(d));
    CHECK_FALSE(render(d).empty());
  }
  CHECK(result.errors[0].location.line == 3);
  // Either the chain limit or the order of the derivative is named.
  const std::string &message = result.errors[0].message;
  CHECK((message.find("chain") != std::string::npos || message.find("order") != std::string::npos));
}

TEST_CASE("100000 .x in a row give a clear error", "[robustness]") {
  Result result =
      analyze("model M {\n  coord x\n  output a = [x, x]" + repeat(".x", 100000) + "\n}\n");
  CHECK_FALSE(result.ok);
  REQUIRE_FALSE(result.errors.empty());
  CHECK(result.errors[0].message.find("chain") != std::string::npos);
  CHECK(result.errors[0].location.line == 3);
  CHECK(result.errors[0].location.column == 14);

  Result indices =
      analyze("model M {\n  coord x\n  output a = x" + repeat("[1]", 100000) + "\n}\n");
  CHECK_FALSE(indices.ok);
  REQUIRE_FALSE(indices.errors.empty());
  CHECK(indices.errors[0].message.find("chain") != std::string::npos);

  Problems problems;
  examine("model M {\n  coord x\n  output a = x" + repeat("'.x", 50000) + "\n}\n", problems);
  examine("model M {\n  coord x\n  output a = x" + repeat("''[1]", 100) + "\n}\n", problems);
  INFO(problems.report);
  CHECK(problems.count == 0);
}

// The limits bound the depth of brackets and the length of each chain, but a
// chain may sit inside every bracket: 250 levels of 256 operators make an
// expression 128000 nodes deep (32 levels are enough to exhaust the stack of
// the analysis).
TEST_CASE("expression trees within the limits do not exhaust the stack", "[robustness]") {
  std::string level = "(" + repeat("a^-", 255) + "a^";
  std::string text = "model M {\n  param a = 1\n  param b = " + repeat(level, 250) + "a" +
                     repeat(")", 250) + "\n}\n";
  CHECK(completesInChild([&] { return analysisCompletes(text); }));
  CHECK(completesInChild([&] {
    SourceFile source("deep.mech", text);
    Diagnostics diagnostics;
    auto file = parseFile(source, diagnostics);
    if (!file)
      return 0;
    return formatFile(*file).empty() ? 1 : 0;
  }));
  std::string indexed =
      "model M {\n  param a = 1\n  param b = " + repeat("(a" + repeat("[1]", 255) + " + ", 250) +
      "a" + repeat(")", 250) + "\n}\n";
  CHECK(completesInChild([&] { return analysisCompletes(indexed); }));
}

TEST_CASE("long chains of lets and defs do not exhaust the stack", "[robustness]") {
  std::string lets = "model M {\n  coord q\n  let x0 = q\n";
  for (int k = 1; k < 20000; ++k)
    lets += "  let x" + std::to_string(k) + " = x" + std::to_string(k - 1) + " + 1\n";
  lets += "  kinetic T = q'^2\n  potential V = x19999\n}\n";
  CHECK(completesInChild([&] { return analysisCompletes(lets); }));

  std::string defs = "def f0(x) = x\n";
  for (int k = 1; k < 20000; ++k)
    defs += "def f" + std::to_string(k) + "(x) = f" + std::to_string(k - 1) + "(x) + 1\n";
  defs += "model M {\n  param a = f19999(1)\n}\n";
  CHECK(completesInChild([&] { return analysisCompletes(defs); }));
}

// ---------------------------------------------------------------------------
// (d) Junk and degenerate files

TEST_CASE("empty files, comments only, and a lone model keyword", "[robustness]") {
  Result empty = analyze("");
  CHECK(empty.parsed);
  CHECK(empty.ok);
  CHECK(empty.errors.empty());

  Result blank = analyze(" \n\t\r\n\n");
  CHECK(blank.ok);

  Result comments = analyze("# only\n# comments\n#\n# model M { }\n");
  CHECK(comments.parsed);
  CHECK(comments.ok);

  Result lone = analyze("model");
  CHECK_FALSE(lone.parsed);
  REQUIRE(lone.errors.size() >= 1);
  CHECK(lone.errors[0].location.line == 1);
  CHECK(lone.errors[0].location.column == 6);
  CHECK(lone.errors[0].message.find("end of input") != std::string::npos);

  Result loneLine = analyze("model\n");
  REQUIRE_FALSE(loneLine.errors.empty());
  CHECK(loneLine.errors[0].location.line == 2);
  CHECK(loneLine.errors[0].location.column == 1);

  Result semicolons = analyze(";;;;");
  CHECK(semicolons.ok);
}

TEST_CASE("unbalanced brackets give located errors", "[robustness]") {
  const char *texts[] = {
      "model M {",
      "model M { param a = (1 }",
      "model M { param a = 1) }",
      "model M { param a = [1, 2 }",
      "model M { param a = 1] }",
      "}}}}",
      ")))",
      "]]]",
      "model M {{ }}",
      "model M { for k in 1..2 { }",
      "model M { for k in 1..2 } }",
      "model M { param a = sin(1 }",
      "model M { param a = 2 [m }",
      "model M { param a = 2 m] }",
      "(((((",
      "[[[[[",
  };
  for (const char *text : texts) {
    INFO(text);
    Result result = analyze(text);
    INFO(result.messages);
    CHECK_FALSE(result.ok);
    REQUIRE_FALSE(result.errors.empty());
    for (const Diagnostic &d : result.errors) {
      CHECK(isLocated(d));
      CHECK_FALSE(render(d).empty());
    }
  }
}

TEST_CASE("NUL bytes and control characters are located errors", "[robustness]") {
  Result nul = analyze(std::string("model M {\0}", 11));
  CHECK_FALSE(nul.ok);
  REQUIRE_FALSE(nul.errors.empty());
  CHECK(nul.errors[0].location.line == 1);
  CHECK(nul.errors[0].location.column == 10);
  CHECK(nul.errors[0].message.find("unexpected character") != std::string::npos);
  std::string rendered = render(nul.errors[0]);
  CHECK(rendered.find('\0') == std::string::npos);

  Result nuls = analyze(std::string(1000, '\0'));
  CHECK_FALSE(nuls.ok);
  CHECK_FALSE(nuls.errors.empty());
  // At most a bounded number of reports for a file full of junk.
  CHECK(nuls.errors.size() <= 100);

  Result escape = analyze("model M { param a = 1 \x1b[31m }");
  CHECK_FALSE(escape.ok);
  REQUIRE_FALSE(escape.errors.empty());
  for (const Diagnostic &d : escape.errors)
    CHECK(render(d).find('\x1b') == std::string::npos);
}

TEST_CASE("invalid UTF-8 is a located error", "[robustness]") {
  const std::string sequences[] = {
      "\xff",             // never valid
      "\xc3\x28",         // bad continuation
      "\xc0\x80",         // overlong NUL
      "\xe0\x80\xaf",     // overlong /
      "\xed\xa0\x80",     // UTF-16 surrogate
      "\xf8\x88\x80\x80", // five-byte form
      "\xf4\x90\x80\x80", // above U+10FFFF
      "\x80",             // lone continuation
  };
  for (const std::string &bad : sequences) {
    INFO(printable(bad));
    Result result = analyze("model M {\n  param a = 1 " + bad + " }\n");
    CHECK_FALSE(result.ok);
    REQUIRE(result.errors.size() == 1);
    CHECK(result.errors[0].message == "the file is not valid UTF-8");
    CHECK(result.errors[0].location.line == 2);
    CHECK(result.errors[0].location.column == 15);
    CHECK_FALSE(render(result.errors[0]).empty());
  }
  // A sequence cut short by the end of the file.
  Result truncated = analyze("model M { param θ = 1 }\n\xe2\x82");
  REQUIRE(truncated.errors.size() == 1);
  CHECK(truncated.errors[0].location.line == 2);
  CHECK(truncated.errors[0].location.column == 1);
}

TEST_CASE("random bytes never crash the front end", "[robustness]") {
  Random random(7);
  Problems problems;
  for (int i = 0; i < 500; ++i) {
    std::string input;
    size_t length = random.below(300);
    for (size_t k = 0; k < length; ++k)
      input += static_cast<char>(random.byte());
    examine(input, problems);
  }
  INFO(problems.report);
  CHECK(problems.count == 0);
}

TEST_CASE("a very long line is rendered as a window around the caret", "[robustness]") {
  std::string text = "model M {\n  param a = 1 + " + repeat("b + ", 100000) + "$ }\n";
  Result result = analyze(text);
  REQUIRE_FALSE(result.errors.empty());
  CHECK(result.errors[0].location.line == 2);
  std::string rendered = render(result.errors[0]);
  CHECK(rendered.size() < 1000);
  CHECK(rendered.find('^') != std::string::npos);
}

// ---------------------------------------------------------------------------
// (e) Fuzzing

TEST_CASE("fuzz: mutated examples never crash and always explain failures", "[robustness]") {
  std::vector<std::string> seeds = seedTexts();
  REQUIRE(seeds.size() >= 69);
  Random random(20240611);
  Problems problems;
  int parsed = 0, ok = 0, known = 0;
  const int inputs = 6000;
  for (int i = 0; i < inputs; ++i) {
    std::string text = random.pick(seeds);
    size_t mutations = 1 + random.below(4);
    for (size_t m = 0; m < mutations; ++m)
      text = mutate(text, seeds, random);
    Outcome outcome = examine(text, problems);
    parsed += outcome.parsed;
    ok += outcome.ok;
    known += outcome.ownRoundTripTest;
  }
  INFO(problems.report);
  INFO(known << " inputs hold a shape whose round trip is tested in PrinterTest.cpp");
  CHECK(problems.count == 0);
  // The mutations keep enough of the language to reach every stage.
  CHECK(parsed >= inputs / 10);
  CHECK(ok >= inputs / 20);
  CHECK(parsed < inputs);
}

TEST_CASE("fuzz: random token sequences never crash and always explain failures", "[robustness]") {
  Random random(1337);
  Problems problems;
  const int inputs = 3000;
  for (int i = 0; i < inputs; ++i)
    examine(randomTokens(random), problems);
  INFO(problems.report);
  CHECK(problems.count == 0);
}

TEST_CASE("fuzz: random well-formed models parse, analyse and round-trip", "[robustness]") {
  Random random(4242);
  Problems problems;
  const int inputs = 400;
  int parsed = 0, ok = 0;
  for (int i = 0; i < inputs; ++i) {
    ModelGenerator generator(random);
    std::string text = generator.model();
    Outcome outcome = examine(text, problems);
    if (!outcome.parsed)
      problems.add(text, "a well-formed model does not parse");
    parsed += outcome.parsed;
    ok += outcome.ok;
  }
  INFO(problems.report);
  CHECK(problems.count == 0);
  CHECK(parsed == inputs);
  CHECK(ok > 0);
}

// ---------------------------------------------------------------------------
// Names and dimensions: errors that say what is wrong

TEST_CASE("an unnamed constraint never takes the name of a named one", "[robustness]") {
  // Unnamed constraints are named c1, c2, ...; here the unnamed one would be
  // c1 like the named one, so one multiplier could not be referred to.
  test::Session session;
  sema::Analysis analysis = session.analyze("model M {\n"
                                            "  coord x [m], y [m]\n"
                                            "  particle p mass 1 [kg] at [x, y]\n"
                                            "  constraint c1: x == 1\n"
                                            "  constraint y == 2\n"
                                            "}\n");
  INFO(session.messages());
  if (analysis.ok) {
    REQUIRE(analysis.model);
    REQUIRE(analysis.model->constraints.size() == 2);
    CHECK(analysis.model->constraints[0].name != analysis.model->constraints[1].name);
  } else {
    CHECK(session.diagnostics().errorCount() >= 1);
  }
}

TEST_CASE("init of a param says it is a param", "[robustness]") {
  Result result = analyze("model M {\n  param a = 1\n  coord x\n  init a = 1\n}\n");
  INFO(result.messages);
  CHECK_FALSE(result.ok);
  REQUIRE_FALSE(result.errors.empty());
  // Not "unknown coordinate 'a' (did you mean 'a'?)".
  CHECK(result.errors[0].message.find("did you mean 'a'") == std::string::npos);
  CHECK(result.errors[0].message.find("param") != std::string::npos);
}

// v[2] is an entry of the vector (counted from 1), not a misplaced unit.
TEST_CASE("indexing a vector let gives its entry", "[robustness]") {
  Result result =
      analyze("model M {\n  coord x [m], y [m]\n  let v = [x, y]\n  output a = v[2]\n}\n");
  INFO(result.messages);
  CHECK(result.ok);
}

TEST_CASE("the literal 0 has every dimension, also as a generalized force", "[robustness]") {
  Result result = analyze("model M {\n"
                          "  coord x [m]\n"
                          "  kinetic T = 1 [kg] * x'^2\n"
                          "  generalized 0 on x\n"
                          "}\n");
  INFO(result.messages);
  CHECK(result.ok);
}

// In a[1][2] the name a is the culprit: the message names it, not the
// intermediate a[1].
TEST_CASE("indexing a param twice names the param", "[robustness][!mayfail]") {
  Result result = analyze("model M {\n  param a = 1\n  param b = a[1][2]\n}\n");
  INFO(result.messages);
  CHECK_FALSE(result.ok);
  REQUIRE_FALSE(result.errors.empty());
  CHECK(result.errors[0].message.find("'a'") != std::string::npos);
  CHECK(result.errors[0].message.find("'a[1]'") == std::string::npos);
}
