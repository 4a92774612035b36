#!/usr/bin/python3
"""Writes lsap.json: cost matrices and scipy.optimize.linear_sum_assignment's
answers, for metrics/assign_test.go.

Run with Debian's Python (scipy 1.10.1):  /usr/bin/python3 gen_lsap.py
"""
import json

import numpy as np
import scipy
from scipy.optimize import linear_sum_assignment

rng = np.random.default_rng(20240611)
cases = []


def add(name, cost, maximize):
    cost = np.asarray(cost, dtype=float)
    try:
        rows, cols = linear_sum_assignment(cost, maximize=maximize)
    except ValueError as e:
        cases.append({"name": name, "cost": enc(cost), "maximize": maximize,
                      "error": str(e)})
        return
    row_to_col = [-1] * cost.shape[0]
    for r, c in zip(rows, cols):
        row_to_col[int(r)] = int(c)
    cases.append({"name": name, "cost": enc(cost), "maximize": maximize,
                  "row_to_col": row_to_col,
                  "total": float(cost[rows, cols].sum())})


def enc(cost):
    # JSON has no infinities: write them as strings.
    return [[x if np.isfinite(x) else ("+Inf" if x > 0 else "-Inf") for x in row]
            for row in cost.tolist()]


for n, m in [(5, 5), (6, 9), (9, 6), (15, 15), (20, 30), (30, 20)]:
    add(f"uniform {n}x{m}", rng.random((n, m)).round(4), False)
    add(f"uniform {n}x{m} max", rng.random((n, m)).round(4), True)
    add(f"ties {n}x{m}", rng.integers(0, 4, (n, m)), False)
    add(f"ties {n}x{m} max", rng.integers(0, 4, (n, m)), True)
c = rng.random((8, 8)).round(4)
c[rng.random((8, 8)) < 0.4] = np.inf
add("forbidden 8x8", c, False)
c = rng.random((6, 10)).round(4)
c[rng.random((6, 10)) < 0.5] = -np.inf
add("forbidden 6x10 max", c, True)
add("infeasible 3x3", [[1, np.inf, np.inf], [2, np.inf, np.inf], [3, 4, 5]], False)
add("all zero 4x7", np.zeros((4, 7)), False)
add("one row", [[3, 1, 2]], False)
add("one column", [[3], [1], [2]], True)

with open("lsap.json", "w") as f:
    json.dump({"scipy": scipy.__version__, "cases": cases}, f, indent=None)
    f.write("\n")
