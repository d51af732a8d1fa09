// The front-to-back pipeline that every command shares: load and check a
// model with --set values, derive its equations, read a state from --at.
// Diagnostics go to the compilation; callers print them.
#pragma once

#include "mechanics/Evaluation.h"
#include "mechanics/InputKernels.h"
#include "mechanics/Kernels.h"
#include "mechanics/Lagrange.h"
#include "sema/Analyzer.h"
#include "sema/InputSignals.h"
#include "sema/Values.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mech::driver {

struct LoadedModel {
  std::unique_ptr<sema::Compilation> compilation;
  sema::Analysis analysis;
  std::optional<mechanics::Derivation> derivation;

  Diagnostics &diagnostics() { return compilation->diagnostics(); }
  const sema::CheckedModel &model() const { return *analysis.model; }
  const mechanics::Equations &equations() const { return derivation->equations; }
  // The inputs' values: signals from --input, values from --at (which win);
  // 0 for an input given neither way.
  std::shared_ptr<const sema::InputSignals> inputs;
  // Inputs given as functions of t and the state by a caller of the engine
  // (Python's simulate with callables): applied after the signals, at each
  // evaluation of a simulation's kernels. Empty for none.
  mechanics::InputFill inputLaw;
  // The derivation cache's key of this model's sources, once derived with
  // the cache (driver/DerivationCache.h): the kernel cache also finds the
  // model's own compiled kernels by it, without generating IR. Empty
  // without the cache.
  std::string sourceKey;
  std::vector<std::pair<size_t, double>> inputsAt;
  // The params' values, the inputs' at time t among them (the last entries).
  std::vector<double> paramValues(double t = 0) const;
  // The CSE'd programs of the derivation (mechanics::KernelPrograms), built
  // on first use and kept: a session's :eval, :sim and :build after one
  // another build them once. They do not depend on the param values.
  const mechanics::KernelPrograms &programs();
  // programs() with the state Jacobian's program added (once) for the
  // implicit integrators.
  const mechanics::KernelPrograms &programsWithJacobian();
  // The JIT-compiled kernels of programs(), once a simulation kept them
  // (one set each with the momentum force the midpoint method needs, with
  // the Jacobian the implicit methods need, and with neither): a session's
  // second :sim compiles nothing. Null before.
  std::shared_ptr<mechanics::Kernels> keptKernels(bool momentumForce, bool jacobian) const {
    return keptKernels_[slot(momentumForce, jacobian)];
  }
  void keepKernels(bool momentumForce, bool jacobian, std::shared_ptr<mechanics::Kernels> kernels) {
    keptKernels_[slot(momentumForce, jacobian)] = std::move(kernels);
  }

private:
  std::unique_ptr<mechanics::KernelPrograms> programs_;
  static int slot(bool momentumForce, bool jacobian) {
    return (momentumForce ? 1 : 0) + (jacobian ? 2 : 0);
  }
  std::shared_ptr<mechanics::Kernels> keptKernels_[4];
};

// Loads, checks and (with derive) derives. `settings` are the texts given to
// --set, each a list `name = value, ...`; `additions` are declarations typed
// after the file (sema::Addition). Null model or derivation on errors.
std::unique_ptr<LoadedModel> loadModel(const std::string &path,
                                       const std::vector<std::string> &settings,
                                       const sema::SearchPath &searchPath, bool derive,
                                       const std::vector<sema::Addition> &additions = {});

// The same for model text that is not in a file (the REPL's session model);
// `name` stands for the file in messages, and imports are looked up from
// its folder.
std::unique_ptr<LoadedModel> loadModelText(const std::string &name, const std::string &text,
                                           const std::vector<std::string> &settings,
                                           const sema::SearchPath &searchPath, bool derive,
                                           const std::vector<sema::Addition> &additions = {});

// Reads `--input` text into loaded.inputs; false after errors (reported to
// the diagnostics).
bool readInputs(LoadedModel &loaded, const std::string &text);

// Which values of a state were given, and where: on the command line (--at,
// --init) or by the model's `init`. A projection onto the constraints keeps
// the command line's values first, then the model's, where the constraints
// allow.
struct GivenValues {
  std::vector<bool> positions, velocities;         // by the command line
  std::vector<bool> initPositions, initVelocities; // by the model's init
  // By --hold: coordinates (with their velocities) that must stay, in
  // every set to keep; empty or all false when none is held.
  std::vector<bool> held;
  // The sets of coordinates (of velocities) to keep, in the order to try.
  std::vector<std::vector<bool>> positionPreferences() const;
  std::vector<std::vector<bool>> velocityPreferences() const;
  // Whether some coordinate is held: then no set short of the held ones
  // may be tried (the projection fails instead).
  bool holds() const;
};

// The state given by --at (coordinates, velocities and t), with the model's
// init values for what is not listed. `given`, when asked for, says which
// values the text or the model's init set. `option` is the option the text
// came from (--at, --init), for messages; each value is checked against the
// dimension of what it sets.
std::optional<mechanics::State> parseState(LoadedModel &loaded, const std::string &text,
                                           GivenValues *given = nullptr,
                                           const std::string &option = "--at");

// The index of the coordinate called `name`, or -1.
int coordinateIndex(const sema::CheckedModel &model, const std::string &name);
// The members of the coordinate family called `name` (th for th[1..n]), in
// order; empty when `name` is no family.
std::vector<int> familyMembers(const sema::CheckedModel &model, const std::string &name);

// The dimension of coordinate `coord` of `model` differentiated `primes`
// times in time (unknown for a coordinate declared without a unit).
sema::DimInfo coordinateDimension(const sema::CheckedModel &model, int coord, int primes);

// Reports a value given on the command line whose dimension is not
// `expected`, at the value; false then. Unknown dimensions on either side pass.
bool checkValueDimension(Diagnostics &diagnostics, const sema::Assignment &value,
                         const sema::DimInfo &expected);

} // namespace mech::driver
