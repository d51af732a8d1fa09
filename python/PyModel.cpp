// Loading models, raising their errors, and running long calls for the
// Python package (python/PyModel.h).
#include "PyModel.h"

#include "driver/Interrupt.h"
#include "support/ListItems.h"
#include "support/NumberText.h"

#include <chrono>
#include <condition_variable>
#include <exception>
#include <sstream>
#include <thread>

namespace mech::python {

namespace {

std::unique_ptr<driver::Session> newSession() {
  return std::make_unique<driver::Session>(sema::SearchPath::fromEnvironment("python3"));
}

std::shared_ptr<PyModel> checkedModel(std::unique_ptr<driver::Session> session) {
  auto model = std::make_shared<PyModel>(std::move(session));
  if (!model->session().checked())
    model->fail();
  return model;
}

} // namespace

// Each value is one expression: its text is spliced after `name=`, where a
// comma would start another setting (set(m1="1, m2=5") would set m2 too).
std::vector<std::string> settingTexts(const py::dict &values) {
  std::vector<std::string> texts;
  for (auto [name, value] : values) {
    std::string key = py::str(name).cast<std::string>(), text = optionText(value);
    if (splitListItems(text).size() > 1)
      throw UsageFailure{"set " + key + ": '" + text +
                         "' is more than one value (a param takes one expression)"};
    texts.push_back(key + "=" + text);
  }
  return texts;
}

std::string optionText(const py::handle &value) {
  if (py::isinstance<py::bool_>(value))
    return value.cast<bool>() ? "1" : "0";
  if (py::isinstance<py::float_>(value) || py::isinstance<py::int_>(value) ||
      (py::hasattr(value, "__float__") && !py::isinstance<py::str>(value)))
    return shortestNumber(value.cast<double>());
  if (py::isinstance<py::dict>(value)) {
    std::string text;
    for (auto [name, item] : value.cast<py::dict>())
      text +=
          (text.empty() ? "" : ", ") + py::str(name).cast<std::string>() + "=" + optionText(item);
    return text;
  }
  if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
    std::string text;
    for (py::handle item : value)
      text += (text.empty() ? "" : ", ") + optionText(item);
    return text;
  }
  return py::str(value).cast<std::string>();
}

driver::CommandLine commandLine(const std::string &command, const py::dict &options,
                                const std::vector<std::string> &refused) {
  std::vector<std::string> words;
  for (auto [key, value] : options) {
    std::string name = py::str(key).cast<std::string>();
    for (const std::string &no : refused)
      if (name == no)
        throw UsageFailure{command + "() does not take '" + name + "'"};
    if (value.is_none() || (py::isinstance<py::bool_>(value) && !value.cast<bool>()))
      continue;
    for (char &c : name)
      c = c == '_' ? '-' : c;
    words.push_back("--" + name);
    if (!py::isinstance<py::bool_>(value))
      words.push_back(optionText(value));
  }
  return parsedLine(command, words);
}

driver::CommandLine parsedLine(const std::string &command, const std::vector<std::string> &words) {
  std::string error;
  std::optional<driver::CommandLine> line =
      driver::parseCommandLine(*driver::findCommand(command), words, /*implicitModel=*/true, error);
  if (!line)
    throw UsageFailure{error};
  return *line;
}

std::shared_ptr<PyModel> PyModel::load(const std::string &path, const py::dict &settings) {
  std::unique_ptr<driver::Session> session = newSession();
  session->loadFile(path, settingTexts(settings));
  return checkedModel(std::move(session));
}

std::shared_ptr<PyModel> PyModel::loads(const std::string &text, const std::string &name,
                                        const py::dict &settings, const std::string &importFolder,
                                        std::vector<std::string> texts) {
  std::unique_ptr<driver::Session> session = newSession();
  for (std::string &setting : settingTexts(settings))
    texts.push_back(std::move(setting));
  session->loadText(name, text, std::move(texts), importFolder);
  return checkedModel(std::move(session));
}

driver::LoadedModel &PyModel::derived() {
  if (!session_->derive())
    fail();
  return session_->loaded();
}

void throwFailure(driver::Session &session) {
  ModelFailure failure;
  for (const Diagnostic &d : session.diagnostics().all()) {
    if (d.severity != Severity::Error)
      continue;
    ModelFailure::Located located;
    if (d.location.file)
      located.file = d.location.file->path();
    located.line = d.location.line;
    located.column = d.location.column;
    located.message = d.message;
    failure.diagnostics.push_back(located);
  }
  std::ostringstream text;
  session.printDiagnostics(text);
  failure.text = text.str();
  if (!failure.text.empty() && failure.text.back() == '\n')
    failure.text.pop_back();
  throw failure;
}

void runHolding(PyModel &model, const std::function<void()> &work) {
  std::unique_lock busy(model.mutex(), std::defer_lock);
  {
    // Another thread's call may hold the model: wait for it without the GIL.
    py::gil_scoped_release release;
    busy.lock();
  }
  driver::clearInterrupt();
  work();
}

void runReleased(PyModel &model, const std::function<void()> &work,
                 const std::function<void()> &tick) {
  std::exception_ptr thrown;
  bool done = false, interrupted = false;
  std::mutex mutex;
  std::condition_variable finished;
  {
    py::gil_scoped_release release;
    std::lock_guard busy(model.mutex());
    driver::clearInterrupt();
    std::thread worker([&] {
      try {
        work();
      } catch (...) {
        thrown = std::current_exception();
      }
      std::lock_guard lock(mutex);
      done = true;
      finished.notify_all();
    });
    std::unique_lock lock(mutex);
    while (!finished.wait_for(lock, std::chrono::milliseconds(50), [&] { return done; })) {
      lock.unlock();
      {
        py::gil_scoped_acquire acquire;
        if (!interrupted && PyErr_CheckSignals() != 0) {
          interrupted = true;
          driver::requestInterrupt();
        } else if (!interrupted && tick) {
          try {
            tick();
          } catch (py::error_already_set &error) {
            // The display failed: the call stops with its error.
            error.restore();
            interrupted = true;
            driver::requestInterrupt();
          }
        }
      }
      lock.lock();
    }
    lock.unlock();
    worker.join();
  }
  if (interrupted)
    throw py::error_already_set();
  if (thrown)
    std::rethrow_exception(thrown);
}

} // namespace mech::python
