// The table of commands and their options. Texts here are the only source
// of the usage lines, `mech help CMD` and docs/cli.md's option tables.
#include "driver/CommandTable.h"

#include "runtime/Integrator.h"

namespace mech::driver {

namespace {

using T = OptionType;

// --method's choices: the integrators' one list of names.
std::vector<std::string> methodChoices() {
  std::vector<std::string> names;
  for (const runtime::MethodName &m : runtime::kMethodNames)
    names.push_back(m.name);
  return names;
}

OptionSpec setOption(const std::string &meaning = "set parameters") {
  return {"--set", "", T::Repeated, "p=v", "the model's values", "[syntax](#--set-parameters)",
          meaning, {}};
}

// --plot FILE of a command that draws, `meaning` saying what.
OptionSpec plotOption(const std::string &meaning) {
  return {"--plot", "", OptionType::Path, "FILE", "no plot", "path", meaning, {}};
}

OptionSpec jsonOption(const std::string &schema) {
  return {"--json", "", T::Flag, "", "off", "flag", "print JSON ([schema](#" + schema + "))", {}};
}

OptionSpec searchBoxOption(const std::string &meaning) {
  return {"--in",
          "",
          T::List,
          "\"q=a..b, ...\"",
          "[−π, π] for dimensionless coordinates (angles), [−10, 10] in SI units for the others",
          "[syntax](#--in-a-search-box)",
          meaning,
          {}};
}

OptionSpec freezeTimeOption() {
  return {"--time",
          "",
          T::Number,
          "t0",
          "—",
          "a plain number, in s",
          "freeze time at t0. Required if the equations depend on t explicitly, such as through "
          "a driving force. Without it such a model is an error. Shown as `(t frozen at t0)`",
          {}};
}

OptionSpec inputOption(const std::string &meaning) {
  return {
      "--input", "", T::List, "\"u=expr, ...\"", "0 for every input", "[syntax](#--input-inputs)",
      meaning,   {}};
}

const std::string kStateSyntax = "[syntax](#--at-and---init-a-state)";

CommandSpec checkCommand() {
  return {"check",
          "[--json] FILE...",
          "check models and libraries; print a summary of each",
          Operands::Files,
          {{"--json",
            "",
            T::Flag,
            "",
            "off",
            "flag",
            "print one JSON array with an object per file instead of the lines "
            "([schema](#check---json))",
            {}}},
          {},
          false};
}

CommandSpec fmtCommand() {
  return {"fmt",
          "[--check [--json] | --write] FILE...",
          "print FILE in canonical form; --check reports files that are not formatted (exit 1), "
          "--write rewrites them",
          Operands::Files,
          {{"--check",
            "",
            T::Flag,
            "",
            "off",
            "flag",
            "print nothing for formatted files and `FILE: not formatted` for the others. Exit "
            "status 1 if any file is not formatted",
            {}},
           {"--json",
            "",
            T::Flag,
            "",
            "off",
            "flag",
            "with `--check`: print `{\"unformatted\": [...]}` instead of the lines "
            "([schema](#fmt---check---json)). `--json` without `--check` is a usage error",
            {}},
           {"--write",
            "-w",
            T::Flag,
            "",
            "off",
            "flag",
            "rewrite the files that are not formatted, in place. Prints nothing",
            {}}},
          {{"--check", "--write"}},
          false};
}

CommandSpec equationsCommand() {
  return {"equations",
          "FILE [--minimal [--independent \"u', ...\"]] [--set p=v ...] [--latex | --json]",
          "Lagrange's equations: T, V, L, the generalized forces, the mass matrix M and forcing f "
          "(M*q'' = f); with --minimal, Kane's equations in the independent speeds",
          Operands::OneFile,
          {{"--minimal",
            "",
            T::Flag,
            "",
            "off",
            "flag",
            "with constraints: print the kinematic equations of the dependent speeds and Kane's "
            "(Maggi's) equations M_r u' = f_r in the independent speeds instead "
            "([below](#equations---minimal)). A model without constraints prints its equations "
            "as without it, with a note",
            {}},
           {"--independent",
            "",
            T::List,
            "\"u', ...\"",
            "by pivoting at the model's init configuration",
            "speeds: coordinate names with a prime, separated by commas, as many as the "
            "coordinates less the constraints",
            "with --minimal: the independent speeds; a choice that does not determine the others "
            "there is an error",
            {}},
           setOption(),
           {"--latex",
            "",
            T::Flag,
            "",
            "off",
            "flag",
            "print an `align` environment instead: T, V, and one equation per coordinate (with "
            "--minimal: the kinematic equations and one equation per independent speed)",
            {}},
           {"--json",
            "",
            T::Flag,
            "",
            "off",
            "flag",
            "print JSON ([schema](#equations---json); with --minimal, "
            "[this one](#equations---minimal---json))",
            {}}},
          {{"--json", "--latex"}},
          true};
}

CommandSpec evalCommand() {
  return {"eval",
          "FILE [--at \"q=v, q'=w, t=v\"] [--input \"u=expr\"] [--set p=v ...] [--json]",
          "evaluate everything at a state and solve for q'' (unlisted coordinates take the "
          "model's init values)",
          Operands::OneFile,
          {{"--at",
            "",
            T::List,
            "\"...\"",
            "the model's `init` (0 for what `init` does not set), t = 0",
            kStateSyntax,
            "the state, and the inputs' values there (`u=0.5`)",
            {}},
           inputOption("the inputs, as expressions of t (read at the state's t)"),
           setOption(),
           jsonOption("eval---json")},
          {},
          true};
}

std::vector<OptionSpec> integrationOptions() {
  return {
      {"--until",
       "",
       T::Number,
       "T",
       "`10`",
       "a finite number (s)",
       "end time. If T is less than the start time, the integration runs backwards",
       {}},
      {"--dt",
       "",
       T::PositiveNumber,
       "h",
       "`0.01`",
       "number > 0",
       "spacing of the output samples. Samples are at t0, t0 + h, ..., and always exactly at T",
       {}},
      {"--method", "", T::Choice, "M", "`dopri5`",
       "`dopri5`, `dop853`, `rk4`, `midpoint`, `radau`, `bdf`, `auto`",
       "Dormand–Prince 5(4) or 8(5,3), both adaptive with dense output; classic RK4 with a "
       "fixed step; the symplectic variational midpoint integrator with a fixed step; for "
       "stiff models the implicit Radau IIA of order 5 and the variable-order BDF (orders 1 "
       "to 5), both adaptive, with the exact Jacobian derived from the equations; `auto` "
       "starts with `dopri5` and switches to `radau` where the steps are held by stability "
       "rather than accuracy, with a note (and a warning instead when the fast motion is a "
       "real oscillation that an implicit step would damp). `midpoint` does not accept "
       "constrained models",
       methodChoices()},
      {"--rtol",
       "",
       T::PositiveNumber,
       "r",
       "`1e-8`",
       "number > 0",
       "relative tolerance (`dopri5`, `dop853`, `radau`, `bdf`)",
       {}},
      {"--atol",
       "",
       T::PositiveNumber,
       "a",
       "`1e-10`",
       "number > 0",
       "absolute tolerance (`dopri5`, `dop853`, `radau`, `bdf`)",
       {}},
      {"--step",
       "",
       T::PositiveNumber,
       "h",
       "`0.001`",
       "number > 0",
       "the fixed step of `rk4` and `midpoint`. For `dopri5` and `dop853`, the first step to try",
       {}},
      {"--max-steps",
       "",
       T::StepCount,
       "N",
       "`1000000`",
       "a whole number ≥ 1 (`1e6` is accepted)",
       "the most steps to attempt, rejected ones included. When the limit is reached the run "
       "stops with an error",
       {}},
      {"--init",
       "",
       T::List,
       "\"...\"",
       "the model's `init`",
       "[state syntax](#--at-and---init-a-state)",
       "the initial state. `t=v` sets the start time (default 0)",
       {}},
  };
}

// The options of simulate after the integration: --set, where the run
// goes, the back end and the treatment of the constraints.
std::vector<OptionSpec> runOutputOptions() {
  return {
      inputOption("the inputs against time: `u = 0.5*sin(2*t)` (an expression of t and the "
                  "params) or `u = drive.csv` (a table of t and values, interpolated linearly, "
                  "held at its ends)"),
      {"--set",
       "",
       T::Repeated,
       "p=v",
       "the model's values",
       "[syntax](#--set-parameters)",
       "set parameters",
       {}},
      {"-o",
       "",
       T::Path,
       "FILE",
       "stdout",
       "path",
       "write the CSV to FILE ([how](#output-streams)). The temporary file is made before the "
       "run, and a folder that cannot hold it is an error. If the run fails, the samples up to "
       "the failure are kept",
       {}},
      {"--stop-when",
       "",
       T::Text,
       "\"a == b[, up|down]\"",
       "none",
       "a condition in .mech syntax",
       "stop the run where a − b changes sign (only rising with `up`, falling with `down`), "
       "as a model's `event NAME: a == b stop` does; the last CSV row is the state there. The "
       "event is named `--stop-when`",
       {}},
      {"--events",
       "",
       T::Path,
       "FILE",
       "none",
       "path",
       "write the events that fired, one row each in the order of time: the event's name, t, "
       "then the CSV's columns at that time; JSON when FILE ends in .json. For a contact "
       "`floor` the rows are named `floor` (an impact: the state just before it), `floor "
       "rests` and `floor lifts off`; for a friction `grip`, `grip sticks` and `grip slips`; "
       "for a piecewise law written at line 10, column 15, `law at 10:15 switches` (the state "
       "at the switch). An error for a model without events, contacts, frictions, piecewise "
       "laws and --stop-when",
       {}},
      plotOption(
          "also write a plot of the run: SVG, or PNG when FILE ends in .png (converted by "
          "rsvg-convert, Debian's librsvg2-bin). Each series is labelled with its unit; series of "
          "different units are drawn in panels of their own over the shared time axis"),
      {"--plot-vars",
       "",
       T::Text,
       "a,b",
       "all coordinates",
       "comma-separated CSV column names",
       "the series to plot: coordinates, velocities (`th1'`), multipliers, outputs",
       {}},
      {"--plot-x",
       "",
       T::Text,
       "NAME",
       "t",
       "a CSV column name",
       "the abscissa of the plot: a phase portrait with `--plot-x th1 --plot-vars th1'`, the "
       "path of a point with its x and y outputs",
       {}},
      {"--window",
       "",
       T::Text,
       "a..b",
       "the whole run",
       "a time span",
       "plot only the samples with a <= t <= b (the CSV keeps them all)",
       {}},
      {"--backend",
       "",
       T::Choice,
       "B",
       "`auto`",
       "`auto`, `jit`, `interp`",
       "`auto`: for `simulate` and `animate`, kernels of 3000 operations or more (a chain of "
       "about 20 links) start on the built-in interpreter at once while LLVM compiles them on "
       "another thread, and native code takes over when it is ready (tiered execution: both "
       "give the same bits, so the results do not depend on when; the summary's `tiers:` line "
       "says when, and a run that ends first leaves nothing in the cache); smaller kernels, and "
       "every other command, compile first. `jit` always compiles first. `interp` evaluates "
       "the kernels with the interpreter: nothing is compiled and the cache is not used. If "
       "the JIT fails, `mech` falls back to the interpreter and prints a note. So does `jit` "
       "(and `auto` outside tiered runs) for kernels of more than 60000 operations, and a "
       "tiered run for more than 400000 (the JIT budget: LLVM would take longer to compile "
       "them than the interpreter takes for a typical run; see bench/README.md): `note: the "
       "kernels have N operations, more than the JIT budget of 60000; using the "
       "interpreter`, and the cache is `off`",
       {"auto", "jit", "interp"}},
      {"--no-cache",
       "",
       T::Flag,
       "",
       "cache on",
       "flag",
       "derive and compile without reading or writing the derivation and kernel caches",
       {}},
      {"--strict-init",
       "",
       T::Flag,
       "",
       "off",
       "flag",
       "an initial state off the constraints is an error instead of being projected",
       {}},
      {"--hold",
       "",
       T::Text,
       "q1,q2",
       "none held",
       "comma-separated names of coordinates (a family's name holds its members)",
       "assemble the start with these coordinates and their velocities held where the init "
       "and --init put them, the others solved from their values as guesses (which decide the "
       "assembly mode, elbow up or down); an error, with the residual, when the constraints "
       "cannot be met so. Without it the given values are kept where the constraints allow and "
       "moved the least where they do not",
       {}},
      {"--constraints",
       "",
       T::Choice,
       "F",
       "`dae` with `radau`, else `projection`",
       "`dae`, `projection`, `augmented`",
       "how a constrained model keeps its constraints: `dae` integrates the stabilised "
       "index-2 DAE (q' = v + Cᵀμ, M v' = f + Cᵀλ, 0 = ψ, 0 = Φ) with `radau`, which holds "
       "Φ and ψ to the tolerance without projection; `projection` integrates the equations "
       "of the first kind and projects the state onto the constraints after each step; "
       "`augmented` does the same with the accelerations from the augmented Lagrangian "
       "iteration on M + αCᵀC, which never factors the constraints' Schur complement "
       "(docs/language.md, Solving)",
       {"dae", "projection", "augmented"}},
      {"--no-projection",
       "",
       T::Flag,
       "",
       "projection on",
       "flag",
       "do not project the state onto the constraints after each step or at the samples",
       {}},
      {"--baumgarte",
       "",
       T::Text,
       "a,b",
       "off",
       "two numbers ≥ 0",
       "Baumgarte stabilization: integrate C·q'' = γ − 2a·ψ − b²·Φ instead of C·q'' = γ. Has "
       "no effect on a model without constraints",
       {}},
  };
}

CommandSpec simulateCommand() {
  CommandSpec spec{
      "simulate",
      "FILE [--until T] [--dt h] [--method dopri5|dop853|rk4|midpoint|radau|bdf|auto]\n"
      "       [--rtol r] [--atol a] [--step h] [--max-steps N] [--init \"q=v, q'=w\"]\n"
      "       [--input \"u=expr\"] [--set p=v ...] [-o out.csv] [--stop-when \"x == 0, up\"]\n"
      "       [--events ev.csv] [--plot out.svg|.png] [--plot-vars th1,th2] [--plot-x th1]\n"
      "       [--window a..b] [--backend auto|jit|interp] [--no-cache] [--strict-init]\n"
      "       [--hold q1,q2] [--constraints dae|projection|augmented] [--no-projection]\n"
      "       [--baumgarte a,b]",
      "integrate the equations with compiled code; CSV on stdout (or -o), a summary on "
      "stderr; compiled code is cached in $XDG_CACHE_HOME/mech (or ~/.cache/mech); an initial "
      "state off the constraints is projected onto them (an error with --strict-init), and so "
      "is the state after every step (unless --no-projection); --baumgarte a,b stabilizes "
      "C*q'' = gamma - 2a*psi - b^2*Phi",
      Operands::OneFile,
      integrationOptions(),
      {},
      true};
  std::vector<OptionSpec> more = runOutputOptions();
  spec.options.insert(spec.options.end(), more.begin(), more.end());
  return spec;
}

CommandSpec equilibriaCommand() {
  return {"equilibria",
          "FILE [--in \"q=a..b, ...\"] [--time t0] [--input \"u=expr\"] [--set p=v ...] [--json]\n"
          "       [--plot FILE]",
          "the states of rest in a box, their stability and small oscillations",
          Operands::OneFile,
          {searchBoxOption("the search box, per coordinate"), freezeTimeOption(),
           inputOption("the inputs, held at their values at t0 (or 0): constant loads"),
           setOption(), jsonOption("equilibria---json"),
           plotOption(
               "also draw the potential V over the search box (SVG, or PNG for a .png name): "
               "against the coordinate, with the stable and unstable states of rest as dots, for a "
               "model of one coordinate; as a heat map for two. A usage error for more "
               "coordinates or constraints")},
          {},
          true};
}

CommandSpec steadyCommand() {
  return {"steady",
          "FILE [--rates \"q'=w, ...\"] [--momenta \"p_q=v, ...\"] [--in \"q=a..b, ...\"] "
          "[--time t0] [--input \"u=expr\"] [--set p=v ...] [--json]",
          "steady motions (coordinates turning at constant rates, the others at rest), their "
          "stability by Routh's amended potential or the reduced linearization, and their "
          "small oscillations",
          Operands::OneFile,
          {{"--rates",
            "",
            T::List,
            "\"q'=w, ...\"",
            "0 for every cyclic coordinate",
            "rates as in [--at](#--at-and---init-a-state), with units",
            "the rates of the turning coordinates: the cyclic ones of a model without velocity "
            "constraints, any for one with them (only those listed turn)",
            {}},
           {"--momenta",
            "",
            T::List,
            "\"p_q=v, ...\"",
            "—",
            "momenta named as `mech conserved` names them, with units",
            "instead of a rate, the momentum of a cyclic coordinate (the rate is then solved for)",
            {}},
           searchBoxOption("the search box of the coordinates that do not turn"),
           freezeTimeOption(),
           inputOption("the inputs, held at their values at t0 (or 0): constant loads"),
           setOption(),
           jsonOption("steady---json")},
          {},
          true};
}

CommandSpec linearizeCommand() {
  return {
      "linearize",
      "FILE --at \"q=v, ...\" [--independent \"q, u', ...\"] [--output EXPR ...] [--tf \"U -> "
      "Y\"]\n"
      "       [--sweep \"p=a..b:N\" [--plot FILE]] [--input \"u=expr\"] [--set p=v ...] [--json]",
      "M, K = -df/dq, D = -df/dq' and the first-order matrix A at a state; with constraints, "
      "A in independent coordinates and speeds",
      Operands::OneFile,
      {{"--at",
        "",
        T::List,
        "\"...\"",
        "required",
        kStateSyntax,
        "the state. Coordinates and velocities it does not list take the model's `init`; a "
        "state off the constraints is projected onto them",
        {}},
       {"--independent",
        "",
        T::Text,
        "\"...\"",
        "by pivoting",
        "coordinate names, and speeds as names with a prime, separated by commas",
        "with constraints: the independent coordinates (as many as the coordinates less the "
        "holonomic constraints) and independent speeds (as many as the coordinates less all "
        "constraints) of A; either list may be left out and is then chosen by pivoting on "
        "the constraint Jacobian",
        {}},
       {"--sweep",
        "",
        T::Text,
        "\"NAME=LO..HI[:N]\"",
        "off",
        "a param, or a name the `--at` text uses; `[UNIT]` may follow HI; N from 2 to 100000 "
        "(default 101)",
        "print the eigenvalues of A at N evenly spaced values instead, with the modes that "
        "are structurally zero dropped, and locate where stability changes (bisection to "
        "1e-11 relative)",
        {}},
       {"--tf",
        "",
        T::Text,
        "\"U -> Y\"",
        "off",
        "an input, `->`, and one of A's states or an output's name",
        "also the transfer function from the input to the output: its poles, zeros and gain "
        "from a minimal realisation, naming each mode that cancels (one the input does not "
        "move or the output does not see)",
        {}},
       {"--output",
        "",
        T::Repeated,
        "EXPR",
        "the model's outputs",
        "an expression, as an `output` declaration's value; repeatable",
        "also linearize this expression as an output (named by its text): a row of C and D",
        {}},
       plotOption(
           "with --sweep: also write a plot (SVG, or PNG for a .png name) of the eigenvalues' real "
           "and imaginary parts"),
       inputOption("the inputs' values at the state (read at its t); `--at \"u=v\"` also "
                   "sets one"),
       setOption(),
       jsonOption("linearize---json")},
      {},
      true};
}

CommandSpec periodicCommand() {
  return {
      "periodic",
      "FILE (--section EVENT | --period T) --guess \"q=v, q'=w, ...\" [--energy E | --fix NAME]\n"
      "       [--returns K] [--sweep \"p=a..b:N\" [--plot FILE]] [--until T] [--set p=v ...] "
      "[--json]",
      "a periodic motion as the fixed point of a return map (a Poincare section or the forcing's "
      "period), by Newton's method on the variational equations; its period, Floquet "
      "multipliers and stability; with --sweep its continuation in a param",
      Operands::OneFile,
      {{"--section",
        "",
        T::Text,
        "EVENT",
        "—",
        "a declared event's name",
        "the Poincare section: the event's crossings in its direction (its resets applied) end "
        "each period. For a model that does not depend on t",
        {}},
       {"--period",
        "",
        T::Text,
        "T",
        "—",
        "a time: numbers, units and params (`2*pi/w`)",
        "instead of a section, the period of a model's forcing in t: the stroboscopic map from "
        "the guess's t (0 unless `--guess` gives t); with --sweep it follows the swept param",
        {}},
       {"--guess",
        "",
        T::List,
        "\"...\"",
        "the model's `init`",
        kStateSyntax,
        "the state at the start of a period that Newton's method starts from; on the section "
        "for a section map",
        {}},
       {"--energy",
        "",
        T::Number,
        "E",
        "—",
        "an energy in J (SI)",
        "for a model whose return map keeps T + V (its periodic motions come in families): the "
        "member with this energy",
        {}},
       {"--fix",
        "",
        T::Text,
        "NAME",
        "—",
        "a coordinate, or a velocity as a name with a prime",
        "for a family, like --energy: the member whose NAME at the start of a period is the "
        "guess's (an amplitude, with a section where the velocity is 0)",
        {}},
       {"--sweep",
        "",
        T::Text,
        "\"NAME=LO..HI[:N]\"",
        "off",
        "a param; `[UNIT]` may follow HI; N from 2 to 100000 (default 101)",
        "follow the motion through N evenly spaced values of the param (each from the secant "
        "through the two before) and locate where its stability changes (bisection to 1e-8 "
        "relative), naming how: period doubling (a multiplier through -1), through +1, or "
        "Neimark-Sacker (a complex pair)",
        {}},
       plotOption("with --sweep: also draw the multipliers' moduli against the param, with the "
                  "unit circle's 1 (SVG, or PNG for a .png name)"),
       {"--returns",
        "",
        T::StepCount,
        "K",
        "`1`",
        "a whole number from 1 to 1000",
        "find a motion that repeats after K crossings of the section (or K forcing periods): "
        "the fixed point of the map's K-th iterate, as a gait after its period doubling (K = 2)",
        {}},
       {"--until",
        "",
        T::PositiveNumber,
        "T",
        "`100`",
        "a time in seconds",
        "the longest time a section map waits for the next crossing",
        {}},
       setOption(),
       jsonOption("periodic---json")},
      {{"--section", "--period"}, {"--energy", "--fix"}},
      true};
}

CommandSpec conservedCommand() {
  return {"conserved",
          "FILE [--set p=v ...] [--json]",
          "cyclic coordinates with their momenta, and the energy (Jacobi) integral",
          Operands::OneFile,
          {setOption("set parameters (matters only for structural ones)"),
           jsonOption("conserved---json")},
          {},
          true};
}

CommandSpec solveCommand() {
  return {"solve",
          "FILE [--at \"q=v, ...\"] --for P [--for P2 ...] [--set p=v ...] [--json]",
          "statics by virtual work: the params that make the configuration an equilibrium",
          Operands::OneFile,
          {{"--for",
            "",
            T::Repeated,
            "P",
            "required",
            "parameter names",
            "the unknown parameters. Repeat the option or give a comma list: `--for F,P`. They "
            "cannot be structural parameters or be given twice",
            {}},
           {"--at",
            "",
            T::List,
            "\"...\"",
            "the model's `init`",
            kStateSyntax,
            "the configuration. Velocities given here are ignored",
            {}},
           setOption("set the known parameters. Also the starting guess for the unknowns"),
           jsonOption("solve---json")},
          {},
          true};
}

// The options of simulate that a sweep's runs take, by name.
std::vector<OptionSpec> optionsNamed(const std::vector<OptionSpec> &from,
                                     const std::vector<std::string> &names) {
  std::vector<OptionSpec> picked;
  for (const std::string &name : names)
    for (const OptionSpec &option : from)
      if (option.name == name)
        picked.push_back(option);
  return picked;
}

CommandSpec sweepCommand() {
  CommandSpec spec{
      "sweep",
      "FILE --grid \"p=a..b:N, q=a..b:N\" | --random \"p=normal(m, s):N\" [--seed S]\n"
      "       --summary \"at_end(e), max(e), any(a > b), energy_drift, ...\" [-o out.csv|.json]\n"
      "       [--plot out.svg] [--threads N] [--until T] [--dt h] [--method M] [--rtol r]\n"
      "       [--atol a] [--step h] [--max-steps N] [--init \"q=v\"] [--hold q1,q2]\n"
      "       [--stop-when \"a == b\"] [--set p=v ...] [--backend auto|jit|interp] [--no-cache]",
      "many runs of one model, each reduced to a row of summaries: every combination of the "
      "--grid values and every --random sample; the kernels are compiled once and the runs "
      "spread over threads, the rows in the same order whatever their number",
      Operands::OneFile,
      {{"--grid",
        "",
        T::List,
        "\"p=a..b:N, ...\"",
        "none",
        "params, coordinates (`th1`) or velocities (`th1'`), each `from..to:points` with units "
        "as in [--set](#--set-parameters)",
        "N evenly spaced values from a to b, both included, per name; the runs are every "
        "combination, the first name varying slowest",
        {}},
       {"--random",
        "",
        T::List,
        "\"p=normal(m, s):N, ...\"",
        "none",
        "`normal(mean, sd)` or `uniform(low, high)`, the same N for every name",
        "N random samples of the names, drawn independently from --seed; with --grid, the same "
        "samples at every grid point (the sample varies fastest)",
        {}},
       {"--seed",
        "",
        T::Number,
        "S",
        "`0`",
        "a whole number ≥ 0",
        "the seed of --random: the same seed gives the same samples on any machine",
        {}},
       {"--summary",
        "",
        T::List,
        "\"...\"",
        "required",
        "[reducers](#sweep) around .mech expressions, each optionally `name = ...`",
        "what each run is reduced to, one column each: `at_end(e)`, `max(e)`, `min(e)`, "
        "`mean(e)` (the time average), `any(c)`, `all(c)` (1 or 0), `first_time(c)` (the first "
        "sample time where it holds; empty if none) for conditions `a > b`, `a >= b`, `a < b`, "
        "`a <= b`; `energy_drift`, `constraint_drift`, `status`; for a contact c, "
        "`impacts(c)`, `rest_time(c)` and `lift_time(c)` (empty if never); for a friction f, "
        "`sticks(f)`, `slips(f)` and `stuck_time(f)`",
        {}},
       {"--threads",
        "",
        T::StepCount,
        "N",
        "one per core",
        "a whole number from 1 to 1024",
        "the threads that run the sweep (per rank under mpirun, where the ranks on a machine "
        "share its cores by default); the result does not depend on it",
        {}},
       {"-o",
        "",
        T::Path,
        "FILE",
        "stdout",
        "path",
        "write the rows to FILE, CSV or JSON when FILE ends in .json, one row per run in run "
        "order as the runs complete ([how](#output-streams)); on Ctrl-C the rows done are kept",
        {}},
       plotOption(
           "also draw the sweep (SVG, or PNG for a .png name): for a --grid of one name, every "
           "numeric summary against "
           "it; of two names, a heat map of the first numeric summary over them (grey where a run "
           "has no value)")},
      {},
      false};
  std::vector<OptionSpec> integration =
      optionsNamed(integrationOptions(), {"--until", "--dt", "--method", "--rtol", "--atol",
                                          "--step", "--max-steps", "--init"});
  std::vector<OptionSpec> more = optionsNamed(
      runOutputOptions(), {"--hold", "--set", "--stop-when", "--backend", "--no-cache"});
  spec.options.insert(spec.options.end(), integration.begin(), integration.end());
  spec.options.insert(spec.options.end(), more.begin(), more.end());
  return spec;
}

CommandSpec animateCommand() {
  CommandSpec spec{
      "animate",
      "FILE -o anim.html [--trace p2,...] [--view yaw,pitch] [--plot-vars a,b]\n"
      "       [--until T] [--dt h] [--method M] [--rtol r] [--atol a] [--step h] [--max-steps N]\n"
      "       [--init \"q=v, q'=w\"] [--input \"u=expr\"] [--set p=v ...] [--stop-when \"x == 0, "
      "up\"]\n"
      "       [--backend auto|jit|interp] [--no-cache] [--strict-init] [--hold q1,q2]\n"
      "       [--constraints dae|projection|augmented] [--no-projection] [--baumgarte a,b]",
      "simulate and draw the mechanism moving in one self-contained HTML page (no network): "
      "play/pause, a scrubber, the speed, trails, the energy or chosen columns plotted in "
      "step; 3-D models in an orthographic view turned by dragging",
      Operands::OneFile,
      {{"-o",
        "",
        T::Path,
        "FILE",
        "required",
        "a name ending in `.html`",
        "the page. Written whole, or not at all ([how](#output-streams))",
        {}},
       {"--trace",
        "",
        T::Text,
        "a,b",
        "no trails",
        "names of points of the drawing",
        "draw the path of each named point up to the time shown",
        {}},
       {"--view",
        "",
        T::Text,
        "yaw,pitch",
        "`30,20`",
        "two angles in degrees, pitch within −90..90",
        "the initial view of a 3-D drawing: turned by yaw about the vertical z axis, then "
        "tilted by pitch towards the viewer. A usage error for a planar drawing",
        {}},
       {"--plot-vars",
        "",
        T::Text,
        "a,b",
        "the energy T + V",
        "comma-separated CSV column names",
        "the quantities plotted under the drawing, in step with it",
        {}}},
      {},
      false};
  std::vector<OptionSpec> integration = integrationOptions();
  std::vector<OptionSpec> more =
      optionsNamed(runOutputOptions(),
                   {"--input", "--set", "--stop-when", "--backend", "--no-cache", "--strict-init",
                    "--hold", "--constraints", "--no-projection", "--baumgarte"});
  spec.options.insert(spec.options.end(), integration.begin(), integration.end());
  spec.options.insert(spec.options.end(), more.begin(), more.end());
  return spec;
}

CommandSpec buildCommand() {
  return {"build",
          "FILE -o libNAME.so|NAME.o [--header NAME.h] [--prefix NAME]\n"
          "       [--cpu generic|native] [--set p=v ...]\n"
          "       FILE --fmu -o NAME.fmu [--cpu generic|native] [--set p=v ...]",
          "compile the model to a shared library with a C ABI (rhs, mass matrix, energy, "
          "multipliers, simulate, ...) and write its header; -o NAME.o writes the object "
          "alone; --prefix renames every symbol (default: mech); --fmu writes an FMI 2.0 FMU "
          "(Model Exchange and Co-Simulation) instead",
          Operands::OneFile,
          {{"-o",
            "",
            T::Path,
            "FILE",
            "required",
            "a name ending in `.so` (or `.so.N`) gives a shared library, `.o` an object, `.fmu` "
            "(with `--fmu`) an FMU; other names are a usage error",
            "the output. It is written to a temporary file first and then renamed, together "
            "with the header ([how](#output-streams))",
            {}},
           {"--header", "", T::Path, "FILE", "no header", "path", "also write the C header", {}},
           {"--prefix",
            "",
            T::Text,
            "NAME",
            "`mech`",
            "`[A-Za-z_][A-Za-z0-9_]*`",
            "the prefix of every exported name (`NAME_rhs`, ...)",
            {}},
           {"--cpu",
            "",
            T::Choice,
            "C",
            "`generic`",
            "`generic`, `native`",
            "code for any machine of the architecture, or for this CPU",
            {"generic", "native"}},
           {"--fmu",
            "",
            T::Flag,
            "",
            "a library",
            "",
            "write an FMI 2.0 FMU for Model Exchange and Co-Simulation (linux64): "
            "modelDescription.xml and the binary in one archive ([FMUs](library.md#fmus))",
            {}},
           setOption("change the parameter defaults (and the initial state computed from "
                     "them)")},
          {},
          true};
}

CommandSpec replCommand() {
  return {"repl",
          "[FILE] [--prompt] [--echo]",
          "an interactive session: expressions over the model's names (diff, simplify, subs, "
          "taylor, eval), declarations typed line by line, and :commands (:eom, :eval, :sim, "
          ":equilibria, :set, :reload, :help, ...)",
          Operands::OptionalFile,
          {{"--prompt",
            "",
            T::Flag,
            "",
            "off",
            "flag",
            "print the prompts also when the input is not a terminal",
            {}},
           {"--echo",
            "",
            T::Flag,
            "",
            "off",
            "flag",
            "print each input after a prompt, so that a transcript reads like a session",
            {}}},
          {},
          false};
}

CommandSpec dumpCommand() {
  return {"--dump",
          "=ast|sema|eom|program|llvm FILE [--set p=v ...]",
          "print a stage of the pipeline: the syntax tree, the checked model (names resolved, "
          "SI values), the derived equations (the Lagrange IR), the CSE'd programs of the "
          "kernels (what the interpreter and the JIT run) or their optimized LLVM IR; --set "
          "applies to eom, program and llvm",
          Operands::OneFile,
          {setOption()},
          {},
          false};
}

} // namespace

const OptionSpec *CommandSpec::option(const std::string &wanted) const {
  for (const OptionSpec &o : options)
    if (o.name == wanted || (!o.alias.empty() && o.alias == wanted))
      return &o;
  return nullptr;
}

const std::vector<Stage> &pipelineStages() {
  static const std::vector<Stage> stages = {
      {"ast", "the syntax tree", false},
      {"sema", "the checked model (names resolved, SI values)", false},
      {"eom", "the derived equations (the Lagrange IR)", true},
      {"program", "the CSE'd programs of the kernels", true},
      {"llvm", "the optimized LLVM IR of the model's kernels", true}};
  return stages;
}

const Stage *findStage(const std::string &name) {
  for (const Stage &stage : pipelineStages())
    if (stage.name == name)
      return &stage;
  return nullptr;
}

std::string stageList(bool derivingOnly) {
  std::vector<Stage> stages;
  for (const Stage &stage : pipelineStages())
    if (stage.model || !derivingOnly)
      stages.push_back(stage);
  std::string text;
  for (size_t i = 0; i < stages.size(); ++i)
    text += (i == 0 ? "" : i + 1 == stages.size() ? " or " : ", ") + stages[i].name;
  return text;
}

const std::vector<CommandSpec> &commandTable() {
  static const std::vector<CommandSpec> table = {
      checkCommand(),     fmtCommand(),        equationsCommand(), simulateCommand(),
      evalCommand(),      equilibriaCommand(), steadyCommand(),    periodicCommand(),
      linearizeCommand(), conservedCommand(),  solveCommand(),     sweepCommand(),
      animateCommand(),   replCommand(),       buildCommand(),     dumpCommand()};
  return table;
}

const CommandSpec *findCommand(const std::string &name) {
  for (const CommandSpec &spec : commandTable())
    if (spec.name == name)
      return &spec;
  return nullptr;
}

} // namespace mech::driver
