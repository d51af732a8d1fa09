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
  golden "transcript $name" "$work/$name.out" "${input%.in}.out"
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

# No coordinates: eom.M, eom.f and eom.Q are empty; each is a clear error
# (they used to crash the session).
printf 'param a = 1\neom.M\neom.f\neom.Q\nmodel Y { }\neom.M\n1 + 1\n' >"$work/empty.in"
expect "eom of a model without coordinates" 0 "$mech" repl <"$work/empty.in"
contains "eom.M: why" err "error: eom.M is empty: the model has no coordinates"
contains "eom.f: why" err "error: eom.f is empty"
contains "eom.Q: why" err "error: eom.Q is empty"
contains "the session goes on" out "2"

# With a model loaded, other names are free symbols (noted once):
# d/dx sin(x)^2 = 2 sin(x) cos(x).
printf 'diff(sin(x)^2, x)\nx + th\n' >"$work/free.in"
expect "free symbols beside a model" 0 "$mech" repl "$work/run/pendulum.mech" <"$work/free.in"
contains "diff of a free symbol" out "2*sin(x)*cos(x)"
contains "the model's names stay" out "th + x"
contains "the note" err "note: 'x' is not a name of the model: a free symbol"
if [ "$(grep -c "note: 'x'" "$work/err")" -eq 1 ]; then passed=$((passed + 1)); else
  failed=$((failed + 1)); echo "FAIL: the free-symbol note is not given once"; fi
lacks "no error" err "unknown name"

# :save after :set writes the values set: m = 2 kg, l = 30 cm = 0.3 m, so V
# at th = 0 is -m g l = -2 * 9.81 * 0.3 = -5.886 (the file says -9.81).
printf ':set m=2, l=30[cm]\n:save %s\n:show\n' "$work/set.mech" >"$work/save.in"
expect ":save after :set" 0 "$mech" repl "$work/run/pendulum.mech" <"$work/save.in"
contains ":show has the values set" out "param m = 2 [kg], l = 0.3 [m], g = 9.81 [m/s^2]"
expect "the saved model has the values set" 0 "$mech" eval "$work/set.mech" --at "th=0"
contains "V with the values set" out "V = -5.886"

# Typed declarations are edits of the loaded file's AST: their messages
# point into what was typed (the file's lines in the notes), the file's
# own locations stay. With a torsion spring k = 5 N*m/rad added,
# th'' = -(g/l) sin(th) - k/(m l^2) th = -9.81 sin(0.1) - 0.5 = -1.4793658
# at th = 0.1; :undo takes the spring away again (-0.9793658).
sed 's/m = 4 \[kg\]/m = 1 [kg]/' "$work/run/pendulum.mech" >"$work/run/spring.mech"
cat >"$work/typed.in" <<'INPUT'
param k = 5 [N*m/rad]
coord th [rad]
potential Vs = k/2 * th^2
:eval th=0.1
:save typed.mech
:reload
:undo
:eval th=0.1
INPUT
expect "typed declarations on a file" 0 bash -c "cd '$work/run' && '$mech' repl spring.mech" <"$work/typed.in"
contains "a typed error points at the input" err "<input>:1:7: error: 'th' is already declared (as a coordinate)"
contains "the note points at the file" err "spring.mech:3:9: note: previous declaration is here"
contains "with the spring" out "-1.4793658173053843"
contains "without it after :undo" out "-0.9793658173053843"
contains ":reload keeps the typed declarations" out "Pendulum: 1 coordinate (th), 4 parameters"
expect "the saved model has the spring" 0 "$mech" eval "$work/run/typed.mech" --at "th=0.1"
contains "saved: the spring" out "-1.4793658173053843"
expect "the saved model is as mech fmt prints it" 0 "$mech" fmt --check "$work/run/typed.mech"

# A second :sim reuses the session's compiled kernels, also after a :set
# of a value (the kernels take the params as arguments): the small-angle
# period 2 pi sqrt(l/g) of the pendulum, 2.006 s at l = 1 m, 2.838 s at 2 m,
# shows in th at t = T/2 (th = -0.01 from 0.01).
printf 'init th = 0.01\n:sim 1.0031 --dt 1.0031\n:set l = 2\n:sim 1.4189 --dt 1.4189\n' >"$work/kept.in"
expect "kernels kept by the session" 0 bash -c "cd '$work/run' && '$mech' repl spring.mech" <"$work/kept.in"
if [ "$(grep -c 'compiled earlier in this session' "$work/err")" -eq 1 ]; then passed=$((passed + 1)); else
  failed=$((failed + 1)); echo "FAIL: the second :sim compiled its kernels again"; fi
# (6 digits: -0.01; th' is 0 to 2e-5, the times being T/2 rounded to 5 digits)
for row in '1.0031 -0.01' '1.4189 -0.01'; do
  if awk '{print $1, $2}' "$work/out" | grep -qx -- "$row"; then passed=$((passed + 1)); else
    failed=$((failed + 1)); echo "FAIL: no row '$row' (half a period)"; fi
done

# :sim with a word for the time points to :help; so does a bad option.
printf ':sim abc\n:eval --bogus\n' >"$work/sim.in"
expect ":sim abc" 0 "$mech" repl "$work/run/pendulum.mech" <"$work/sim.in"
contains ":sim abc: what it takes" err "error: :sim takes the end time first (a number, as in :sim 5), found 'abc'"
contains "a bad option: the REPL's help" err "(:help lists the commands and their options)"
lacks "not the shell's help" err "mech --help"

# Session variables take the language's names: Greek letters, a leading _.
printf 'ξ = 2\n_a = 3\nθ1 = ξ + _a\nθ1^2\n' >"$work/names.in"
expect "variables with the language's names" 0 "$mech" repl <"$work/names.in"
contains "ξ" out "ξ = 2"
contains "_a" out "_a = 3"
contains "θ1 = 5" out "θ1 = 5"
contains "θ1^2 = 25" out "25"
empty "no errors" err
finish
