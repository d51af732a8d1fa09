// Golden diagnostic files: every tests/diagnostics/*.mech states in comments
// the errors the checker must report for it, and nothing else:
//
//   # expect: LINE:COL: error: MESSAGE          an error in the file itself
//   # expect: OTHER.mech:LINE:COL: error: MSG   an error located in another file
//                                               (an import), named relative to
//                                               tests/diagnostics
//   # expect-none                               the file must check cleanly
//
// The errors reported (Severity::Error only; notes are not compared) must equal
// the expected lines as a multiset. A file with expected errors must also fail
// the analysis (Analysis::ok is false); a file with `# expect-none` must pass it.
// Files with neither kind of line are helpers imported by other cases.
#include "TestSupport.h"

#include "mechanics/Lagrange.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace mech;
namespace fs = std::filesystem;

namespace {

// Cases whose expectations state what the checker should report but does not
// yet; they are skipped (and reported with a warning once they pass).
const std::set<std::string> kKnownIssues = {
    "syntax_missing_equals_param.mech", // a second, spurious error at the next '}'
};

constexpr size_t kMinimumCases = 40;

std::string diagnosticsFolder() {
  return std::string(MECH_TEST_DATA) + "/diagnostics";
}

std::string trim(const std::string &text) {
  size_t begin = text.find_first_not_of(" \t\r");
  if (begin == std::string::npos)
    return "";
  size_t end = text.find_last_not_of(" \t\r");
  return text.substr(begin, end - begin + 1);
}

struct Expectations {
  std::vector<std::string> errors;
  bool none = false;
  bool any() const { return none || !errors.empty(); }
};

Expectations readExpectations(const fs::path &path) {
  Expectations result;
  std::ifstream in(path);
  std::string line;
  const std::string expect = "# expect:";
  while (std::getline(in, line)) {
    std::string text = trim(line);
    if (text.rfind(expect, 0) == 0)
      result.errors.push_back(trim(text.substr(expect.size())));
    else if (text.rfind("# expect-none", 0) == 0)
      result.none = true;
  }
  return result;
}

std::vector<fs::path> caseFiles() {
  std::vector<fs::path> files;
  for (const auto &entry : fs::recursive_directory_iterator(diagnosticsFolder()))
    if (entry.is_regular_file() && entry.path().extension() == ".mech")
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string caseName(const fs::path &path) {
  return path.lexically_relative(diagnosticsFolder()).generic_string();
}

// The errors of one analysis, as "LINE:COL: error: MESSAGE", prefixed with the
// file's name when the error lies in a file other than `root`.
std::vector<std::string> reportedErrors(const Diagnostics &diagnostics, const fs::path &root) {
  std::error_code error;
  fs::path rootCanonical = fs::weakly_canonical(root, error);
  std::vector<std::string> lines;
  for (const Diagnostic &d : diagnostics.all()) {
    if (d.severity != Severity::Error)
      continue;
    std::string prefix;
    if (d.location.file != nullptr) {
      fs::path where = fs::weakly_canonical(d.location.file->path(), error);
      if (where != rootCanonical) {
        fs::path relative = where.lexically_relative(diagnosticsFolder());
        prefix = (relative.empty() || *relative.begin() == ".." ? where.filename() : relative)
                     .generic_string() +
                 ":";
      }
    }
    lines.push_back(prefix + std::to_string(d.location.line) + ":" +
                    std::to_string(d.location.column) + ": error: " + d.message);
  }
  return lines;
}

// Lines of `a` not matched in `b`, as a multiset difference.
std::vector<std::string> missingFrom(std::vector<std::string> a, std::vector<std::string> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  std::vector<std::string> out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

std::string joined(const std::vector<std::string> &lines) {
  std::string out;
  for (const std::string &line : lines)
    out += "  " + line + "\n";
  return out.empty() ? "  (none)\n" : out;
}

struct Outcome {
  std::vector<std::string> missing, unexpected;
  bool ok = false;
  std::string rendered;
  bool matches(const Expectations &expected) const {
    return missing.empty() && unexpected.empty() && ok == expected.errors.empty();
  }
};

Outcome runCase(const fs::path &path, const Expectations &expected) {
  sema::Compilation compilation(test::Session::defaultSearchPath());
  sema::Analysis analysis = sema::analyzeFile(compilation, path.string());
  // As `mech check`: the derivation's checks follow a clean analysis.
  bool ok = analysis.ok;
  if (ok && analysis.model)
    ok = mechanics::deriveEquations(*analysis.model, compilation.diagnostics()).has_value();
  Outcome outcome;
  std::vector<std::string> reported = reportedErrors(compilation.diagnostics(), path);
  outcome.missing = missingFrom(expected.errors, reported);
  outcome.unexpected = missingFrom(reported, expected.errors);
  outcome.ok = ok;
  std::ostringstream rendered;
  compilation.diagnostics().print(rendered);
  outcome.rendered = rendered.str();
  return outcome;
}

} // namespace

TEST_CASE("golden diagnostics: each file reports exactly its expected errors",
          "[diagnostics][golden]") {
  for (const fs::path &path : caseFiles()) {
    std::string name = caseName(path);
    Expectations expected = readExpectations(path);
    if (!expected.any() || kKnownIssues.count(name))
      continue;
    DYNAMIC_SECTION(name) {
      INFO("file: " << path.string());
      REQUIRE_FALSE((expected.none && !expected.errors.empty()));
      Outcome outcome = runCase(path, expected);
      INFO("expected but not reported:\n"
           << joined(outcome.missing) << "reported but not expected:\n"
           << joined(outcome.unexpected) << "compiler output:\n"
           << outcome.rendered);
      CHECK(outcome.missing.empty());
      CHECK(outcome.unexpected.empty());
      if (expected.errors.empty())
        CHECK(outcome.ok);
      else
        CHECK_FALSE(outcome.ok);
    }
  }
}

TEST_CASE("golden diagnostics: there are enough cases and the known issues are real files",
          "[diagnostics][golden]") {
  size_t checked = 0, valid = 0;
  std::set<std::string> names;
  for (const fs::path &path : caseFiles()) {
    std::string name = caseName(path);
    names.insert(name);
    Expectations expected = readExpectations(path);
    if (!expected.any() || kKnownIssues.count(name))
      continue;
    ++checked;
    if (expected.none)
      ++valid;
  }
  INFO(checked << " cases checked, " << valid << " of them valid input");
  CHECK(checked >= kMinimumCases);
  CHECK(valid >= 5);
  for (const std::string &known : kKnownIssues) {
    INFO("kKnownIssues names a file that does not exist: " << known);
    CHECK(names.count(known) == 1);
  }
}

TEST_CASE("golden diagnostics: known issues are still open", "[diagnostics][golden]") {
  // Known issues are not failures; one that now matches its expectations only
  // asks to be taken off the list.
  for (const std::string &name : kKnownIssues) {
    fs::path path = fs::path(diagnosticsFolder()) / name;
    INFO("kKnownIssues names a file that does not exist: " << name);
    REQUIRE(fs::exists(path));
    Expectations expected = readExpectations(path);
    CHECK(expected.any());
    if (runCase(path, expected).matches(expected))
      WARN(name << " now matches its expectations: remove it from kKnownIssues");
  }
}
