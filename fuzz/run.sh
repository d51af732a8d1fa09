#!/usr/bin/env bash
# The bounded fuzzing run of the test command: replays every regression
# input, then runs each target for SECONDS (default 20) over a scratch copy
# of the seed corpus (nothing in the repository is written). Fails on any
# finding; the input is left in the scratch folder's artifacts/.
# usage: fuzz/run.sh BUILD_FUZZ_DIR [SECONDS] [SCRATCH]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$1"
seconds="${2:-20}"
scratch="${3:-$(mktemp -d /tmp/mech-fuzz.XXXXXX)}"
targets=(fuzz_parse_sema fuzz_derive_interpret fuzz_repl fuzz_run_options)

bash "$root/fuzz/seeds.sh" "$scratch/seeds"
mkdir -p "$scratch/artifacts"
for target in "${targets[@]}"; do
  binary="$build/fuzz/$target"
  if [ ! -x "$binary" ]; then
    echo "fuzz/run.sh: $target not built in $build" >&2
    exit 1
  fi
  "$root/fuzz/replay.sh" "$binary" "$root/fuzz/regressions/$target"
  corpus="$scratch/corpus/$target"
  mkdir -p "$corpus"
  echo "fuzz/run.sh: $target for ${seconds}s"
  # Output of the fuzzer to a log; its last lines are shown either way.
  if ! "$binary" "$corpus" "$scratch/seeds" -dict="$root/fuzz/mech.dict" \
      -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len=2048 \
      -artifact_prefix="$scratch/artifacts/$target-" -print_final_stats=1 \
      >"$scratch/$target.log" 2>&1; then
    tail -n 60 "$scratch/$target.log"
    echo "fuzz/run.sh: $target found a crash: $(ls "$scratch/artifacts")" >&2
    exit 1
  fi
  grep -E '^#[0-9]+.*(DONE|pulse)' "$scratch/$target.log" | tail -n 1
  grep -E 'stat::number_of_executed_units' "$scratch/$target.log" || true
done
echo "fuzz/run.sh: all targets ran ${seconds}s without a finding (scratch: $scratch)"
