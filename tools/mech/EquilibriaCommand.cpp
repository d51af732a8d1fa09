// PLACEHOLDER: being written.
#include "Commands.h"

namespace mech::cli {

int runEquilibria(const Invocation &) { return usageError("not available yet"); }

int runLinearize(const Invocation &) { return usageError("not available yet"); }

} // namespace mech::cli
