#!/usr/bin/env bash
# mech animate (docs/cli.md "animate"): the page is self-contained and its
# data are the positions of the mechanism, checked against the positions
# written out by hand from simulate's CSV; the gallery animates by the
# default rule (but for the models that give no position); errors. The
# page's drawing in a real browser is tests/browser/test_animation.py.
source "$(dirname "$0")/lib.sh" "$@"
cd "$work"
dp="$root/examples/double_pendulum.mech"

expect "double pendulum" 0 "$mech" animate "$dp" -o dp.html --until 2 --trace p2
contains "says what it wrote" err "animate: 201 frames of 2 points to dp.html"
expect "its CSV" 0 "$mech" simulate "$dp" --until 2 -o dp.csv
check_py "the page holds the bobs where the angles put them, and nothing external" '
page = open(W + "/dp.html").read()
data = json.loads(re.search(r"<script id=\"mech-data\" type=\"application/json\">(.*?)</script>",
                            page, re.S).group(1))
rows = list(csv.DictReader(open(W + "/dp.csv")))
assert len(data["t"]) == len(rows) == 201
p1, p2 = data["points"]
assert (p1["name"], p2["name"]) == ("p1", "p2")
for i in [0, 57, 200]:
    th1, th2 = float(rows[i]["th1"]), float(rows[i]["th2"])
    x1, y1 = math.sin(th1), -math.cos(th1)
    x2, y2 = x1 + 0.8 * math.sin(th2), y1 - 0.8 * math.cos(th2)
    for got, want in [(p1["x"][i], x1), (p1["y"][i], y1), (p2["x"][i], x2), (p2["y"][i], y2)]:
        assert abs(got - want) < 1e-6, (i, got, want)
# rods: p1 to p2, the origin (a pivot) to p1
assert sorted(map(tuple, data["links"])) == [(-1, 0, 0), (0, 1, 0)], data["links"]
assert data["traced"] == ["p2"] and data["plots"][0]["name"] == "energy T + V"
# self-contained: no external script, style, image or address
assert "<script src" not in page and "<link" not in page and "<img" not in page
assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", page)
'
# A body: a circle of radius sqrt(J/m) that turns with its angle; a 3-D body
# an ellipsoid whose axes are those of a uniform solid with its inertia.
expect "compound pendulum" 0 "$mech" animate "$root/examples/compound_pendulum.mech" -o cp.html --until 1
check_py "a planar body: radius sqrt(J/m), its angle per sample" '
page = open(W + "/cp.html").read()
data = json.loads(re.search(r"type=\"application/json\">(.*?)</script>", page, re.S).group(1))
body = data["bodies"][0]
assert abs(body["radius"] - math.sqrt(1.0 / 12)) < 1e-6, body["radius"]  # J = m a^2/12, a = 1
assert abs(body["angle"][0] - 0.2) < 1e-9 and len(body["angle"]) == len(data["t"])
assert data["links"] == [[-1, 0, 0]]  # the centre keeps its distance d from the pivot
'
expect "heavy top" 0 "$mech" animate "$root/examples/heavy_top.mech" -o top.html --until 1 --view 10,35
check_py "a 3-D body: an ellipsoid with a rotation per sample" '
page = open(W + "/top.html").read()
data = json.loads(re.search(r"type=\"application/json\">(.*?)</script>", page, re.S).group(1))
assert data["dimensions"] == 3 and data["view"] == [10, 35]
body = data["bodies"][0]
assert len(body["rotation"]) == 9 * len(data["t"]) and min(body["axes"]) > 0
R = body["rotation"][:9]  # orthonormal
for i in range(3):
    for j in range(3):
        dot = sum(R[3 * k + i] * R[3 * k + j] for k in range(3))
        assert abs(dot - (i == j)) < 1e-5, (i, j, dot)
'

# Rods are the model's, not the run's: the pole is joined to its cart in a
# run at rest; a body on an orbit is not tied to the centre it circles.
expect "cart-pole at rest" 0 "$mech" animate "$root/examples/cart_pole.mech" -o cart.html --until 1
expect "central field" 0 "$mech" animate "$root/examples/central_field.mech" -o orbit.html --until 1
check_py "rods by constant distance over states of no run" '
def data(name):
    page = open(W + "/" + name).read()
    return json.loads(re.search(r"type=\"application/json\">(.*?)</script>", page, re.S).group(1))
cart = data("cart.html")
assert [p["name"] for p in cart["points"]] == ["cart", "pole"]
assert sorted(map(sorted, (l[:2] for l in cart["links"]))) == [[0, 1]], cart["links"]
assert data("orbit.html")["links"] == []
'
# A point moving along one fixed line shows the line: the slider's guide.
expect "slider-crank" 0 "$mech" animate "$root/examples/slider_crank.mech" -o slider.html --until 1
check_py "the slider's guide is the x axis" '
page = open(W + "/slider.html").read()
data = json.loads(re.search(r"type=\"application/json\">(.*?)</script>", page, re.S).group(1))
assert len(data["guides"]) == 1, data["guides"]
x, y, dx, dy = data["guides"][0]
assert abs(y) < 1e-9 and abs(dy) < 1e-9 and abs(abs(dx) - 1) < 1e-9
'
# With constraints the run alone decides: the pendulum written in x and y
# (held by its rod constraint) hangs from a pivot.
expect "Cartesian pendulum" 0 "$mech" animate "$root/examples/cartesian_pendulum.mech" -o xy.html --until 1
check_py "the constrained bob on its rod" '
page = open(W + "/xy.html").read()
data = json.loads(re.search(r"type=\"application/json\">(.*?)</script>", page, re.S).group(1))
assert data["links"] == [[-1, 0, 0]], data["links"]
'

# The gallery: each model animates (by the default rule, and with `draw`
# hints where T is written in the coordinates alone); under the
# sanitizers every third.
every=1
[ -n "${MECH_SANITIZER_PASS:-}" ] && every=3
i=0
for model in "$root"/examples/*.mech "$root"/examples/tutorial/*.mech; do
  i=$((i + 1))
  [ $((i % every)) -eq 0 ] || continue
  name="$(basename "$model" .mech)"
  expect "$name animates" 0 "$mech" animate "$model" -o "$name.html" --until 0.2
done

# draw hints: a chain of boxes on springs at k metres plus x[k].
expect "hinted chain" 0 "$mech" animate "$root/examples/spring_damper_chain.mech" -o chain.html --until 1
expect "its CSV" 0 "$mech" simulate "$root/examples/spring_damper_chain.mech" --until 1 -o chain.csv
check_py "boxes where the hints put them, springs between them" '
page = open(W + "/chain.html").read()
data = json.loads(re.search(r"type=\"application/json\">(.*?)</script>", page, re.S).group(1))
rows = list(csv.DictReader(open(W + "/chain.csv")))
assert len(data["boxes"]) == 5 and all(b["width"] == 0.4 and b["height"] == 0.3 for b in data["boxes"])
for k, box in enumerate(data["boxes"], start=1):
    centre = data["points"][box["point"]]
    for i in [0, 50, 100]:
        assert abs(centre["x"][i] - (k + float(rows[i]["x[%d]" % k]))) < 1e-6, (k, i)
        assert centre["y"][i] == 0
assert sum(1 for l in data["links"] if l[2] == 1) == 5  # the wall spring and four between
'
printf '%s\n' 'model Hints {' '  param m = 1 [kg]' '  coord x [m]' '  kinetic T = m / 2 * x'"'"'^2' \
  '  draw circle([x, 0 [m]])' '  draw rod([x, 0 [m]])' '  draw disk([x, 0 [m]], 2 [s])' \
  '  draw point(x)' '  draw point([x + x'"'"' * 1 [s], 0 [m]])' '  draw box([x, 0 [m]], [1 [m], 1 [m], 1 [m]])' '}' >hints.mech
expect "hints checked" 1 "$mech" check hints.mech
contains "an unknown shape" err "hints.mech:5:8: error: draw: unknown shape 'circle' (one of rod, spring, point, disk, box, ground)"
contains "an argument too few" err "hints.mech:6:8: error: draw: rod(a, b): a segment between two positions takes 2 arguments, 1 given"
contains "a radius in seconds" err "hints.mech:7:25: error: draw disk's argument 2 has dimension s, a length (m) was expected"
contains "a scalar position" err "hints.mech:8:14: error: draw point's argument 1 must be a vector of 2 or 3, found a scalar"
contains "a position of velocities" err "draw point's argument 1 depends on velocities"
contains "a size of three" err "draw box's argument 2 must be a vector of 2 (width, height)"
printf '%s\n' 'model Hinted3D {' '  param m = 1 [kg]' '  coord x [m]' '  particle p mass m at [x, 0 [m], 0 [m]]' \
  '  draw ground(0 [m])' "  init x' = 1" '}' >ground3d.mech
# A hint at a position let leaves that point as it is: p1 keeps its name
# and its dot when a rod and a dot are drawn at it.
printf '%s\n' 'model LetHints {' '  param l = 1 [m]' '  coord th [rad]' '  let p1 = l * [sin(th), -cos(th)]' \
  "  kinetic T = 1 [kg] / 2 * dot(p1', p1')" '  draw rod([0 [m], 0 [m]], p1)' '  draw point(p1)' \
  '  init th = 0.3' '}' >lethints.mech
expect "hints at a let" 0 "$mech" animate lethints.mech -o lethints.html --until 0.5
check_py "the let keeps its name and dot" '
page = open(W + "/lethints.html").read()
data = json.loads(re.search(r"type=\"application/json\">(.*?)</script>", page, re.S).group(1))
assert [(p["name"], p["kind"]) for p in data["points"]] == [("p1", "point"), ("rod 1 start", "end")], data["points"]
'
expect "ground in 3-D" 1 "$mech" animate ground3d.mech -o g.html --until 0.1
contains "ground in 3-D says so" err "draw: box and ground are shapes of a planar drawing; Hinted3D is drawn in 3-D"
expect "fmt keeps the hints" 0 "$mech" fmt --check "$root/examples/spring_damper_chain.mech"

# The REPL: :animate and :plot draw the last :sim (its options, run again).
printf '%s\n' ":load $dp" ':animate early.html' ':sim 2 --dt 0.02' ':animate repl.html --trace p2' \
  ':plot repl.svg --plot-vars th1' ':animate' >repl.in
expect "repl pictures" 0 "$mech" repl <repl.in
contains "repl: nothing to draw before a :sim" err ":animate draws the last :sim; run one first (:sim 10)"
contains "repl: the page written" out "animation written to repl.html"
contains "repl: the plot written" out "plot written to repl.svg"
contains "repl: :animate needs its file" err ":animate takes the file to write first (:animate run.html)"
check_py "the REPL's page is the run's: 101 samples until 2 s, p2 traced" '
page = open(W + "/repl.html").read()
data = json.loads(re.search(r"type=\"application/json\">(.*?)</script>", page, re.S).group(1))
assert len(data["t"]) == 101 and data["t"][-1] == 2 and data["traced"] == ["p2"]
assert "th1 [rad]" in open(W + "/repl.svg").read()
'

# Errors.
expect "no -o" 2 "$mech" animate "$dp"
expect "not a page" 2 "$mech" animate "$dp" -o dp.svg
contains "not a page says so" err "animate: -o names the page, a file ending in .html, got 'dp.svg'"
expect "a view of a planar drawing" 2 "$mech" animate "$dp" -o v.html --until 0.1 --view 10,20
contains "planar view says so" err "animate: --view turns a 3-D drawing; DoublePendulum is drawn in the plane"
expect "a malformed view" 2 "$mech" animate "$dp" -o v.html --view 10
contains "malformed view says so" err "--view needs 'yaw,pitch' in degrees"
expect "an unknown trace" 1 "$mech" animate "$dp" -o v.html --until 0.1 --trace p3
contains "unknown trace lists the points" err "--trace: 'p3' is not a point of the drawing (p1, p2)"
expect "an unknown plotted column" 1 "$mech" animate "$dp" -o v.html --until 0.1 --plot-vars nosuch
check_py "no page after an error" '
import os
assert not os.path.exists(W + "/v.html")
'
finish
