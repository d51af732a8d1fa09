// The commands of mech as data: each command with its operands and its
// options (name, type, default, accepted values, help). The command line,
// the REPL's :commands, `mech --help`, `mech help CMD` and the option tables
// of docs/cli.md are all read from this one table, so that they cannot
// disagree (as LLVM's cl::opt declares an option once for parser and help).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace mech::driver {

// How an option's value is read; the parser checks it before any command
// runs, so that a bad value is a usage error with one wording everywhere.
enum class OptionType {
  Flag,           // no value
  Text,           // any text
  List,           // text; repeated options join with ", " (--at, --in)
  Repeated,       // text; each occurrence kept (--set, --for)
  Number,         // a finite number
  PositiveNumber, // a finite number > 0
  StepCount,      // a whole number from 1 below 2^63 (1e6 accepted)
  Choice,         // one of `choices`
  Path,           // a file to write
};

struct OptionSpec {
  std::string name;  // "--until"
  std::string alias; // "-w", or ""
  OptionType type = OptionType::Flag;
  std::string valueName;            // "T" in "--until T"
  std::string defaultText;          // as docs show it ("`10`", "off", "required")
  std::string accepted;             // accepted values, as docs show them
  std::string help;                 // the meaning
  std::vector<std::string> choices; // of a Choice
};

enum class Operands {
  OneFile,      // FILE
  Files,        // FILE... (at least one)
  OptionalFile, // [FILE]
};

struct CommandSpec {
  std::string name;     // "simulate"
  std::string synopsis; // the usage line after `mech NAME`
  std::string summary;  // what --help says of it, one or two lines
  Operands operands = Operands::OneFile;
  std::vector<OptionSpec> options;
  // Pairs of options that exclude each other.
  std::vector<std::pair<std::string, std::string>> exclusive;
  bool inRepl = false; // also a REPL :command on the session's model

  const OptionSpec *option(const std::string &name) const;
};

// The stages of the pipeline that --dump=STAGE prints, in pipeline order
// (as Halide's Lower.cpp dumps after each pass): the syntax tree, the
// checked model, the Lagrange IR, the CSE'd programs, the LLVM IR.
struct Stage {
  std::string name;
  std::string what;   // for the usage text
  bool model = false; // derives the model (takes --set); else reads the file only
};
const std::vector<Stage> &pipelineStages();
const Stage *findStage(const std::string &name);
// "ast, sema, eom, program or llvm" (with `derivingOnly`, "eom, program or
// llvm": the stages that take --set).
std::string stageList(bool derivingOnly = false);

// Every command, in the order --help lists them.
const std::vector<CommandSpec> &commandTable();
const CommandSpec *findCommand(const std::string &name);

// A command line parsed against its spec: the operands and, per option
// given, its values in order.
class CommandLine {
public:
  std::string command;
  std::vector<std::string> operands;
  std::vector<std::string> words; // the arguments as given, after the command
  std::string stage;              // of --dump=STAGE

  bool has(const std::string &option) const;
  // The last value given (a List's values joined), or `fallback`.
  std::string value(const std::string &option, const std::string &fallback = "") const;
  std::vector<std::string> values(const std::string &option) const;
  // The value of a numeric option, read as the parser checked it.
  double number(const std::string &option, double fallback) const;
  long count(const std::string &option, long fallback) const;

  void add(const std::string &option, const std::string &value);

private:
  std::vector<std::pair<std::string, std::string>> given_;
};

// Parses `args` (the words after the command) against `spec`. With
// `implicitModel` (a REPL command on the session's model) there are no
// operands. On a usage error, `error` says what, as "CMD: ...".
std::optional<CommandLine> parseCommandLine(const CommandSpec &spec,
                                            const std::vector<std::string> &args,
                                            bool implicitModel, std::string &error);

// The generated texts: `mech --help`, `mech help CMD`, and the Markdown
// table of a command's options that docs/cli.md carries.
std::string usageText();
std::string commandHelp(const CommandSpec &spec);
std::string optionsMarkdown(const CommandSpec &spec);

} // namespace mech::driver
