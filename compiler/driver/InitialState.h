// The state a simulation starts from: the model's init with --init applied,
// put onto the constraint manifold when it is off it (a note says what
// changed; --strict-init makes it an error), and checked to have regular
// equations of motion. Also words why the kernels refuse a state (singular
// mass matrix, dependent constraints) for the start and for mid-run
// failures alike.
#pragma once

#include "driver/Pipeline.h"
#include "mechanics/Kernels.h"

#include <optional>
#include <string>
#include <vector>

namespace mech::driver {

struct StartOptions {
  std::string init;              // --init "q=..., q'=..."
  bool strictInit = false;       // --strict-init
  std::vector<std::string> hold; // --hold: coordinates or families
};

// --hold's names (coordinates, or families for their members) into
// given.held; false after reporting one that is no coordinate.
bool heldCoordinates(LoadedModel &loaded, const std::vector<std::string> &names,
                     GivenValues &given);

// x0 = (q, q') at state t, or nullopt with the errors reported. Notes go to
// `notes`.
std::optional<std::vector<double>> initialState(LoadedModel &loaded, mechanics::Kernels &kernels,
                                                const std::vector<double> &params,
                                                const StartOptions &options, double &t0,
                                                std::vector<std::string> &notes);

// Puts x = (q, q') at t onto the constraints when it is off them, keeping
// the given values where the constraints allow (the command line's first,
// then the model's init) and the held ones always; a note says what
// changed, naming `what` ("the initial state", "the state given by --at").
// With `positionsOnly` the velocities are left alone. False after reporting
// an error: x cannot be put onto the constraints (with the held values),
// or `strict` forbids changing it.
bool ontoConstraints(LoadedModel &loaded, mechanics::Kernels &kernels,
                     const std::vector<double> &params, double t, std::vector<double> &x,
                     const GivenValues &given, const std::string &what, bool strict,
                     bool positionsOnly, std::vector<std::string> &notes);

// Which velocities a state from --at has: zero (only the positions are
// projected: statics, equilibria), those --at gives and zero for the rest
// (linearize: rest unless the text gives a velocity), or those --at gives
// and the model's init for the rest (eval).
enum class Velocities { Rest, Given, GivenOrInit };

// The state --at gives (see parseState), put onto the constraints as above
// (with the interpreter's kernels).
std::optional<mechanics::State> consistentState(LoadedModel &loaded, const std::string &at,
                                                Velocities velocities,
                                                std::vector<std::string> &notes);

// Why the kernels returned `status` at (t, x), with `when` ("at t = 2.5")
// after the headline: "mass matrix is singular at t = 2.5: coordinate 'phi'
// has no inertia", "constraints 'a' and 'b' are redundant or conflicting at
// t = 0 (...)".
std::string describeFailure(const mechanics::Equations &equations, mechanics::Kernels &kernels,
                            const std::vector<double> &params, int status, double t,
                            const double *x, const std::string &when);

} // namespace mech::driver
