"""The README's Python quick start and the quick-start notebook run (CI
also executes the notebook with jupyter nbconvert)."""

import contextlib
import io
import json
import os
import re

from conftest import ROOT


def run(code):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "<doc>", "exec"), {"__name__": "__doc__"})
    return out.getvalue()


def test_readme_python_quick_start():
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    blocks = re.findall(r"## In Python\n.*?```python\n(.*?)```", readme, re.S)
    assert len(blocks) == 1, "README.md has no Python quick start"
    code = blocks[0]
    assert len(code.strip().splitlines()) <= 10
    out = run(code)
    assert "space ['rocket'" in out and "cooking ['recipe'" in out
    assert out.strip().endswith("['space']")


def test_quickstart_notebook_runs():
    with open(os.path.join(ROOT, "docs", "python-quickstart.ipynb")) as f:
        nb = json.load(f)
    cells = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    assert len(cells) >= 4
    out = run("\n\n".join(cells))
    assert "accuracy on every document" in out and "saved and loaded" in out
