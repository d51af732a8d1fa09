// --in "q = a..b, ...": the box in which equilibria and steady motions
// are searched, per coordinate, with units checked.
#pragma once

#include "driver/Commands.h"
#include "driver/Session.h"
#include "mechanics/Equilibria.h"

#include <optional>
#include <string>

namespace mech::driver {

// Applies the ranges of `text` to `box`; nullopt on success, else the exit
// code (usage errors for the shape, model errors, reported, for the values).
// `command` names the command in usage errors.
std::optional<int> applySearchRange(LoadedModel &loaded, const std::string &command,
                                    const std::string &text, mechanics::Box &box,
                                    const CommandIo &io);

} // namespace mech::driver
