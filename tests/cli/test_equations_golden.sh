# Golden outputs of `mech equations` for every model of the gallery: the
# display forms (normal form, grouping, signs) are fixed here, each file
# read once by eye when it was written. examples/whipple_bicycle.mech is
# left out: its forcing terms are hundreds of kilobytes. Update with
# scripts/update-goldens.sh and review the diff.
source "$(dirname "$0")/lib.sh" "$@"

cd "$root"
for model in examples/*.mech examples/tutorial/*.mech; do
  name="$(basename "$model" .mech)"
  [ "$name" = whipple_bicycle ] && continue
  expect "equations of $name" 0 "$mech" equations "$model"
  golden "equations of $name" "$work/out" "$root/tests/golden/equations/$name.txt"
done
finish
