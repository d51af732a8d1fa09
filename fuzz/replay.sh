#!/usr/bin/env bash
# Replays every regression input of one fuzz target (libFuzzer runs each file
# it is given once, without fuzzing); fails on the first that crashes.
# usage: replay.sh FUZZ_BINARY REGRESSION_FOLDER
set -euo pipefail
binary="$1"
folder="$2"
shopt -s nullglob
files=("$folder"/*)
if [ ${#files[@]} -eq 0 ]; then
  echo "replay: no regression inputs in $folder"
  exit 0
fi
"$binary" -rss_limit_mb=2048 -timeout=10 "${files[@]}"
echo "replay: ${#files[@]} inputs of $(basename "$binary") pass"
