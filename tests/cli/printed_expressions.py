# Printed expressions of mech's text output (`M[th1, th1] = ...`) read back
# as Python functions, for the CLI tests that check them against formulas
# written out by hand (test_heavy_top_textbook.sh, test_equations_minimal.sh).
import math
import re


def parse(expr):
    """A printed expression as a Python function of a dict of values: ^ is
    **, x'' and x' are the names x_dd and x_d."""
    py = re.sub(r"([A-Za-z_]\w*)''", r"\1_dd", expr)
    py = re.sub(r"([A-Za-z_]\w*)'", r"\1_d", py).replace("^", "**")
    code = compile(py, expr, "eval")
    names = {"sin": math.sin, "cos": math.cos, "tan": math.tan, "sqrt": math.sqrt, "pi": math.pi}
    return lambda at: eval(code, dict(names), dict(at))
