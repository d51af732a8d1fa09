#!/usr/bin/env bash
# Copies the seed corpus into FOLDER: the models of examples/ and stdlib/,
# the .mech files of tests/corpus and tests/diagnostics, the REPL
# transcripts of tests/repl, the REPL inputs of fuzz/seeds/repl and the
# run options of fuzz/seeds/options (fuzz_run_options.cpp says their form).
# usage: fuzz/seeds.sh FOLDER
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$1"
mkdir -p "$out"
n=0
while IFS= read -r -d '' file; do
  # Flattened names: tests/corpus/a/b.mech becomes tests_corpus_a_b.mech.
  name="${file#"$root"/}"
  cp "$file" "$out/${name//\//_}"
  n=$((n + 1))
done < <(find "$root/examples" "$root/stdlib" "$root/tests/corpus" "$root/tests/diagnostics" \
              -name '*.mech' -type f -print0
         find "$root/tests/repl" -name '*.in' -type f -print0
         find "$root/fuzz/seeds/repl" "$root/fuzz/seeds/options" -name '*.txt' -type f -print0)
echo "seeds: $n files in $out"
