// `mech repl [FILE] [--prompt] [--echo]`: the terminal side of the REPL.
// On a terminal, libedit gives line editing, a history kept in
// ~/.mech_history and tab completion of commands and names; piped input is
// read line by line without prompts (unless --prompt), for scripts and
// tests, and --echo repeats each input after a prompt so that a transcript
// reads like a session. Inputs continue over lines while brackets are open.
// Ctrl-C cancels the line being typed or stops a running simulation; the
// session goes on. Ctrl-D (or the end of the input) leaves.
#include "driver/Commands.h"
#include "repl/ReplSession.h"

#include "driver/Interrupt.h"
#include "driver/Simulation.h"
#include "support/InputFile.h"

#include <histedit.h>

#include <clocale>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <langinfo.h>
#include <unistd.h>

namespace mech::cli {

using driver::kExitOk;
using repl::ReplSession;

namespace {

const char *kPrompt = "mech> ";
const char *kContinuation = "...> ";
const char *currentPrompt = kPrompt;
// ~/.mech_history keeps 1000 entries: far below this.
constexpr size_t kMaxHistorySize = 4u << 20;

void onInterrupt(int) {
  driver::requestInterrupt();
}

// SIGINT interrupts a blocking read (no SA_RESTART) instead of killing the
// process: the loops below see the request and carry on.
void catchInterrupts() {
  struct sigaction action;
  std::memset(&action, 0, sizeof action);
  action.sa_handler = onInterrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
}

// libedit accepts multibyte input (θ1) only in a UTF-8 character type:
// the user's locale when it is one, else C.UTF-8. Only LC_CTYPE changes, so
// numbers are still printed and read with a '.'.
void useUtf8() {
  const char *chosen = std::setlocale(LC_CTYPE, "");
  if (chosen == nullptr || std::strcmp(nl_langinfo(CODESET), "UTF-8") != 0)
    std::setlocale(LC_CTYPE, "C.UTF-8");
}

// Handles a complete input; false when the session ends.
bool dispatch(ReplSession &session, const std::string &input) {
  driver::clearInterrupt();
  // "first step ... after start" then counts from this input.
  driver::markProcessStart();
  bool more = session.handle(input);
  driver::clearInterrupt();
  return more;
}

int piped(ReplSession &session, bool prompt, bool echo) {
  std::string buffer, line;
  for (;;) {
    if (prompt)
      std::cout << (buffer.empty() ? kPrompt : kContinuation) << std::flush;
    if (!std::getline(std::cin, line)) {
      if (driver::interruptRequested() && !std::cin.eof()) {
        std::cin.clear();
        driver::clearInterrupt();
        buffer.clear();
        continue;
      }
      break;
    }
    if (echo)
      std::cout << (buffer.empty() ? kPrompt : kContinuation) << line << "\n";
    buffer += line + "\n";
    if (ReplSession::needsMoreInput(buffer))
      continue;
    std::string input = buffer;
    buffer.clear();
    if (!dispatch(session, input))
      return kExitOk;
  }
  if (!buffer.empty())
    dispatch(session, buffer);
  return kExitOk;
}

char *promptText(EditLine *) {
  return const_cast<char *>(currentPrompt);
}

// Tab: completes the word before the cursor as far as the candidates
// agree, and lists them when they differ.
unsigned char complete(EditLine *editor, int) {
  const LineInfo *line = el_line(editor);
  const char *start = line->cursor;
  while (start > line->buffer &&
         (std::isalnum(static_cast<unsigned char>(start[-1])) || start[-1] == '_' ||
          start[-1] == '.' || start[-1] == ':' || static_cast<unsigned char>(start[-1]) >= 0x80))
    --start;
  std::string prefix(start, line->cursor);
  void *data = nullptr;
  el_get(editor, EL_CLIENTDATA, &data);
  auto *session = static_cast<ReplSession *>(data);
  std::vector<std::string> matches = session->completions(prefix);
  if (matches.empty())
    return CC_ERROR;
  std::string common = matches[0];
  for (const std::string &m : matches) {
    size_t k = 0;
    while (k < common.size() && k < m.size() && common[k] == m[k])
      ++k;
    common.resize(k);
  }
  if (common.size() > prefix.size()) {
    std::string rest = common.substr(prefix.size());
    if (matches.size() == 1 && prefix[0] == ':')
      rest += " ";
    el_insertstr(editor, rest.c_str());
    return CC_REFRESH;
  }
  if (matches.size() == 1)
    return CC_REFRESH;
  std::cout << "\n";
  for (const std::string &m : matches)
    std::cout << m << "  ";
  std::cout << "\n";
  return CC_REDISPLAY;
}

// Whether the history file can be loaded and saved: absent, or a regular
// file of a sane size. A FIFO or device there would block the session
// before its first prompt (libedit opens it by name), so it is not used.
bool usableHistory(const std::string &path) {
  std::error_code missing;
  if (!std::filesystem::exists(path, missing))
    return true;
  std::string error;
  if (readInputFile(path, kMaxHistorySize, error))
    return true;
  std::cerr << "warning: the history is not kept: " << error << "\n";
  return false;
}

int interactive(ReplSession &session) {
  EditLine *editor = el_init("mech", stdin, stdout, stderr);
  History *past = history_init();
  HistEvent event;
  history(past, &event, H_SETSIZE, 1000);
  history(past, &event, H_SETUNIQUE, 1);
  std::string historyFile;
  if (const char *home = std::getenv("HOME"); home && *home) {
    historyFile = std::string(home) + "/.mech_history";
    if (!usableHistory(historyFile))
      historyFile.clear();
    else
      history(past, &event, H_LOAD, historyFile.c_str());
  }
  el_set(editor, EL_EDITOR, "emacs");
  el_set(editor, EL_PROMPT, promptText);
  el_set(editor, EL_HIST, history, past);
  el_set(editor, EL_CLIENTDATA, &session);
  el_set(editor, EL_ADDFN, "mech-complete", "complete a command or name", complete);
  el_set(editor, EL_BIND, "^I", "mech-complete", nullptr);
  std::cout << "mech " MECH_VERSION " — :help lists the commands, Ctrl-D leaves\n";

  std::string buffer;
  for (;;) {
    currentPrompt = buffer.empty() ? kPrompt : kContinuation;
    int count = 0;
    const char *line = el_gets(editor, &count);
    if (line == nullptr || count < 0) {
      if (driver::interruptRequested()) {
        // Ctrl-C: the line (and any continued input) is dropped.
        driver::clearInterrupt();
        buffer.clear();
        std::cout << "\n";
        el_reset(editor);
        continue;
      }
      std::cout << "\n";
      break;
    }
    std::string text(line);
    if (text.find_first_not_of(" \t\n") != std::string::npos) {
      std::string entry = text.substr(0, text.find_last_not_of("\n") + 1);
      history(past, &event, H_ENTER, entry.c_str());
      if (!historyFile.empty())
        history(past, &event, H_SAVE, historyFile.c_str());
    }
    buffer += text;
    if (buffer.empty() || buffer.back() != '\n')
      buffer += "\n";
    if (ReplSession::needsMoreInput(buffer))
      continue;
    std::string input = buffer;
    buffer.clear();
    if (!dispatch(session, input))
      break;
  }
  history_end(past);
  el_end(editor);
  return kExitOk;
}

} // namespace

int runRepl(const driver::CommandLine &line, const sema::SearchPath &searchPath) {
  std::string file = line.operands.empty() ? "" : line.operands[0];
  bool prompt = line.has("--prompt"), echo = line.has("--echo");
  // Outputs and diagnostics interleave as they happen, also when piped.
  std::cout << std::unitbuf;
  useUtf8();
  catchInterrupts();
  ReplSession session(searchPath, std::cout, std::cerr);
  bool terminal = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
  if (!file.empty()) {
    if (echo)
      std::cout << kPrompt << ":load " << file << "\n";
    session.load(file);
  }
  return terminal && !echo ? interactive(session) : piped(session, prompt, echo);
}

} // namespace mech::cli
