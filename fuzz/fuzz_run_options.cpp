// Fuzz target: what a run reads besides the model. The input holds three
// parts, separated by lines "%%": the bytes of an --input table (written to
// a file of the target's own temporary folder and read as `F = FILE` for
// a driven oscillator), the words of a sweep's options (one per line;
// parsed and checked against the double pendulum, nothing run), and the
// words of a REPL `:sim` (one per line; run on the interpreter for 1 s in
// 100 samples and at most 400 steps, which the words cannot change). Words that would name a file
// are dropped: a word with
// '/' or "csv", and the options that write (-o, --plot, --events). Besides
// crashes and sanitizer reports: a table that reads must have increasing
// times and finite values, a table that does not must say why, and no
// part may report an internal error.
#include "FuzzSupport.h"

#include "driver/CommandTable.h"
#include "driver/Commands.h"
#include "driver/Session.h"
#include "driver/Sweep.h"
#include "repl/ReplSession.h"
#include "sema/InputSignals.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <unistd.h>
#include <vector>

using namespace mech;

namespace {

constexpr size_t kMaxText = 2048;
constexpr size_t kMaxWords = 24;

const char *kOscillator = R"(model Driven {
  param m = 1 [kg], k = 4 [N/m], c = 0.4 [N*s/m]
  input F [N]
  coord x [m]
  kinetic m * x'^2 / 2
  potential k * x^2 / 2
  dissipation c * x'^2 / 2
  generalized F on x
  init x = 0.1, x' = 0
})";

const char *kPendulum = R"(model Double {
  param m1 = 1 [kg], m2 = 1 [kg], l1 = 1 [m], l2 = 0.8 [m], g = 9.81 [m/s^2]
  coord th1 [rad], th2 [rad]
  let p1 = l1 * [sin(th1), -cos(th1)]
  let p2 = p1 + l2 * [sin(th2), -cos(th2)]
  kinetic m1/2 * dot(p1', p1') + m2/2 * dot(p2', p2')
  potential g * (m1 * p1.y + m2 * p2.y)
  init th1 = 0.5, th2 = -0.3
})";

// The target's own folder, for the table and the REPL's model file.
std::string folder;

std::vector<std::string> parts(const std::string &text) {
  std::vector<std::string> found(3);
  size_t part = 0, start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    std::string line =
        text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (line == "%%" && part < 2)
      ++part;
    else
      found[part] += line + "\n";
    if (end == std::string::npos)
      break;
    start = end + 1;
  }
  return found;
}

// The words of a part that name no file.
std::vector<std::string> words(const std::string &part) {
  std::vector<std::string> kept;
  size_t start = 0;
  while (start < part.size() && kept.size() < kMaxWords) {
    size_t end = part.find('\n', start);
    std::string word = part.substr(start, end - start);
    start = end == std::string::npos ? part.size() : end + 1;
    bool writes =
        word.rfind("-o", 0) == 0 || word.rfind("--plot", 0) == 0 || word.rfind("--events", 0) == 0;
    if (!word.empty() && !writes && word.find('/') == std::string::npos &&
        word.find("csv") == std::string::npos)
      kept.push_back(word);
  }
  return kept;
}

void table(const std::string &bytes) {
  std::string path = folder + "/table.csv";
  std::ofstream(path, std::ios::binary) << bytes;
  driver::Session session(fuzz::searchPath());
  session.loadText("driven.mech", kOscillator);
  if (!session.checked())
    fuzz::fail("the oscillator does not check");
  driver::LoadedModel &loaded = session.loaded();
  bool ok = driver::readInputs(loaded, "F = " + path);
  if (!ok && !loaded.diagnostics().hasErrors())
    fuzz::fail("a table was refused without an error");
  if (!ok)
    return;
  for (const sema::InputSignal &signal : loaded.inputs->signals)
    for (size_t i = 0; i < signal.times.size(); ++i)
      if (!std::isfinite(signal.times[i]) || !std::isfinite(signal.values[i]) ||
          (i > 0 && !(signal.times[i] > signal.times[i - 1])))
        fuzz::fail("a table read with times that do not increase or values not finite");
}

void sweepOptions(const std::vector<std::string> &args) {
  std::string error;
  auto line = driver::parseCommandLine(*driver::findCommand("sweep"), args, true, error);
  if (!line)
    return;
  driver::Session session(fuzz::searchPath());
  session.loadText("double.mech", kPendulum);
  std::ostringstream out, err;
  driver::CommandIo io{out, err};
  driver::SweepOptions options;
  (void)driver::prepareSweep(*line, session, io, options);
  if (err.str().find("internal error") != std::string::npos)
    fuzz::fail("sweep's options reported an internal error", err.str());
}

void simOptions(std::vector<std::string> args) {
  std::ofstream(folder + "/driven.mech") << kOscillator;
  std::string input = ":sim";
  for (const std::string &word : args)
    input += " " + word;
  // The run is bounded whatever the words say (the last value of an option
  // wins): 1 s in samples of 0.01 s, at most 400 steps, on the interpreter.
  input += " --until 1 --dt 0.01 --backend interp --max-steps 400";
  std::ostringstream streams;
  {
    repl::ReplSession session(fuzz::searchPath(), streams, streams);
    session.handle(":load " + folder + "/driven.mech");
    session.handle(input);
  }
  std::string printed = "\n" + streams.str();
  if (printed.find("\ninternal error: ") != std::string::npos)
    fuzz::fail("the REPL's :sim reported an internal error", printed);
}

} // namespace

// No cache is written (neither HOME nor XDG_CACHE_HOME is absolute); the
// table and the model file live in a folder of the target's own.
extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  setenv("XDG_CACHE_HOME", "", 1);
  setenv("HOME", "", 1);
  char name[] = "/tmp/mech-fuzz-options.XXXXXX";
  if (!mkdtemp(name))
    fuzz::fail("cannot make a temporary folder");
  folder = name;
  std::atexit([] {
    unlink((folder + "/table.csv").c_str());
    unlink((folder + "/driven.mech").c_str());
    rmdir(folder.c_str());
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text = fuzz::inputText(data, size);
  if (size > kMaxText || !fuzz::withinBounds(text))
    return -1;
  std::vector<std::string> sections = parts(text);
  table(sections[0]);
  sweepOptions(words(sections[1]));
  simOptions(words(sections[2]));
  return 0;
}
