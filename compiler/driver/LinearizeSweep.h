// `mech linearize --sweep "v=0..10:201"`: the eigenvalues of A against a
// param (or a name the --at text uses, such as a bicycle's forward speed),
// the structural zero modes dropped, and the values where stability changes
// located by bisection on the largest real part of the remaining modes.
#pragma once

#include "driver/Commands.h"
#include "driver/Pipeline.h"
#include "mechanics/ConstrainedLinearization.h"
#include "mechanics/Linearization.h"
#include "mechanics/StateMatrices.h"

#include <complex>
#include <optional>
#include <string>
#include <vector>

namespace mech::driver {

using mechanics::keptEigenvalues;
using mechanics::StateMatrices;
using mechanics::StateMatrix;
using mechanics::stateNames;
using mechanics::structuralZeroStates;

// "NAME=LO..HI[UNIT]:N": N values (default 101) from LO to HI; UNIT, when
// given, is the unit of LO and HI.
struct SweepSpec {
  std::string name, unit;
  double lo = 0, hi = 0;
  size_t count = 101;
};
// Nullopt with `error` set when the text is not of that form.
std::optional<SweepSpec> parseSweep(const std::string &text, std::string &error);

// The scale from a sweep's numbers to SI for param `p`: its declared unit,
// or the sweep's [UNIT] (whose dimension must be the param's); nullopt
// after reporting a mismatch.
std::optional<double> paramScale(LoadedModel &loaded, const SweepSpec &spec, const sema::Param &p);

// The --independent text: coordinate names, speeds primed. Nullopt (with an
// error reported) on a name that is not a coordinate or is given twice.
std::optional<mechanics::IndependentChoice> independentChoice(LoadedModel &loaded,
                                                              const std::string &text);

// The command with --sweep (RunLinearizeSweep.cpp).
int runLinearizeSweep(const CommandLine &line, Session &session, const CommandIo &io);

} // namespace mech::driver
