#!/usr/bin/env python3
# Closed forms of the piecewise laws of test_piecewise.sh, worked out by
# hand (never from mech's output), and a comparison of a run's CSV with
# them. Each law's motion is pieced together from the elementary solutions
# of its branches, joined where the law's argument crosses 0:
#
#  bounce    a mass dropped from rest at height h on a one-sided spring,
#            y'' = -g + max(0, -k y)/m (or the potential k/2 y^2 for y < 0):
#            free fall to y = 0 at t1 = sqrt(2h/g) with speed v1 = sqrt(2gh);
#            in contact y = -mg/k + A cos(w tau) + B sin(w tau), w = sqrt(k/m),
#            A = mg/k, B = -v1/w, which is A = R cos(w tau - phi) with
#            phi = atan2(B, A), so y = 0 again at w tau_c = 2 pi + 2 phi,
#            leaving with speed +v1; back at the top after t1 more, so
#            the period is 2 t1 + tau_c. With shift=s the run at t is the
#            drop at t + s: h = v^2/(2g), shift = v/g starts at y = 0, y' = -v
#  rotor     J th'' = clamp(-kp (th' - wref), -Tmax, Tmax) from th' = w0:
#            constant acceleration s Tmax/J (s = sign(wref - w0)) until
#            |th' - wref| = Tmax/kp at t_s = J (|wref - w0| - Tmax/kp)/Tmax,
#            then th' = wref - s (Tmax/kp) exp(-(kp/J)(t - t_s))
#  deadzone  m x'' = -k (x - d) for x > d, -k (x + d) for x < -d, 0 between,
#            from x = 0, x' = v0 > 0: flight at v0 for 2d/v0 between the
#            sides, half a harmonic swing (pi/w, w = sqrt(k/m)) on each side
#            leaving at the speed it came in; period 4d/v0 + 2 pi/w
#  vee       m x'' = -c sign(x) (the potential c |x|) from x = x0 > 0 at rest:
#            x0 - a t^2/2 with a = c/m until x = 0 at t0 = sqrt(2 x0/a), and
#            its mirror image; period 4 t0
#  pulse     m x'' = F for t1 < t < t2, 0 otherwise, from rest at 0
#
# The script imports it (PYTHONPATH) for compare(), switches(), laws() and
# drift(); from the shell:
#        piecewise_reference.py CASE RUN.csv TOLERANCE [name=value ...]
#   compares every row's coordinate and speed with the closed form, prints
#   the largest difference, exits 1 if it is above TOLERANCE
#        piecewise_reference.py period [name=value ...]
#   prints the period of bounce
#        piecewise_reference.py switches CASE [name=value ...] until=T
#   prints the closed form's switch times in (0, T], one a line, as
#   "LAW t" (LAW names the law: contact, right, left, ...)
import csv
import math
import re
import sys


def bounce_times(p):
    """t1, the fall to the spring, and tau_c, the time on it."""
    m, k, g, h = p["m"], p["k"], p["g"], p["h"]
    w = math.sqrt(k / m)
    t1, v1 = math.sqrt(2 * h / g), math.sqrt(2 * g * h)
    A, B = m * g / k, -v1 / w
    return t1, (2 * math.pi + 2 * math.atan2(B, A)) / w


def bounce(p):
    m, k, g, h = p["m"], p["k"], p["g"], p["h"]
    w = math.sqrt(k / m)
    t1, v1 = math.sqrt(2 * h / g), math.sqrt(2 * g * h)
    A, B = m * g / k, -v1 / w
    tau_c = bounce_times(p)[1]
    period = 2 * t1 + tau_c
    shift = p.get("shift", 0.0)

    def state(t):
        n, s = divmod(t + shift, period)
        if s < t1:
            return h - g * s * s / 2, -g * s
        if s < t1 + tau_c:
            tau = s - t1
            c, si = math.cos(w * tau), math.sin(w * tau)
            return -A + A * c + B * si, w * (-A * si + B * c)
        s -= t1 + tau_c
        return v1 * s - g * s * s / 2, v1 - g * s

    def switches(until):
        out, n = [], 0
        while n * period + t1 - shift <= until:
            for t in (n * period + t1 - shift, n * period + t1 + tau_c - shift):
                if 1e-12 < t <= until:
                    out.append(("contact", t))
            n += 1
        return out

    return ("y", state, switches)


def rotor(p):
    J, kp, Tmax, wref, w0 = p["J"], p["kp"], p["Tmax"], p["wref"], p["w0"]
    s = 1.0 if wref > w0 else -1.0
    a = s * Tmax / J
    ts = J * (abs(wref - w0) - Tmax / kp) / Tmax
    ths = w0 * ts + a * ts * ts / 2
    lam = kp / J

    def state(t):
        if t < ts:
            return w0 * t + a * t * t / 2, w0 + a * t
        e = math.exp(-lam * (t - ts))
        return (ths + wref * (t - ts) - s * Tmax * J / kp**2 * (1 - e),
                wref - s * Tmax / kp * e)

    def switches(until):
        # the bound that holds at the start lets go at t_s
        return [("upper" if s > 0 else "lower", ts)] if ts <= until else []

    return ("th", state, switches)


def deadzone(p):
    m, k, d, v0 = p["m"], p["k"], p["d"], p["v0"]
    w = math.sqrt(k / m)
    free, swing = 2 * d / v0, math.pi / w
    period = 2 * free + 2 * swing

    def state(t):
        # the phase from x = -d moving right, which is d/v0 before t = 0
        s = (t + d / v0) % period
        if s < free:
            return -d + v0 * s, v0
        s -= free
        if s < swing:
            return d + v0 / w * math.sin(w * s), v0 * math.cos(w * s)
        s -= swing
        if s < free:
            return d - v0 * s, -v0
        s -= free
        return -d - v0 / w * math.sin(w * s), -v0 * math.cos(w * s)

    def switches(until):
        out, n = [], 0
        t0 = d / v0  # the first time at x = d
        while n * period + t0 <= until:
            base = n * period + t0
            for law, t in (("right", base), ("right", base + swing),
                           ("left", base + swing + free),
                           ("left", base + 2 * swing + free)):
                if t <= until:
                    out.append((law, t))
            n += 1
        return out

    return ("x", state, switches)


def vee(p):
    m, c, x0 = p["m"], p["c"], p["x0"]
    a = c / m
    t0 = math.sqrt(2 * x0 / a)

    def state(t):
        n, s = divmod(t, 2 * t0)  # half periods, from a turning point
        sign = 1.0 if int(n) % 2 == 0 else -1.0
        if s < t0:
            return sign * (x0 - a * s * s / 2), -sign * a * s
        s = 2 * t0 - s
        return -sign * (x0 - a * s * s / 2), -sign * a * s

    def switches(until):
        out, n = [], 0
        while (2 * n + 1) * t0 <= until:
            out.append(("sign", (2 * n + 1) * t0))
            n += 1
        return out

    return ("x", state, switches)


def pulse(p):
    m, F, t1, t2 = p["m"], p["F"], p["t1"], p["t2"]
    a = F / m

    def state(t):
        if t <= t1:
            return 0.0, 0.0
        if t <= t2:
            return a * (t - t1) ** 2 / 2, a * (t - t1)
        v = a * (t2 - t1)
        return v * (t2 - t1) / 2 + v * (t - t2), v

    def switches(until):
        return [(law, t) for law, t in (("on", t1), ("off", t2)) if t <= until]

    return ("x", state, switches)


CASES = {"bounce": bounce, "rotor": rotor, "deadzone": deadzone, "vee": vee,
         "pulse": pulse}


def compare(case, path, tol, **p):
    """The largest difference of the CSV's coordinate and speed from the
    closed form over its rows; an AssertionError above tol."""
    name, state, _ = CASES[case](p)
    worst, at, rows = 0.0, None, 0
    for r in csv.DictReader(open(path)):
        t = float(r["t"])
        q, v = state(t)
        err = max(abs(float(r[name]) - q), abs(float(r[name + "'"]) - v))
        rows += 1
        if err > worst:
            worst, at = err, t
    assert rows >= 2, f"{path}: {rows} rows"
    assert worst <= tol, f"{case}: max |error| {worst:.3g} at t = {at} > {tol:g}"
    return worst


def switches(case, until, **p):
    """The closed form's switch times in (0, until], as (law, t)."""
    return CASES[case](p)[2](until)


def laws(path):
    """The summary's piecewise laws, in order: (line:col, switches, first
    switch time or None)."""
    out = []
    for line in open(path):
        m = re.match(r"piecewise law at (\d+:\d+), where .* = 0: (?:(\d+) switch(?:es)?, "
                     r"(?:first )?at t = (\S+)|no switch)$", line.rstrip("\n"))
        if m:
            out.append((m[1], int(m[2] or 0), float(m[3]) if m[3] else None))
        else:
            assert not line.startswith("piecewise law"), line
    return out


def drift(path, what="energy drift max|E(t) - E(0)|/|E(0)| = "):
    """The relative energy drift the summary prints."""
    for line in open(path):
        if line.startswith(what):
            return float(line[len(what):])
    raise AssertionError(f"no '{what}' in {path}")


def params(args):
    return {a.split("=")[0]: float(a.split("=")[1]) for a in args}


def main(argv):
    if argv[1] == "period":
        t1, tau_c = bounce_times(params(argv[2:]))
        print(repr(2 * t1 + tau_c))
        return 0
    if argv[1] == "switches":
        p = params(argv[3:])
        _, _, switches = CASES[argv[2]](p)
        for law, t in switches(p["until"]):
            print(law, repr(t))
        return 0
    case, path, tol = argv[1], argv[2], float(argv[3])
    try:
        worst = compare(case, path, tol, **params(argv[4:]))
    except AssertionError as e:
        print(e)
        return 1
    print(f"{case}: max |error| {worst:.3g}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
