// What the Python package takes from the CLI's commands as they are: an
// analysis run as its command with --json (equilibria, steady, linearize,
// conserved, solve) or as it is (build), the equations as expressions with
// their text and LaTeX, and the model's source for a remote worker.
#pragma once

#include "PyModel.h"

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

} // namespace mech::python
