#!/usr/bin/python3
"""Generate nnls_scipy.json, the scipy fixture of the nmf package's NNLS tests.

Run from this folder with Debian's Python (apt-get install -y python3-scipy
python3-numpy; the committed fixture was made with scipy 1.10.1, numpy 1.24.2):

    /usr/bin/python3 make_nnls_fixture.py

Each problem is min ||A x - y|| over x >= 0 for a small dense A (m x n) and y,
solved by scipy.optimize.nnls (Lawson & Hanson's QR-based active set, which
never forms A^T A). The file stores A (a list of rows), y, scipy's x and its
residual ||A x - y||. The Go test (TestNNLSScipyFixture) solves the same
problem through the Gram matrix A^T A and A^T y and checks that its residual
is no worse than scipy's and that the KKT conditions hold.

The problems are deliberately hard for a Gram-matrix solver:

  issue        the reproducer of the scaling bug (column norms 1e-4 .. 1e4)
  scaled4      random A, column scales 10^U(-4, 4)
  scaled6      random A, column scales 10^U(-6, 6), signed or non-negative
  wide         more variables than rows (A^T A singular), scales 10^U(-6, 6)
  collinear    pairs of columns at angles of 1e-3 .. 1e-6, scaled
  thincone     y = a0 + a1 + 0.3 a2 (+ noise outside the span) with a1 at an
               angle of 1e-2 .. 1e-5 to a0: the solution needs both columns
  zerocol      some columns exactly zero, the others scaled
  zerosol      y in the polar cone of A's columns, so the solution is x = 0
  large        30 - 40 variables, scales 10^U(-6, 6), tall and wide
"""
import json

import numpy as np
import scipy
from scipy.optimize import nnls

rng = np.random.default_rng(20240611)
problems = []


def add(name, a, y):
    """Solve with scipy and append the problem (skipped if scipy fails)."""
    a = np.asarray(a, dtype=float)
    y = np.asarray(y, dtype=float)
    m, n = a.shape
    try:
        x, rnorm = nnls(a, y, maxiter=50 * n)
    except RuntimeError:
        return False
    problems.append({
        "name": name,
        "m": m,
        "n": n,
        "a": a.tolist(),
        "y": y.tolist(),
        "x": x.tolist(),
        "residual": float(np.linalg.norm(a @ x - y)),
    })
    return True


def scaled(a, lo, hi):
    """a with each column multiplied by 10^U(lo, hi)."""
    return a * 10.0 ** rng.uniform(lo, hi, size=a.shape[1])


def base(m, n, signed):
    """A random m x n matrix: N(0, 1) entries or non-negative U(0, 1)
    entries with about a third set to zero (like topics)."""
    if signed:
        return rng.standard_normal((m, n))
    return rng.uniform(0, 1, (m, n)) * (rng.uniform(0, 1, (m, n)) < 0.7)


def rhs(a, noise=0.5):
    """y = A x* + noise with about half of x* zero, so that some
    constraints are active at the solution."""
    m, n = a.shape
    # Scale x* by the inverse column norms so every column matters.
    norms = np.linalg.norm(a, axis=0)
    norms[norms == 0] = 1
    xs = rng.uniform(0, 1, n) * (rng.uniform(0, 1, n) < 0.5) / norms
    y = a @ xs
    s = np.linalg.norm(y) if np.linalg.norm(y) > 0 else 1.0
    return y + noise * s / np.sqrt(m) * rng.standard_normal(m)


# The reproducer from the issue.
add("issue",
    [[0.102595, 6.5e-05, 10440.001991],
     [0.01261, 4.3e-05, 17112.194462],
     [0.085239, 1.8e-05, 26324.803543],
     [0.020439, 6.5e-05, 2906.320566]],
    [1.253, 0.601, 0.268, 0.578])

for i in range(6):
    m, n = int(rng.integers(4, 12)), int(rng.integers(2, 6))
    a = scaled(base(m, n, signed=False), -4, 4)
    add("scaled4-%d" % i, a, rng.uniform(0, 1, m) if i % 2 else rhs(a))

for i in range(12):
    m, n = int(rng.integers(5, 20)), int(rng.integers(3, 9))
    n = min(n, m)
    a = scaled(base(m, n, signed=i % 2 == 0), -6, 6)
    add("scaled6-%d" % i, a, rhs(a, noise=0.5 if i % 3 else 0.05))

for i in range(8):
    m, n = int(rng.integers(3, 8)), int(rng.integers(8, 14))
    a = scaled(base(m, n, signed=i % 2 == 0), -6, 6)
    add("wide-%d" % i, a, rhs(a) if i % 3 else rng.standard_normal(m))

for i, angle in enumerate([1e-3, 1e-4, 1e-5, 1e-6, 1e-3, 1e-4, 1e-5, 1e-6]):
    m, n = int(rng.integers(6, 15)), int(rng.integers(3, 7))
    a = base(m, n, signed=i >= 4)
    # Column 1 is column 0 turned by about `angle`.
    d = rng.standard_normal(m)
    d -= a[:, 0] * (a[:, 0] @ d) / (a[:, 0] @ a[:, 0])
    a[:, 1] = a[:, 0] + angle * np.linalg.norm(a[:, 0]) * d / np.linalg.norm(d)
    a = scaled(a, -5, 5)
    # Make y favour the thin cone between the two columns.
    y = rhs(a, noise=0.1)
    y += a[:, 0] * rng.uniform(0.5, 2) / np.linalg.norm(a[:, 0])
    add("collinear-%d" % i, a, y)

for i, angle in enumerate([1e-2, 1e-3, 1e-4, 1e-5] * 2):
    m, n = 8, 4
    a = base(m, n, signed=i % 2 == 1)
    a /= np.linalg.norm(a, axis=0)
    d = rng.standard_normal(m)
    d -= a[:, 0] * (a[:, 0] @ d)
    a[:, 1] = a[:, 0] * np.cos(angle) + d / np.linalg.norm(d) * np.sin(angle)
    y = a[:, 0] + a[:, 1] + 0.3 * a[:, 2]
    if i >= 4:
        # Noise orthogonal to the span of A; none for the first four, which
        # are consistent (zero residual).
        e = rng.standard_normal(m)
        q, _ = np.linalg.qr(a)
        e -= q @ (q.T @ e)
        y += 0.1 * e / np.linalg.norm(e)
    add("thincone-%d" % i, scaled(a, -6, 6), y)

for i in range(4):
    m, n = int(rng.integers(5, 12)), int(rng.integers(3, 7))
    a = scaled(base(m, n, signed=i % 2 == 0), -6, 6)
    zero = rng.choice(n, size=1 + i % 2, replace=False)
    a[:, zero] = 0
    add("zerocol-%d" % i, a, rhs(a))

for i in range(4):
    m, n = int(rng.integers(4, 10)), int(rng.integers(2, 6))
    a = scaled(base(m, n, signed=False), -6, 6)
    if i % 2:
        y = -rng.uniform(0.1, 1, m)  # A >= 0, y < 0: A^T y <= 0
    else:
        # Signed columns, each turned to make an obtuse angle with y.
        y = rng.standard_normal(m)
        a = rng.standard_normal((m, n))
        a[:, a.T @ y > 0] *= -1
        a = scaled(a, -6, 6)
    add("zerosol-%d" % i, a, y)

for i in range(4):
    m, n = [(60, 30), (50, 40), (20, 40), (35, 35)][i]
    a = scaled(base(m, n, signed=i % 2 == 1), -6, 6)
    add("large-%d" % i, a, rhs(a, noise=0.2))

with open("nnls_scipy.json", "w") as f:
    json.dump({
        "generator": "make_nnls_fixture.py",
        "scipy": scipy.__version__,
        "numpy": np.__version__,
        "problems": problems,
    }, f, indent=None)
    f.write("\n")
print("%d problems" % len(problems))
