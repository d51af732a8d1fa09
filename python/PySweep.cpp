// mech.sweep (python/PySweep.h): the CLI's sweep engine (driver/Sweep.h)
// with the swept values given as arrays, and the rows returned as arrays.
#include "PySweep.h"

#include "driver/Commands.h"
#include "driver/Sweep.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <atomic>
#include <sstream>

namespace mech::python {

namespace {

// The rows, column by column.
struct SweepColumns {
  std::vector<std::vector<double>> numbers; // the swept values, then the summaries
  std::vector<std::string> status, message;

  bool add(const driver::SweepRow &row) {
    if (numbers.empty())
      numbers.resize(row.swept.size() + row.summaries.size());
    size_t i = 0;
    for (double v : row.swept)
      numbers[i++].push_back(v);
    for (double v : row.summaries)
      numbers[i++].push_back(v);
    status.push_back(row.status);
    message.push_back(row.message);
    return true;
  }
};

std::vector<double> arrayValues(const py::handle &values, const std::string &name) {
  auto array = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(values);
  if (!array || array.ndim() != 1 || array.size() == 0)
    throw UsageFailure{"sweep: grid['" + name + "'] must be a non-empty 1-D array of numbers"};
  return std::vector<double>(array.data(), array.data() + array.size());
}

} // namespace

py::dict sweep(PyModel &model, const py::dict &grid, bool paired, const py::object &summary,
               const py::object &progress, const py::dict &options) {
  // The grid's names go through the CLI's parser (one point each), and
  // its values are then the arrays'.
  std::string gridText;
  std::vector<std::vector<double>> points;
  for (auto [name, values] : grid) {
    std::string text = py::str(name).cast<std::string>();
    points.push_back(arrayValues(values, text));
    gridText += (gridText.empty() ? "" : ", ") + text + "=0..1:2";
  }
  py::dict words = options;
  if (!gridText.empty())
    words["grid"] = gridText;
  words["summary"] = py::isinstance<py::str>(summary) ? summary : py::str(optionText(summary));
  driver::CommandLine line = commandLine("sweep", words, {"o", "plot"});
  std::ostringstream out, err;
  driver::CommandIo io{out, err};
  driver::SweepOptions sweepOptions;
  std::optional<int> status;
  // The summaries are added to a session of its own, so that the model's
  // stays as it was (with its derivation) for the calls after this one.
  std::unique_ptr<driver::Session> runs;
  {
    py::gil_scoped_release release;
    std::lock_guard busy(model.mutex());
    runs = model.session().withSettings({});
    status = driver::prepareSweep(line, *runs, io, sweepOptions);
  }
  if (status && *status == driver::kExitUsage)
    throw UsageFailure{err.str()};
  if (status)
    throwFailure(*runs);
  for (size_t i = 0; i < points.size(); ++i) {
    sweepOptions.plan.grid[i].points = points[i];
    sweepOptions.plan.grid[i].count = points[i].size();
    if (paired && points[i].size() != points[0].size())
      throw UsageFailure{"sweep: points= takes arrays of one length (" +
                         std::to_string(points[0].size()) + " and " +
                         std::to_string(points[i].size()) + " given)"};
  }
  sweepOptions.plan.paired = paired;
  if (sweepOptions.plan.runs() > driver::kMaxSweepRuns)
    throw UsageFailure{"sweep: more than " + std::to_string(driver::kMaxSweepRuns) + " runs"};

  SweepColumns columns;
  std::optional<driver::SweepReport> report;
  std::atomic<size_t> done{0};
  const size_t total = sweepOptions.plan.runs();
  auto tick = [&] { progress(done.load(), total); };
  runReleased(
      model,
      [&] {
        auto sink = [&](const driver::SweepRow &row) {
          ++done;
          return columns.add(row);
        };
        report = driver::runSweep(runs->loaded(), sweepOptions, sink, nullptr);
      },
      progress.is_none() ? std::function<void()>() : tick);
  if (!progress.is_none() && report)
    progress(done.load(), total);
  if (!report)
    throwFailure(*runs);

  py::dict result;
  std::vector<std::string> names = sweepOptions.plan.columnNames();
  const size_t swept = names.size();
  for (const driver::SummarySpec &s : sweepOptions.summaries)
    names.push_back(s.name);
  columns.numbers.resize(names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    bool isStatus = i >= swept && sweepOptions.summaries[i - swept].reducer ==
                                      driver::SummarySpec::Reducer::Status;
    if (isStatus)
      result[py::str(names[i])] = columns.status;
    else
      result[py::str(names[i])] =
          py::array_t<double>(columns.numbers[i].size(), columns.numbers[i].data());
  }
  result["status"] = columns.status;
  result["message"] = columns.message;
  return result;
}

} // namespace mech::python
