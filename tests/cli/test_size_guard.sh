# The size guard of the display: the Whipple bicycle's equations, flat
# sums of megabytes when expanded, print with named subexpressions (where
# lines) that are each defined before they are used; small models print
# without names.
source "$(dirname "$0")/lib.sh" "$@"

cd "$root"
expect "the bicycle's equations" 0 "$mech" equations examples/whipple_bicycle.mech
contains "the bicycle has where lines" out "where (named subexpressions of the large expressions above):"
size=$(wc -c <"$work/out")
if [ "$size" -lt 400000 ]; then passed=$((passed + 1)); else
  failed=$((failed + 1)); echo "FAIL: the bicycle's equations print $size bytes (limit 400000)"; fi
# Each name x<k> is defined once, and only names defined on earlier lines
# appear in a definition.
python3 - "$work/out" >"$work/check" 2>&1 <<'PY'
import re, sys
lines = open(sys.argv[1]).read().split("\n")
start = next(i for i, l in enumerate(lines) if l.startswith("where ("))
defined, problems = set(), []
for line in lines[start + 1:]:
    m = re.match(r"  (x\d+) = (.*)$", line)
    if not m:
        continue
    name, body = m.groups()
    if name in defined:
        problems.append("defined twice: " + name)
    for used in re.findall(r"\bx\d+\b", body):
        if used not in defined:
            problems.append(name + " uses " + used + " before its definition")
    defined.add(name)
for line in lines[:start]:
    for used in re.findall(r"\bx\d+\b", line):
        if used not in defined:
            problems.append("undefined name " + used)
print("\n".join(problems[:10]) if problems else "names ok: %d" % len(defined))
PY
contains "names are defined before use" check "names ok"
expect "the heavy top's equations" 0 "$mech" equations examples/heavy_top.mech
lacks "a small model has no where lines" out "where ("
expect "the bicycle's equations as JSON" 0 "$mech" equations --json examples/whipple_bicycle.mech
contains "the JSON holds the names" out '"where": {"x1": '
finish
