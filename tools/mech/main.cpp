// The `mech` command line: parses the subcommand and hands over to it.
#include "Commands.h"

#include "driver/Simulation.h"
#include "jit/HostInfo.h"
#include "support/Diagnostics.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>

namespace {

const char *kUsage = R"(usage: mech <command> [options] FILE...

A compiler for models of analytical mechanics (.mech files).

commands:
  check [--json] FILE...
                       check models and libraries; print a summary of each
  fmt [--check [--json] | --write] FILE...
                       print FILE in canonical form; --check reports files
                       that are not formatted (exit 1), --write rewrites them
  equations FILE [--set p=v ...] [--latex | --json]
                       Lagrange's equations: T, V, L, the generalized forces,
                       the mass matrix M and forcing f (M*q'' = f)
  simulate FILE [--until T] [--dt h] [--method dopri5|dop853|rk4|midpoint]
         [--rtol r] [--atol a] [--step h] [--max-steps N] [--init "q=v, q'=w"]
         [--set p=v ...] [-o out.csv] [--plot out.svg] [--plot-vars th1,th2]
         [--backend jit|interp] [--no-cache] [--strict-init] [--no-projection]
         [--baumgarte a,b]
                       integrate the equations with compiled code; CSV on
                       stdout (or -o), a summary on stderr; compiled code is
                       cached in $XDG_CACHE_HOME/mech (or ~/.cache/mech); an
                       initial state off the constraints is projected onto
                       them (an error with --strict-init), and so is the
                       state after every step (unless --no-projection);
                       --baumgarte a,b stabilizes C*q'' = gamma - 2a*psi - b^2*Phi
  eval FILE [--at "q=v, q'=w, t=v"] [--set p=v ...] [--json]
                       evaluate everything at a state and solve for q''
                       (unlisted coordinates take the model's init values)
  equilibria FILE [--in "q=a..b, ..."] [--time t0] [--set p=v ...] [--json]
                       the states of rest in a box, their stability and
                       small oscillations
  linearize FILE --at "q=v, ..." [--set p=v ...] [--json]
                       M, K = -df/dq, C = -df/dq' and the first-order matrix A
                       at an equilibrium
  conserved FILE [--set p=v ...] [--json]
                       cyclic coordinates with their momenta, and the energy
                       (Jacobi) integral
  solve FILE --at "q=v, ..." --for P [--for P2 ...] [--set p=v ...] [--json]
                       statics by virtual work: the params that make the
                       configuration an equilibrium
  repl [FILE] [--prompt] [--echo]
                       an interactive session: expressions over the model's
                       names (diff, simplify, subs, taylor, eval), declarations
                       typed line by line, and :commands (:eom, :eval, :sim,
                       :equilibria, :set, :reload, :help, ...)
  build FILE -o libNAME.so [--header NAME.h] [--prefix NAME]
         [--cpu generic|native] [--set p=v ...]
                       compile the model to a shared library with a C ABI
                       (rhs, mass matrix, energy, multipliers, simulate, ...)
                       and write its header; -o NAME.o writes the object alone;
                       --prefix renames every symbol (default: mech)
options:
  --dump=ast FILE      print the syntax tree
  --dump=sema FILE     print the checked model (names resolved, SI values)
  --dump=eom FILE      print the derived equations (the Lagrange IR)
  --dump=llvm FILE     print the optimized LLVM IR of the model's kernels
  --set p=v            set a param (values may carry units: --set l=30[cm])
  --help               show this help
  --version            show the version, the LLVM version and the host

exit status: 0 success, 1 errors in a model, 2 usage errors
environment: MECH_PATH  folders (separated by ':') searched for imports
)";

int dispatch(int argc, char **argv) {
  using namespace mech::cli;
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::cerr << kUsage;
    return kExitUsage;
  }
  const std::string &command = args[0];
  Invocation invocation{argv[0], std::vector<std::string>(args.begin() + 1, args.end())};
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kUsage;
    return kExitOk;
  }
  if (command == "--version") {
    mech::jit::HostInfo host = mech::jit::hostInfo();
    std::cout << "mech " << MECH_VERSION << " (LLVM " << host.llvmVersion << ", " << host.triple
              << ", " << host.cpu << ")\n";
    return kExitOk;
  }
  if (command.rfind("--dump=", 0) == 0)
    return runDump(invocation, command.substr(7));
  if (command == "check")
    return runCheck(invocation);
  if (command == "fmt")
    return runFmt(invocation);
  if (command == "equations")
    return runEquations(invocation);
  if (command == "eval")
    return runEval(invocation);
  if (command == "simulate")
    return runSimulate(invocation);
  if (command == "equilibria")
    return runEquilibria(invocation);
  if (command == "linearize")
    return runLinearize(invocation);
  if (command == "conserved")
    return runConserved(invocation);
  if (command == "solve")
    return runSolve(invocation);
  if (command == "build")
    return runBuild(invocation);
  if (command == "repl")
    return runRepl(invocation);
  return usageError("unknown command '" + command + "'");
}

// What a command printed must have reached standard output: a full disk
// or /dev/full is an error, not a silent loss. The reason is known when the
// last flush fails; a failure in the middle of the output leaves no errno.
int checkStandardOutput(int status) {
  errno = 0;
  bool failed = std::fflush(stdout) != 0;
  int reason = errno;
  std::cout.flush();
  if (!failed && !std::ferror(stdout) && std::cout)
    return status;
  std::cerr << "mech: error: cannot write standard output"
            << (failed && reason != 0 ? std::string(": ") + std::strerror(reason) : "") << "\n";
  return status == mech::cli::kExitOk ? mech::cli::kExitModelError : status;
}

} // namespace

int main(int argc, char **argv) {
  mech::driver::markProcessStart();
  try {
    return checkStandardOutput(dispatch(argc, argv));
  } catch (const mech::InternalError &error) {
    std::cerr << "mech: " << error.what() << "\n";
    return 3;
  } catch (const std::bad_alloc &) {
    std::cerr << "mech: error: out of memory\n";
    return 1;
  } catch (const std::exception &error) {
    // A failure no check anticipated: reported, never an abort.
    std::cerr << "mech: internal error: " << error.what() << "\n";
    return 3;
  }
}
