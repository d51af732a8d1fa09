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

// Escapes what a terminal would act on in a user's text echoed in a
// message (a file name, an import string, a table's cell): ESC as \e,
// other control characters and malformed bytes as \xNN (C1 controls as
// \u0080...), newlines kept when `keepNewlines`. Unlike
// sanitizeForTerminal, the text stays readable and one-to-one.
std::string escapeForTerminal(std::string_view text, bool keepNewlines = false);

// Describes one code point for a message: 'x', or U+0000 for invisible ones.
std::string describeCodePoint(char32_t codePoint);

} // namespace mech
