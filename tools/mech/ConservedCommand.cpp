// PLACEHOLDER: being written.
#include "Commands.h"

namespace mech::cli {

int runConserved(const Invocation &) { return usageError("not available yet"); }

} // namespace mech::cli
