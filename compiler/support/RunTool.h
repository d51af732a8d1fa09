// Runs another program (a C compiler, objcopy, rsvg-convert) the way mech
// needs it: without a shell, its output kept in a log that an error quotes.
#pragma once

#include <string>
#include <vector>

namespace mech {

// Runs args[0] (looked up in PATH) with args, its stdout and stderr in the
// file `log`. False with `error` set when it cannot start ("cannot run
// 'NAME' (REASON): " + whenMissing) or exits other than with 0 (the
// command and its output).
bool runTool(const std::vector<std::string> &args, const std::string &log,
             const std::string &whenMissing, std::string &error);

// Whether `program` is an executable file in one of PATH's folders.
bool onPath(const std::string &program);

} // namespace mech
