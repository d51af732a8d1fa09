// JSON text generation (RFC 8259).
#include "support/Json.h"

#include "support/NumberText.h"
#include "support/Utf8.h"

#include <cmath>
#include <cstdio>

namespace mech {

std::string jsonEscape(const std::string &raw) {
  // JSON text is UTF-8: malformed bytes (a file name that is not UTF-8)
  // become U+FFFD, the replacement character.
  std::string text = raw;
  if (findInvalidUtf8(raw)) {
    text.clear();
    for (char32_t c : decodeUtf8Lossy(raw))
      text += encodeUtf8(c);
  }
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\r':
      out += "\\r";
      break;
    default:
      if (c < 0x20) {
        char buffer[8];
        std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
        out += buffer;
      } else {
        out += static_cast<char>(c);
      }
    }
  }
  return out + "\"";
}

void JsonWriter::separate() {
  if (afterKey_) {
    afterKey_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back())
      out_ += ", ";
    first_.back() = false;
  }
}

JsonWriter &JsonWriter::beginObject() {
  separate();
  out_ += '{';
  first_.push_back(true);
  return *this;
}

JsonWriter &JsonWriter::endObject() {
  first_.pop_back();
  out_ += '}';
  return *this;
}

JsonWriter &JsonWriter::beginArray() {
  separate();
  out_ += '[';
  first_.push_back(true);
  return *this;
}

JsonWriter &JsonWriter::endArray() {
  first_.pop_back();
  out_ += ']';
  return *this;
}

JsonWriter &JsonWriter::key(const std::string &name) {
  separate();
  out_ += jsonEscape(name) + ": ";
  afterKey_ = true;
  return *this;
}

JsonWriter &JsonWriter::value(const std::string &text) {
  separate();
  out_ += jsonEscape(text);
  return *this;
}

JsonWriter &JsonWriter::value(double number) {
  separate();
  if (!std::isfinite(number)) {
    out_ += "null";
    return *this;
  }
  out_ += shortestNumber(number);
  return *this;
}

JsonWriter &JsonWriter::value(bool flag) {
  separate();
  out_ += flag ? "true" : "false";
  return *this;
}

JsonWriter &JsonWriter::null() {
  separate();
  out_ += "null";
  return *this;
}

} // namespace mech
