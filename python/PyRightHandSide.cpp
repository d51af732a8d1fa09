// Model.rhs (PyRightHandSide.h). pybind11's dispatch (overload resolution,
// an argument loader per argument, a forcecast of the array) costs about a
// microsecond per call, more than the double pendulum's kernel; the call
// slot below takes the common call rhs(t, x) with x a contiguous float64
// vector directly and leaves every other call to pybind11's __call__.
#include "PyRightHandSide.h"

#include "driver/Simulation.h"
#include "mechanics/StateJacobian.h"

namespace mech::python {

namespace {

// x as its 2n doubles (any array-like of that length); ValueError else.
std::vector<double> stateFrom(const py::array_t<double> &x, size_t states) {
  if (x.ndim() != 1 || static_cast<size_t>(x.shape(0)) != states)
    throw UsageFailure{"rhs: the state has " + std::to_string(states) + " entries (q, then q')"};
  auto in = x.unchecked<1>();
  std::vector<double> state(states);
  for (size_t i = 0; i < states; ++i)
    state[i] = in(i);
  return state;
}

// The params with the model's inputs (their last `inputs` entries) set to
// u; None leaves them as given.
std::vector<double> paramsWith(std::vector<double> params, size_t inputs, const py::object &u) {
  if (u.is_none())
    return params;
  auto values = py::array_t<double, py::array::forcecast>::ensure(u);
  if (!values || values.ndim() > 1 || static_cast<size_t>(values.size()) != inputs)
    throw UsageFailure{"rhs: u has the model's " + std::to_string(inputs) +
                       " inputs, in their declaration order"};
  for (size_t i = 0; i < inputs; ++i)
    params[params.size() - inputs + i] = values.data()[i];
  return params;
}

} // namespace

RightHandSide::RightHandSide(PyModel &model) {
  driver::LoadedModel &loaded = model.derived();
  driver::SimulationOptions options;
  driver::SimulationSummary summary;
  kernels_ = loaded.keptKernels(false, false);
  if (!kernels_) {
    kernels_ =
        driver::makeKernels(loaded.programs(), loaded.model(), options, summary, loaded.sourceKey);
    if (summary.backendNote.empty())
      loaded.keepKernels(false, false, kernels_);
  }
  params_ = loaded.paramValues();
  n_ = loaded.equations().coordinates.size();
  inputs_ = loaded.equations().inputs.size();
}

void RightHandSide::evaluate(double t, const double *x, double *xdot) const {
  if (kernels_->rhs(t, x, params_.data(), xdot) != 0)
    throw UsageFailure{"rhs: the mass matrix is singular at this state"};
}

py::array_t<double> RightHandSide::operator()(double t, const py::array_t<double> &x,
                                              const py::object &u) const {
  std::vector<double> state = stateFrom(x, 2 * n_), params = paramsWith(params_, inputs_, u);
  py::array_t<double> xdot(2 * n_);
  if (kernels_->rhs(t, state.data(), params.data(), xdot.mutable_data()) != 0)
    throw UsageFailure{"rhs: the mass matrix is singular at this state"};
  return xdot;
}

namespace {

// pybind11's call slot, for the calls the fast one does not take.
ternaryfunc generalCall = nullptr;

using ContiguousVector = py::array_t<double, py::array::c_style>;

// rhs(t, x) with a float t (or int, or NumPy's float64 as solve_ivp passes) and x a contiguous
// float64 vector of the right length; nullptr with no Python error set when the call is not of that
// form.
PyObject *fastCall(PyObject *self, PyObject *args) {
  if (PyTuple_GET_SIZE(args) != 2)
    return nullptr;
  PyObject *time = PyTuple_GET_ITEM(args, 0);
  py::handle state = PyTuple_GET_ITEM(args, 1);
  if (!(PyFloat_Check(time) || PyLong_Check(time)) || !ContiguousVector::check_(state))
    return nullptr;
  auto array = py::reinterpret_borrow<ContiguousVector>(state);
  const RightHandSide &rhs = py::handle(self).cast<const RightHandSide &>();
  if (array.ndim() != 1 || static_cast<size_t>(array.shape(0)) != rhs.states())
    return nullptr;
  double t = PyFloat_AsDouble(time);
  if (t == -1.0 && PyErr_Occurred()) {
    PyErr_Clear();
    return nullptr;
  }
  py::array_t<double> xdot(rhs.states());
  rhs.evaluate(t, array.data(), xdot.mutable_data());
  return xdot.release().ptr();
}

PyObject *call(PyObject *self, PyObject *args, PyObject *keywords) {
  if (keywords == nullptr) {
    try {
      if (PyObject *result = fastCall(self, args))
        return result;
    } catch (const UsageFailure &failure) {
      PyErr_SetString(PyExc_ValueError, failure.text.c_str());
      return nullptr;
    } catch (py::error_already_set &error) {
      error.restore();
      return nullptr;
    }
  }
  return generalCall(self, args, keywords);
}

} // namespace

py::array_t<double> stateJacobian(PyModel &model, double t, const py::array_t<double> &x,
                                  const py::object &u) {
  driver::LoadedModel &loaded = model.derived();
  const mechanics::Equations &eq = loaded.equations();
  size_t states = 2 * eq.coordinates.size();
  std::vector<double> state = stateFrom(x, states),
                      params = paramsWith(loaded.paramValues(), eq.inputs.size(), u);
  driver::SimulationOptions options;
  options.integrator.method = runtime::Method::Radau; // a selection with the Jacobian
  driver::SimulationSummary summary;
  std::shared_ptr<mechanics::Kernels> kernels = driver::modelKernels(loaded, options, summary);
  py::array_t<double> J({states, states});
  if (mechanics::StateJacobian(*kernels)(t, state.data(), params.data(), J.mutable_data()) != 0)
    throw UsageFailure{"jacobian: the equations of the first kind are singular at this state"};
  return J;
}

void defineRightHandSide(py::module_ &module) {
  py::class_<RightHandSide> type(module, "RightHandSide",
                                 "x' = F(t, x) of a model (Model.rhs): rhs(t, x) with x = q then "
                                 "q' returns x' as a new float64 array");
  type.def("__call__", &RightHandSide::operator(), py::arg("t"), py::arg("x"),
           py::arg("u") = py::none())

      .def_property_readonly("states", &RightHandSide::states, "2n: the length of x");
  auto *object = reinterpret_cast<PyTypeObject *>(type.ptr());
  generalCall = object->tp_call;
  object->tp_call = call;
  PyType_Modified(object);
}

} // namespace mech::python
