// Reading an input file whole: a model, an import, the REPL's history. Only
// regular files are read (a FIFO, a device or a directory is refused
// before it can block or stream forever), the size is checked before
// reading, and every failure comes back as a message with the path and the
// system's reason, never as an empty text.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace mech {

// The text of `path`, or nullopt with `error` set ("cannot read 'x': ...").
// Files larger than `maxSize` bytes are refused.
std::optional<std::string> readInputFile(const std::string &path, size_t maxSize,
                                         std::string &error);

// Appends what the open descriptor `fd` holds to `text`, up to its end or
// until more than `maxSize` bytes are read (the caller compares the size);
// false with `code` = errno on a read error.
bool readDescriptor(int fd, size_t maxSize, std::string &text, int &code);

} // namespace mech
