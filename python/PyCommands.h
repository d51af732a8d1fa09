// What the Python package takes from the CLI's commands as they are: an
// analysis run as its command with --json (equilibria, steady, linearize,
// conserved, solve) or as it is (build), the equations as expressions with
// their text and LaTeX, the model's source for a remote worker, and the
// right-hand side as a fast callable.
#pragma once

#include "PyModel.h"

#include "mechanics/Kernels.h"

#include <pybind11/numpy.h>

namespace mech::python {

// Runs `command` with `words` on the model with the GIL released; returns
// what it printed on stdout. Exit status 2 raises ValueError, 1 a
// ModelError with the errors it printed.
std::string runCommand(PyModel &model, const std::string &command,
                       const std::vector<std::string> &words);

// {"T": (text, latex), ..., "Q": [...], "M": [[...]], "f": [...],
//  "where": [(name, text, latex)], "coordinates": [...]}, in display form.
py::dict equationsData(PyModel &model);

// {"name", "text", "settings", "folder"}: what loads() needs to load the
// same model elsewhere.
py::dict sourceData(PyModel &model);

// x' = F(t, x) with the compiled kernels and the params as they are now.
class RightHandSide {
public:
  explicit RightHandSide(PyModel &model);
  py::array_t<double> operator()(double t, const py::array_t<double> &x) const;
  size_t states() const { return 2 * n_; }

private:
  std::shared_ptr<mechanics::Kernels> kernels_;
  std::vector<double> params_;
  size_t n_ = 0;
};

} // namespace mech::python
