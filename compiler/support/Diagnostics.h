// Diagnostics in the form compilers use: `file:line:col: error: message`, the
// source line, and a caret under the span, with attached notes. User errors
// are collected here; broken invariants are InternalErrors instead.
#pragma once

#include "support/SourceFile.h"

#include <iosfwd>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace mech {

enum class Severity { Error, Warning, Note };

// At most this many errors, and as many warnings, are kept: past them, as
// compilers do, the rest are dropped (and their hints never computed), so
// that a file with a million mistakes costs no more than one with a hundred.
inline constexpr int kMaxReportedErrors = 100;

struct Diagnostic {
  Severity severity = Severity::Error;
  Location location;
  std::string message;
  std::vector<Diagnostic> notes;
};

class Diagnostics {
public:
  // Adds an error; the returned reference may receive notes. Past
  // kMaxReportedErrors the error is dropped and the reference is scratch.
  Diagnostic &error(Location location, std::string message);
  Diagnostic &warning(Location location, std::string message);
  static void addNote(Diagnostic &diagnostic, Location location, std::string message);

  bool hasErrors() const { return errorCount_ > 0; }
  // The errors kept (at most kMaxReportedErrors).
  int errorCount() const { return errorCount_; }
  // Whether the error limit is reached: a caller may skip work (such as a
  // "did you mean" search) that only serves the message.
  bool full() const { return errorCount_ >= kMaxReportedErrors; }
  // Whether errors or warnings were dropped past the limit.
  bool truncated() const { return dropped_; }
  const std::vector<Diagnostic> &all() const { return diagnostics_; }
  void clear();

  // Writes every diagnostic kept, in source order, then a note when some
  // were dropped.
  void print(std::ostream &out) const;

private:
  Diagnostic &dropped();

  std::vector<Diagnostic> diagnostics_;
  int errorCount_ = 0, warningCount_ = 0;
  bool dropped_ = false;
  Diagnostic scratch_; // what a dropped diagnostic's notes go to
  // file, line, column, message of each error -> its index, to report an
  // error repeated by expansion once without scanning every diagnostic.
  std::unordered_map<std::string, size_t> errorIndex_;
};

// Renders one diagnostic (and its notes) with the source line and caret.
std::string render(const Diagnostic &diagnostic);

// A broken invariant of the compiler itself, not a fault of the model.
class InternalError : public std::logic_error {
public:
  using std::logic_error::logic_error;
};

[[noreturn]] void internalError(const std::string &message);

} // namespace mech
