"""Independent answers for tests/cli/test_tables.sh, in plain Python (no
NumPy: the checks run under whatever python3 the tests find).

- pchip(x, y, at, extrapolate): the monotone cubic written from the
  published algorithm, not from mech's code: Fritsch and Butland's weighted
  harmonic mean of the neighbouring secants inside (0 where they differ in
  sign or one is 0), and at each end the three-point estimate of Fritsch and
  Carlson kept of the end secant's sign and, where the secants differ in
  sign, at most 3 times the end secant (the rule of SciPy's
  PchipInterpolator); two rows are a line. Beyond the rows 'hold' keeps the
  end value and 'linear' the end knot's tangent line. test_tables.sh also
  compares it with scipy.interpolate.PchipInterpolator where SciPy is found.
- flywheel(t, ...): the closed form of J w' = T(w) for a piecewise linear
  torque-speed curve T, from w = 0 (each piece an exponential approach).
- laws(path): the 'piecewise law' lines of a run's summary.
"""
import csv
import math
import re


def _sign(v):
    return (v > 0) - (v < 0)


def pchip_slopes(x, y):
    """The slope at each row of the monotone cubic through (x, y)."""
    n = len(x)
    h = [x[k + 1] - x[k] for k in range(n - 1)]
    d = [(y[k + 1] - y[k]) / h[k] for k in range(n - 1)]
    if n == 2:
        return [d[0], d[0]]
    m = [0.0] * n
    for k in range(1, n - 1):
        if _sign(d[k - 1]) != _sign(d[k]) or d[k - 1] == 0 or d[k] == 0:
            continue  # an extremum or a flat piece: a flat tangent
        # weights: the secant of the longer neighbour counts less
        w1, w2 = 2 * h[k] + h[k - 1], h[k] + 2 * h[k - 1]
        m[k] = (w1 + w2) / (w1 / d[k - 1] + w2 / d[k])

    def end(h0, h1, d0, d1):
        s = ((2 * h0 + h1) * d0 - h0 * d1) / (h0 + h1)
        if _sign(s) != _sign(d0):
            return 0.0
        if _sign(d0) != _sign(d1) and abs(s) > 3 * abs(d0):
            return 3 * d0
        return s

    m[0] = end(h[0], h[1], d[0], d[1])
    m[-1] = end(h[-1], h[-2], d[-1], d[-2])
    return m


def pchip(x, y, at, extrapolate="hold"):
    """The monotone cubic through (x, y) at `at`."""
    m = pchip_slopes(x, y)
    if at <= x[0] or at >= x[-1]:
        k = 0 if at <= x[0] else len(x) - 1
        return y[k] + (m[k] * (at - x[k]) if extrapolate == "linear" else 0.0)
    k = max(i for i in range(len(x) - 1) if x[i] <= at)
    h = x[k + 1] - x[k]
    s = (at - x[k]) / h
    # the cubic Hermite basis on [x_k, x_k+1]
    return (
        (2 * s**3 - 3 * s**2 + 1) * y[k]
        + (s**3 - 2 * s**2 + s) * h * m[k]
        + (-2 * s**3 + 3 * s**2) * y[k + 1]
        + (s**3 - s**2) * h * m[k + 1]
    )


def linear(x, y, at):
    """The piecewise linear interpolant through (x, y), held beyond the rows."""
    if at <= x[0]:
        return y[0]
    if at >= x[-1]:
        return y[-1]
    k = max(i for i in range(len(x) - 1) if x[i] <= at)
    return y[k] + (y[k + 1] - y[k]) * (at - x[k]) / (x[k + 1] - x[k])


def flywheel(t, J, pieces):
    """(th, w) at t of J w' = T(w), th = w = 0 at t = 0, where T is the line
    T = a - c*w on each piece (a, c, w_end): the piece holds until w reaches
    w_end, the next one after it. On a piece starting at (t0, th0, w0) the
    motion approaches w_inf = a/c with the time constant tau = J/c:
    w = w_inf - (w_inf - w0) e^(-(t - t0)/tau),
    th = th0 + w_inf (t - t0) - (w_inf - w0) tau (1 - e^(-(t - t0)/tau))."""
    t0, th0, w0 = 0.0, 0.0, 0.0
    for a, c, w_end in pieces:
        w_inf, tau = a / c, J / c
        # when w reaches w_end: e^(-(t - t0)/tau) = (w_inf - w_end)/(w_inf - w0)
        t_end = t0 + tau * math.log((w_inf - w0) / (w_inf - w_end)) if w_end < w_inf else math.inf
        if t <= t_end:
            e = math.exp(-(t - t0) / tau)
            return th0 + w_inf * (t - t0) - (w_inf - w0) * tau * (1 - e), w_inf - (w_inf - w0) * e
        e = math.exp(-(t_end - t0) / tau)
        th0 += w_inf * (t_end - t0) - (w_inf - w0) * tau * (1 - e)
        t0, w0 = t_end, w_end
    raise ValueError("t beyond the last piece")


def crossing(J, a, c, w):
    """When J w' = a - c*w from w = 0 reaches w."""
    return J / c * math.log(a / (a - c * w))


def rows(path):
    """The rows of a CSV mech wrote, as dicts of floats."""
    return [{k: float(v) for k, v in r.items()} for r in csv.DictReader(open(path))]


def laws(path):
    """The piecewise laws a run's summary (stderr) lists, as a dict from the
    abscissa of the knot (the number in 'where th' - 100 = 0', 0 for
    'where th' = 0') to (location, switches, first switch time or None)."""
    found = {}
    pattern = r"^piecewise law at (\d+:\d+), where th' (?:([-+]) ([0-9.e+-]+) )?= 0: (no|\d+) switch(?:es)?(?:, (?:first )?at t = (\S+))?$"
    for line in open(path):
        m = re.match(pattern, line.rstrip("\n"))
        if m:
            loc, sign, number, n, first = m.groups()
            at = 0.0 if number is None else float(number) * (1 if sign == "-" else -1)
            found[at] = (loc, 0 if n == "no" else int(n), None if first is None else float(first))
    return found
