// The object code of a shared library built from a model (`mech build`): the
// kernels of KernelModule made internal, and exported entry points named
// PREFIX_rhs, PREFIX_jacobian, PREFIX_simulate, ... that check their arguments and results
// through the library runtime (runtime/library), plus the model's
// description (PREFIX_model) and the ABI version.
#pragma once

#include "mechanics/Kernels.h"
#include "mechanics/SwitchPrograms.h"

#include <string>
#include <vector>

namespace mech::jit {

// Raised whenever a function's signature, a status code or the layout of
// the model description changes incompatibly. 2: PREFIX_simulate_with and
// PREFIX_sim_options (start time, multiplier and output columns, the
// input function), and nu at the end of the model info. 3: events and
// contacts (the event records of PREFIX_sim_options, the events' and
// contacts' names at the end of the model info, four status codes).
inline constexpr int kLibraryAbiVersion = 3;

struct LibraryDescription {
  std::string prefix = "mech";
  std::string name; // the model's name
  std::vector<std::string> coordinates, params, constraints, outputs;
  std::vector<double> paramDefaults; // SI
  std::vector<double> initialState;  // (q, q')
  std::vector<bool> holonomic;       // one per constraint
  size_t inputs = 0;                 // the last `inputs` params are the model's inputs
  std::vector<std::string> events, contacts, frictions;
  // An FMU's guid (its modelDescription.xml's), returned by the hidden
  // mechrt_library_guid; empty for a plain library.
  std::string fmuGuid;
};

// The programs must have the Jacobian (KernelPrograms::addJacobian).
// A position-independent ELF object for the generic CPU of the host's
// architecture or, with `nativeCpu`, for this machine; empty with `error`
// set when LLVM fails. It calls the mechrt_* functions of the runtime.
std::string compileLibraryObject(const mechanics::KernelPrograms &programs,
                                 const mechanics::SwitchPrograms &switches,
                                 const LibraryDescription &library, bool nativeCpu,
                                 std::string &error);

} // namespace mech::jit
