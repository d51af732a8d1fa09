// The texts generated from the command table: `mech --help`, `mech help
// CMD` (and the REPL's :help CMD), and the option tables of docs/cli.md.
#include "driver/CommandTable.h"

#include <sstream>

namespace mech::driver {

namespace {

// `text` wrapped at `width` columns, every line indented by `indent`
// spaces except the first, which continues a line `start` columns long.
std::string wrap(const std::string &text, size_t indent, size_t start, size_t width = 79) {
  std::istringstream words(text);
  std::string out, word;
  size_t column = start;
  bool first = true;
  while (words >> word) {
    if (!first && column + 1 + word.size() > width) {
      out += "\n" + std::string(indent, ' ');
      column = indent;
    } else if (!first) {
      out += " ";
      ++column;
    }
    out += word;
    column += word.size();
    first = false;
  }
  return out;
}

std::string optionWords(const OptionSpec &o) {
  std::string words = o.name;
  if (!o.alias.empty())
    words += ", " + o.alias;
  if (!o.valueName.empty())
    words += " " + o.valueName;
  return words;
}

// Markdown table cells cannot hold a '|' unescaped.
std::string cell(const std::string &text) {
  std::string out;
  for (char c : text)
    out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

} // namespace

std::string usageText() {
  std::ostringstream out;
  out << "usage: mech <command> [options] FILE...\n\n"
      << "A compiler for models of analytical mechanics (.mech files).\n\ncommands:\n";
  for (const CommandSpec &spec : commandTable()) {
    if (spec.name == "--dump")
      continue;
    std::string synopsis = spec.synopsis;
    for (size_t at = synopsis.find('\n'); at != std::string::npos; at = synopsis.find('\n', at))
      synopsis.replace(at, 1, "\n  "), at += 3;
    out << "  " << spec.name << " " << synopsis << "\n";
    out << std::string(23, ' ') << wrap(spec.summary, 23, 23) << "\n";
  }
  out << "options:\n";
  for (const Stage &stage : pipelineStages()) {
    std::string words = "  --dump=" + stage.name + " FILE";
    out << words << std::string(words.size() < 23 ? 23 - words.size() : 1, ' ') << "print "
        << stage.what << "\n";
  }
  out << "  --set p=v            set a param (values may carry units: --set l=30[cm])\n"
      << "  --help               show this help (mech help COMMAND: its options)\n"
      << "  --version            show the version, the LLVM version and the host\n\n"
      << "exit status: 0 success, 1 errors in a model, 2 usage errors\n"
      << "environment: MECH_PATH  folders (separated by ':') searched for imports\n";
  return out.str();
}

std::string commandHelp(const CommandSpec &spec) {
  std::ostringstream out;
  std::string synopsis = spec.synopsis;
  out << "usage: mech " << spec.name << (spec.name == "--dump" ? "" : " ") << synopsis << "\n\n"
      << wrap(spec.summary, 0, 0) << "\n";
  if (!spec.options.empty())
    out << "\noptions:\n";
  for (const OptionSpec &o : spec.options) {
    std::string words = "  " + optionWords(o);
    out << words;
    std::string text = o.help;
    if (!o.defaultText.empty() && o.defaultText != "off" && o.type != OptionType::Flag)
      text += " (default: " + o.defaultText + ")";
    // Markdown's backquotes and links read badly on a terminal.
    std::string plain;
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '`')
        continue;
      if (text[i] == ']' && i + 1 < text.size() && text[i + 1] == '(') {
        size_t close = text.find(')', i);
        plain += ']';
        i = close == std::string::npos ? i : close;
        continue;
      }
      plain += text[i];
    }
    size_t column = words.size();
    if (column + 2 > 24) {
      out << "\n" << std::string(24, ' ');
      column = 24;
    } else {
      out << std::string(24 - column, ' ');
      column = 24;
    }
    out << wrap(plain, 24, column) << "\n";
  }
  return out.str();
}

std::string optionsMarkdown(const CommandSpec &spec) {
  std::ostringstream out;
  out << "| option | default | accepted values | meaning |\n|---|---|---|---|\n";
  for (const OptionSpec &o : spec.options) {
    std::string name = "`" + o.name + (o.valueName.empty() ? "" : " " + o.valueName) + "`";
    if (!o.alias.empty())
      name += ", `" + o.alias + "`";
    out << "| " << cell(name) << " | " << cell(o.defaultText) << " | " << cell(o.accepted) << " | "
        << cell(o.help) << " |\n";
  }
  return out.str();
}

} // namespace mech::driver
