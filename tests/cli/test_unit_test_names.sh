# Every unit test runs under ctest: catch_discover_tests splits a test name
# at ';' (a CMake list separator), and the halves match no test, so such a
# test was reported as passed without running. None may have one.
source "$(dirname "$0")/lib.sh" "$@"

tests="$build/tests/mech_tests"
# (Catch2 exits with the number of tests listed.)
"$tests" --list-test-names-only >"$work/out" 2>"$work/err"
contains "the unit tests list their names" out "JIT and interpreter agree on every example"
lacks "no test name holds a ';'" out ";"
finish
