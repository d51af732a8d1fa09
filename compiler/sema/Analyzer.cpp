// Semantic analysis of a file: the entry points, and the order of the work:
// the file's library defs checked, then the passes over its model. The passes
// themselves are in the Analyze*.cpp files, by concern (AnalyzerInternal.h
// groups the analyzer's members by file).
#include "sema/Analyzer.h"

#include "sema/AnalyzerInternal.h"

namespace mech::sema {

Analyzer::Analyzer(Compilation &compilation, const LoadedFile &file,
                   const ast::ModelDecl &modelDecl, const AnalysisOptions &options)
    : compilation_(compilation), diagnostics_(compilation.diagnostics()), file_(file),
      modelDecl_(modelDecl), options_(options), model_(std::make_unique<CheckedModel>()),
      resolver_(*model_, diagnostics_) {
  model_->name = modelDecl.name;
  model_->location = modelDecl.location;
}

std::unique_ptr<CheckedModel> Analyzer::run() {
  collectDeclaredNames(modelDecl_.body);
  try {
    declareModelDefs();
    declareParams();
    applyOverrides();
    declareTables();
    for (const ast::Decl &decl : modelDecl_.body)
      declare(decl, {}, {});
    checkLoopVariables();
    for (Instance &instance : instances_)
      check(instance);
    resolver_.resolveAllLets();
    checkGravityShapes();
    checkFrictionNormals();
  } catch (const ExpansionLimit &limit) {
    if (limit.tree)
      diagnostics_.error(limit.at,
                         "this expression expands to more than " +
                             std::to_string(static_cast<long>(kMaxTreeSize)) +
                             " nodes as a tree (each call of a def is a copy of its body); "
                             "defs that call one another twice over double it at each level: "
                             "name shared values with lets, which are not copied");
    else
      diagnostics_.error(modelDecl_.location,
                         "the model expands to more than " + std::to_string(kMaxNodes) +
                             " expression nodes; reduce the ranges of its for blocks, sums or "
                             "families");
  }
  return std::move(model_);
}

namespace {

Analysis analyze(Compilation &compilation, const LoadedFile *file, const AnalysisOptions &options,
                 int errorsBefore) {
  Analysis analysis;
  analysis.file = file;
  if (file != nullptr && file->ast) {
    for (const ast::TopItem &item : file->ast->items) {
      if (auto *def = std::get_if<ast::DefDecl>(&item.node)) {
        ++analysis.defCount;
        checkLibraryDef(compilation.diagnostics(), file->scope, *def);
      }
    }
    int models = 0;
    for (const ast::TopItem &item : file->ast->items) {
      auto *model = std::get_if<ast::ModelDecl>(&item.node);
      if (model == nullptr)
        continue;
      if (++models > 1) {
        compilation.diagnostics().error(model->location, "a file holds at most one model ('" +
                                                             model->name + "' is the second)");
        continue;
      }
      Analyzer analyzer(compilation, *file, *model, options);
      analysis.model = analyzer.run();
    }
  }
  analysis.ok =
      file != nullptr && file->ast && compilation.diagnostics().errorCount() == errorsBefore;
  if (!analysis.ok)
    analysis.model.reset();
  return analysis;
}

} // namespace

Analysis analyzeLoaded(Compilation &compilation, const LoadedFile *file,
                       const AnalysisOptions &options) {
  // Errors reported while the file and its imports were loaded count too.
  int loadErrors = file != nullptr ? file->loadErrors : 0;
  return analyze(compilation, file, options, compilation.diagnostics().errorCount() - loadErrors);
}

Analysis analyzeFile(Compilation &compilation, const std::string &path,
                     const AnalysisOptions &options) {
  int errorsBefore = compilation.diagnostics().errorCount();
  const LoadedFile *file = compilation.loadRoot(path);
  return analyze(compilation, file, options, errorsBefore);
}

} // namespace mech::sema
