// The CLI's commands for the Python package (python/PyCommands.h).
#include "PyCommands.h"

#include "driver/Commands.h"
#include "mechanics/Lagrange.h"
#include "symbolic/Print.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <regex>
#include <sstream>

namespace mech::python {

namespace {

// The errors a command printed, "file:line:col: error: message", located.
ModelFailure printedFailure(const std::string &text) {
  ModelFailure failure;
  failure.text = text;
  while (!failure.text.empty() && failure.text.back() == '\n')
    failure.text.pop_back();
  static const std::regex located(R"(^(.*?):(\d+):(\d+): error: (.*)$)");
  static const std::regex plain(R"(^(?:mech: )?error: (.*)$)");
  std::istringstream lines(text);
  std::smatch match;
  for (std::string line; std::getline(lines, line);) {
    if (std::regex_match(line, match, located))
      failure.diagnostics.push_back({match[1], std::stoi(match[2]), std::stoi(match[3]), match[4]});
    else if (std::regex_match(line, match, plain))
      failure.diagnostics.push_back({"", 0, 0, match[1]});
  }
  return failure;
}

py::tuple textAndLatex(const sym::Expr &e) {
  return py::make_tuple(sym::toMech(e), sym::toLatex(e));
}

py::list expressions(const std::vector<sym::Expr> &list) {
  py::list out;
  for (const sym::Expr &e : list)
    out.append(textAndLatex(e));
  return out;
}

} // namespace

std::string runCommand(PyModel &model, const std::string &command,
                       const std::vector<std::string> &words) {
  driver::CommandLine line = parsedLine(command, words);
  std::ostringstream out, err;
  driver::CommandIo io{out, err, ""};
  int status = 0;
  runReleased(model, [&] { status = driver::runModelCommand(line, model.session(), io); });
  if (status == driver::kExitUsage)
    throw UsageFailure{err.str()};
  if (status != driver::kExitOk)
    throw printedFailure(err.str());
  return out.str();
}

py::dict equationsData(PyModel &model) {
  const mechanics::Equations eq = mechanics::simplified(model.derived().equations());
  py::dict data;
  data["model"] = eq.model;
  data["coordinates"] = eq.coordinates;
  data["T"] = textAndLatex(eq.T);
  data["V"] = textAndLatex(eq.V);
  data["D"] = textAndLatex(eq.D);
  data["L"] = textAndLatex(eq.L);
  data["Q"] = expressions(eq.Q);
  data["Qnc"] = expressions(eq.Qnc);
  py::list M;
  for (const std::vector<sym::Expr> &row : eq.M)
    M.append(expressions(row));
  data["M"] = M;
  data["f"] = expressions(eq.f);
  py::list where;
  for (const sym::NamedSubexpression &w : eq.where)
    where.append(
        py::make_tuple(sym::toMech(w.name), sym::toMech(w.definition), sym::toLatex(w.definition)));
  data["where"] = where;
  return data;
}

py::dict sourceData(PyModel &model) {
  driver::Session &session = model.session();
  py::dict data;
  data["name"] = session.file().empty() ? session.name() : session.file();
  data["text"] = session.text();
  data["settings"] = session.settings();
  return data;
}

} // namespace mech::python
