# Inputs beyond the language's limits (docs/language.md, Limits) and inputs
# that are not model files: each gets a located error and exit 1, never a
# crash, a hang or an exhausted machine.
source "$(dirname "$0")/lib.sh" "$@"
cd "$work"

# A model around a `let` whose unit is given (the bracket after a let's
# name is read as a unit): model_with_unit UNIT.
model_with_unit() {
  printf 'model M {\n  coord x [m]\n  kinetic T = 1 [kg/s^2] * x^2\n  let d [%s] = 1\n}\n' "$1" >u.mech
}

# Unit exponents: at most 1000 in magnitude. 2^31 used to be "internal
# error: stoi" (exit 3), (m^46341)^46341 a signed overflow and a hang,
# m^999999999 13 s of multiplications.
for unit in 'm^2147483648' '(m^46341)^46341' 'm^999999999' 'm^1001' '((m^999)^999)^999'; do
  model_with_unit "$unit"
  expect "[$unit] is refused" 1 timeout 10 "$mech" check u.mech
  contains "[$unit]: the limit" err "u.mech:4:"
  contains "[$unit]: names the limit" err "unit exponents are at most 1000 in magnitude"
done
model_with_unit 'm^1000'
expect "[m^1000] is within the limit" 0 "$mech" check u.mech
# On a param's name (the unit parser proper), and a power of the kilowatt
# whose scale 1000^999 does not fit.
printf 'model M {\n  param p [m^5000] = 1\n  coord x [m]\n  kinetic T = 1 [kg/s^2] * x^2\n}\n' >p.mech
expect "param [m^5000] is refused" 1 "$mech" check p.mech
contains "param [m^5000]: located" err "p.mech:2:12: error: the exponent of 'm' is beyond the limit"
model_with_unit 'kW^999'
expect "[kW^999] is refused" 1 "$mech" check u.mech
contains "[kW^999]: says why" err "unit exponent too large"

# Dimension exponents: m^2000 through ^, m^(1/2048) through sqrt.
printf 'model M {\n  coord x [m]\n  let a [m] = x\n  let b = a^2000\n  kinetic T = 1 [kg/s^2] * x^2\n}\n' >d.mech
expect "a^2000 on a length is refused" 1 "$mech" check d.mech
contains "a^2000: located at the exponent" err "d.mech:4:13: error: the dimension of this ^ leaves the limits"
roots='x'
for _ in $(seq 11); do roots="sqrt($roots)"; done
printf 'model M {\n  coord x [m]\n  let s = %s\n  kinetic T = 1 [kg/s^2] * x^2\n}\n' "$roots" >r.mech
expect "eleven square roots of a length are refused" 1 "$mech" check r.mech
contains "sqrt: names the limit" err "denominator at most 1000"

# Import chains: at most 128 files deep. 15000 used to overflow the stack.
mkdir chain
for i in $(seq 15000); do printf 'import "f%d.mech"\n' $((i + 1)) >chain/f$i.mech; done
echo 'def last(x) = x' >chain/f15001.mech
printf 'import "f1.mech"\nmodel M {\n  coord x [m]\n  kinetic T = 1 [kg/s^2] * x^2\n}\n' >chain/root.mech
expect "a chain of 15000 imports is refused" 1 "$mech" check chain/root.mech
contains "the chain: located" err "f127.mech:1:8: error: imports nested more than 128 deep"
contains "the chain: its start" err "(the chain starts at chain/root.mech)"
# The longest chain accepted: root.mech and f1 ... f127.
echo 'def last(x) = x' >chain/f127.mech
expect "a chain of 128 files checks" 0 "$mech" check chain/root.mech

# Only regular files are read, with a size limit checked before reading.
expect "/dev/zero is not read" 1 timeout 10 "$mech" check /dev/zero
contains "/dev/zero: why" err "'/dev/zero' is not a regular file"
mkfifo fifo.mech
expect "a FIFO is not opened for reading" 1 timeout 10 "$mech" check fifo.mech
contains "FIFO: why" err "'fifo.mech' is not a regular file"
expect "a directory is not read" 1 "$mech" check chain
contains "directory: why" err "'chain' is a directory"
head -c $((64 * 1024 * 1024 + 1)) /dev/zero | tr '\0' ' ' >big.mech
expect "a file over 64 MiB is refused" 1 "$mech" check big.mech
contains "over 64 MiB: the limit" err "'big.mech' is larger than the limit of 64 MiB"
rm big.mech
# A read error is an error, not an empty file (this exited 0).
printf 'import "/proc/self/mem"\nmodel M {\n  coord x [m]\n  kinetic T = 1 [kg/s^2] * x^2\n}\n' >mem.mech
expect "an import that cannot be read" 1 "$mech" check mem.mech
contains "the read error: located, with the reason" err \
  "mem.mech:1:8: error: cannot read '/proc/self/mem': Input/output error"
expect "a file that does not exist" 1 "$mech" check missing.mech
contains "missing: the reason" err "cannot open 'missing.mech': No such file or directory"
# The REPL reads model files the same way.
printf ':load /dev/zero\n:load fifo.mech\n' | timeout 10 "$mech" repl >out 2>err
contains "repl :load /dev/zero" err "error: '/dev/zero' is not a regular file"
contains "repl :load FIFO" err "error: 'fifo.mech' is not a regular file"
finish
