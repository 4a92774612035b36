"""The cost of calling semitopic through Python: each kind's fit on 20
Newsgroups timed in Go (bench/python's -kind, around model.Fit) and from
Python (around the estimator's fit, on the same matrix and options), in
alternating pairs; and the drop-in Corex on the corextopic notebook's fit
beside bench/corex's numpy-stream fit of the same matrix. Run by
compare.sh, which builds the Go programs and writes the data; ratios from
paired runs mean something on a loaded machine, absolute seconds do not.

    python3 bench/python/compare.py GO_BENCH DATA_DIR [pairs] [COREX_BENCH COREX_MTX]
"""

import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np
import scipy.sparse as sp

import semitopic
from semitopic import corextopic as ct

MAX_ITER = {"lda": 10}
DEFAULT_ITER = 30
KINDS = ["tsnmf", "ssnmf", "theme", "corex", "nmf", "lda"]


def load(d):
    with open(os.path.join(d, "meta.json")) as f:
        m = json.load(f)
    indptr = np.fromfile(os.path.join(d, "indptr.bin"), dtype="<i8")
    indices = np.fromfile(os.path.join(d, "indices.bin"), dtype="<i4")
    data = np.fromfile(os.path.join(d, "data.bin"), dtype="<f8")
    X = sp.csr_matrix((data, indices, indptr), shape=(m["rows"], m["cols"]))
    y = [ls[0] if ls else None for ls in m["labels"]]
    return X, y


def estimator(kind, it):
    cls = semitopic.ESTIMATORS[kind]
    kw = {"random_state": 1, "max_iter": it}
    if kind != "lda":
        kw["tol"] = 1e-300
    if kind == "nmf":
        kw["n_components"] = 20
    return cls(**kw)


def go_fit(bench, d, kind, it):
    out = subprocess.run([bench, "-dir", d, "-kind", kind, "-max-iter", str(it)], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)["seconds"]


def py_fit(X, y, kind, it):
    est = estimator(kind, it)
    t = time.perf_counter()
    est.fit(X, None if kind == "nmf" else y)
    return time.perf_counter() - t


def main():
    bench, d = sys.argv[1], sys.argv[2]
    pairs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    X, y = load(d)
    with open("/proc/loadavg") as f:
        print("load average:", " ".join(f.read().split()[:3]))
    print(f"20 Newsgroups train, default pipeline: {X.shape[0]} × {X.shape[1]}, {X.nnz} non-zeros, every tenth document labeled; {pairs} pairs per kind")
    print()
    print("| kind | iterations | Go model.Fit (median s) | Python fit (median s) | Python / Go (median of pairs) |")
    print("| --- | --- | --- | --- | --- |")
    for kind in KINDS:
        it = MAX_ITER.get(kind, DEFAULT_ITER)
        gs, ps, rs = [], [], []
        for p in range(pairs):
            # Alternate which side runs first.
            if p % 2 == 0:
                g = go_fit(bench, d, kind, it)
                q = py_fit(X, y, kind, it)
            else:
                q = py_fit(X, y, kind, it)
                g = go_fit(bench, d, kind, it)
            gs.append(g)
            ps.append(q)
            rs.append(q / g)
        print(f"| {kind} | {it} | {statistics.median(gs):.2f} | {statistics.median(ps):.2f} | {statistics.median(rs):.3f} ({', '.join(f'{r:.3f}' for r in rs)}) |", flush=True)
    if len(sys.argv) > 5:
        cbench, mtx = sys.argv[4], sys.argv[5]
        import scipy.io

        Xc = sp.csr_matrix(scipy.io.mmread(mtx))
        print()
        print("Drop-in Corex, the corextopic notebook's fit (50 topics, at most 200 iterations, seed 1, numpy's stream):")
        out = subprocess.run([cbench, "-mtx", mtx, "-runs", "1", "-numpy"], check=True, capture_output=True, text=True)
        print("  bench/corex -numpy:", " | ".join(line for line in out.stdout.splitlines() if line.strip())[-300:])
        t = time.perf_counter()
        m = ct.Corex(n_hidden=50, max_iter=200, seed=1).fit(Xc)
        s = time.perf_counter() - t
        print(f"  drop-in Corex: TC {m.tc:.3f}, {len(m.tc_history)} iterations, {s:.1f} s")


if __name__ == "__main__":
    main()
