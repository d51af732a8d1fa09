// Semantic analysis of a model: the public entry point of compiler/sema.
// Declares every name (expanding for blocks and indexed families), resolves
// every expression, and checks the rules of the language: duplicates,
// shadowing, indices, shapes, units and dimensions.
#pragma once

#include "sema/Compilation.h"
#include "sema/Model.h"

#include <map>
#include <memory>
#include <string>

namespace mech::sema {

struct ParamOverride {
  std::string name; // m, or a family member m[2]
  double value = 0; // SI
  // A list of values for a family, in the order of its members
  // (`--set "m=[1, 2, 3]"`); empty for one value.
  std::vector<double> values;
  DimInfo dim = DimInfo::pure();
  Location location; // of the assignment, when it was given as text
  int primes = 0;
};

struct AnalysisOptions {
  std::vector<ParamOverride> overrides;
};

struct Analysis {
  const LoadedFile *file = nullptr;
  std::unique_ptr<CheckedModel> model; // null for a library or on errors
  int defCount = 0;                    // top-level defs of the file
  bool ok = false;                     // no errors were reported
};

// Loads the file (with its imports) and analyses its model, if any.
Analysis analyzeFile(Compilation &compilation, const std::string &path,
                     const AnalysisOptions &options = {});

// Analyses an already loaded file.
Analysis analyzeLoaded(Compilation &compilation, const LoadedFile *file,
                       const AnalysisOptions &options = {});

} // namespace mech::sema
