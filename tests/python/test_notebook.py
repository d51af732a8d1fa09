# examples/python/double_pendulum.ipynb runs from top to bottom in a real
# Jupyter kernel, shows the equations typeset, and its Dask sweep equals the
# threaded one. Skipped without nbclient, ipykernel, Matplotlib or Dask:
# scripts/install-deps.sh installs Dask only (the notebook's stack is some
# 70 packages more); `apt-get install python3-nbconvert python3-ipykernel
# python3-matplotlib` enables it.
import os
import sys

import pytest

pytestmark = pytest.mark.optional

for module, package in [("nbclient", "python3-nbconvert"), ("nbformat", "python3-nbconvert"),
                        ("ipykernel", "python3-ipykernel"), ("matplotlib", "python3-matplotlib"),
                        ("distributed", "python3-distributed")]:
    pytest.importorskip(module, reason="%s is not installed (%s)" % (module, package))

import mech  # noqa: E402
import nbclient  # noqa: E402
import nbformat  # noqa: E402


def test_notebook_runs(root):
    path = root / "examples/python/double_pendulum.ipynb"
    notebook = nbformat.read(str(path), as_version=4)
    # The kernel is started as `python3`: this interpreter's, whose packages
    # these are, and the package on its path.
    os.environ["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]
    package = os.path.dirname(os.path.dirname(os.path.abspath(mech.__file__)))
    os.environ["PYTHONPATH"] = package + os.pathsep + os.environ.get("PYTHONPATH", "")
    client = nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    outputs = {i: cell.get("outputs", []) for i, cell in enumerate(notebook.cells)
               if cell.cell_type == "code"}
    equations = [o for o in outputs[3] if o.get("output_type") == "execute_result"][0]
    assert "text/latex" in equations["data"]
    assert "\\begin{pmatrix}" in equations["data"]["text/latex"]
    images = [o for cell in outputs.values() for o in cell if "image/png" in o.get("data", {})]
    assert len(images) >= 2
    last = [o for o in outputs[max(outputs)] if o.get("output_type") == "execute_result"][0]
    assert last["data"]["text/plain"] == "True"
