"""mech: models of analytical mechanics (.mech files) in Python.

    m = mech.load("examples/double_pendulum.mech", set={"m1": 2.0})
    m.equations                 # T, V, Q, M, f: text, LaTeX in Jupyter, .to_sympy()
    m.eval(q=[0.5, -0.3])       # qdd, M, f at a state, as NumPy arrays
    r = m.simulate(until=10)    # r.t, r["th1"]: NumPy views of the result
    mech.sweep(m, grid={"th1": np.linspace(0, 3, 100)}, summary=["max(abs(th2))"])

The compiled half (mech._mech) wraps the library behind the `mech` command:
the same checks, equations, integrators and sweep engine. This half adds what
is Python's own: the equations as SymPy, the analyses' JSON as NumPy arrays,
plots, progress, and sweeps spread over a Dask cluster.
"""

from __future__ import annotations

import json as _json
import os as _os
import re as _re
import sys as _sys
import time as _time

import numpy as _np

from ._mech import Model, ModelError, RightHandSide, SimulationResult, load, loads
from ._mech import sweep as _sweep_threads

__all__ = ["Model", "ModelError", "SimulationResult", "RightHandSide", "Equations", "Expression",
           "load", "loads", "sweep"]


# --- The equations ---------------------------------------------------------

# A name of .mech's printed expressions: th1, th1', m[2], x1.
_NAME = _re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?'*")
_FUNCTIONS = {"sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh",
              "exp", "log", "abs", "sign", "sqrt", "pi"}


def _sympy_of(text, where):
    import sympy

    names = {}

    def placeholder(match):
        name = match.group(0)
        if name in _FUNCTIONS:
            return name
        key = "_mech_%d" % len(names)
        names.setdefault(name, key)
        return names[name]

    source = _NAME.sub(placeholder, text).replace("^", "**")
    local = {key: sympy.Symbol(name) for name, key in names.items()}
    local.update(abs=sympy.Abs, sign=sympy.sign, pi=sympy.pi, atan2=sympy.atan2)
    expr = sympy.sympify(source, locals=local)
    # The shared subexpressions x1, x2, ... in the order they were named,
    # each of which may use the earlier ones: substituted last first.
    for name, definition in reversed(where):
        expr = expr.subs(sympy.Symbol(name), _sympy_of(definition, ()))
    return expr


class Expression:
    """One expression of a model's equations: str() is its .mech text, Jupyter
    shows it typeset (_repr_latex_), to_sympy() gives it to SymPy (names as
    printed, th1' for a velocity; the shared subexpressions x1, ... substituted)."""

    def __init__(self, text: str, latex: str, where=()):
        self._text, self._latex, self._where = text, latex, tuple(where)

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return "Expression(%r)" % self._text

    def _repr_latex_(self) -> str:
        return "$%s$" % self._latex

    @property
    def latex(self) -> str:
        """The expression in LaTeX (without the $ delimiters)."""
        return self._latex

    def to_sympy(self):  # -> sympy.Expr
        """The expression in SymPy (needs SymPy)."""
        return _sympy_of(self._text, self._where)


class Equations:
    """The derived equations of a model, as `mech equations` shows them:
    T, V, D, L (Expressions); Q, Qnc, f (one Expression per coordinate);
    M (rows of Expressions), M q'' = f; coordinates; where (the shared
    subexpressions x1, ... the others use). str() is the CLI's text; Jupyter
    shows them typeset."""

    T: Expression
    V: Expression
    D: Expression
    L: Expression
    Q: list[Expression]
    Qnc: list[Expression]
    M: list[list[Expression]]
    f: list[Expression]
    where: list[Expression]
    coordinates: list[str]
    model: str

    def __init__(self, data, model):
        where = [(name, definition) for name, definition, _ in data["where"]]
        make = lambda pair: Expression(pair[0], pair[1], where)  # noqa: E731
        self.model = data["model"]
        self.coordinates = list(data["coordinates"])
        self.T, self.V, self.D, self.L = (make(data[k]) for k in ("T", "V", "D", "L"))
        self.Q = [make(e) for e in data["Q"]]
        self.Qnc = [make(e) for e in data["Qnc"]]
        self.M = [[make(e) for e in row] for row in data["M"]]
        self.f = [make(e) for e in data["f"]]
        self.where = [Expression(text_, latex) for _, text_, latex in data["where"]]
        self._where_names = [name for name, _, _ in data["where"]]
        self._model, self._text = model, None

    def __str__(self) -> str:
        # The CLI's text, made when first asked for.
        if self._text is None:
            self._text = self._model._command("equations", [])
        return self._text

    def __repr__(self) -> str:
        return "<mech.Equations of %s: %d coordinates>" % (self.model, len(self.coordinates))

    def _repr_latex_(self) -> str:
        rows = [r"T &= %s" % self.T.latex, r"V &= %s" % self.V.latex]
        n = len(self.coordinates)
        matrix = r"\\".join(" & ".join(self.M[i][j].latex for j in range(n)) for i in range(n))
        forcing = r"\\".join(f.latex for f in self.f)
        rows.append(r"M &= \begin{pmatrix}%s\end{pmatrix}" % matrix)
        rows.append(r"f &= \begin{pmatrix}%s\end{pmatrix}" % forcing)
        for name, e in zip(self._where_names, self.where):
            rows.append(r"%s &= %s" % (name, e.latex))
        return r"$$\begin{aligned}%s\end{aligned}$$" % r"\\".join(rows)


def _equations(model):
    return Equations(model._equations_data(), model)


Model.equations = property(_equations, doc=Equations.__doc__)


# --- The analyses: the CLI's JSON with NumPy arrays ------------------------

def _option_text(value):
    if isinstance(value, dict):
        return ", ".join("%s=%s" % (k, _option_text(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(_option_text(v) for v in value)
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _words(options):
    words = []
    for key, value in options.items():
        if value is None or value is False:
            continue
        words.append("--" + key.replace("_", "-"))
        if value is not True:
            words.append(_option_text(value))
    return words


def _arrays(value, key=None):
    """JSON numbers as NumPy arrays: matrices (lists of equal rows), vectors,
    and eigenvalues ([re, im] pairs) as complex arrays."""
    if isinstance(value, dict):
        return {k: _arrays(v, k) for k, v in value.items()}
    if key in ("multiplier", "pole") and isinstance(value, list) and len(value) == 2:
        return complex(value[0], value[1])
    if key in ("multipliers", "poles", "zeros") and value == []:
        return _np.array([], dtype=complex)
    if isinstance(value, list) and value:
        if key in ("eigenvalues", "multipliers", "poles", "zeros") and \
                all(isinstance(v, list) and len(v) == 2 for v in value):
            return _np.array([complex(re_, im) for re_, im in value])
        numbers = lambda row: all(isinstance(v, (int, float)) and not isinstance(v, bool)  # noqa
                                  for v in row)
        if numbers(value):
            return _np.array(value, dtype=float)
        if all(isinstance(row, list) and row and numbers(row) for row in value) and \
                len({len(row) for row in value}) == 1:
            return _np.array(value, dtype=float)
        return [_arrays(v) for v in value]
    return value


def _json_command(model, command, words):
    return _arrays(_json.loads(model._command(command, words + ["--json"])))


def _state_space_shapes(result):
    # A, B, C, D as arrays of their shapes, empty ones included (B is
    # states x 0 without inputs, C and D 0 x ... without outputs).
    space = result.get("state_space") if isinstance(result, dict) else None
    if isinstance(space, dict):
        nx, nu, ny = len(space["states"]), len(space["inputs"]), len(space["outputs"])
        for key, shape in (("A", (nx, nx)), ("B", (nx, nu)), ("C", (ny, nx)), ("D", (ny, nu))):
            space[key] = _np.array(space[key], dtype=float).reshape(shape)
    return result


def _linearize(self, at=None, output=None, **options):
    """linearize(at={"th1": 0, "th2": 0}, independent=None, output=None, sweep=None, ...) -> dict

    `mech linearize --json` at a state: M, K, D, A (and B with inputs) as NumPy
    arrays, 'state' naming A's rows and columns, 'eigenvalues' as a complex
    array, and 'state_space': x' = A x + B u, y = C x + D u with 'states',
    'inputs' and 'outputs' (the model's, and the expressions of `output`, a
    string or a list of them). The keywords are the CLI's options."""
    words = _words(dict(at=at, **options))
    for text in ([output] if isinstance(output, str) else output or []):
        words += ["--output", text]
    return _state_space_shapes(_json_command(self, "linearize", words))


def _state_space(self, at=None, output=None, **options):
    """state_space(at={...}, output=None, ...) -> control.StateSpace

    The linearization's state space as python-control's StateSpace (an
    optional dependency: ImportError without it; the same matrices are in
    linearize(...)["state_space"])."""
    try:
        import control
    except ImportError as error:
        raise ImportError("state_space() needs python-control (pip install control); "
                          "linearize(...)['state_space'] has A, B, C and D without it") from error
    space = _linearize(self, at=at, output=output, **options)["state_space"]
    return control.StateSpace(space["A"], space["B"], space["C"], space["D"])


def _equilibria(self, box=None, **options):
    """equilibria(box={"th1": (-3.2, 3.2)}, ...) -> list of dicts

    `mech equilibria --json`: each state of rest in the box with its stability,
    the criterion that decided it, and the small oscillations about it
    (frequencies, modes as arrays)."""
    if box is not None:
        options["in"] = ", ".join("%s=%s..%s" % (name, _option_text(float(a)),
                                                 _option_text(float(b)))
                                  for name, (a, b) in box.items())
    return _json_command(self, "equilibria", _words(options))["equilibria"]


def _conserved(self):
    """conserved() -> dict: `mech conserved --json` (cyclic coordinates and their
    momenta, the energy integral and whether it is T + V)."""
    return _json_command(self, "conserved", [])


def _steady(self, **options):
    """steady(rates=None, momenta=None, box=None, ...) -> dict: `mech steady --json`."""
    box = options.pop("box", None)
    if box is not None:
        options["in"] = ", ".join("%s=%s..%s" % (n, a, b) for n, (a, b) in box.items())
    return _json_command(self, "steady", _words(options))


def _periodic(self, guess=None, **options):
    """periodic(section="up" | period=T, guess={"x": 0, "x'": 2}, energy=None, fix=None,
    sweep=None, until=None, plot=None) -> dict

    `mech periodic --json`: a periodic motion as the fixed point of the return
    map through a declared event's section (or over a forcing period): its
    'fixed_point' (the state at the start of a period, named by 'state'),
    'period', the Floquet 'multipliers' as a complex array (the structural
    ones listed in 'dropped'), 'stable', 'verdict' and 'criterion'. With
    sweep="p=a..b:N": 'points' along the branch (each with 'value') and the
    'changes' of stability with their 'kind'."""
    return _json_command(self, "periodic", _words(dict(guess=guess, **options)))


def _solve(self, at, unknowns, **options):
    """solve(at={...}, unknowns=["k"]) -> dict: `mech solve --json`, the params
    that make the configuration an equilibrium (statics by virtual work)."""
    words = _words(dict(at=at, **options))
    for name in ([unknowns] if isinstance(unknowns, str) else unknowns):
        words += ["--for", name]
    return _json_command(self, "solve", words)


def _build(self, path, **options):
    """build(path, header=None, prefix=None, cpu=None) -> path: `mech build`, the
    model as a shared library (or object) with a C interface."""
    self._command("build", ["-o", str(path)] + _words(options))
    return str(path)


Model.linearize = _linearize
Model.state_space = _state_space
Model.equilibria = _equilibria
Model.conserved = _conserved
Model.steady = _steady
Model.periodic = _periodic
Model.solve = _solve
Model.build = _build


# --- Results ----------------------------------------------------------------

def _plot(self, vars=None, ax=None):
    """plot(vars=None, ax=None): the columns `vars` (default: the coordinates)
    against t with Matplotlib; returns the axes."""
    import matplotlib.pyplot as plt

    if ax is None:
        ax = plt.figure().gca()
    names = vars or [c for c in self.columns[1:] if not c.endswith("'")][:6]
    for name in names:
        ax.plot(self.t, self[name], label=name)
    ax.set_xlabel("t [s]")
    ax.legend()
    return ax


SimulationResult.plot = _plot


# --- Sweeps -----------------------------------------------------------------

class _Progress:
    """A sweep's progress once it has run 2 s: tqdm when installed, else a
    counter on stderr."""

    def __init__(self):
        self._start, self._bar, self._shown = _time.monotonic(), None, 0

    def __call__(self, done, runs):
        if _time.monotonic() - self._start < 2 and done < runs:
            return
        if self._bar is None and done < runs:
            try:
                from tqdm.auto import tqdm
                self._bar = tqdm(total=runs, unit="run")
            except ImportError:
                self._bar = False
        if self._bar:
            self._bar.update(done - self._shown)
            if done == runs:
                self._bar.close()
        elif self._bar is False:
            _sys.stderr.write("\rsweep: %d/%d runs" % (done, runs) + ("\n" if done == runs else ""))
        self._shown = done


def _sweep_part(source, grid, summary, options):
    """One part of a sweep on a Dask worker: the model from its source text."""
    model = loads(source["text"], name=source["name"], import_folder=source["folder"],
                  settings=source["settings"])
    return _sweep_threads(model, grid=grid, summary=summary, **options)


def _sweep_on(client, model, grid, paired, summary, options):
    if not grid:
        raise ValueError("sweep: client= splits a grid (the random samples are numbered "
                         "over the whole sweep)")
    arrays = {name: _np.asarray(values, dtype=float) for name, values in grid.items()}
    first = next(iter(arrays))
    workers = max(1, len(client.scheduler_info().get("workers", {})))
    # Parts in run order: of the first name's values for a product (it
    # varies slowest), of every array alike for paired points.
    count = len(arrays[first])
    ranges = [r for r in _np.array_split(_np.arange(count), min(count, 4 * workers)) if len(r)]
    parts = [{name: (values[r] if paired or name == first else values)
              for name, values in arrays.items()} for r in ranges]
    source = model._source()
    source["folder"] = _os.path.dirname(_os.path.abspath(source["name"])) \
        if _os.path.exists(source["name"]) else ""
    options = dict(options, paired=paired, progress=None)
    futures = [client.submit(_sweep_part, source, part, summary, options, pure=False)
               for part in parts]
    results = client.gather(futures)
    merged = {}
    for name in results[0]:
        pieces = [r[name] for r in results]
        merged[name] = sum(pieces, []) if isinstance(pieces[0], list) else _np.concatenate(pieces)
    return merged


def sweep(model, grid=None, summary=(), *, points=None, client=None, progress=None, **options):
    """sweep(model, grid={name: array}, summary=[...], *, until=10, threads=None,
          random=None, seed=0, init=None, stop_when=None, client=None,
          progress=None, ...) -> dict

    Runs the model once per combination of the grid's values (the first name
    varying slowest; a name is a param, a coordinate's start, or a velocity's,
    "th1'"), reduces each run to its summaries and returns {column: array}:
    the swept names, the summaries (NaN where a run has none), and 'status'
    and 'message' (lists). The summaries are those of `mech sweep`: at_end(e),
    max(e), min(e), mean(e), any(c), all(c), first_time(c), energy_drift,
    constraint_drift, status, each optionally `name = ...`. The rows are the
    CLI's for the same values, bit for bit, on any number of threads.

    Runs on all cores with the GIL released; Ctrl-C raises KeyboardInterrupt.
    progress: None shows a bar (tqdm, else a counter) for sweeps that take
    more than 2 s, False none, or a callable progress(done, runs).
    points: {name: array}, arrays of one length taken together instead of
    as a product (run k takes the k-th value of each), in place of grid.
    client: a dask.distributed Client: the runs are split into parts in
    order, each swept on a worker that loads the model from its source text
    (the workers must be able to import mech); the result is the same."""
    if points is not None and grid:
        raise ValueError("sweep: give grid= or points=, not both")
    paired = points is not None
    grid = dict(points if paired else (grid or {}))
    if client is not None:
        return _sweep_on(client, model, grid, paired, summary, options)
    if progress is None:
        progress = _Progress()
    elif progress is False:
        progress = None
    return _sweep_threads(model, grid=grid, summary=summary, progress=progress, paired=paired,
                          **options)
