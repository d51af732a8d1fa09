// What names mean while a model is analysed: the defs visible from each file,
// and the model's symbol table (params, coordinates, lets, named items, each
// possibly an indexed family).
#pragma once

#include "support/SourceFile.h"
#include "syntax/Ast.h"

#include <map>
#include <string>
#include <vector>

namespace mech::sema {

struct FileScope;

struct DefEntry {
  const ast::DefDecl *decl = nullptr;
  const FileScope *scope = nullptr;        // where the body's names resolve
  bool inModel = false;                    // a model's own def also sees the model's names
  const ast::ImportDecl *import = nullptr; // the plain import that brought it, if any
};

// The defs visible in one file: its own and those of the files it imports
// (imports are not transitive).
struct FileScope {
  std::map<std::string, DefEntry> defs;
};

enum class SymbolKind {
  Param,
  Input,
  Coord,
  Let,
  Term,
  Constraint,
  Particle,
  Body,
  Output,
  Event,
  Contact,
  Friction,
  Table,
  LoopIndex
};

const char *symbolKindName(SymbolKind kind);
// With its article: "a param", "an input", "an output".
std::string aSymbolKind(SymbolKind kind);

struct Symbol {
  SymbolKind kind;
  Location location;
  bool family = false;
  int index = -1;                           // a plain symbol's entry
  std::map<std::vector<long>, int> members; // a family's entries by index
  std::string description;                  // overrides the kind's name in messages
};

using Bindings = std::vector<std::pair<std::string, long>>;

// The environment an expression is resolved in.
struct Env;

} // namespace mech::sema
