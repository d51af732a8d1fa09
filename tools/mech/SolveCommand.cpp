// PLACEHOLDER: being written.
#include "Commands.h"

namespace mech::cli {

int runSolve(const Invocation &) { return usageError("not available yet"); }

} // namespace mech::cli
