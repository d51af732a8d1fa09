// Parsing a command's words against its spec (driver/CommandTable.h): one
// parser, one wording of every usage error, for the shell and the REPL.
#include "driver/CommandTable.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace mech::driver {

namespace {

bool readNumber(const std::string &text, double &out) {
  char *end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return end != text.c_str() && *end == '\0' && std::isfinite(out);
}

// A whole number of steps from 1 up to what a long holds (1000 or 1e6); a
// fraction or a larger number is refused rather than truncated or wrapped.
bool readCount(const std::string &text, long &out) {
  double steps = 0;
  constexpr double kLimit = 0x1p63; // the first double beyond a long
  if (!readNumber(text, steps) || steps < 1 || steps >= kLimit || steps != std::floor(steps))
    return false;
  out = static_cast<long>(steps);
  return true;
}

std::string choiceList(const std::vector<std::string> &choices) {
  std::string text;
  for (size_t i = 0; i < choices.size(); ++i)
    text += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + choices[i];
  return text;
}

// The value's check by the option's type: "" when it passes, else why not.
std::string valueError(const OptionSpec &option, const std::string &value) {
  double number = 0;
  long steps = 0;
  switch (option.type) {
  case OptionType::Number:
    return readNumber(value, number) ? "" : option.name + " needs a number, got '" + value + "'";
  case OptionType::PositiveNumber:
    return readNumber(value, number) && number > 0
               ? ""
               : option.name + " needs a positive number, got '" + value + "'";
  case OptionType::StepCount:
    return readCount(value, steps)
               ? ""
               : option.name + " needs a positive whole number below 2^63, got '" + value + "'";
  case OptionType::Choice:
    return std::find(option.choices.begin(), option.choices.end(), value) != option.choices.end()
               ? ""
               : option.name + " takes " + choiceList(option.choices) + ", not '" + value + "'";
  default:
    return "";
  }
}

std::string operandError(const CommandSpec &spec, size_t count, bool implicitModel) {
  if (implicitModel)
    return count == 0 ? "" : "takes no file here: the session's model is used";
  switch (spec.operands) {
  case Operands::OneFile:
    return count == 1 ? "" : "expected one model file, got " + std::to_string(count);
  case Operands::Files:
    return count > 0 ? "" : "no input files";
  case Operands::OptionalFile:
    return count <= 1 ? "" : "expected at most one model file, got " + std::to_string(count);
  }
  return "";
}

} // namespace

bool CommandLine::has(const std::string &option) const {
  for (const auto &[name, value] : given_)
    if (name == option)
      return true;
  return false;
}

std::vector<std::string> CommandLine::values(const std::string &option) const {
  std::vector<std::string> found;
  for (const auto &[name, value] : given_)
    if (name == option)
      found.push_back(value);
  return found;
}

std::string CommandLine::value(const std::string &option, const std::string &fallback) const {
  const CommandSpec *spec = findCommand(command);
  const OptionSpec *o = spec ? spec->option(option) : nullptr;
  std::vector<std::string> found = values(option);
  if (found.empty())
    return fallback;
  if (o == nullptr || o->type != OptionType::List)
    return found.back();
  std::string joined;
  for (const std::string &v : found)
    joined += (joined.empty() ? "" : ", ") + v;
  return joined;
}

double CommandLine::number(const std::string &option, double fallback) const {
  double out = fallback;
  return has(option) && readNumber(value(option), out) ? out : fallback;
}

long CommandLine::count(const std::string &option, long fallback) const {
  long out = fallback;
  return has(option) && readCount(value(option), out) ? out : fallback;
}

void CommandLine::add(const std::string &option, const std::string &value) {
  given_.emplace_back(option, value);
}

std::optional<CommandLine> parseCommandLine(const CommandSpec &spec,
                                            const std::vector<std::string> &args,
                                            bool implicitModel, std::string &error) {
  CommandLine line;
  line.command = spec.name;
  line.words = args;
  auto fail = [&](const std::string &why) {
    error = spec.name + ": " + why;
    return std::nullopt;
  };
  bool onlyOperands = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &arg = args[i];
    if (arg == "--" && !onlyOperands) {
      onlyOperands = true;
      continue;
    }
    if (onlyOperands || arg.size() < 2 || arg[0] != '-') {
      line.operands.push_back(arg);
      continue;
    }
    size_t equals = arg.find('=');
    bool inlineValue = arg.rfind("--", 0) == 0 && equals != std::string::npos;
    std::string name = inlineValue ? arg.substr(0, equals) : arg;
    const OptionSpec *option = spec.option(name);
    if (option == nullptr)
      return fail("unknown option '" + name + "'");
    std::string value;
    if (option->type == OptionType::Flag) {
      if (inlineValue)
        return fail(option->name + " takes no value");
    } else if (inlineValue) {
      value = arg.substr(equals + 1);
    } else if (i + 1 >= args.size()) {
      return fail(option->name + " needs a value");
    } else {
      value = args[++i];
    }
    if (std::string why = valueError(*option, value); !why.empty())
      return fail(why);
    line.add(option->name, value);
  }
  for (const auto &[a, b] : spec.exclusive)
    if (line.has(a) && line.has(b))
      return fail(a + " and " + b + " exclude each other");
  if (std::string why = operandError(spec, line.operands.size(), implicitModel); !why.empty())
    return fail(why);
  return line;
}

} // namespace mech::driver
