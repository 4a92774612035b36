#!/usr/bin/python3
"""Compare semitopic's clustering agreement measures with scikit-learn's.

    /usr/bin/python3 bench/sklearn/metrics_compare.py [--seed 1] [--cases 40] [--max-n 5000] [--out FILE] [--no-go]

Run it with Debian's Python (scikit-learn 1.2.1) from anywhere. It draws
random pairs of labelings (sizes up to --max-n, cluster counts from 1 to about
n/2, noisy copies, identical and degenerate cases), computes scikit-learn's
homogeneity, completeness, V-measure, NMI and AMI (each normalisation:
arithmetic, min, geometric, max), the adjusted Rand index and the expected
mutual information, writes
them with the labelings to FILE (default: a temporary file), and then runs

    go run ./bench/sklearn/metricscmp -in FILE

which computes the same measures with package metrics and prints both values,
their difference, and the times. The Go program exits with status 1 if a
difference exceeds 1e-9 (AMI values that are 0/0 in exact arithmetic are
reported apart: see metricscmp's documentation).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np
import sklearn
from sklearn.metrics.cluster import (adjusted_mutual_info_score,
                                     adjusted_rand_score,
                                     contingency_matrix,
                                     homogeneity_completeness_v_measure,
                                     normalized_mutual_info_score)
from sklearn.metrics.cluster._expected_mutual_info_fast import \
    expected_mutual_information

AVERAGES = ["arithmetic", "min", "geometric", "max"]


def labelings(rng, cases, max_n):
    """Yields (name, labels_true, labels_pred)."""
    yield "one cluster vs one cluster", [0] * 50, [1] * 50
    yield "one cluster vs singletons", [0] * 50, list(range(50))
    yield "singletons vs one cluster", list(range(50)), [0] * 50
    yield "crossed 2x2", [0, 0, 1, 1], [0, 1, 0, 1]
    yield "singletons vs singletons", list(range(300)), list(rng.permutation(300))
    a = rng.integers(0, 8, 1000)
    yield "identical", a, a
    yield "identical up to names", a, (a * 5 + 11) % 8
    for i in range(cases):
        n = int(rng.integers(2, max_n + 1))
        k1 = int(rng.integers(1, max(2, min(n // 2, 200)) + 1))
        k2 = int(rng.integers(1, max(2, min(n // 2, 200)) + 1))
        a = rng.integers(0, k1, n)
        if i % 3 == 0:
            b = rng.integers(0, k2, n)
            kind = "independent"
        else:
            b = a.copy()
            flip = rng.random(n) < rng.random()
            b[flip] = rng.integers(0, k2, flip.sum())
            kind = "noisy copy"
        yield f"{kind} n={n} k={k1},{k2}", a, b


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cases", type=int, default=40, help="random pairs besides the fixed ones")
    ap.add_argument("--max-n", type=int, default=5000)
    ap.add_argument("--out", help="where to write the labelings and sklearn's values")
    ap.add_argument("--no-go", action="store_true", help="only write the file")
    args = ap.parse_args()

    warnings.simplefilter("ignore")
    rng = np.random.default_rng(args.seed)
    out = []
    sk_time = 0.0
    for name, a, b in labelings(rng, args.cases, args.max_n):
        a = [int(x) for x in a]
        b = [int(x) for x in b]
        t = time.perf_counter()
        h, c, v = homogeneity_completeness_v_measure(a, b)
        nmi = [normalized_mutual_info_score(a, b, average_method=m) for m in AVERAGES]
        ami = [adjusted_mutual_info_score(a, b, average_method=m) for m in AVERAGES]
        ari = adjusted_rand_score(a, b)
        sk_time += time.perf_counter() - t
        cm = contingency_matrix(a, b, sparse=True).astype(np.float64)
        emi = float(expected_mutual_information(cm, len(a)))
        out.append({"name": name, "true": a, "pred": b,
                    "sklearn": {"homogeneity": h, "completeness": c, "v_measure": v,
                                "nmi": nmi, "ami": ami, "ari": ari, "emi": emi}})
    doc = {"sklearn_version": sklearn.__version__, "averages": AVERAGES,
           "sklearn_seconds": sk_time, "cases": out}
    path = args.out
    if path is None:
        fd, path = tempfile.mkstemp(prefix="metrics_compare_", suffix=".json")
        os.close(fd)
    with open(path, "w") as f:
        json.dump(doc, f)
    print(f"wrote {len(out)} labeling pairs and scikit-learn {sklearn.__version__}'s values to {path}"
          f" (scikit-learn: {sk_time:.3f} s for h/c/V + 4 NMI + 4 AMI + ARI on all pairs)")
    if args.no_go:
        return 0
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    try:
        rc = subprocess.call(["go", "run", "./bench/sklearn/metricscmp", "-in", path], cwd=root)
    finally:
        if args.out is None:
            os.remove(path)
    return rc


if __name__ == "__main__":
    sys.exit(main())
