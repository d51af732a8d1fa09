// Model.simulate and Model.eval of the Python package: the CLI's simulate
// and eval (driver/Simulation.h, mechanics/Evaluation.h) with NumPy arrays
// for their numbers.
#pragma once

#include "PyModel.h"

#include <pybind11/numpy.h>

#include <map>

namespace mech::python {

// A simulation's samples, column by column (t first), and its summary.
// The arrays Python reads are views of these columns, whose base is the
// result object: nothing is copied.
class SimulationResult {
public:
  std::vector<std::string> names; // t, then simulate's CSV columns
  std::vector<std::vector<double>> columns;
  py::dict summary;

  const std::vector<double> &column(const std::string &name) const;
};

std::shared_ptr<SimulationResult> simulate(PyModel &model, const py::dict &options);

// The equations evaluated at q, q' and t: qdd, M, f, Q, T, V, the outputs
// and (with constraints) the multipliers.
py::dict evaluate(PyModel &model, const py::object &q, const py::object &qd, double t,
                  const py::object &input);

// A read-only NumPy view of `values`, kept alive by `owner`.
py::array_t<double> view(const std::vector<double> &values, const py::object &owner);

} // namespace mech::python
