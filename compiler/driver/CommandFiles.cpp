// The files of a model command, from the command table and the session.
#include "driver/CommandFiles.h"

#include "driver/Session.h"
#include "sema/InputSignals.h"
#include "support/OutputFile.h"

#include <algorithm>

namespace mech::driver {

std::vector<NamedPath> modelFiles(const Session &session) {
  std::vector<NamedPath> files;
  if (!session.file().empty())
    files.push_back({"the model file", session.file()});
  const std::vector<std::string> data = session.dataFilesRead();
  for (const std::string &path : session.filesRead())
    if (path != session.file())
      files.push_back({std::find(data.begin(), data.end(), path) != data.end()
                           ? "a table of the model"
                           : "an import of the model",
                       path});
  return files;
}

CommandFiles commandFiles(const CommandLine &line, Session &session) {
  CommandFiles files;
  files.reads = modelFiles(session);
  const CommandSpec *spec = findCommand(line.command);
  if (spec && spec->option("--input"))
    for (const std::string &table : sema::inputTableFiles(line.value("--input")))
      files.reads.push_back({"the --input table", table});
  if (spec)
    for (const OptionSpec &option : spec->options)
      if (option.type == OptionType::Path && line.has(option.name))
        files.writes.push_back({option.name, line.value(option.name)});
  return files;
}

std::string overwriteProblem(const NamedPath &output, const std::vector<NamedPath> &reads,
                             const std::vector<NamedPath> &earlierWrites) {
  for (const NamedPath &in : reads)
    if (sameFile(output.path, in.path))
      return output.what + " '" + output.path + "' would overwrite " + in.what + " '" + in.path +
             "'";
  for (const NamedPath &other : earlierWrites)
    if (sameFile(output.path, other.path))
      return other.what + " '" + other.path + "' and " + output.what + " '" + output.path +
             "' name the same file";
  return "";
}

std::optional<int> checkCommandFiles(const CommandLine &line, Session &session,
                                     const CommandIo &io) {
  // Its diagnostics, if it does not check, are the command's to print.
  (void)session.checked();
  CommandFiles files = commandFiles(line, session);
  std::vector<NamedPath> earlier;
  for (const NamedPath &out : files.writes) {
    if (out.path.empty())
      continue;
    if (std::string problem = overwriteProblem(out, files.reads, earlier); !problem.empty())
      return io.usageError(line.command + ": " + problem);
    earlier.push_back(out);
  }
  return std::nullopt;
}

} // namespace mech::driver
