#!/usr/bin/env bash
# The kernel cache trusts nothing it did not check: each way an attacker or
# an accident can put foreign code in its place is tried here as a user
# would, and the run must compute the model's own trajectory (the same CSV as
# --no-cache), say what happened, and leave a good entry behind.
source "$(dirname "$0")/lib.sh" "$@"
cd "$root"

cache="$work/cache/mech"
pendulum=examples/double_pendulum.mech
chain=examples/chain.mech
run() { "$mech" simulate "$@" --until 0.5; }

# The reference trajectories, compiled without the cache.
expect "pendulum without the cache" 0 run "$pendulum" --no-cache
cp "$work/out" "$work/pendulum.csv"
expect "chain without the cache" 0 run "$chain" --no-cache
cp "$work/out" "$work/chain.csv"

# entry_of MODEL: fills the cache for MODEL and prints its entry's path.
entry_of() {
  local before after
  before="$(ls "$cache" 2>/dev/null)"
  run "$1" >/dev/null 2>&1
  after="$(ls "$cache")"
  comm -13 <(echo "$before") <(echo "$after") | sed "s|^|$cache/|"
}
pendulum_entry="$(entry_of "$pendulum")"
chain_entry="$(entry_of "$chain")"
expect "each model has its own entry" 0 test -f "$pendulum_entry" -a -f "$chain_entry" \
  -a "$pendulum_entry" != "$chain_entry"

# same_as REFERENCE: the last run's CSV is the reference trajectory.
same_as() {
  cp "$work/out" "$work/last.csv"
  expect "$1: the model's own trajectory" 0 cmp "$work/last.csv" "$work/$2"
}

expect "a hit" 0 run "$pendulum"
contains "a hit is reported" err "cache hit"
same_as "hit" pendulum.csv

# 1. Another model's valid entry copied under this model's key.
cp "$chain_entry" "$pendulum_entry"
expect "copied entry" 0 run "$pendulum"
contains "copied entry is not used" err "cache miss, entry replaced"
contains "copied entry is named" err "warning: kernel cache: '$pendulum_entry' holds the code stored under another key"
same_as "copied entry" pendulum.csv
expect "after a copied entry" 0 run "$pendulum"
contains "the replaced entry serves" err "cache hit"
# The other way round: a small model's code under a larger model's key.
cp "$pendulum_entry" "$chain_entry"
expect "copied small entry" 0 run "$chain"
contains "copied small entry is not used" err "entry replaced"
same_as "copied small entry" chain.csv

# 2. A world-writable cache folder is refused and left as it is.
chmod 777 "$cache"
expect "world-writable cache" 0 run "$pendulum"
contains "world-writable cache is not used" err "cache not used"
contains "world-writable cache is named" err "warning: the kernel cache is not used: '$cache' is writable by others (mode 0777)"
same_as "world-writable cache" pendulum.csv
expect "world-writable cache is not repaired" 0 test "$(stat -c %a "$cache")" = 777
chmod 1777 "$cache"
expect "sticky world-writable cache" 0 run "$pendulum"
contains "sticky world-writable cache is not used" err "cache not used"
chmod 700 "$cache"

# 3. A FIFO in an entry's place neither blocks nor is read.
rm "$pendulum_entry"
mkfifo "$pendulum_entry"
expect "FIFO entry" 0 timeout 60 "$mech" simulate "$pendulum" --until 0.5
contains "FIFO entry is refused" err "'$pendulum_entry' is not a regular file"
contains "FIFO entry is replaced" err "entry replaced"
same_as "FIFO entry" pendulum.csv
expect "FIFO replaced by a regular entry" 0 test -f "$pendulum_entry"

# 4. An entry whose header is right but whose code does not load: reported,
# evicted, recompiled and stored; the next run hits.
python3 - "$pendulum_entry" <<'PY'
import hashlib, sys
path = sys.argv[1]
data = open(path, "rb").read()
header, body = data.split(b"\n", 1)
key, rest = body.split(b"\n", 1)
length, rest = rest.split(b"\n", 1)
size = int(length.split()[1])
signature = rest[:size]
body = key + b"\n" + length + b"\n" + signature + b"\n" + b"\x7fELF garbage"
open(path, "wb").write(b"mech-object 2 " + hashlib.sha256(body).hexdigest().encode() + b"\n" + body)
PY
expect "entry that does not load" 0 run "$pendulum"
contains "entry that does not load is reported" err "does not load as this model's kernels"
contains "entry that does not load is replaced" err "entry replaced"
lacks "no fall back to the interpreter" err "using the interpreter"
same_as "entry that does not load" pendulum.csv
expect "after an entry that does not load" 0 run "$pendulum"
contains "the rebuilt entry hits" err "cache hit"

# 5. Entries and folders of another user (root can make them; others skip).
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
  chown 4242:4242 "$pendulum_entry"
  expect "entry of another user" 0 run "$pendulum"
  contains "entry of another user is refused" err "is owned by uid 4242, not by the user (uid 0)"
  same_as "entry of another user" pendulum.csv
  expect "entry of another user is replaced" 0 test "$(stat -c %u "$pendulum_entry")" = 0

  # Another user renames entries inside a world-writable folder: the folder
  # itself is refused, so what they did is never run.
  chmod 777 "$cache" "$work" "$work/cache"
  expect "another user renames an entry" 0 setpriv --reuid=4242 --regid=4242 --clear-groups \
    mv -f "$chain_entry" "$pendulum_entry"
  expect "after another user's rename" 0 run "$pendulum"
  contains "the folder is refused" err "cache not used"
  same_as "after another user's rename" pendulum.csv
  chmod 700 "$cache" "$work/cache"

  # A folder of another user's is not used by this one.
  export XDG_CACHE_HOME="$work/other-cache"
  mkdir -p "$work/other-cache/mech"
  chown -R 4242:4242 "$work/other-cache"
  chmod 700 "$work/other-cache/mech"
  expect "a folder of another user's" 0 run "$pendulum"
  contains "a folder of another user's is refused" err "is owned by uid 4242, not by the user"
  same_as "a folder of another user's" pendulum.csv
  # And that user's own runs use it (the rule is the running uid's).
  cp "$pendulum" "$work/pendulum.mech"
  chmod 755 "$work"
  chmod 644 "$work/pendulum.mech"
  expect "the other user's own cache" 0 setpriv --reuid=4242 --regid=4242 --clear-groups \
    env XDG_CACHE_HOME="$work/other-cache" "$mech" simulate "$work/pendulum.mech" --until 0.5
  contains "the other user's cache works for them" err "cache miss"
  export XDG_CACHE_HOME="$work/cache"
else
  skip "another user's entries and folders (needs root and setpriv to act as a second uid)"
fi

finish
