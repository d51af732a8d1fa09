// A source text held in memory, with line lookup for diagnostics. Locations
// point into SourceFiles owned by a SourceManager, which outlives every AST
// and IR built from them.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mech {

class SourceFile {
public:
  // `shown`, when given, is what diagnostics print in place of the text:
  // the whole of an option whose parts are parsed one at a time, each with
  // the others blanked out (same length, same lines).
  SourceFile(std::string path, std::string text, std::string shown = "");

  const std::string &path() const { return path_; }
  const std::string &text() const { return text_; }
  // The text of a 1-based line as shown, without its line terminator.
  std::string_view line(int number) const;
  int lineCount() const { return static_cast<int>(lineStarts_.size()); }

private:
  std::string path_;
  std::string text_, shown_;
  std::vector<size_t> lineStarts_;
};

// A span in a source file: 1-based line and column (columns count Unicode
// code points), and a length in code points on that line.
struct Location {
  const SourceFile *file = nullptr;
  int line = 0;
  int column = 0;
  int length = 1;

  bool valid() const { return file != nullptr && line > 0; }
};

// Owns every SourceFile of one compilation (files, command-line text, REPL
// lines), so that Locations stay valid for the compilation's lifetime.
class SourceManager {
public:
  const SourceFile &add(std::string path, std::string text, std::string shown = "");

  // The files in the order they were added (the same order for the same
  // inputs: the derivation cache keys on them and locates by number).
  size_t size() const { return files_.size(); }
  const SourceFile *at(size_t i) const { return i < files_.size() ? files_[i].get() : nullptr; }
  // The number of `file`, or size() when it is not one of these.
  size_t indexOf(const SourceFile *file) const {
    for (size_t i = 0; i < files_.size(); ++i)
      if (files_[i].get() == file)
        return i;
    return files_.size();
  }

private:
  std::deque<std::unique_ptr<SourceFile>> files_;
};

} // namespace mech
