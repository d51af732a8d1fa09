// Line indexing for source files.
#include "support/SourceFile.h"

namespace mech {

SourceFile::SourceFile(std::string path, std::string text, std::string shown)
    : path_(std::move(path)), text_(std::move(text)), shown_(std::move(shown)) {
  if (shown_.size() != text_.size())
    shown_.clear(); // a blanked text keeps its length; anything else is not shown
  lineStarts_.push_back(0);
  for (size_t i = 0; i < text_.size(); ++i) {
    if (text_[i] == '\n')
      lineStarts_.push_back(i + 1);
  }
}

std::string_view SourceFile::line(int number) const {
  if (number < 1 || number > lineCount())
    return {};
  size_t begin = lineStarts_[number - 1];
  size_t end = number < lineCount() ? lineStarts_[number] - 1 : text_.size();
  const std::string &source = shown_.empty() ? text_ : shown_;
  std::string_view view(source.data() + begin, end - begin);
  if (!view.empty() && view.back() == '\r')
    view.remove_suffix(1);
  return view;
}

const SourceFile &SourceManager::add(std::string path, std::string text, std::string shown) {
  files_.push_back(
      std::make_unique<SourceFile>(std::move(path), std::move(text), std::move(shown)));
  return *files_.back();
}

} // namespace mech
