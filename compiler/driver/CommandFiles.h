// Every file a model command reads and every file it writes, in one place:
// it reads the model file, the model's imports and the tables its --input
// names; it writes the value of each of its options of type Path in the
// command table (driver/CommandTable.h). The dispatch of model commands
// checks them before any command runs, so that an output option added to
// the table is checked without a line of its own, in the CLI, the REPL and
// Python alike.
#pragma once

#include "driver/Commands.h"

#include <optional>
#include <string>
#include <vector>

namespace mech::driver {

struct CommandFiles {
  std::vector<NamedPath> reads, writes;
};

// The files of `line` on `session`'s model (its imports once it checked).
CommandFiles commandFiles(const CommandLine &line, Session &session);
// The files the session's model reads: its file (unless it came as text)
// and its imports, once it checked.
std::vector<NamedPath> modelFiles(const Session &session);

// What is wrong when writing `output` (named `what`) would replace one of
// `reads` or `earlierWrites` (the same file by identity: support/OutputFile.h
// sameFile); "" when nothing is.
std::string overwriteProblem(const NamedPath &output, const std::vector<NamedPath> &reads,
                             const std::vector<NamedPath> &earlierWrites);

// A usage error when an output of `line` would overwrite a file it reads or
// another of its outputs; nullopt when none would. The session's model is
// checked first, so that its imports are known.
std::optional<int> checkCommandFiles(const CommandLine &line, Session &session,
                                     const CommandIo &io);

} // namespace mech::driver
