// The subcommands of `mech`. Each returns the process exit code: 0 success,
// 1 errors in a model, 2 usage errors.
#pragma once

#include <string>
#include <vector>

namespace mech::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitModelError = 1;
inline constexpr int kExitUsage = 2;

struct Invocation {
  std::string executable;
  std::vector<std::string> args; // after the subcommand
};

int runCheck(const Invocation &invocation);
int runFmt(const Invocation &invocation);
int runDump(const Invocation &invocation, const std::string &stage);
int runEquations(const Invocation &invocation);
int runEval(const Invocation &invocation);
int runSimulate(const Invocation &invocation);

// Reports a usage error on stderr and returns kExitUsage.
int usageError(const std::string &message);

} // namespace mech::cli
