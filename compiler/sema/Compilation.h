// One compilation: the source files it read, the diagnostics it reported, and
// the import graph with each file's visible defs. Imports are looked up in
// the importing file's folder, then each folder of MECH_PATH, then the
// standard library.
#pragma once

#include "sema/Scope.h"
#include "support/Diagnostics.h"
#include "syntax/Ast.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mech::sema {

struct SearchPath {
  std::vector<std::string> folders; // MECH_PATH, in order
  std::string stdlib;               // empty when none was found

  // MECH_PATH from the environment and the standard library next to the
  // executable (installed) or in the source tree (build tree).
  static SearchPath fromEnvironment(const std::string &executable);
};

struct LoadedFile {
  std::string path; // as found (relative paths kept for messages)
  std::string canonical;
  const SourceFile *source = nullptr;
  std::unique_ptr<ast::File> ast; // null when it did not parse
  FileScope scope;
  int loadErrors = 0; // errors reported while loading it and its imports
};

// Text typed after a root was loaded (the REPL's declarations): model
// declarations, or imports and defs. Each is parsed from a source of its
// own named "<input>", so that its messages point into what was typed, and
// its AST is appended to the root's: declarations to the root's model (a
// model named Session is made when the root has none), imports and defs
// before the model. Editing the AST, not the text, keeps the root's own
// locations and messages as they were.
// The name of --stop-when's event, and of the source its text is in.
inline constexpr const char *kStopWhen = "--stop-when";

struct Addition {
  std::string text;
  bool topLevel = false; // imports and defs
  // --stop-when's `a == b[, up|down]`: an event named --stop-when that
  // stops the run (located in a source of that name).
  bool stopCondition = false;
  // An output named `output` (when not empty) whose value is `text` parsed
  // as one expression, or text - minus when `minus` is not empty (a sweep's
  // condition a > b is watched as the sign of a - b). Both are an option's
  // whole text with the other parts blanked out, in sources named `source`,
  // so that messages point into the option as it was typed.
  std::string output{}, minus{}, source{};

  static Addition stopWhen(std::string text) {
    Addition addition;
    addition.text = std::move(text);
    addition.stopCondition = true;
    return addition;
  }
};

// The largest source file accepted.
inline constexpr size_t kMaxFileSize = 64u << 20;
// The longest chain of imports (a imports b imports c ...): each level is a
// nested load, so the limit bounds the stack as well as the work.
inline constexpr size_t kMaxImportDepth = 128;

class Compilation {
public:
  explicit Compilation(SearchPath searchPath = {});

  SourceManager &sources() { return sources_; }
  Diagnostics &diagnostics() { return diagnostics_; }
  const SearchPath &searchPath() const { return searchPath_; }

  // Reads, parses and (unless told not to) resolves the imports of a file
  // given on the command line. Null when it could not be read.
  // `additions` are appended to its AST before its imports are resolved.
  const LoadedFile *loadRoot(const std::string &path, bool withImports = true,
                             const std::vector<Addition> &additions = {});
  // The same for text that is not in a file (REPL, tests).
  const LoadedFile *loadText(const std::string &name, std::string text,
                             const std::vector<Addition> &additions = {});
  // The files read so far (a root and its imports), as found.
  std::vector<std::string> filesRead() const {
    std::vector<std::string> paths;
    for (const auto &entry : files_)
      paths.push_back(entry.second->path);
    paths.insert(paths.end(), dataFiles_.begin(), dataFiles_.end());
    return paths;
  }
  // The data files read (tables' rows), a subset of filesRead().
  const std::vector<std::string> &dataFilesRead() const { return dataFiles_; }
  // A data file a model reads (a table's rows), as a source of its own so
  // that messages point into it and the derivation cache keys on its
  // bytes; null after reporting at `from` why it cannot be read.
  const SourceFile *readData(const std::string &path, Location from);

private:
  const LoadedFile *load(const std::string &path, const std::string &canonical, std::string text,
                         bool withImports = true, const std::vector<Addition> &additions = {});
  void append(ast::File &root, const std::vector<Addition> &additions);
  std::optional<ast::Decl> outputAddition(const Addition &addition);
  std::optional<std::string> readFile(const std::string &path, Location from);
  std::vector<std::string> dataFiles_;
  std::optional<std::string> locateImport(const std::string &name, const LoadedFile &importer);
  void resolveImports(LoadedFile &file);
  void buildScope(LoadedFile &file);

  SearchPath searchPath_;
  SourceManager sources_;
  Diagnostics diagnostics_;
  std::map<std::string, std::unique_ptr<LoadedFile>> files_; // by canonical path
  std::vector<std::string> loading_;                         // for cycle detection
};

} // namespace mech::sema
