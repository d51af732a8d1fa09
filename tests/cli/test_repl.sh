# The REPL's golden transcripts: each tests/repl/NAME.in is piped through
# `mech repl --echo` (stdout and stderr together) and compared with
# NAME.out; the .in files say where their numbers come from. Lines with
# times and step counts, which vary from run to run, are blanked first.
# Also: :reload after an edit of the file, with the edit made between
# inputs (the session is fed through a FIFO).
source "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$work/run"
ln -s "$root/examples" "$work/run/examples"
export HOME="$work/home"
mkdir -p "$HOME"

normalize() {
  sed -e 's/^time: .*/time: .../' -e 's/^method \([a-z0-9]*\): .*/method \1: .../' \
    -e 's/^energy drift .*/energy drift .../' -e 's/^conserved h: drift .*/conserved h: drift .../'
}

for input in "$root"/tests/repl/*.in; do
  name="$(basename "$input" .in)"
  args=(--echo)
  [ "$name" = double_pendulum ] && args+=(examples/double_pendulum.mech)
  (cd "$work/run" && "$mech" repl "${args[@]}" <"$input" 2>&1) | normalize >"$work/$name.out"
  if cmp -s "$work/$name.out" "${input%.in}.out"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: transcript $name differs from tests/repl/$name.out"
    diff "${input%.in}.out" "$work/$name.out" | head -40
  fi
done
# What the commands wrote: the plot, the saved model (which checks), the library.
for file in double_pendulum.svg cart_copy.mech libcart.so; do
  if [ -s "$work/run/$file" ]; then passed=$((passed + 1)); else
    failed=$((failed + 1)); echo "FAIL: the transcripts did not write $file"; fi
done
expect "the saved model checks" 0 "$mech" check "$work/run/cart_copy.mech"
expect "the library exports the prefix" 0 nm -D --defined-only "$work/run/libcart.so"
contains "cart_rhs exported" out "cart_rhs"

# :reload after an edit: m = 1 -> 4 changes the swing of a pendulum of
# length 1 from omega = sqrt(g/l)... (m cancels) and its energy at the
# bottom from -m g l = -9.81 to -39.24.
cat >"$work/run/pendulum.mech" <<'MODEL'
model Pendulum {
  param m = 1 [kg], l = 1 [m], g = 9.81 [m/s^2]
  coord th [rad]
  let bob = l * [sin(th), -cos(th)]
  kinetic T = m/2 * dot(bob', bob')
  potential V = m * g * bob.y
}
MODEL
mkfifo "$work/fifo"
(cd "$work/run" && "$mech" repl --echo pendulum.mech <"$work/fifo" >"$work/reload.out" 2>&1) &
repl=$!
exec 3>"$work/fifo"
echo 'eval(V, th = 0)' >&3
for _ in $(seq 600); do grep -q -- '-9.81' "$work/reload.out" && break; sleep 0.05; done
sed -i 's/m = 1 \[kg\]/m = 4 [kg]/' "$work/run/pendulum.mech"
echo ':reload' >&3
echo 'eval(V, th = 0)' >&3
exec 3>&-
wait "$repl"
cp "$work/reload.out" "$work/out"
contains "before the edit" out "-9.81"
contains "reloaded" out "Pendulum: 1 coordinate (th), 3 parameters"
contains "after the edit" out "-39.24"
finish
