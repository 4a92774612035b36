#!/usr/bin/python3
"""Compare semitopic's NMF with scikit-learn's multiplicative-update NMF.

Both fit the same MatrixMarket matrix X from the same starting factors W0,
H0 (written by `go run ./bench/sklearn/nmfcmp prepare`), with the same
algorithm (Lee & Seung multiplicative updates, W then H, scikit-learn's
solver='mu', init='custom'), a fixed number of iterations and no tolerance
(tol=0). Each side runs in its own process, so that the peak resident
memory (getrusage ru_maxrss) covers reading the files and fitting;
scikit-learn runs on one BLAS/OpenMP thread. The table gives wall time of
the fit (file reading excluded), the objective after the last iteration
(scikit-learn's _beta_divergence: ½‖X − WH‖² or the generalized KL
divergence) and its relative difference, and peak memory.

    go run ./bench/sklearn/nmfcmp prepare -dir /tmp/nmf2000 -vocab 2000
    go run ./bench/sklearn/nmfcmp prepare -dir /tmp/nmf15902 -vocab 15902
    /usr/bin/python3 bench/sklearn/nmf_compare.py /tmp/nmf2000 /tmp/nmf15902

For a corpus of any size (semitopic synth), prepare -mtx FILE links it as
X.mtx and both sides compute the same hashed start for --k topics instead
of reading W0 and H0 (see nmfcmp's hashedStart):

    go run ./cmd/semitopic synth --preset nytimes --terms 100000 --zipf 1.18 --out /tmp/nyt/x.mtx
    go run ./bench/sklearn/nmfcmp prepare -dir /tmp/nmfnyt -mtx /tmp/nyt/x.mtx
    /usr/bin/python3 bench/sklearn/nmf_compare.py --iter 5 --loss frobenius /tmp/nmfnyt

Options: --loss frobenius,kullback-leibler (per folder, default both for
the first folder and frobenius for the others, as in the issue), --iter
200, --go-bin (a built nmfcmp; default: go build it), --gathers (semitopic's
gathered precision, nmfcmp -gathers: float64 by default, float32, auto). With --sklearn-only
DIR LOSS it is the scikit-learn worker the comparison starts.

Needs Debian's python3 with scikit-learn 1.2 and scipy.
"""
import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

# One thread for BLAS and OpenMP, before numpy is imported.
for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS"):
    os.environ[var] = "1"


def sklearn_worker(folder, loss, iters, k_hashed=100):
    import numpy as np
    import scipy.io
    import sklearn
    from sklearn.decomposition import non_negative_factorization
    from sklearn.decomposition._nmf import _beta_divergence

    x = scipy.io.mmread(os.path.join(folder, "X.mtx")).tocsr().astype(np.float64)
    if os.path.exists(os.path.join(folder, "W0.mtx")):
        w0 = np.asarray(scipy.io.mmread(os.path.join(folder, "W0.mtx")), dtype=np.float64)
        h0 = np.asarray(scipy.io.mmread(os.path.join(folder, "H0.mtx")), dtype=np.float64)
    else:
        # The hashed start of nmfcmp's hashedStart (folders prepared with -mtx).
        n, m = x.shape
        s = np.sqrt(x.sum() / (n * m) / k_hashed)
        i = np.arange(n, dtype=np.int64)[:, None]
        t = np.arange(k_hashed, dtype=np.int64)[None, :]
        w0 = s * (0.1 + ((i * 1000003 + t * 7919) % 10007) / 10007.0)
        j = np.arange(m, dtype=np.int64)[None, :]
        t = np.arange(k_hashed, dtype=np.int64)[:, None]
        h0 = s * (0.1 + ((j * 1000003 + t * 7919 + 5003) % 10007) / 10007.0)
    k = h0.shape[0]
    start = _beta_divergence(x, w0, h0, loss)
    t0 = time.perf_counter()
    w, h, n_iter = non_negative_factorization(
        x, W=w0, H=h0, n_components=k, init="custom", solver="mu",
        beta_loss=loss, max_iter=iters, tol=0)
    elapsed = time.perf_counter() - t0
    obj = _beta_divergence(x, w, h, loss)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print("scikit-learn %s: X %d x %d, %d non-zeros, k %d" % (sklearn.__version__, x.shape[0], x.shape[1], x.nnz, k))
    print("scikit-learn: objective %.15e (start %.15e) after %d iterations in %.2f s" % (obj, start, n_iter, elapsed))
    print("peak RSS %.1f MB" % rss)


def parse(out):
    m = re.search(r"objective (\S+) \(start (\S+)\) after (\d+) iterations in (\S+) s", out)
    r = re.search(r"peak RSS (\S+) MB", out)
    if not m or not r:
        raise RuntimeError("unexpected output:\n" + out)
    return float(m.group(1)), float(m.group(2)), int(m.group(3)), float(m.group(4)), float(r.group(1))


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        sys.exit("%s failed:\n%s" % (" ".join(cmd), p.stdout))
    return p.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folders", nargs="*", help="folders written by nmfcmp prepare")
    ap.add_argument("--loss", action="append", help="losses for each folder, comma-separated")
    ap.add_argument("--iter", type=int, default=200)
    ap.add_argument("--go-bin", help="a built nmfcmp binary")
    ap.add_argument("--k", type=int, default=100, help="topics of the hashed start (folders prepared with -mtx)")
    ap.add_argument("--gathers", default="float64", help="semitopic's gathered precision (nmfcmp -gathers): float64, float32 or auto")
    ap.add_argument("--sklearn-only", nargs=2, metavar=("DIR", "LOSS"))
    args = ap.parse_args()
    if args.sklearn_only:
        sklearn_worker(args.sklearn_only[0], args.sklearn_only[1], args.iter, args.k)
        return
    if not args.folders:
        ap.error("no folder given")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    gobin = args.go_bin
    if not gobin:
        gobin = os.path.join(tempfile.mkdtemp(), "nmfcmp")
        run(["go", "build", "-C", root, "-o", gobin, "./bench/sklearn/nmfcmp"])
    with open("/proc/loadavg") as f:
        load_before = f.read().split()[:3]
    rows = []
    for i, folder in enumerate(args.folders):
        if args.loss and i < len(args.loss):
            losses = args.loss[i].split(",")
        else:
            losses = ["frobenius", "kullback-leibler"] if i == 0 else ["frobenius"]
        for loss in losses:
            go = parse(run([gobin, "fit", "-dir", folder, "-loss", loss, "-iter", str(args.iter), "-k", str(args.k), "-gathers", args.gathers]))
            sk_out = run([sys.executable, os.path.abspath(__file__), "--iter", str(args.iter), "--k", str(args.k), "--sklearn-only", folder, loss])
            sk = parse(sk_out)
            shape = re.search(r"X (\d+) x (\d+), (\d+) non-zeros", sk_out).groups()
            rows.append((folder, "%s x %s (%s nnz)" % shape, loss, go, sk))
            print(f"{folder} {loss}: semitopic {go[3]:.2f} s, scikit-learn {sk[3]:.2f} s", flush=True)
    with open("/proc/loadavg") as f:
        load_after = f.read().split()[:3]
    print()
    print("| matrix | loss | scikit-learn (1 thread) | semitopic (%d cores) | time ratio | objective scikit-learn | objective semitopic | rel. diff | peak RSS sklearn / ours |" % os.cpu_count())
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for folder, shape, loss, go, sk in rows:
        rel = abs(go[0] - sk[0]) / abs(sk[0])
        print("| %s | %s | %.1f s | %.1f s | %.3f | %.8e | %.8e | %.1e | %.0f / %.0f MB |" % (
            shape, loss, sk[3], go[3], go[3] / sk[3], sk[0], go[0], rel, sk[4], go[4]))
        if sk[1] != 0 and abs(go[1] - sk[1]) / abs(sk[1]) > 1e-9:
            print("  (starting objectives differ: %.10e vs %.10e)" % (sk[1], go[1]))
    print()
    print("load average before: %s, after: %s; %d iterations, tol=0" % (" ".join(load_before), " ".join(load_after), args.iter))


if __name__ == "__main__":
    main()
