# Answers by hand shared by the linkage tests (test_linkages.sh,
# test_augmented.sh), as Python for check_py: examples/parallelogram_linkage.mech
# against the single pendulum of the combined inertia, theta'^2 =
# 2 k (sin theta0 - sin theta) with k = g (3m/2 + mt) / ((m + mt) l), all
# cranks alike, and the reaction on each crank its own inertia times
# theta'' less its own gravity torque. parallelogram_errors(path) returns
# the largest differences of a run's CSV, and checks its length.
# examples/slider_crank_flywheel.mech (crank and rod equally long) on its
# branch, psi = -phi and x = 2 r cos(phi), its speed from the energy
# integral: slider_crank_errors(path) returns the largest difference and
# the dead centres passed.
parallelogram_answer='
def parallelogram_errors(path):
    rows = list(csv.DictReader(open(path)))
    assert float(rows[-1]["t"]) == 3 and len(rows) == 301
    l, m, mt, g, th0 = 1.0, 1.0, 0.5, 9.81, 0.3
    k = g * (1.5 * m + mt) / ((m + mt) * l)
    worst = {"equal": 0, "energy": 0, "reaction": 0}
    for r in rows:
        th, w = float(r["th1"]), float(r["th1\x27"])
        for c in ("th2", "th3"):
            worst["equal"] = max(worst["equal"], abs(float(r[c]) - th),
                                 abs(float(r[c + "\x27"]) - w))
        worst["energy"] = max(worst["energy"], abs(w * w - 2 * k * (math.sin(th0) - math.sin(th))))
        acc = -k * math.cos(th)
        expected = ((m * l * l / 3 + mt * l * l) * acc + (m / 2 + mt) * g * l * math.cos(th),
                    m * l * l / 3 * acc + m * g * l / 2 * math.cos(th),
                    m * l * l / 3 * acc + m * g * l / 2 * math.cos(th))
        for i, e in enumerate(expected):
            worst["reaction"] = max(worst["reaction"], abs(float(r["reaction%d" % (i + 1)]) - e))
    return worst
'
slider_crank_answer='
def slider_crank_errors(path):
    rows = list(csv.DictReader(open(path)))
    r, J, mr, ms = 0.1, 0.05, 1.0, 2.0
    inertia = lambda p: (J + mr * r * r * (9 * math.sin(p) ** 2 + math.cos(p) ** 2) / 4
                         + mr * r * r / 12 + 4 * ms * r * r * math.sin(p) ** 2)
    p0 = float(rows[0]["phi"])
    energy = inertia(p0) * float(rows[0]["phi\x27"]) ** 2 / 2
    worst, passed = 0.0, 0
    for r0 in rows:
        p, w = float(r0["phi"]), float(r0["phi\x27"])
        worst = max(worst, abs(float(r0["psi"]) + p), abs(float(r0["x"]) - 2 * r * math.cos(p)),
                    abs(w - math.sqrt(2 * energy / inertia(p))))
        passed = int(math.floor((p - math.pi / 2) / math.pi)) + 1  # dead centres passed
    return worst, passed
'
