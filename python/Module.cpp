// mech._mech, the compiled half of the Python package (python/mech/ is the
// other): this file names the C++ for Python and documents it. The work is
// in PyModel (loading, errors, long calls), PySimulate (simulate, eval),
// PySweep (sweep), PyCommands (the CLI's analyses, the equations) and
// PyRightHandSide (Model.rhs).
#include "PyCommands.h"
#include "PyModel.h"
#include "PyRightHandSide.h"
#include "PySimulate.h"
#include "PySweep.h"

#include "driver/Reports.h"
#include "sema/ModelPrinter.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

namespace py = pybind11;
using namespace mech::python;

namespace {

// mech.ModelError, made once the module exists.
PyObject *modelError = nullptr;

void translateFailures() {
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown)
        std::rethrow_exception(thrown);
    } catch (const ModelFailure &failure) {
      py::list diagnostics;
      for (const ModelFailure::Located &d : failure.diagnostics)
        diagnostics.append(py::make_tuple(d.file, d.line, d.column, d.message));
      py::object error = py::reinterpret_borrow<py::object>(modelError)(failure.text);
      error.attr("diagnostics") = diagnostics;
      PyErr_SetObject(modelError, error.ptr());
    } catch (const UsageFailure &failure) {
      std::string text = failure.text;
      while (!text.empty() && text.back() == '\n')
        text.pop_back();
      PyErr_SetString(PyExc_ValueError, text.c_str());
    }
  });
}

py::dict params(PyModel &model) {
  py::dict values;
  for (const mech::sema::Param &p : model.session().loaded().model().params)
    if (!p.input)
      values[py::str(p.name)] = py::make_tuple(p.value, mech::sema::unitOf(p.unit, p.dim));
  return values;
}

std::vector<std::string> coordinates(PyModel &model) {
  std::vector<std::string> names;
  for (const mech::sema::Coord &q : model.session().loaded().model().coords)
    names.push_back(q.name);
  return names;
}

void set(PyModel &model, const py::kwargs &values) {
  for (const std::string &text : settingTexts(values))
    if (!model.session().set(text))
      model.fail();
}

void defineResult(py::module_ &m) {
  py::class_<SimulationResult, std::shared_ptr<SimulationResult>>(
      m, "SimulationResult",
      "The samples of a simulation: r.t and r[name] are read-only NumPy views of the\n"
      "result's own columns (their base is the result), r.columns names them, and\n"
      "r.summary holds the run's summary (steps, energy drift, conserved drift, failure).")
      .def_property_readonly(
          "t",
          [](py::object self) { return view(self.cast<SimulationResult &>().columns[0], self); },
          "the sample times")
      .def_property_readonly(
          "columns", [](const SimulationResult &r) { return r.names; }, "t, then the CSV columns")
      .def_readonly("summary", &SimulationResult::summary)
      .def(
          "__getitem__",
          [](py::object self, const std::string &name) {
            return view(self.cast<SimulationResult &>().column(name), self);
          },
          "the column `name` (a coordinate, a velocity th1', a multiplier, an output)")
      .def("__len__", [](const SimulationResult &r) { return r.columns[0].size(); })
      .def(
          "to_pandas",
          [](py::object self) {
            py::module_ pandas = py::module_::import("pandas");
            py::dict data;
            auto &r = self.cast<SimulationResult &>();
            for (size_t i = 0; i < r.names.size(); ++i)
              data[py::str(r.names[i])] = view(r.columns[i], self);
            return pandas.attr("DataFrame")(data);
          },
          "the samples as a pandas DataFrame (needs pandas)")
      .def("__repr__", [](const SimulationResult &r) {
        return "<mech.SimulationResult: " + std::to_string(r.columns[0].size()) + " samples of " +
               std::to_string(r.names.size() - 1) + " columns>";
      });
}

void defineModel(py::module_ &m) {
  py::class_<PyModel, std::shared_ptr<PyModel>>(
      m, "Model", "A loaded .mech model (mech.load, mech.loads); derived on first use.")
      .def_property_readonly("name",
                             [](PyModel &model) { return model.session().loaded().model().name; })
      .def_property_readonly("coordinates", &coordinates, "the generalized coordinates' names")
      .def_property_readonly("params", &params,
                             "{name: (value, unit)} of the params, values in the unit shown")
      .def("set", &set,
           "set(name=value, ...): change params (values in SI, or texts with a unit such as\n"
           "'30 [cm]'); the derivation is kept unless a param shapes the model")
      .def_property_readonly(
          "equations",
          [](PyModel &model) { return mech::driver::equationsText(model.derived().equations()); },
          "the derived equations as `mech equations` prints them")
      .def("eval", &evaluate, py::arg("q") = py::none(), py::arg("qd") = py::none(),
           py::arg("t") = 0.0, py::arg("input") = py::none(),
           "eval(q=None, qd=None, t=0, input=None) -> dict\n\n"
           "The equations at a state, as `mech eval --at` evaluates them: q and qd are\n"
           "dicts by name or sequences in coordinate order (missing values come from the\n"
           "model's init); input gives the inputs' values at t, {\"F\": 2.0} or\n"
           "{\"F\": \"cos(1.5*t)\"} (default 0). Returns qdd, M, f, Q (NumPy arrays), T, V,\n"
           "the outputs and, with constraints, the multipliers.")
      .def(
          "simulate",
          [](PyModel &model, const py::kwargs &options) { return simulate(model, options); },
          "simulate(until=10, dt=0.01, method='dopri5', rtol=1e-8, atol=1e-10, init=None,\n"
          "         step=None, max_steps=None, constraints=None, backend='jit',\n"
          "         no_cache=False) -> SimulationResult\n\n"
          "Integrates the model as `mech simulate` does, with the same options as keywords\n"
          "(init={'th1': 0.5} or \"th1=0.5\"). Runs with the GIL released; Ctrl-C stops it\n"
          "and raises KeyboardInterrupt. A run that fails keeps its samples up to the\n"
          "failure, which summary['failure'] describes.")
      .def("_command", &runCommand, py::arg("command"), py::arg("words"))
      .def("_equations_data", &equationsData)
      .def("_source", &sourceData)
      .def_property_readonly(
          "rhs", [](PyModel &model) { return RightHandSide(model); },
          "x' = F(t, x) as a fast callable rhs(t, x) (x = q then q', a float64 array),\n"
          "with the compiled kernels and the params as they are when it is taken: for\n"
          "scipy.integrate.solve_ivp(m.rhs, ...); rhs(t, x, u) with the inputs u")
      .def("jacobian", &stateJacobian, py::arg("t"), py::arg("x"), py::arg("u") = py::none(),
           "jacobian(t, x, u=None) -> dF/dx (2n x 2n) of x' = F(t, x, u), exact (the\n"
           "symbolic derivatives of the equations, as the implicit methods use them)")
      .def("__repr__", [](PyModel &model) {
        return "<mech.Model " + model.session().loaded().model().name + ">";
      });
}

} // namespace

PYBIND11_MODULE(_mech, m) {
  m.doc() = "mech: analytical mechanics models (.mech files), their equations, simulations "
            "and sweeps";
  modelError = PyErr_NewExceptionWithDoc(
      "mech.ModelError",
      "A model that does not load, check or derive. str() is the located diagnostics as the\n"
      "CLI prints them; .diagnostics lists (file, line, column, message) per error.",
      PyExc_Exception, nullptr);
  m.attr("ModelError") = py::reinterpret_borrow<py::object>(modelError);
  translateFailures();
  defineModel(m);
  defineResult(m);
  defineRightHandSide(m);
  m.def(
      "load", [](const std::string &path, const py::dict &set) { return PyModel::load(path, set); },
      py::arg("path"), py::kw_only(), py::arg("set") = py::dict(),
      "load(path, *, set={}) -> Model: the model of a .mech file, checked, with params set");
  m.def(
      "loads",
      [](const std::string &text, const std::string &name, const py::dict &set,
         const std::string &folder, const std::vector<std::string> &settings) {
        return PyModel::loads(text, name, set, folder, settings);
      },
      py::arg("text"), py::kw_only(), py::arg("name") = "<string>", py::arg("set") = py::dict(),
      py::arg("import_folder") = "", py::arg("settings") = std::vector<std::string>(),
      "loads(text, *, name='<string>', set={}, import_folder='', settings=[]) -> Model: the\n"
      "model of .mech text; its imports are looked up in import_folder first; settings\n"
      "are --set texts applied before set");
  m.def(
      "sweep",
      [](PyModel &model, const py::dict &grid, const py::object &summary,
         const py::object &progress, bool paired, const py::kwargs &options) {
        return sweep(model, grid, paired, summary, progress, options);
      },
      py::arg("model"), py::arg("grid") = py::dict(), py::arg("summary"),
      py::arg("progress") = py::none(), py::arg("paired") = false,
      "sweep(model, grid={name: array}, summary=[...], *, until=10, threads=None,\n"
      "      random=None, seed=0, init=None, stop_when=None, ...) -> dict\n\n"
      "Runs the model once per combination of the grid's values (the first name\n"
      "varying slowest), reduces each run to its summaries (the reducers of `mech\n"
      "sweep`: at_end, max, min, mean, any, all, first_time, energy_drift,\n"
      "constraint_drift, status) and returns {column: array}: the swept names, the\n"
      "summaries, status and message. Same engine, rows and order as `mech sweep`;\n"
      "runs on all cores with the GIL released.");
}
