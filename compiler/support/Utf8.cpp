// UTF-8 decoding following RFC 3629 (no overlongs, no surrogates, <= U+10FFFF).
#include "support/Utf8.h"

#include <cstdio>

namespace mech {

namespace {

// Decodes one sequence at text[i]; returns its length, or 0 when malformed.
size_t decodeOne(std::string_view text, size_t i, char32_t &out) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char lead = byte(i);
  if (lead < 0x80) {
    out = lead;
    return 1;
  }
  size_t length;
  char32_t value;
  char32_t minimum;
  if ((lead & 0xE0) == 0xC0) {
    length = 2, value = lead & 0x1F, minimum = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3, value = lead & 0x0F, minimum = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4, value = lead & 0x07, minimum = 0x10000;
  } else {
    return 0;
  }
  if (i + length > text.size())
    return 0;
  for (size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80)
      return 0;
    value = (value << 6) | (byte(i + k) & 0x3F);
  }
  if (value < minimum || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF))
    return 0;
  out = value;
  return length;
}

} // namespace

std::optional<size_t> findInvalidUtf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    char32_t codePoint;
    size_t length = decodeOne(text, i, codePoint);
    if (length == 0)
      return i;
    i += length;
  }
  return std::nullopt;
}

std::vector<char32_t> decodeUtf8Lossy(std::string_view text) {
  std::vector<char32_t> result;
  result.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    char32_t codePoint;
    size_t length = decodeOne(text, i, codePoint);
    if (length == 0) {
      result.push_back(0xFFFD);
      ++i;
    } else {
      result.push_back(codePoint);
      i += length;
    }
  }
  return result;
}

std::string encodeUtf8(char32_t c) {
  std::string out;
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
  return out;
}

std::string sanitizeForTerminal(std::string_view text) {
  std::string out;
  for (char32_t c : decodeUtf8Lossy(text)) {
    if (c == U'\t' || (c >= 0x20 && c != 0x7F && !(c >= 0x80 && c < 0xA0)))
      out += encodeUtf8(c);
    else
      out += encodeUtf8(0xFFFD);
  }
  return out;
}

std::string escapeForTerminal(std::string_view text, bool keepNewlines) {
  std::string out;
  char buffer[16];
  for (size_t i = 0; i < text.size();) {
    char32_t c;
    size_t length = decodeOne(text, i, c);
    if (length == 0) { // a malformed byte, shown by its value
      std::snprintf(buffer, sizeof buffer, "\\x%02x", static_cast<unsigned char>(text[i]));
      out += buffer;
      ++i;
      continue;
    }
    i += length;
    if (c == U'\t' || (c == U'\n' && keepNewlines) ||
        (c >= 0x20 && c != 0x7F && !(c >= 0x80 && c < 0xA0))) {
      out += encodeUtf8(c);
    } else if (c == 0x1B) {
      out += "\\e";
    } else {
      std::snprintf(buffer, sizeof buffer, c < 0x80 ? "\\x%02x" : "\\u%04x",
                    static_cast<unsigned>(c));
      out += buffer;
    }
  }
  return out;
}

std::string describeCodePoint(char32_t c) {
  if (c > 0x20 && c < 0x7F)
    return std::string("'") + static_cast<char>(c) + "'";
  if (c >= 0xA0 && c != 0xFFFD && !(c >= 0xD800 && c <= 0xDFFF))
    return "'" + encodeUtf8(c) + "' (U+" + [&] {
      char buffer[16];
      std::snprintf(buffer, sizeof buffer, "%04X", static_cast<unsigned>(c));
      return std::string(buffer);
    }() + ")";
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "U+%04X", static_cast<unsigned>(c));
  return buffer;
}

} // namespace mech
