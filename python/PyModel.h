// The Python package's model: one Session (driver/Session.h) per loaded
// model, the located errors it raises as mech.ModelError, and the calls
// that take long run with the GIL released and Ctrl-C honoured.
#pragma once

#include "driver/CommandTable.h"
#include "driver/Session.h"

#include <pybind11/pybind11.h>

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace mech::python {

namespace py = pybind11;

// A model's errors, as mech.ModelError carries them: the text the CLI
// prints, and each error's file, line, column and message.
struct ModelFailure {
  struct Located {
    std::string file;
    int line = 0, column = 0;
    std::string message;
  };
  std::string text;
  std::vector<Located> diagnostics;
};

// An option Python cannot give (a value of the wrong kind, an unknown
// option): raised as ValueError with the CLI's message.
struct UsageFailure {
  std::string text;
};

// Throws a session's errors as a ModelFailure (and forgets them).
[[noreturn]] void throwFailure(driver::Session &session);

class PyModel {
public:
  PyModel(std::unique_ptr<driver::Session> session) : session_(std::move(session)) {}

  static std::shared_ptr<PyModel> load(const std::string &path, const py::dict &settings);
  static std::shared_ptr<PyModel> loads(const std::string &text, const std::string &name,
                                        const py::dict &settings,
                                        const std::string &importFolder = "",
                                        std::vector<std::string> texts = {});

  driver::Session &session() { return *session_; }
  // The derived model; throws ModelFailure when it does not derive.
  driver::LoadedModel &derived();
  // Throws the session's diagnostics as a ModelFailure.
  [[noreturn]] void fail() { throwFailure(*session_); }

  // One call at a time on a model: Python threads may share it.
  std::mutex &mutex() { return mutex_; }

private:
  std::unique_ptr<driver::Session> session_;
  std::mutex mutex_;
};

// The --set texts of a dict {"m1": 2.0, "l": "30 [cm]"}.
std::vector<std::string> settingTexts(const py::dict &values);

// A value as the CLI would read it: numbers round-trip exactly, a dict is
// "a=1, b=2", a list or tuple is "a, b".
std::string optionText(const py::handle &value);

// The command line of `command` from Python keyword arguments
// (max_steps=10 is --max-steps 10; True is a flag, False and None leave
// the option out); `refused` lists options a Python call does not take.
driver::CommandLine commandLine(const std::string &command, const py::dict &options,
                                const std::vector<std::string> &refused);

// `words` parsed as the options of `command` (the model implicit), or a
// UsageFailure with the CLI's message.
driver::CommandLine parsedLine(const std::string &command, const std::vector<std::string> &words);

// Runs `work` on a thread of its own with the GIL released, while the
// calling thread checks Python's signals every 50 ms: Ctrl-C asks the work
// to stop (driver/Interrupt.h) and, once it has, raises KeyboardInterrupt.
// Holds the model's mutex (taken without the GIL) for the call.
// `tick`, when given, is called with the GIL at each check (a progress
// display).
void runReleased(PyModel &model, const std::function<void()> &work,
                 const std::function<void()> &tick = nullptr);

// Runs `work` on the calling thread with the GIL held: for a run that calls
// Python throughout (inputs given as callables), where handing the GIL to
// a worker thread at every call would cost more than the call (measured:
// 8 us a call). Ctrl-C reaches the Python code the work calls. Holds the
// model's mutex for the call.
void runHolding(PyModel &model, const std::function<void()> &work);

} // namespace mech::python
