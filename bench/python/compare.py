"""The cost of calling semitopic through Python: each kind's fit on 20
Newsgroups timed in Go (bench/python's -kind, around model.Fit) and from
Python (around the estimator's fit, on the same matrix and options), in
alternating pairs, and within each Python fit against the model.Fit it
ran (internal/capi times it: the difference is the call's own cost,
which the load of a shared machine does not blur); and the drop-in Corex on the corextopic notebook's fit
beside bench/corex's numpy-stream fit of the same matrix. Run by
compare.sh, which builds the Go programs and writes the data; ratios from
paired runs mean something on a loaded machine, absolute seconds do not.

    python3 bench/python/compare.py GO_BENCH DATA_DIR [pairs] [COREX_BENCH COREX_MTX]

(pairs 0: the drop-in Corex alone.)
"""

import json
import os
import resource
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
    """Wall and CPU seconds (all threads) of model.Fit in a Go process."""
    out = subprocess.run([bench, "-dir", d, "-kind", kind, "-max-iter", str(it)], check=True, capture_output=True, text=True)
    r = json.loads(out.stdout)
    return r["seconds"], r["cpu_seconds"]


def cpu():
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def py_fit(X, y, kind, it):
    """Wall and CPU seconds (all threads: Go's run in this process) of the
    estimator's fit."""
    est = estimator(kind, it)
    c, t = cpu(), time.perf_counter()
    est.fit(X, None if kind == "nmf" else y)
    wall, used = time.perf_counter() - t, cpu() - c
    return wall, used, est.model_.info["fit_seconds"]


def main():
    bench, d = sys.argv[1], sys.argv[2]
    pairs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    X, y = load(d)
    with open("/proc/loadavg") as f:
        print("load average:", " ".join(f.read().split()[:3]))
    print(f"20 Newsgroups train, default pipeline: {X.shape[0]} × {X.shape[1]}, {X.nnz} non-zeros, every tenth document labeled; {pairs} pairs per kind")
    print()
    print("| kind | iterations | Go model.Fit: wall, CPU (median s) | Python fit: wall, CPU (median s) | Python / Go, CPU (median of pairs) | Python / Go, wall (median of pairs) | Python fit / its own model.Fit, wall (median) |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for kind in KINDS if pairs > 0 else []:
        it = MAX_ITER.get(kind, DEFAULT_ITER)
        go, py = [], []
        for p in range(pairs):
            # Alternate which side runs first.
            if p % 2 == 0:
                go.append(go_fit(bench, d, kind, it))
                py.append(py_fit(X, y, kind, it))
            else:
                py.append(py_fit(X, y, kind, it))
                go.append(go_fit(bench, d, kind, it))
        med = statistics.median
        rc = [q[1] / g[1] for g, q in zip(go, py)]
        rw = [q[0] / g[0] for g, q in zip(go, py)]
        ri = [q[0] / q[2] for q in py]
        print(f"| {kind} | {it} | {med(g[0] for g in go):.2f}, {med(g[1] for g in go):.2f} | {med(q[0] for q in py):.2f}, {med(q[1] for q in py):.2f} "
              f"| {med(rc):.3f} ({' '.join(f'{r:.2f}' for r in rc)}) | {med(rw):.3f} ({' '.join(f'{r:.2f}' for r in rw)}) "
              f"| {med(ri):.4f} ({' '.join(f'{r:.3f}' for r in ri)}) |", flush=True)
    with open("/proc/loadavg") as f:
        print("load average after:", " ".join(f.read().split()[:3]))
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
        print(f"  drop-in Corex: TC {m.tc:.3f}, {len(m.tc_history)} iterations, {s:.1f} s, of which corex.Fit {m._fit_seconds:.1f} s "
              f"(the call's own cost: {s / m._fit_seconds - 1:.1%})")


if __name__ == "__main__":
    main()
