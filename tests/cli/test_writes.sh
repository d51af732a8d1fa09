#!/usr/bin/env bash
# Nothing written is lost: a command whose standard output cannot be written
# (/dev/full) fails; a file output that cannot be written (a full
# filesystem) fails with its path and the reason and leaves neither a
# truncated file nor a temporary one, and a file that was there stays as it
# was; an output that would overwrite an input or another output is a usage
# error, decided by file identity, before anything is written.
# Usage: test_writes.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"

cd "$work"
cp "$root/examples/double_pendulum.mech" m.mech
cp "$root/examples/cartesian_pendulum.mech" cartesian.mech

# same_bytes NAME FILE COPY: FILE is byte for byte what COPY holds.
same_bytes() {
  if cmp -s "$2" "$3"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $1: $2 changed"
  fi
}

# only_files NAME FOLDER FILE...: FOLDER holds exactly these files (hidden
# ones included), so no output or temporary file was left.
only_files() {
  local name="$1" folder="$2"
  shift 2
  local found wanted
  found="$(cd "$folder" && ls -A | sort | tr '\n' ' ')"
  wanted="$(printf '%s\n' "$@" | sed '/^$/d' | sort | tr '\n' ' ')"
  if [ "$found" = "$wanted" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $name: $folder holds '$found', expected '$wanted'"
  fi
}

# 1. Standard output into /dev/full: every command that prints fails.
full_stdout() {
  local name="$1"
  shift
  "$@" >/dev/full 2>"$work/err"
  local status=$?
  if [ "$status" -eq 1 ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $name into /dev/full: exit $status, expected 1"
  fi
  contains "$name into /dev/full says so" err "mech: error: cannot write standard output"
}
full_stdout "check" "$mech" check m.mech
full_stdout "check --json" "$mech" check --json m.mech
full_stdout "fmt" "$mech" fmt m.mech
full_stdout "equations" "$mech" equations m.mech
full_stdout "equations --latex" "$mech" equations m.mech --latex
full_stdout "equations --json" "$mech" equations m.mech --json
full_stdout "eval" "$mech" eval m.mech
full_stdout "eval --json" "$mech" eval m.mech --json
full_stdout "simulate" "$mech" simulate m.mech --until 0.1
full_stdout "simulate, a long CSV" "$mech" simulate m.mech --until 20 --dt 0.001
full_stdout "equilibria" "$mech" equilibria m.mech
full_stdout "linearize" "$mech" linearize m.mech --at "th1=0, th2=0"
full_stdout "conserved" "$mech" conserved m.mech
full_stdout "solve" "$mech" solve m.mech --at "th1=0, th2=0" --for m1
full_stdout "--dump=ast" "$mech" --dump=ast m.mech
full_stdout "--dump=sema" "$mech" --dump=sema m.mech
full_stdout "--dump=eom" "$mech" --dump=eom m.mech
full_stdout "--dump=llvm" "$mech" --dump=llvm m.mech
full_stdout "--help" "$mech" --help
full_stdout "repl" "$mech" repl m.mech </dev/null
# A short output fails at the last flush, which knows the reason.
"$mech" check m.mech >/dev/full 2>"$work/err"
contains "the reason of a short output" err "cannot write standard output: No space left on device"
# The same commands print when they can.
expect "check to a pipe" 0 "$mech" check m.mech
empty "nothing on stderr without an error" err

# /dev/full as a file output: written in place (not replaced), and the error
# names it with the reason.
expect "simulate -o /dev/full" 1 "$mech" simulate m.mech --until 0.1 -o /dev/full
contains "-o /dev/full message" err "mech: error: cannot write '/dev/full': No space left on device"
expect "simulate --plot /dev/full" 1 "$mech" simulate m.mech --until 0.1 --plot /dev/full
contains "--plot /dev/full message" err "mech: error: cannot write '/dev/full': No space left on device"
expect "build --header /dev/full" 1 "$mech" build m.mech -o "$work/libfull.so" --header /dev/full
contains "--header /dev/full message" err "mech: error: cannot write '/dev/full': No space left on device"
expect "no library when its header fails" 1 test -e "$work/libfull.so"
expect "simulate -o /dev/null" 0 "$mech" simulate m.mech --until 0.1 -o /dev/null
expect "/dev/null is still a device" 0 test -c /dev/null

# 2. Outputs go through a temporary file and a rename (in the folder o).
mkdir o
echo "keep me" >o/kept.csv
cp o/kept.csv kept.copy
chmod 600 o/kept.csv
expect "an initial state the run refuses" 1 "$mech" simulate cartesian.mech --strict-init \
  --init "x=0.5, y=0" -o o/kept.csv
same_bytes "a failed run keeps the old -o file" o/kept.csv kept.copy
expect "simulate -o over a file" 0 "$mech" simulate m.mech --until 0.1 -o o/kept.csv
contains "the CSV is there" o/kept.csv "t,th1,th2"
expect "the file keeps its permissions" 0 test "$(stat -c %a o/kept.csv)" = 600
(umask 022 && "$mech" simulate m.mech --until 0.1 -o o/fresh.csv --plot o/fresh.svg 2>/dev/null)
expect "a new file has the usual permissions" 0 test "$(stat -c %a o/fresh.csv)" = 644
expect "a new plot has the usual permissions" 0 test "$(stat -c %a o/fresh.svg)" = 644
# An output reached through a symbolic link is written where the link points.
ln -s fresh.csv o/link.csv
expect "simulate -o through a link" 0 "$mech" simulate m.mech --until 0.2 -o o/link.csv
expect "the link is still a link" 0 test -L o/link.csv
contains "the file behind the link is new" o/fresh.csv "0.19"
mkdir o/folder
expect "-o a folder" 1 "$mech" simulate m.mech --until 0.1 -o o/folder
contains "-o a folder message" err "cannot write 'o/folder': Is a directory"
expect "-o in a missing folder" 1 "$mech" simulate m.mech --until 0.1 -o o/none/x.csv
contains "-o in a missing folder message" err \
  "cannot write 'o/none/x.csv': No such file or directory"
expect "build" 0 "$mech" build m.mech -o o/libm.so --header o/m.h
expect "the library is there" 0 test -s o/libm.so
expect "the header is there" 0 test -s o/m.h
only_files "no temporary file beside the outputs" o fresh.csv fresh.svg folder kept.csv \
  link.csv libm.so m.h

# fmt --write rewrites a file the same way, with its permissions.
printf 'model   F {\n  coord x\n  particle p mass 1 at [x]\n}\n' >f.mech
chmod 640 f.mech
expect "fmt --write" 0 "$mech" fmt --write f.mech
expect "fmt --write keeps the permissions" 0 test "$(stat -c %a f.mech)" = 640
contains "fmt --write wrote the formatted text" f.mech "model F {"

# 3. A tiny filesystem, filled up.
full="$work/full"
mkdir "$full"
unmount() { umount "$full" 2>/dev/null; }
trap 'unmount; rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP
if mount -t tmpfs -o size=64k tmpfs "$full" 2>/dev/null; then
  printf 'model   F {\n  coord x\n  particle p mass 1 at [x]\n}\n' >"$full/f.mech"
  cp "$full/f.mech" f.copy
  echo "keep me" >"$full/old.csv"
  cat /dev/zero >"$full/fill" 2>/dev/null
  expect "simulate -o on a full disk" 1 "$mech" simulate m.mech --until 1 -o "$full/out.csv"
  contains "-o full: path and reason" err \
    "mech: error: cannot write '$full/out.csv': No space left on device"
  expect "simulate -o over a file on a full disk" 1 "$mech" simulate m.mech --until 1 \
    -o "$full/old.csv"
  contains "the old file is kept" full/old.csv "keep me"
  expect "--plot on a full disk" 1 "$mech" simulate m.mech --until 1 -o "$work/p.csv" \
    --plot "$full/p.svg"
  contains "--plot full: path and reason" err \
    "mech: error: cannot write '$full/p.svg': No space left on device"
  expect "build -o on a full disk" 1 "$mech" build m.mech -o "$full/libm.so"
  contains "build -o full: path and reason" err \
    "mech: error: cannot write '$full/libm.so': No space left on device"
  expect "build --header on a full disk" 1 "$mech" build m.mech -o "$work/libm.so" \
    --header "$full/m.h"
  contains "build --header full: path and reason" err \
    "mech: error: cannot write '$full/m.h': No space left on device"
  expect "no library without its header" 1 test -e "$work/libm.so"
  expect "fmt --write on a full disk" 1 "$mech" fmt --write "$full/f.mech"
  contains "fmt --write full: path and reason" err \
    "mech: error: cannot write '$full/f.mech': No space left on device"
  same_bytes "fmt --write on a full disk keeps the file" "$full/f.mech" f.copy
  printf ':save %s\n' "$full/s.mech" | "$mech" repl m.mech >out 2>err
  contains "REPL :save on a full disk" err "error: cannot write '$full/s.mech': No space left"
  only_files "nothing left on the full disk" "$full" f.mech fill old.csv
  unmount
else
  skip "a full filesystem (mount -t tmpfs is not allowed here)"
fi

# 4. An output that names an input or another output: exit 2, both named,
# nothing written.
cp m.mech m.copy
expect "simulate -o the model" 2 "$mech" simulate m.mech -o m.mech
contains "-o the model names both" err "simulate: -o 'm.mech' would overwrite the model file 'm.mech'"
same_bytes "simulate -o the model" m.mech m.copy
expect "simulate -o the model, spelled otherwise" 2 "$mech" simulate m.mech -o "$work/./m.mech"
ln -s m.mech model-link.csv
expect "simulate -o a link to the model" 2 "$mech" simulate m.mech -o model-link.csv
expect "simulate --plot the model" 2 "$mech" simulate m.mech --plot m.mech
same_bytes "simulate --plot the model" m.mech m.copy
expect "--plot and -o the same" 2 "$mech" simulate m.mech --plot same.svg -o same.svg
contains "--plot and -o names both" err "simulate: -o 'same.svg' and --plot 'same.svg' name the same file"
expect "--plot and -o the same, spelled otherwise" 2 "$mech" simulate m.mech \
  --plot folder/../same.svg -o same.svg
expect "no file for outputs that collide" 1 test -e same.svg
expect "build --header the model" 2 "$mech" build m.mech -o libm.so --header m.mech
contains "--header the model names both" err \
  "build: --header 'm.mech' would overwrite the model file 'm.mech'"
same_bytes "build --header the model" m.mech m.copy
expect "build -o the --header" 2 "$mech" build m.mech -o libm.so --header "$work/libm.so"
contains "-o and --header names both" err "name the same file"
expect "no library for outputs that collide" 1 test -e libm.so
# An import of the model is an input too.
printf 'def double(x) = 2 * x\n' >lib.mech
cp lib.mech lib.copy
printf 'import "lib.mech"\nmodel I {\n  coord x\n  particle p mass double(1) at [x, 0]\n}\n' >i.mech
expect "simulate -o an import" 2 "$mech" simulate i.mech --until 0.1 -o lib.mech
contains "-o an import names it" err "would overwrite an import of the model 'lib.mech'"
same_bytes "simulate -o an import" lib.mech lib.copy
expect "build --header an import" 2 "$mech" build i.mech -o libi.so --header lib.mech
same_bytes "build --header an import" lib.mech lib.copy

finish
