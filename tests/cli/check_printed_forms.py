#!/usr/bin/env python3
# Checks that every form `mech equations --json` prints for every gallery
# model (examples/*.mech, examples/tutorial/*.mech) equals the numbers
# `mech eval --json` computes at random states. The printed text is parsed
# back with a parser of its own (the .mech expression grammar: ^ binds
# tighter than unary minus and is right-associative) and evaluated in plain
# Python; eval computes from the derivation and never sees the display
# forms, so a wrong coefficient, sign or angle in what is printed shows up.
#
# Per model and state it compares:
#   T, V against eval's T, V;  L against T - V;  T2 + T1 + T0 against T;
#   T2 against q'^T M q' / 2 with eval's M;  M entry by entry;
#   Q and Qnc per coordinate;
#   q'' and the multipliers solved from the printed M, f, C and gamma
#     (M q'' = f + C^T lambda, C q'' = gamma) against eval's q'' and lambda;
#   the printed C^T times eval's lambda against eval's reaction;
#   each printed Phi at eval's state (eval puts the state on the
#     constraints, so Phi must vanish there);
#   each equation "lhs = rhs" with eval's q'' and lambda substituted.
#
# Tolerance: |printed - eval| <= 1e-8 * scale, where scale is the largest
# magnitude in the quantity's group at that state (both sides counted, and
# for the force-like groups also the terms M q'' and C^T lambda that are
# balanced against each other), so a value that is zero up to rounding
# against forces of order 10 passes, while a coefficient off by 1e-8 of
# the forces fails. Rounding in double precision is near 1e-14 of that
# scale even for the bicycle; 1e-8 leaves room for the conditioning of
# the solve and catches any error in a printed coefficient.
#
# Usage: check_printed_forms.py MECH ROOT [--seed N] [--states K]
#        [--only NAME] [--equations-json MODEL=FILE]
# Prints one line per model with the largest relative error; exit 1 on any
# mismatch, 2 on a usage or tool error. --equations-json substitutes a
# captured (and possibly edited) equations JSON, which is how the test
# shows that the checker catches a wrong printed form.
import glob
import json
import math
import os
import random
import re
import subprocess
import sys
import time

TOL = 1e-8

# ---------------------------------------------------------------- parsing

_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\[\d+\])?'{0,2})
  | (?P<op>[-+*/^(),])
""", re.VERBOSE)


def tokenize(text):
    out, pos = [], 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise ValueError("unexpected character %r at %d in %r" %
                             (text[pos], pos, text[:80]))
        pos = m.end()
        if m.lastgroup != "ws":
            out.append((m.lastgroup, m.group()))
    out.append(("end", ""))
    return out


def _sign(x):
    return (x > 0) - (x < 0)


# Only these functions may appear; anything else is a parse error, so the
# printed text can never reach Python's own evaluator.
FUNCS = {
    "sin": math.sin, "cos": math.cos, "tan": math.tan,
    "asin": math.asin, "acos": math.acos, "atan": math.atan,
    "sinh": math.sinh, "cosh": math.cosh, "tanh": math.tanh,
    "exp": math.exp, "log": math.log, "sqrt": math.sqrt,
    "abs": abs, "sign": _sign, "atan2": math.atan2,
}
BUILTIN_FUNCS = set(FUNCS)  # a model's tables are added per model


class Parser:
    """Recursive descent over the .mech expression grammar (docs/language.md,
    'Operators, tightest first'). Builds closures env -> float. Sums and
    products are kept flat so that a sum of a thousand terms does not nest
    a thousand levels deep."""

    def __init__(self, text):
        self.text = text
        self.toks = tokenize(text)
        self.i = 0
        self.names = set()

    def peek(self):
        return self.toks[self.i]

    def take(self, value=None):
        tok = self.toks[self.i]
        if value is not None and tok[1] != value:
            raise ValueError("expected %r, found %r in %r" %
                             (value, tok[1], self.text[:80]))
        self.i += 1
        return tok

    def parse(self):
        f = self.expr()
        if self.peek()[0] != "end":
            raise ValueError("trailing %r in %r" % (self.peek()[1],
                                                    self.text[:80]))
        return f

    def expr(self):
        terms = [(1, self.term())]
        while self.peek()[1] in ("+", "-"):
            s = 1 if self.take()[1] == "+" else -1
            terms.append((s, self.term()))
        if len(terms) == 1:
            return terms[0][1]
        pos = [f for s, f in terms if s > 0]
        neg = [f for s, f in terms if s < 0]
        return lambda e: (math.fsum([f(e) for f in pos]) -
                          math.fsum([f(e) for f in neg]))

    def term(self):
        first = self.unary()
        rest = []
        while self.peek()[1] in ("*", "/"):
            op = self.take()[1]
            rest.append((op, self.unary()))
        if not rest:
            return first

        def prod(e):
            v = first(e)
            for op, f in rest:
                v = v * f(e) if op == "*" else v / f(e)
            return v
        return prod

    def unary(self):
        if self.peek()[1] == "-":
            self.take()
            f = self.unary()
            return lambda e: -f(e)
        if self.peek()[1] == "+":
            self.take()
            return self.unary()
        return self.power()

    def power(self):
        base = self.primary()
        if self.peek()[1] != "^":
            return base
        self.take()
        # The exponent may carry a sign (x^-2); a^b^c is a^(b^c).
        sign = 1
        while self.peek()[1] in ("-", "+"):
            if self.take()[1] == "-":
                sign = -sign
        expo = self.power()
        # math.pow raises on a negative base with a fractional exponent
        # instead of returning a complex number.
        return lambda e: math.pow(base(e), sign * expo(e))

    def primary(self):
        kind, value = self.take()
        if kind == "num":
            c = float(value)
            return lambda e: c
        if value == "(":
            f = self.expr()
            self.take(")")
            return f
        if kind == "name":
            if self.peek()[1] == "(":
                if value not in FUNCS:
                    raise ValueError("unknown function %r" % value)
                self.take("(")
                args = [self.expr()]
                while self.peek()[1] == ",":
                    self.take()
                    args.append(self.expr())
                self.take(")")
                fn = FUNCS[value]
                if len(args) == 1:
                    a = args[0]
                    return lambda e: fn(a(e))
                return lambda e: fn(*[a(e) for a in args])
            if value == "pi":
                return lambda e: math.pi
            self.names.add(value)
            return lambda e: e[value]
        raise ValueError("unexpected %r in %r" % (value, self.text[:80]))


def compile_expr(text):
    return Parser(text).parse()


# ---------------------------------------------------------------- linear algebra

def solve_echelon(A, b, rel=1e-11):
    """Gaussian elimination with partial pivoting. A column whose best pivot
    is below rel * (largest entry of A) is taken as dependent: its unknown
    is set to 0 (a basic solution). Returns (x, rank)."""
    n, m = len(A), len(A[0])
    M = [list(A[i]) + [b[i]] for i in range(n)]
    big = max([abs(v) for row in A for v in row] + [1e-300])
    pivcols, r = [], 0
    for c in range(m):
        if r == n:
            break
        p = max(range(r, n), key=lambda i: abs(M[i][c]))
        if abs(M[p][c]) <= rel * big:
            continue
        M[r], M[p] = M[p], M[r]
        for i in range(r + 1, n):
            k = M[i][c] / M[r][c]
            if k:
                for j in range(c, m + 1):
                    M[i][j] -= k * M[r][j]
        pivcols.append(c)
        r += 1
    x = [0.0] * m
    for row in range(r - 1, -1, -1):
        c = pivcols[row]
        s = M[row][m] - sum(M[row][j] * x[j] for j in range(c + 1, m))
        x[c] = s / M[row][c]
    return x, r


# ---------------------------------------------------------------- running mech

def run(cmd, timeout=120):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


_PARAM = re.compile(r"^\s*param (\S+) = (\S+)(.*)$")
_INPUT = re.compile(r"^\s*input (\S+)")


def model_inputs(mech, path):
    """The names of the model's inputs, from --dump=sema ('input F [N]')."""
    rc, out, err = run([mech, "--dump=sema", path])
    if rc != 0:
        raise RuntimeError("--dump=sema failed: " + err.strip())
    return [m.group(1) for m in map(_INPUT.match, out.splitlines()) if m]


def model_params(mech, path):
    """name -> (SI value, structural?) from --dump=sema, which prints each
    param's value in SI units ('param alpha = 0.52... [1]  # declared [deg]')."""
    rc, out, err = run([mech, "--dump=sema", path])
    if rc != 0:
        raise RuntimeError("--dump=sema failed: " + err.strip())
    params = {}
    for line in out.splitlines():
        m = _PARAM.match(line)
        if m:
            params[m.group(1)] = (float(m.group(2)),
                                  "structural" in m.group(3))
    return params


def eval_json(mech, path, at=None, sets=None):
    cmd = [mech, "eval", path, "--json"]
    if at:
        cmd += ["--at", at]
    if sets:
        cmd += ["--set", sets]
    rc, out, err = run(cmd)
    if rc != 0:
        return None, err.strip()
    return json.loads(out), None


# ---------------------------------------------------------------- checking

class Model:
    def __init__(self, data):
        self.d = data
        self.coords = data["coordinates"]
        # Named subexpressions first, in their (dependency) order.
        self.where = [(k, compile_expr(v)) for k, v in data["where"].items()]
        c = compile_expr
        self.scalars = {k: c(data[k]) for k in
                        ("T", "V", "D", "L", "T2", "T1", "T0")}
        self.Q = [c(data["Q"][q]) for q in self.coords]
        self.Qnc = [c(data["Qnc"][q]) for q in self.coords]
        self.M = [[c(x) for x in row] for row in data["mass_matrix"]]
        self.f = [c(x) for x in data["forcing"]]
        self.cons = []
        for con in data["constraints"]:
            self.cons.append((con["name"], c(con["phi"]),
                              [c(con["jacobian"][q]) for q in self.coords],
                              c(con["gamma"])))
        self.eqs = []
        for q in self.coords:
            lhs, sep, rhs = data["equations"][q].partition(" = ")
            if not sep or " = " in rhs:
                raise ValueError("equation of %s is not 'lhs = rhs'" % q)
            self.eqs.append((c(lhs), c(rhs)))


class Errors:
    """Collects relative errors per quantity; remembers the worst and every
    one above the tolerance."""

    def __init__(self):
        self.worst, self.where, self.bad = 0.0, "", []

    def group(self, label, pairs, extra=()):
        """pairs: [(name, printed, eval)]; the scale is the largest magnitude
        among both sides and `extra`."""
        mags = [abs(a) for _, a, _ in pairs] + [abs(b) for _, _, b in pairs]
        mags += [abs(x) for x in extra]
        scale = max(mags + [0.0])
        for name, a, b in pairs:
            diff = abs(a - b)
            if diff == 0:
                continue
            err = diff / scale if scale > 0 else math.inf
            if not math.isfinite(a) or not math.isfinite(b):
                err = math.inf
            if err > self.worst:
                self.worst, self.where = err, "%s %s" % (label, name)
            if err > TOL:
                self.bad.append("%s %s: printed %.17g, eval %.17g "
                                "(relative error %.3g, scale %.3g)" %
                                (label, name, a, b, err, scale))


def check_state(model, ev, params, errs, tag):
    coords = model.coords
    n, m = len(coords), len(model.cons)
    env = dict(params)
    env["t"] = float(ev["t"])
    for q in coords:
        env[q] = float(ev["q"][q])
        env[q + "'"] = float(ev["qd"][q])
    for name, f in model.where:
        env[name] = f(env)
    S = {k: f(env) for k, f in model.scalars.items()}
    M = [[f(env) for f in row] for row in model.M]
    f = [g(env) for g in model.f]
    Q = [g(env) for g in model.Q]
    Qnc = [g(env) for g in model.Qnc]
    Me = ev["mass_matrix"]
    qd = [env[q + "'"] for q in coords]

    T, V = float(ev["T"]), float(ev["V"])
    T2e = 0.5 * sum(qd[i] * Me[i][j] * qd[j]
                    for i in range(n) for j in range(n))
    # Each energy against the size of its own parts: T is small next to V
    # at a slow state, and an error in T must not hide behind V.
    parts = [abs(S["T2"]), abs(S["T1"]), abs(S["T0"])]
    errs.group(tag + " energy", [("T", S["T"], T)], extra=parts)
    errs.group(tag + " energy", [("V", S["V"], V)])
    errs.group(tag + " energy", [("L = T - V", S["L"], T - V)],
               extra=[T, V])
    errs.group(tag + " energy",
               [("T2 + T1 + T0 = T", S["T2"] + S["T1"] + S["T0"], T)],
               extra=parts)
    errs.group(tag + " energy", [("T2 = q'^T M q'/2", S["T2"], T2e)])
    errs.group(tag + " mass matrix",
               [("M[%s, %s]" % (coords[i], coords[j]), M[i][j], Me[i][j])
                for i in range(n) for j in range(n)])

    lam_names = [c[0] for c in model.cons]
    C = [[g(env) for g in row] for _, _, row, _ in model.cons]
    gamma = [c[3](env) for c in model.cons]
    phi = [c[1](env) for c in model.cons]
    lam_e = [float(ev["lambda"][k]) for k in lam_names]
    qdd_e = ev["qdd"]
    react_e = [float(ev["reaction"][q]) if m else 0.0 for q in coords]
    react_p = [sum(C[k][i] * lam_e[k] for k in range(m)) for i in range(n)]
    force_terms = [abs(x) for x in f + Q + react_e]
    if qdd_e is not None:
        qdd_e = [float(qdd_e[q]) for q in coords]
        force_terms += [sum(abs(Me[i][j] * qdd_e[j]) for j in range(n))
                        for i in range(n)]
    errs.group(tag + " Q", [("Q[%s]" % q, Q[i], float(ev["Q"][q]))
                            for i, q in enumerate(coords)] +
               [("Qnc[%s]" % q, Qnc[i], float(ev["Qnc"][q]))
                for i, q in enumerate(coords)], extra=force_terms)
    if m:
        errs.group(tag + " reaction",
                   [("(C^T lambda)[%s]" % q, react_p[i], react_e[i])
                    for i, q in enumerate(coords)], extra=force_terms)
        # Phi at the state eval put on the constraints: zero against the
        # size of its own terms, estimated by |C| |q| (plus |C| |q'| for a
        # velocity constraint) -- an affine Phi in either.
        for k, (name, _, _, _) in enumerate(model.cons):
            s = sum(abs(C[k][i]) * (abs(env[q]) + abs(env[q + "'"]) + 1)
                    for i, q in enumerate(coords))
            errs.group(tag + " constraint", [("Phi[%s]" % name, phi[k], 0.0)],
                       extra=[s])
    notes = []
    if qdd_e is None:
        notes.append("eval gives no q'' (%s)" % "; ".join(ev["notes"]))
        return notes
    # The KKT system [[M, -C^T], [C, 0]] [q''; lambda] = [f; gamma].
    K = [M[i] + [-C[k][i] for k in range(m)] for i in range(n)]
    K += [C[k] + [0.0] * m for k in range(m)]
    x, rank = solve_echelon(K, f + gamma)
    qdd_p, lam_p = x[:n], x[n:]
    errs.group(tag + " q''", [("%s''" % q, qdd_p[i], qdd_e[i])
                              for i, q in enumerate(coords)])
    if m:
        if rank == n + m:
            errs.group(tag + " lambda", [(lam_names[k], lam_p[k], lam_e[k])
                                         for k in range(m)])
        else:
            # Redundant constraints: q'' and C^T lambda are still unique
            # (compared above and via the reaction), the multipliers not.
            notes.append("KKT rank %d < %d (redundant constraints): "
                         "multipliers not compared" % (rank, n + m))
    env2 = dict(env)
    for i, q in enumerate(coords):
        env2[q + "''"] = qdd_e[i]
    for k, name in enumerate(lam_names):
        env2[name] = lam_e[k]
    errs.group(tag + " equations",
               [("%s: lhs - rhs" % q, lhs(env2) - rhs(env2), 0.0)
                for q, (lhs, rhs) in zip(coords, model.eqs)],
               extra=force_terms)
    return notes


def fmt_state(q, qd, t):
    parts = ["%s=%r" % (k, v) for k, v in q.items()]
    parts += ["%s'=%r" % (k, v) for k, v in qd.items()]
    parts.append("t=%r" % t)
    return ", ".join(parts)


# The coherent SI units a table's declaration may carry here (scale 1).
SI_UNITS = {"", "rad/s", "N*m", "m", "N", "s", "rad", "m/s", "kg"}


def model_tables(path):
    """The model's linear tables (`table f(x [u]) [u] from "file.csv"`,
    holding the end values beyond the rows) as Python functions, read from
    their CSV files with an interpolation of this checker's own."""
    tables = {}
    text = open(path).read()
    pattern = (r'table\s+(\w+)\((\w+)\s*(?:\[([^\]]*)\])?\)\s*(?:\[([^\]]*)\])?'
               r'\s*from\s*"([^"]+)"([^\n]*)')
    for name, _, xu, yu, csv_path, clauses in re.findall(pattern, text):
        if clauses.strip() or (xu or "") not in SI_UNITS or (yu or "") not in SI_UNITS:
            raise ValueError("table %s: only linear tables in SI units are checked" % name)
        rows = [line.split(",") for line in open(os.path.join(os.path.dirname(path), csv_path))
                if line.strip() and not line.startswith("#")][1:]
        xs, ys = [float(r[0]) for r in rows], [float(r[1]) for r in rows]

        def interpolate(x, xs=xs, ys=ys):
            if x <= xs[0]:
                return ys[0]
            if x >= xs[-1]:
                return ys[-1]
            k = max(i for i in range(len(xs)) if xs[i] <= x)
            return ys[k] + (ys[k + 1] - ys[k]) * (x - xs[k]) / (xs[k + 1] - xs[k])
        tables[name] = interpolate
    return tables


def check_model(mech, path, rng, nstates, eq_override):
    t0 = time.time()
    for name in [f for f in FUNCS if f not in BUILTIN_FUNCS]:
        del FUNCS[name]
    FUNCS.update(model_tables(path))
    params = model_params(mech, path)
    inputs = model_inputs(mech, path)
    if eq_override:
        with open(eq_override) as fh:
            data = json.load(fh)
    else:
        rc, out, err = run([mech, "equations", "--json", path])
        if rc != 0:
            raise RuntimeError("equations failed: " + err.strip())
        data = json.loads(out)
    model = Model(data)
    init, err = eval_json(mech, path)
    if init is None:
        raise RuntimeError("eval at init failed: " + err)
    errs, notes, done, tries = Errors(), [], 0, 0
    while done < nstates:
        tries += 1
        if tries > 4 * nstates:
            raise RuntimeError("eval failed at %d of %d random states (last: %s)"
                               % (tries - 1 - done, tries - 1, err))
        # State 1 keeps the model's parameter values; the others scale each
        # by a random factor, so that a value of 1 (m = 1, l = 1) cannot hide
        # a wrong power of it. Structural ones shape the derivation: kept.
        pvals = {k: v for k, (v, _) in params.items()}
        sets = []
        if done > 0:
            for k, (v, structural) in params.items():
                if structural:
                    continue
                nv = v * rng.uniform(0.8, 1.2) if v else rng.uniform(0.5, 1.5)
                pvals[k] = nv
                sets.append("%s=%r" % (k, nv))
        # Perturb the init state by up to 0.2: init keeps radii and lengths
        # positive (bead_on_rod's s, central_field's r).
        q = {k: float(v) + rng.uniform(-0.2, 0.2) for k, v in init["q"].items()}
        # Velocities have no domain to respect; a wider range gives the
        # velocity terms (Coriolis, gyroscopic, gamma) their weight.
        qd = {k: float(v) + rng.uniform(-1.0, 1.0)
              for k, v in init["qd"].items()}
        t = rng.uniform(0.0, 1.0)
        # Inputs take random values through --at (0 would hide how they enter).
        at = fmt_state(q, qd, t)
        for name in inputs:
            pvals[name] = rng.uniform(-2.0, 2.0)
            at += ", %s=%r" % (name, pvals[name])
        ev, err = eval_json(mech, path, at, ", ".join(sets))
        if ev is None:
            continue
        done += 1
        notes += check_state(model, ev, pvals, errs, "state %d" % done)
    return errs, sorted(set(notes)), time.time() - t0, len(data["where"])


def main(argv):
    args = argv[1:]
    opts = {"--seed": "20261203", "--states": "3"}
    only, overrides, pos = None, {}, []
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("--seed", "--states", "--only", "--equations-json"):
            if i + 1 >= len(args):
                print("missing value for " + a, file=sys.stderr)
                return 2
            v = args[i + 1]
            i += 2
            if a == "--only":
                only = v
            elif a == "--equations-json":
                k, _, fn = v.partition("=")
                overrides[k] = fn
            else:
                opts[a] = v
            continue
        pos.append(a)
        i += 1
    if len(pos) != 2:
        print(__doc__ if __doc__ else "usage: check_printed_forms.py MECH ROOT",
              file=sys.stderr)
        return 2
    mech, root = os.path.abspath(pos[0]), pos[1]
    seed = int(opts["--seed"])
    rng = random.Random(seed)
    models = sorted(glob.glob(os.path.join(root, "examples", "*.mech")))
    models += sorted(glob.glob(os.path.join(root, "examples", "tutorial",
                                            "*.mech")))
    if only:
        models = [p for p in models
                  if os.path.splitext(os.path.basename(p))[0] == only]
    if not models:
        print("no models found", file=sys.stderr)
        return 2
    print("seed %d, %s states per model, tolerance %g" %
          (seed, opts["--states"], TOL))
    failed = 0
    for path in models:
        rel = os.path.relpath(path, root)
        name = os.path.splitext(os.path.basename(path))[0]
        try:
            errs, notes, secs, nwhere = check_model(
                mech, path, rng, int(opts["--states"]), overrides.get(name))
        except Exception as e:  # a parse or tool failure is a failure too
            failed += 1
            print("FAIL %s: %s: %s" % (rel, type(e).__name__, e))
            continue
        status = "FAIL" if errs.bad else "ok"
        extra = ", %d where" % nwhere if nwhere else ""
        print("%-4s %-40s max relative error %.2e (%s)  [%.1f s%s]" %
              (status, rel, errs.worst, errs.where or "-", secs, extra))
        for b in errs.bad[:20]:
            print("     mismatch: " + b)
        if len(errs.bad) > 20:
            print("     ... %d more mismatches" % (len(errs.bad) - 20))
        for note in notes:
            print("     note: " + note)
        failed += bool(errs.bad)
    print("%d models, %d failed" % (len(models), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
