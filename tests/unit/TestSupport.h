// Helpers shared by the unit tests: parse or analyse text held in memory.
#pragma once

#include "sema/Analyzer.h"
#include "support/Diagnostics.h"
#include "syntax/Parser.h"

#include <memory>
#include <string>

namespace mech::test {

// Owns the sources and diagnostics of one parse or analysis.
struct Session {
  sema::Compilation compilation;
  const sema::LoadedFile *file = nullptr;

  Session() : compilation(defaultSearchPath()) {}
  static sema::SearchPath defaultSearchPath() {
    sema::SearchPath path;
    path.stdlib = std::string(MECH_SOURCE_ROOT) + "/stdlib";
    return path;
  }

  // Parses text as a file named `name`; null AST on syntax errors.
  const ast::File *parse(const std::string &text, const std::string &name = "test.mech") {
    file = compilation.loadText(name, text);
    return file ? file->ast.get() : nullptr;
  }

  sema::Analysis analyze(const std::string &text, const sema::AnalysisOptions &options = {}) {
    file = compilation.loadText("test.mech", text);
    return sema::analyzeLoaded(compilation, file, options);
  }

  Diagnostics &diagnostics() { return compilation.diagnostics(); }

  // All diagnostics rendered as "line:col: error: message" lines (no source).
  std::string messages() const;
};

inline std::string Session::messages() const {
  std::string out;
  for (const Diagnostic &d : const_cast<Session *>(this)->compilation.diagnostics().all()) {
    out += std::to_string(d.location.line) + ":" + std::to_string(d.location.column) + ": " +
           (d.severity == Severity::Error ? "error: " : "warning: ") + d.message + "\n";
  }
  return out;
}

} // namespace mech::test
