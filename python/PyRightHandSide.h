// Model.rhs: x' = F(t, x) as a Python callable for SciPy's solve_ivp, whose
// every call is one kernel call plus the least Python can do around it: a
// call slot of its own (not pybind11's overload dispatch) that reads a
// contiguous float64 state in place and allocates only the result.
#pragma once

#include "PyModel.h"

#include "driver/Pipeline.h"
#include "mechanics/Kernels.h"

#include <pybind11/numpy.h>

namespace mech::python {

// x' = F(t, x) with the compiled kernels and the params as they are when it
// is made; with the model's inputs u given, F(t, x, u).
class RightHandSide {
public:
  explicit RightHandSide(PyModel &model);
  // Any array-like x of 2n numbers (q, then q'), and u of the model's nu
  // inputs or None (the inputs at 0); ValueError otherwise.
  py::array_t<double> operator()(double t, const py::array_t<double> &x, const py::object &u) const;
  size_t states() const { return 2 * n_; }
  // Into `xdot` (2n doubles) from `x` (2n doubles, contiguous).
  void evaluate(double t, const double *x, double *xdot) const;

private:
  std::shared_ptr<mechanics::Kernels> kernels_;
  std::vector<double> params_;
  size_t n_ = 0, inputs_ = 0;
};

// Model.jacobian(t, x, u=None): dF/dx (2n x 2n) of x' = F(t, x, u), exact:
// from the symbolic derivatives of the equations (the Jacobian the implicit
// methods use), never finite differences; with the model's params now.
py::array_t<double> stateJacobian(PyModel &model, double t, const py::array_t<double> &x,
                                  const py::object &u);

// Defines mech.RightHandSide in `module`, with the fast call slot.
void defineRightHandSide(py::module_ &module);

} // namespace mech::python
