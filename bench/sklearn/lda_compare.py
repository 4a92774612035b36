#!/usr/bin/python3
"""Fit scikit-learn's LatentDirichletAllocation on a MatrixMarket matrix.

The counterpart of bench/sklearn/ldacmp: it reads the documents x terms
count matrix that `go run ./bench/sklearn/ldacmp -write FILE` wrote, fits
LDA with the same settings, and prints the training perplexity (bound_, the
perplexity that fit computes at its end), the wall time of fit and the peak
resident memory of the process.

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 \\
        /usr/bin/python3 bench/sklearn/lda_compare.py /tmp/20ng_train.mtx

Needs Debian's python3 with scikit-learn 1.2 and scipy.
"""
import argparse
import resource
import sys
import time

import numpy as np
import scipy.io
import sklearn
from sklearn.decomposition import LatentDirichletAllocation


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mtx", help="MatrixMarket documents x terms count matrix")
    ap.add_argument("--topics", type=int, default=20)
    ap.add_argument("--iter", type=int, default=20, help="max_iter")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--method", default="batch", choices=["batch", "online"])
    ap.add_argument("--evaluate-every", type=int, default=-1)
    ap.add_argument("--top", type=int, default=0, help="print this many top word columns per topic")
    args = ap.parse_args()

    x = scipy.io.mmread(args.mtx).tocsr().astype(np.float64)
    print("scikit-learn %s, numpy %s" % (sklearn.__version__, np.__version__))
    print("matrix: %d documents x %d terms, %d non-zeros, %.0f words"
          % (x.shape[0], x.shape[1], x.nnz, x.sum()))
    lda = LatentDirichletAllocation(
        n_components=args.topics,
        learning_method=args.method,
        max_iter=args.iter,
        evaluate_every=args.evaluate_every,
        random_state=args.seed,
        verbose=1 if args.evaluate_every > 0 else 0,
    )
    t0 = time.perf_counter()
    lda.fit(x)
    elapsed = time.perf_counter() - t0
    print("perplexity %.2f, fit time %.2f s, %d passes" % (lda.bound_, elapsed, lda.n_iter_))
    if args.top > 0:
        for t, row in enumerate(lda.components_):
            print("topic %2d: %s" % (t, " ".join(str(j) for j in np.argsort(-row)[: args.top])))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    print("peak resident memory: %.0f MB" % peak)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
