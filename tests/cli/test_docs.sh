# The documented sessions still hold: every ```console block of the README
# and the tutorial is run and its output compared with the text
# (docs/check_console_blocks.py says how).
source "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$work/run/build"
ln -s "$(readlink -f "$mech")" "$work/run/build/mech"
for folder in examples stdlib docs; do
  ln -s "$root/$folder" "$work/run/$folder"
done
expect "documented commands and outputs" 0 \
  python3 "$root/tests/cli/docs/check_console_blocks.py" "$work/run" \
  "$root/README.md" "$root/docs/tutorial.md"
# The whole report when something differs (expect shows only its start).
grep -q ", 0 differ" "$work/out" || cat "$work/out"
contains "the check ran commands" out "documented commands checked, 0 differ"
finish
