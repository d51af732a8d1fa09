// One REPL session: the current model (a file, declarations typed line by
// line, or both) in a driver::Session, the session's variables, and the
// handling of one input (an expression, an assignment, a declaration or a
// :command). The :commands that the CLI has run the library's commands on
// the session's own model, so that the two always agree and nothing is
// derived twice; terminal handling lives in tools/mech/Repl.cpp.
#pragma once

#include "driver/Pipeline.h"
#include "driver/Session.h"
#include "repl/Expressions.h"
#include "support/SourceFile.h"

#include <filesystem>
#include <iosfwd>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace mech::repl {

class ReplSession {
public:
  // Output goes to `out`, messages to `err`.
  ReplSession(sema::SearchPath searchPath, std::ostream &out, std::ostream &err);
  ~ReplSession();

  // Handles one complete input (possibly several lines). Returns false when
  // the session should end (:quit).
  bool handle(const std::string &input);

  // Whether `text` still has open brackets: more lines belong to it.
  static bool needsMoreInput(const std::string &text);

  // Names that complete `prefix`: commands, model names, functions.
  std::vector<std::string> completions(const std::string &prefix) const;

  // Loads a model file as :load does; false (with the errors printed) when
  // it does not check.
  bool load(const std::string &path);

private:
  bool handleInput(const std::string &input);
  void command(const std::string &name, const std::string &rest);
  bool knownCommand(const std::string &name);
  void help(const std::string &topic);
  // :help CMD: the options of a command, from the command table.
  void helpOn(const std::string &topic);
  void editCommand(const std::string &name, const std::vector<std::string> &args);
  void loadCommand(const std::vector<std::string> &args);
  void reload();
  void undo();
  void save(const std::vector<std::string> &args);
  void otherCommand(const std::string &name, const std::string &rest);
  // The value of an input typed as `shown` and parsed as `parsed` (the same
  // columns); the diagnostics are printed when there is none.
  // A taylor call leaves its terms in `series` (repl::evaluate).
  std::optional<repl::Tensor> evaluateText(const std::string &shown, const std::string &parsed,
                                           repl::Series *series = nullptr);
  void expression(const std::string &text, bool latex);
  void assignment(const std::string &name, const std::string &text);
  void declaration(const std::string &text, bool topLevel);
  void setParams(const std::string &text);
  void simulate(const std::vector<std::string> &args);
  std::optional<double> sampleRows(const std::vector<std::string> &call);
  void picture(const std::string &name, const std::vector<std::string> &args);
  // Runs a command of the table on the session's model (with the :set
  // values); its report goes to `out` (default out_), its messages to `err`.
  int runCommand(const std::string &command, const std::vector<std::string> &args,
                 std::ostream *out = nullptr, std::ostream *err = nullptr);
  driver::LoadedModel *model() { return session_ ? &session_->loaded() : nullptr; }
  const driver::LoadedModel *model() const { return session_ ? &session_->loaded() : nullptr; }

  // The model as .mech text (as `mech fmt` prints it, typed declarations
  // included) with the :set values in its param declarations (:show, :save).
  std::string currentText();
  // A session of the root `file` (or typed model `text`) with the typed
  // `additions` and the :set values, not yet checked.
  std::unique_ptr<driver::Session> sessionOf(const std::string &file, const std::string &text,
                                             std::vector<sema::Addition> additions) const;
  // Checks `candidate` and makes it the session's model; prints errors and
  // returns false (keeping the previous model) when it does not check.
  bool install(std::unique_ptr<driver::Session> candidate);
  void printSummary();
  // Loads a new root (a file, or a typed model's text), without additions.
  bool replaceRoot(const std::string &file, const std::string &text);
  // The typed declarations of the current model (or library of defs).
  std::vector<sema::Addition> additions() const;
  void refreshScope();

  sema::SearchPath searchPath_;
  std::ostream &out_;
  std::ostream &err_;
  std::string filePath_;                     // the loaded file, if any
  std::string rootText_;                     // a model typed whole (model M { ... })
  std::vector<std::string> settings_;        // :set, as --set texts
  std::vector<std::string> lastSimulation_;  // the last :sim's options, for :plot, :animate
  std::unique_ptr<driver::Session> session_; // null without a model
  std::unique_ptr<driver::Session> library_; // typed imports and defs without a model
  std::string derivationError_;              // why the equations are not there
  std::unique_ptr<sym::Context> ownContext_; // when there is no derivation
  std::unique_ptr<mechanics::Lowering> ownLowering_;
  repl::Scope scope_;
  std::map<std::string, repl::Tensor> variables_;
  std::set<std::string> notedFree_; // names already noted as free symbols
  SourceManager inputs_;
};

} // namespace mech::repl
