"""Test setup: the shared library must be built (python/build.sh); when it
is missing and Go is installed, it is built here once."""

import os
import shutil
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
PYDIR = os.path.dirname(HERE)
ROOT = os.path.dirname(PYDIR)


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: runs on the real corpora; needs SEMITOPIC_SLOW=1")
    from semitopic import _lib

    lib = _lib.library_path()
    # The package in this checkout without its library: build it (an
    # installed wheel has its own).
    if not os.path.exists(lib) and lib.startswith(PYDIR) and shutil.which("go"):
        subprocess.run(["go", "build", "-buildmode=c-shared", "-o", lib, "./cmd/libsemitopic"], cwd=ROOT, check=True)


def package_dir():
    """The folder that holds the semitopic package under test (this
    checkout's python/, or an installed one's site-packages)."""
    import semitopic

    return os.path.dirname(os.path.dirname(os.path.abspath(semitopic.__file__)))


@pytest.fixture(scope="session")
def cli(tmp_path_factory):
    """The semitopic command, built from this checkout."""
    if not shutil.which("go"):
        pytest.skip("Go is not installed: the CLI cannot be built")
    exe = str(tmp_path_factory.mktemp("cli") / "semitopic")
    subprocess.run(["go", "build", "-o", exe, "./cmd/semitopic"], cwd=ROOT, check=True)
    return exe


def corpus():
    """A tiny corpus of two planted topics: texts and labels (every third
    document labeled)."""
    import numpy as np

    rng = np.random.RandomState(0)
    space = "rocket orbit astronaut launch nasa moon planet telescope".split()
    cook = "recipe oven flour simmer bake salt butter sugar".split()
    shared = "today people new good".split()
    docs, y = [], []
    for i in range(60):
        ws = space if i % 2 == 0 else cook
        docs.append(" ".join(list(rng.choice(ws, 10)) + list(rng.choice(shared, 3))))
        y.append(("space" if i % 2 == 0 else "cooking") if i % 3 == 0 else None)
    return docs, y
