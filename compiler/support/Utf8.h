// UTF-8 validation and decoding: source files are checked before the lexer
// sees them, so malformed bytes become a located diagnostic.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mech {

// The byte offset of the first malformed sequence, or nullopt when valid.
std::optional<size_t> findInvalidUtf8(std::string_view text);

// Decodes, replacing malformed bytes with U+FFFD.
std::vector<char32_t> decodeUtf8Lossy(std::string_view text);

std::string encodeUtf8(char32_t codePoint);

// Replaces control characters (other than tab) and malformed bytes so a
// source line can be echoed to a terminal safely.
std::string sanitizeForTerminal(std::string_view text);

// Describes one code point for a message: 'x', or U+0000 for invisible ones.
std::string describeCodePoint(char32_t codePoint);

} // namespace mech
