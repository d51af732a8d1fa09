// mech.sweep of the Python package: many runs of one model, each reduced
// to a row of summaries, on all cores with the GIL released; the same
// engine, summaries and row order as `mech sweep` (driver/Sweep.h).
#pragma once

#include "PyModel.h"

namespace mech::python {

// `grid` maps swept names to 1-D arrays (every combination is a run, the
// first name varying slowest); `summary` is a list of summaries or one
// text; `options` are the CLI's sweep options as keywords (until, dt,
// method, rtol, atol, threads, random, seed, init, stop_when, ...). The
// result maps each column (the swept names, the summaries, status,
// message) to an array (a list of texts for status and message).
// `progress`, unless None, is called as progress(done, runs) every 50 ms.
// `paired`: the grid's arrays, all of one length, are taken together (run
// k takes the k-th value of each) instead of as a product.
py::dict sweep(PyModel &model, const py::dict &grid, bool paired, const py::object &summary,
               const py::object &progress, const py::dict &options);

} // namespace mech::python
