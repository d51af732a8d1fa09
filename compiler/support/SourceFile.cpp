// Line indexing for source files.
#include "support/SourceFile.h"

namespace mech {

SourceFile::SourceFile(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)) {
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
  std::string_view view(text_.data() + begin, end - begin);
  if (!view.empty() && view.back() == '\r')
    view.remove_suffix(1);
  return view;
}

const SourceFile &SourceManager::add(std::string path, std::string text) {
  files_.push_back(std::make_unique<SourceFile>(std::move(path), std::move(text)));
  return *files_.back();
}

} // namespace mech
