// One loaded model behind every front end: the CLI makes one per
// invocation, the REPL keeps one for the whole session. It owns the
// compilation, the checked model and the derivation, each computed on
// first use and kept; changing a param keeps the derivation unless the
// param is structural (a range bound), so the REPL's :set then :eval
// derives nothing.
#pragma once

#include "driver/Pipeline.h"
#include "sema/Compilation.h"

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mech::driver {

class Session {
public:
  explicit Session(sema::SearchPath searchPath);

  // The model of a file, to be checked with the --set texts `settings` on
  // first use (so that a command can check its options first). Errors stay
  // in diagnostics() until printed.
  void loadFile(const std::string &path, std::vector<std::string> settings = {});
  // The same for text standing for a file named `name`; its imports are
  // looked up in `importFolder` first (the folder of the file it came from).
  void loadText(const std::string &name, const std::string &text,
                std::vector<std::string> settings = {}, const std::string &importFolder = "");

  // Declarations typed after the model was loaded (the REPL's), applied as
  // edits of its AST on every check (sema::Addition); setting them drops
  // the check and the derivation, which depend on them.
  void setAdditions(std::vector<sema::Addition> additions);
  const std::vector<sema::Addition> &additions() const { return additions_; }
  // A session of the same model and additions with `extra` --set texts
  // after this one's (one command's own --set); it shares nothing.
  std::unique_ptr<Session> withSettings(const std::vector<std::string> &extra) const;
  // The model as .mech text, additions included, as `mech fmt` prints its
  // AST; "" when it did not parse.
  std::string text();

  // The model's file, or "" for text.
  const std::string &file() const { return file_; }
  const std::string &name() const { return name_; }
  const std::vector<std::string> &settings() const { return settings_; }
  static std::vector<std::string> settledSettings(const sema::CheckedModel &model);
  const sema::SearchPath &searchPath() const { return searchPath_; }

  // Whether a model checked; the loaded model (also when it did not, for
  // its diagnostics).
  bool checked();
  LoadedModel &loaded();
  // Derives on first use; false (with the reasons in diagnostics()) when
  // the model does not check or cannot be derived.
  bool derive();
  bool derived() const { return loaded_ && loaded_->derivation.has_value(); }
  // Whether derive() reads and writes the derivation cache
  // (driver/DerivationCache.h; on by default, off with --no-cache); whether
  // the derivation came from it, and what went wrong with it (a warning).
  void useDerivationCache(bool use) { useDerivationCache_ = use; }
  bool derivedFromCache() const { return derivedFromCache_; }
  const std::string &derivationCacheWarning() const { return derivationCacheWarning_; }
  // The files the model read (itself and its imports), once checked.
  std::vector<std::string> filesRead() const;
  // The tables' data files among them.
  std::vector<std::string> dataFilesRead() const;

  // What :set did: the params whose values moved, or that a structural one
  // changed and the model was checked (not yet derived) again.
  struct SetOutcome {
    std::vector<std::string> changed;
    bool rederived = false;
  };
  // Applies one more --set text; nullopt (diagnostics kept) when it does
  // not check, and then nothing changed.
  std::optional<SetOutcome> set(const std::string &text);

  Diagnostics &diagnostics() { return loaded().diagnostics(); }
  // Prints the diagnostics so far and forgets them, so that the next
  // command of a long session reports only its own.
  void printDiagnostics(std::ostream &err);

private:
  std::unique_ptr<LoadedModel> check(const std::vector<std::string> &settings) const;

  sema::SearchPath searchPath_;
  std::string file_, name_, text_, importFolder_;
  std::vector<std::string> settings_;
  std::vector<sema::Addition> additions_;
  std::unique_ptr<LoadedModel> loaded_;
  // The check of a :set that failed, kept until its errors are printed.
  std::unique_ptr<LoadedModel> rejected_;
  bool useDerivationCache_ = true, derivedFromCache_ = false;
  std::string derivationCacheWarning_;
};

} // namespace mech::driver
