// `mech linearize --sweep "v=0..10:201"`: the eigenvalues of A against a
// param (or a name the --at text uses, such as a bicycle's forward speed),
// the structural zero modes dropped, and the values where stability changes
// located by bisection on the largest real part of the remaining modes.
#pragma once

#include "driver/Commands.h"
#include "driver/Pipeline.h"
#include "mechanics/ConstrainedLinearization.h"
#include "mechanics/Linearization.h"

#include <complex>
#include <optional>
#include <string>
#include <vector>

namespace mech::driver {

// "NAME=LO..HI[UNIT]:N": N values (default 101) from LO to HI; UNIT, when
// given, is the unit of LO and HI.
struct SweepSpec {
  std::string name, unit;
  double lo = 0, hi = 0;
  size_t count = 101;
};
// Nullopt with `error` set when the text is not of that form.
std::optional<SweepSpec> parseSweep(const std::string &text, std::string &error);

// The first-order matrix at a state, for either kind of model (A over
// (q, q') without constraints, in independent coordinates and speeds with
// them), with the names of its states. The linearization program is built
// once, so that a sweep evaluates it many times.
struct StateMatrix {
  mechanics::Matrix A;
  std::vector<std::string> names;
};
class StateMatrices {
public:
  // `params` fixes the layout (their count); at() takes their values.
  StateMatrices(const mechanics::Equations &equations, const std::vector<double> &params);
  // Nullopt with `why` when A is not formed there.
  std::optional<StateMatrix> at(const mechanics::State &state, const std::vector<double> &params,
                                const mechanics::IndependentChoice &choice, std::string &why);

private:
  const mechanics::Equations &equations_;
  std::optional<mechanics::Linearizer> free_;
  std::optional<mechanics::ConstrainedLinearizer> constrained_;
};

// The names of A's states: (q..., q'...) without constraints, else the
// independent coordinates and then the independent speeds (primed).
std::vector<std::string> stateNames(const mechanics::Equations &eq,
                                    const mechanics::ReducedLinearization *reduced);

// The --independent text: coordinate names, speeds primed. Nullopt (with an
// error reported) on a name that is not a coordinate or is given twice.
std::optional<mechanics::IndependentChoice> independentChoice(LoadedModel &loaded,
                                                              const std::string &text);

// The states whose column or row of A is zero at every sampled A, among
// the states not dropped before (repeated until none is left): nothing
// depends on them (an ignorable coordinate) or they do not change (a
// conserved speed). Each is one zero eigenvalue, and the others are the
// eigenvalues of A without them (A is block triangular).
std::vector<bool> structuralZeroStates(const std::vector<mechanics::Matrix> &samples);

// The eigenvalues of A without the `dropped` states, by real part.
std::vector<std::complex<double>> keptEigenvalues(const mechanics::Matrix &A,
                                                  const std::vector<bool> &dropped);

// The command with --sweep (RunLinearizeSweep.cpp).
int runLinearizeSweep(const CommandLine &line, Session &session, const CommandIo &io);

} // namespace mech::driver
