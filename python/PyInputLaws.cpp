// Python callables as a simulation's inputs (python/PyInputLaws.h).
#include "PyInputLaws.h"

#include "PyModel.h"
#include "support/NumberText.h"

#include <pybind11/numpy.h>

#include <cmath>
#include <limits>

namespace py = pybind11;

namespace mech::python {

namespace {

// Whether `function` takes exactly one positional argument (law(t));
// callables whose signature Python cannot tell are called with (t, x).
bool takesTimeOnly(const py::object &function) {
  try {
    py::object signature = py::module_::import("inspect").attr("signature")(function);
    return py::len(signature.attr("parameters")) == 1;
  } catch (const py::error_already_set &) {
    return false;
  }
}

} // namespace

std::shared_ptr<InputLaws> InputLaws::extract(py::dict &options) {
  auto laws = std::make_shared<InputLaws>();
  if (!options.contains("input") || !py::isinstance<py::dict>(options["input"]))
    return laws;
  py::dict given = options["input"], rest;
  for (auto [name, value] : given) {
    if (PyCallable_Check(value.ptr()))
      laws->laws_.push_back({py::str(name).cast<std::string>(),
                             py::reinterpret_borrow<py::object>(value), false, 0, 0});
    else
      rest[name] = value;
  }
  if (rest.empty())
    PyDict_DelItemString(options.ptr(), "input");
  else
    options["input"] = rest;
  for (Law &law : laws->laws_)
    law.timeOnly = takesTimeOnly(law.function);
  return laws;
}

mechanics::InputFill InputLaws::bind(const std::shared_ptr<InputLaws> &self,
                                     const driver::LoadedModel &loaded) {
  const sema::CheckedModel &model = loaded.model();
  std::string inputs;
  for (const sema::Param &p : model.params)
    if (p.input)
      inputs += (inputs.empty() ? "" : ", ") + p.name;
  for (Law &law : laws_) {
    size_t i = 0;
    while (i < model.params.size() && !(model.params[i].input && model.params[i].name == law.name))
      ++i;
    if (i == model.params.size())
      throw UsageFailure{"simulate: input: '" + law.name + "' is not an input of the model (" +
                         (inputs.empty() ? "it has none" : "its inputs: " + inputs) + ")"};
    law.param = i;
  }
  states_ = 2 * loaded.equations().coordinates.size();
  return [self](double t, const double *x, double *p) { self->fill(t, x, p); };
}

// The number a law returned: a float, a NumPy scalar or an array of one
// element (K @ x with K of one row); anything else names the input.
double lawValue(const std::string &name, const py::object &value, double t) {
  double v;
  try {
    v = py::cast<double>(value);
  } catch (const py::cast_error &) {
    throw py::type_error("simulate: the input law of " + name + " returned " +
                         py::repr(value).cast<std::string>() + " at t = " + shortestNumber(t) +
                         ", not a number");
  }
  if (!std::isfinite(v))
    throw py::value_error("simulate: the input law of " + name + " returned " +
                          shortestNumber(v) + " at t = " + shortestNumber(t));
  return v;
}

// Runs inside the integrator, on the thread that holds the GIL
// (runHolding): taking it again costs only a count. After a law raised, every input is NaN, which fails the run
// at its next step; rethrow() then raises the law's exception, with a note
// that names the input and the time (PEP 678).
void InputLaws::fill(double t, const double *x, double *p) {
  constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
  if (error_) {
    for (const Law &law : laws_)
      p[law.param] = kNan;
    return;
  }
  if (!x) { // the mass matrix: no input enters it, the last values serve
    for (const Law &law : laws_)
      p[law.param] = law.last;
    return;
  }
  py::gil_scoped_acquire gil;
  const Law *calling = nullptr;
  try {
    py::array_t<double> state(static_cast<py::ssize_t>(states_), x);
    for (Law &law : laws_) {
      calling = &law;
      py::object value = law.timeOnly ? law.function(t) : law.function(t, state);
      law.last = lawValue(law.name, value, t);
      p[law.param] = law.last;
    }
  } catch (py::error_already_set &raised) {
    if (calling && py::hasattr(raised.value(), "add_note"))
      raised.value().attr("add_note")("raised by the input law of " + calling->name +
                                      " at t = " + shortestNumber(t));
    error_ = std::current_exception();
  } catch (...) {
    error_ = std::current_exception();
  }
  if (error_)
    for (const Law &law : laws_)
      p[law.param] = kNan;
}

} // namespace mech::python
