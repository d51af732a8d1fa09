// Fuzz target: REPL input, line by line, through the session the terminal
// front end drives (repl/ReplSession), without a terminal. Lines are
// joined while brackets are open, as the terminal does. Only commands that
// stay in the process, write no file of their own and end quickly run:
// :save, :build, :sim, :plot and :animate write files, :sim, :plot,
// :animate and :equilibria integrate or
// search for long, :quit only ends the input. :load reads a relative .mech
// path of the source tree. Besides crashes and sanitizer reports, an
// internal error reported by the session is a finding.
#include "FuzzSupport.h"

#include "repl/ReplSession.h"

#include <sstream>

#include <cctype>
#include <cstdlib>
#include <vector>

using namespace mech;

namespace {

constexpr size_t kMaxText = 2048;
constexpr size_t kMaxInputs = 24;

std::string trimmed(const std::string &text) {
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos)
    return "";
  size_t last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

// `:load PATH` with PATH relative, without "..", of plain characters and
// naming a .mech file: the input rewritten to that file of the source tree;
// "" otherwise (the session would read any path it is given).
std::string loadFromSourceTree(const std::string &rest) {
  std::string path = trimmed(rest);
  if (path.empty() || path[0] == '/' || path.find("..") != std::string::npos || path.size() < 6 ||
      path.compare(path.size() - 5, 5, ".mech") != 0)
    return "";
  for (char c : path)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '/' &&
        c != '.')
      return "";
  return std::string(":load ") + MECH_FUZZ_SOURCE_DIR + "/" + path;
}

// The input as the session may run it here, or "" to skip it. The CLI
// commands admitted (:eom, :eval, :conserved, :linearize, :solve) take no
// option that writes: their parsers accept --set, --at, --for, --json and
// --latex only, and refuse anything else as a usage error. Each runs on
// the session's copy of the model, a file in the session's own temporary
// folder (removed with the session).
std::string admitted(const std::string &input) {
  std::string text = trimmed(input);
  if (text.empty() || text[0] != ':')
    return input;
  size_t end = text.find_first_of(" \t\r\n");
  std::string name = text.substr(0, end);
  std::string rest = end == std::string::npos ? "" : text.substr(end);
  static const char *kQuick[] = {":show", ":undo", ":vars",      ":help",      ":set",   ":latex",
                                 ":eom",  ":eval", ":conserved", ":linearize", ":solve", ":reload"};
  for (const char *quick : kQuick)
    if (name == quick)
      return input;
  if (name == ":time") {
    std::string inner = admitted(rest);
    return inner.empty() ? "" : ":time " + inner;
  }
  if (name == ":load")
    return loadFromSourceTree(rest);
  return "";
}

// The inputs the terminal would hand to the session: lines, joined while
// ReplSession::needsMoreInput says brackets are open.
std::vector<std::string> inputsOf(const std::string &text) {
  std::vector<std::string> inputs;
  std::string pending;
  size_t start = 0;
  while (start <= text.size() && inputs.size() < kMaxInputs) {
    size_t end = text.find('\n', start);
    std::string line =
        text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    pending = pending.empty() ? line : pending + "\n" + line;
    if (!repl::ReplSession::needsMoreInput(pending)) {
      inputs.push_back(pending);
      pending.clear();
    }
    if (end == std::string::npos)
      break;
    start = end + 1;
  }
  if (!pending.empty() && inputs.size() < kMaxInputs)
    inputs.push_back(pending);
  return inputs;
}

} // namespace

// The session's commands derive, and a derivation is stored in the cache
// under the user's home: with neither HOME nor XDG_CACHE_HOME absolute the
// caches are not used, so that fuzzing writes no file.
extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  setenv("XDG_CACHE_HOME", "", 1);
  setenv("HOME", "", 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text = fuzz::inputText(data, size);
  if (size > kMaxText || !fuzz::withinBounds(text))
    return -1; // not added to the corpus
  // Imports resolve in the standard library and the folders of loaded
  // files only, whatever the environment of the run.
  std::vector<std::string> inputs = inputsOf(text);
  std::ostringstream streams;
  {
    repl::ReplSession session(fuzz::searchPath(), streams, streams);
    for (const std::string &input : inputs) {
      std::string run = admitted(input);
      if (!run.empty() && !session.handle(run))
        break;
      session.completions(trimmed(input).substr(0, 3));
    }
  }
  // The session's own report starts a line; a diagnostic shows the input's
  // line indented, whatever words it holds.
  std::string printed = "\n" + streams.str();
  if (printed.find("\ninternal error: ") != std::string::npos)
    fuzz::fail("the session reported an internal error", printed);
  return 0;
}
