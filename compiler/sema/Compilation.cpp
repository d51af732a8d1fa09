// File loading and import resolution.
#include "sema/Compilation.h"

#include "sema/Model.h"
#include "support/InputFile.h"
#include "syntax/Parser.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace fs = std::filesystem;

namespace mech::sema {

SearchPath SearchPath::fromEnvironment(const std::string &executable) {
  SearchPath result;
  if (const char *mechPath = std::getenv("MECH_PATH")) {
    std::stringstream stream(mechPath);
    std::string folder;
    while (std::getline(stream, folder, ':'))
      if (!folder.empty())
        result.folders.push_back(folder);
  }
  std::error_code error;
  fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (error)
    self = fs::absolute(executable, error);
  fs::path installed = self.parent_path() / MECH_STDLIB_FROM_BIN;
  if (fs::is_directory(installed, error))
    result.stdlib = fs::weakly_canonical(installed, error).string();
  else if (fs::is_directory(MECH_SOURCE_STDLIB, error))
    result.stdlib = MECH_SOURCE_STDLIB;
  return result;
}

Compilation::Compilation(SearchPath searchPath) : searchPath_(std::move(searchPath)) {}

std::optional<std::string> Compilation::readFile(const std::string &path, Location from) {
  std::string error;
  std::optional<std::string> text = readInputFile(path, kMaxFileSize, error);
  if (!text)
    diagnostics_.error(from, error);
  return text;
}

const SourceFile *Compilation::readData(const std::string &path, Location from) {
  std::optional<std::string> text = readFile(path, from);
  if (!text)
    return nullptr;
  dataFiles_.push_back(path);
  return &sources_.add(path, std::move(*text));
}

const LoadedFile *Compilation::loadRoot(const std::string &path, bool withImports,
                                        const std::vector<Addition> &additions) {
  std::optional<std::string> text = readFile(path, {});
  if (!text)
    return nullptr;
  std::error_code error;
  std::string canonical = fs::weakly_canonical(path, error).string();
  return load(path, error ? path : canonical, std::move(*text), withImports, additions);
}

const LoadedFile *Compilation::loadText(const std::string &name, std::string text,
                                        const std::vector<Addition> &additions) {
  return load(name, name, std::move(text), true, additions);
}

namespace {

ast::ModelDecl *modelOf(ast::File &file) {
  for (ast::TopItem &item : file.items)
    if (auto *model = std::get_if<ast::ModelDecl>(&item.node))
      return model;
  return nullptr;
}

} // namespace

// The output an Addition with `output` declares, or nullopt after a parse
// error.
std::optional<ast::Decl> Compilation::outputAddition(const Addition &addition) {
  const SourceFile &source = sources_.add(addition.source, addition.text);
  ast::ExprPtr value = parseExpression(source, diagnostics_);
  if (!value)
    return std::nullopt;
  Location at = value->location;
  if (!addition.minus.empty()) {
    ast::ExprPtr subtracted =
        parseExpression(sources_.add(addition.source, addition.minus), diagnostics_);
    if (!subtracted)
      return std::nullopt;
    auto difference = std::make_unique<ast::Add>(at);
    difference->depth = 1 + std::max(value->depth, subtracted->depth);
    difference->terms.push_back({false, std::move(value)});
    difference->terms.push_back({true, std::move(subtracted)});
    value = std::move(difference);
  }
  ast::OutputDecl output;
  output.name.name = addition.output;
  output.name.location = at;
  output.value = std::move(value);
  ast::Decl decl;
  decl.location = at;
  decl.node = std::move(output);
  return decl;
}

void Compilation::append(ast::File &root, const std::vector<Addition> &additions) {
  for (const Addition &addition : additions) {
    if (!addition.output.empty()) {
      std::optional<ast::Decl> output = outputAddition(addition);
      ast::ModelDecl *model = modelOf(root);
      if (output && model)
        model->body.push_back(std::move(*output));
      continue;
    }
    const SourceFile &source =
        sources_.add(addition.stopCondition ? kStopWhen : "<input>", addition.text);
    if (addition.stopCondition) {
      std::unique_ptr<ast::Decl> event = parseStopCondition(source, diagnostics_, kStopWhen);
      ast::ModelDecl *model = modelOf(root);
      if (event && model)
        model->body.push_back(std::move(*event));
      continue;
    }
    if (addition.topLevel) {
      std::unique_ptr<ast::File> typed = parseFile(source, diagnostics_);
      if (!typed)
        continue;
      auto model = std::find_if(root.items.begin(), root.items.end(), [](const ast::TopItem &item) {
        return std::holds_alternative<ast::ModelDecl>(item.node);
      });
      root.items.insert(model, std::make_move_iterator(typed->items.begin()),
                        std::make_move_iterator(typed->items.end()));
      continue;
    }
    std::unique_ptr<std::vector<ast::Decl>> decls = parseDeclarations(source, diagnostics_);
    if (!decls || decls->empty())
      continue;
    ast::ModelDecl *model = modelOf(root);
    if (model == nullptr) {
      Location at = decls->front().location;
      root.items.push_back(ast::TopItem{ast::ModelDecl{"Session", at, {}, {}}, at, {}});
      model = &std::get<ast::ModelDecl>(root.items.back().node);
    }
    for (ast::Decl &decl : *decls)
      model->body.push_back(std::move(decl));
  }
}

const LoadedFile *Compilation::load(const std::string &path, const std::string &canonical,
                                    std::string text, bool withImports,
                                    const std::vector<Addition> &additions) {
  auto existing = files_.find(canonical);
  if (existing != files_.end())
    return existing->second.get();
  int errorsBefore = diagnostics_.errorCount();
  auto file = std::make_unique<LoadedFile>();
  file->path = path;
  file->canonical = canonical;
  file->source = &sources_.add(path, std::move(text));
  file->ast = parseFile(*file->source, diagnostics_);
  if (file->ast)
    append(*file->ast, additions);
  LoadedFile *raw = file.get();
  files_[canonical] = std::move(file);
  if (raw->ast && withImports) {
    loading_.push_back(canonical);
    resolveImports(*raw);
    loading_.pop_back();
    buildScope(*raw);
  }
  raw->loadErrors = diagnostics_.errorCount() - errorsBefore;
  return raw;
}

std::optional<std::string> Compilation::locateImport(const std::string &name,
                                                     const LoadedFile &importer) {
  std::error_code error;
  std::vector<fs::path> candidates;
  fs::path requested(name);
  if (requested.is_absolute()) {
    candidates.push_back(requested);
  } else {
    candidates.push_back(fs::path(importer.path).parent_path() / requested);
    for (const std::string &folder : searchPath_.folders)
      candidates.push_back(fs::path(folder) / requested);
    if (!searchPath_.stdlib.empty())
      candidates.push_back(fs::path(searchPath_.stdlib) / requested);
  }
  for (const fs::path &candidate : candidates)
    if (fs::is_regular_file(candidate, error))
      return candidate.lexically_normal().string();
  return std::nullopt;
}

void Compilation::resolveImports(LoadedFile &file) {
  for (const ast::TopItem &item : file.ast->items) {
    auto *import = std::get_if<ast::ImportDecl>(&item.node);
    if (import == nullptr)
      continue;
    std::optional<std::string> found = locateImport(import->path, file);
    if (!found) {
      Diagnostic &d = diagnostics_.error(import->location, "cannot find '" + import->path + "'");
      std::string where = "looked in the folder of " + file.path;
      if (!searchPath_.folders.empty())
        where += ", in MECH_PATH";
      if (!searchPath_.stdlib.empty())
        where += " and in the standard library (" + searchPath_.stdlib + ")";
      Diagnostics::addNote(d, {}, where);
      continue;
    }
    std::error_code error;
    std::string canonical = fs::weakly_canonical(*found, error).string();
    auto cycle = std::find(loading_.begin(), loading_.end(), canonical);
    if (cycle != loading_.end()) {
      std::string chain;
      for (auto it = cycle; it != loading_.end(); ++it)
        chain += fs::path(*it).filename().string() + " -> ";
      chain += fs::path(canonical).filename().string();
      diagnostics_.error(import->location, "import cycle: " + chain);
      continue;
    }
    if (files_.count(canonical))
      continue;
    if (loading_.size() >= kMaxImportDepth) {
      diagnostics_.error(import->location, "imports nested more than " +
                                               std::to_string(kMaxImportDepth) +
                                               " deep (the chain starts at " +
                                               files_.at(loading_.front())->path + ")");
      continue;
    }
    std::optional<std::string> text = readFile(*found, import->location);
    if (!text)
      continue;
    const LoadedFile *imported = load(*found, canonical, std::move(*text));
    if (imported->ast && imported->ast->model())
      diagnostics_.error(import->location, "'" + import->path +
                                               "' declares a model; only files of defs can be "
                                               "imported");
  }
}

void Compilation::buildScope(LoadedFile &file) {
  std::map<std::string, std::string> origin; // def name -> file it comes from
  // A def is known by its name, or as I.name when its file is imported as I.
  auto addDef = [&](const ast::DefDecl &def, const FileScope *scope, const std::string &from,
                    Location where, const ast::ImportDecl *import) {
    std::string key = import && import->alias ? *import->alias + "." + def.name : def.name;
    if (findBuiltin(def.name) || def.name == "sum") {
      if (scope == &file.scope)
        diagnostics_.error(def.location, "'" + def.name +
                                             "' is a built-in function and cannot "
                                             "be redefined");
      return;
    }
    auto existing = file.scope.defs.find(key);
    if (existing != file.scope.defs.end()) {
      if (existing->second.decl == &def)
        return;
      std::string message = "def '" + key + "' is defined twice";
      if (origin[key] != from)
        message += " (in " + origin[key] + " and in " + from + ")";
      Diagnostic &d = diagnostics_.error(where, message);
      Diagnostics::addNote(d, existing->second.decl->location, "the other definition is here");
      if (import && !import->alias)
        d.message += "; import one of the files under a name (import \"" + import->path +
                     "\" as N) and call N." + def.name + "(...)";
      return;
    }
    file.scope.defs[key] = {&def, scope, false, import && !import->alias ? import : nullptr};
    origin[key] = from;
  };
  for (const ast::TopItem &item : file.ast->items)
    if (auto *def = std::get_if<ast::DefDecl>(&item.node))
      addDef(*def, &file.scope, file.path, def->location, nullptr);
  for (const ast::TopItem &item : file.ast->items) {
    auto *import = std::get_if<ast::ImportDecl>(&item.node);
    if (import == nullptr)
      continue;
    std::optional<std::string> found = locateImport(import->path, file);
    if (!found)
      continue;
    std::error_code error;
    auto imported = files_.find(fs::weakly_canonical(*found, error).string());
    if (imported == files_.end() || !imported->second->ast || imported->second.get() == &file)
      continue;
    for (const ast::TopItem &other : imported->second->ast->items)
      if (auto *def = std::get_if<ast::DefDecl>(&other.node))
        addDef(*def, &imported->second->scope, imported->second->path, import->location, import);
  }
}

} // namespace mech::sema
