// Rendering of diagnostics with source lines and carets.
#include "support/Diagnostics.h"

#include "support/Utf8.h"

#include <algorithm>
#include <ostream>
#include <tuple>

namespace mech {

namespace {

bool sameSpot(const Location &a, const Location &b) {
  return a.file == b.file && a.line == b.line && a.column == b.column;
}

} // namespace

Diagnostic &Diagnostics::error(Location location, std::string message) {
  // The same error at the same place (an expanded loop body, a def expanded
  // at several calls) is reported once.
  std::string key = std::to_string(reinterpret_cast<uintptr_t>(location.file)) + ":" +
                    std::to_string(location.line) + ":" + std::to_string(location.column) + ":" +
                    message;
  if (auto found = errorIndex_.find(key); found != errorIndex_.end())
    return diagnostics_[found->second];
  if (full())
    return dropped();
  errorIndex_.emplace(std::move(key), diagnostics_.size());
  ++errorCount_;
  diagnostics_.push_back({Severity::Error, location, std::move(message), {}});
  return diagnostics_.back();
}

Diagnostic &Diagnostics::dropped() {
  dropped_ = true;
  scratch_ = {};
  return scratch_;
}

Diagnostic &Diagnostics::warning(Location location, std::string message) {
  if (warningCount_ >= kMaxReportedErrors)
    return dropped();
  ++warningCount_;
  diagnostics_.push_back({Severity::Warning, location, std::move(message), {}});
  return diagnostics_.back();
}

void Diagnostics::addNote(Diagnostic &diagnostic, Location location, std::string message) {
  for (const Diagnostic &note : diagnostic.notes)
    if (sameSpot(note.location, location) && note.message == message)
      return;
  diagnostic.notes.push_back({Severity::Note, location, std::move(message), {}});
}

void Diagnostics::clear() {
  diagnostics_.clear();
  errorIndex_.clear();
  errorCount_ = warningCount_ = 0;
  dropped_ = false;
}

void Diagnostics::print(std::ostream &out) const {
  // Source order within each file; files in the order they first appear.
  std::vector<const SourceFile *> files;
  auto fileRank = [&](const SourceFile *file) {
    auto it = std::find(files.begin(), files.end(), file);
    if (it != files.end())
      return static_cast<int>(it - files.begin());
    files.push_back(file);
    return static_cast<int>(files.size() - 1);
  };
  std::vector<std::pair<std::tuple<int, int, int>, const Diagnostic *>> ordered;
  for (const Diagnostic &diagnostic : diagnostics_) {
    const Location &loc = diagnostic.location;
    ordered.push_back({{fileRank(loc.file), loc.line, loc.column}, &diagnostic});
  }
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const auto &a, const auto &b) { return a.first < b.first; });
  for (const auto &[key, diagnostic] : ordered)
    out << render(*diagnostic);
  if (dropped_)
    out << "mech: note: too many diagnostics; the rest are not shown (at most "
        << kMaxReportedErrors << " errors and " << kMaxReportedErrors
        << " warnings are reported)\n";
}

namespace {

const char *severityName(Severity severity) {
  switch (severity) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Note:
    return "note";
  }
  return "error";
}

// The caret line keeps the tabs of the source line so that it lines up.
std::string caretLine(std::string_view sourceLine, int column, int length) {
  std::string caret;
  std::vector<char32_t> codePoints = decodeUtf8Lossy(sourceLine);
  int lineLength = static_cast<int>(codePoints.size());
  for (int i = 0; i < column - 1 && i < lineLength; ++i)
    caret += codePoints[i] == U'\t' ? '\t' : ' ';
  for (int i = lineLength; i < column - 1; ++i)
    caret += ' ';
  caret += '^';
  int available = lineLength - column;
  int tail = std::min(length - 1, std::max(available, 0));
  caret.append(static_cast<size_t>(std::max(tail, 0)), '~');
  return caret;
}

void renderOne(std::string &out, const Diagnostic &diagnostic) {
  const Location &loc = diagnostic.location;
  if (loc.file != nullptr) {
    out += escapeForTerminal(loc.file->path());
    if (loc.line > 0)
      out += ":" + std::to_string(loc.line) + ":" + std::to_string(loc.column);
    out += ": ";
  } else if (diagnostic.severity != Severity::Note) {
    out += "mech: ";
  }
  out += severityName(diagnostic.severity);
  out += ": ";
  // The message may quote a user's text (a file name, a cell, an import).
  out += escapeForTerminal(diagnostic.message, true);
  out += '\n';
  if (loc.valid() && loc.line <= loc.file->lineCount()) {
    std::string_view line = loc.file->line(loc.line);
    std::vector<char32_t> codePoints = decodeUtf8Lossy(line);
    int column = loc.column;
    std::string shown;
    // Long lines are shown as a window around the caret.
    constexpr int kWindow = 100;
    if (static_cast<int>(codePoints.size()) > 2 * kWindow) {
      int begin = std::max(0, column - 1 - kWindow / 2);
      int end = std::min(static_cast<int>(codePoints.size()), begin + kWindow);
      std::u32string window(codePoints.begin() + begin, codePoints.begin() + end);
      std::string text;
      for (char32_t c : window)
        text += encodeUtf8(c);
      shown = (begin > 0 ? "..." : "") + sanitizeForTerminal(text) +
              (end < static_cast<int>(codePoints.size()) ? "..." : "");
      column = column - begin + (begin > 0 ? 3 : 0);
      line = shown;
      out += "  " + shown;
    } else {
      out += "  ";
      out += sanitizeForTerminal(line);
    }
    out += "\n  ";
    out += caretLine(line, column, loc.length);
    out += '\n';
  }
}

} // namespace

std::string render(const Diagnostic &diagnostic) {
  std::string out;
  renderOne(out, diagnostic);
  for (const Diagnostic &note : diagnostic.notes)
    renderOne(out, note);
  return out;
}

void internalError(const std::string &message) {
  throw InternalError("internal compiler error: " + message);
}

} // namespace mech
