// Rendering of diagnostics with source lines and carets.
#include "support/Diagnostics.h"

#include "support/Utf8.h"

#include <ostream>

namespace mech {

Diagnostic &Diagnostics::error(Location location, std::string message) {
  ++errorCount_;
  diagnostics_.push_back({Severity::Error, location, std::move(message), {}});
  return diagnostics_.back();
}

Diagnostic &Diagnostics::warning(Location location, std::string message) {
  diagnostics_.push_back({Severity::Warning, location, std::move(message), {}});
  return diagnostics_.back();
}

void Diagnostics::addNote(Diagnostic &diagnostic, Location location, std::string message) {
  diagnostic.notes.push_back({Severity::Note, location, std::move(message), {}});
}

void Diagnostics::clear() {
  diagnostics_.clear();
  errorCount_ = 0;
}

void Diagnostics::print(std::ostream &out) const {
  for (const Diagnostic &diagnostic : diagnostics_)
    out << render(diagnostic);
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
    out += loc.file->path();
    if (loc.line > 0)
      out += ":" + std::to_string(loc.line) + ":" + std::to_string(loc.column);
    out += ": ";
  } else if (diagnostic.severity != Severity::Note) {
    out += "mech: ";
  }
  out += severityName(diagnostic.severity);
  out += ": ";
  out += diagnostic.message;
  out += '\n';
  if (loc.valid() && loc.line <= loc.file->lineCount()) {
    std::string_view line = loc.file->line(loc.line);
    out += "  ";
    out += sanitizeForTerminal(line);
    out += "\n  ";
    out += caretLine(line, loc.column, loc.length);
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
