#!/usr/bin/python3
"""One fit of the SSNMF reference implementation on the files written by
`go run ./bench/ssnmf export`, run exactly as its 20 Newsgroups experiment
runs a model (jamiehadd/ssnmf, experiments/20news/methods_20news.py SSNMF
with src/ssnmf/evaluation.py Evaluation):

- X is the dense features × samples matrix of the training documents with
  the test documents appended, the test columns masked out of the fit by a
  zero data weight W and zero label weight L (evaluation.py's defaults);
- A, S, B start Uniform[0, 1) (np.random.rand, seeded here);
- mult(numiters=50) with the model's tol and eps = 1e-10;
- the test representation is scipy's nnls per document for a Frobenius
  reconstruction, 20 multiplicative updates of the I-divergence from a
  uniform start otherwise; the class is argmax(B·S_test).

It prints one JSON line: fit and test seconds, iterations, test accuracy,
the hard and soft clustering scores P of the training and test documents
(the paper's Table 8) and the process's peak resident memory (ru_maxrss, which includes reading
the files and importing numpy). The iteration count is reported when the
SSNMF_N in use records it in an `iters` attribute (the published class
does not; the local copy used for docs/results did), null otherwise.

    SSNMF_REF=/path/to/folder/with/ssnmf_numpy.py \
        /usr/bin/python3 bench/ssnmf/ref_fit.py DIR MODEL LAMBDA TOL [SEED]

MODEL is F,F F,D D,F or D,D (the reference's modelNum 3–6). With
SSNMF_DUMP_INIT=DIR it also writes its starting factors A0, S0, B0 there
(MatrixMarket), which `go run ./bench/ssnmf fit -init DIR` starts from. The reference
code is not part of this repository: SSNMF_REF names the folder holding its
src/ssnmf/ssnmf_numpy.py (class SSNMF_N).
"""
import json
import os
import resource
import sys
import time

import numpy as np
import scipy.io
from scipy.optimize import nnls

sys.path.insert(0, os.environ.get("SSNMF_REF", "."))
from ssnmf_numpy import SSNMF_N  # noqa: E402

MODELS = {"F,F": 3, "F,D": 4, "D,F": 5, "D,D": 6}


def main():
    folder, model, lam, tol = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
    seed = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    num = MODELS[model]
    k, classes, iters, iter_s = 13, 5, 50, 20

    xtr = scipy.io.mmread(os.path.join(folder, "train.mtx")).toarray().T  # features × samples
    xte = scipy.io.mmread(os.path.join(folder, "test.mtx")).toarray().T
    ytr = np.loadtxt(os.path.join(folder, "train.labels"), dtype=int)
    yte = np.loadtxt(os.path.join(folder, "test.labels"), dtype=int)
    onehot_tr = np.eye(classes)[ytr].T
    onehot_te = np.eye(classes)[yte].T

    m, ntr = xtr.shape
    nte = xte.shape[1]
    np.random.seed(seed)
    A0 = np.random.rand(m, k)
    S0 = np.random.rand(k, ntr + nte)
    B0 = np.random.rand(classes, k)
    if os.environ.get("SSNMF_DUMP_INIT"):
        # The starting factors, for `go run ./bench/ssnmf fit -init DIR`.
        d = os.environ["SSNMF_DUMP_INIT"]
        os.makedirs(d, exist_ok=True)
        for name, f in (("A0", A0), ("S0", S0), ("B0", B0)):
            scipy.io.mmwrite(os.path.join(d, name + ".mtx"), f, precision=17)
    X = np.concatenate((xtr, xte), axis=1)
    Y = np.concatenate((onehot_tr, onehot_te), axis=1)
    W = np.concatenate((np.ones(xtr.shape), np.zeros(xte.shape)), axis=1)
    L = np.concatenate((np.ones(onehot_tr.shape), np.zeros(onehot_te.shape)), axis=1)

    t0 = time.time()
    mod = SSNMF_N(X, k, modelNum=num, Y=Y, lam=lam, W=W, L=L, A=A0, S=S0, B=B0, tol=tol)
    mod.mult(numiters=iters, saveerrs=False, eps=1e-10)
    fit_s = time.time() - t0
    done = getattr(mod, "iters", None)

    t1 = time.time()
    if num in (3, 4):
        S_test = np.zeros((k, nte))
        for i in range(nte):
            S_test[:, i] = nnls(mod.A, xte[:, i])[0]
    else:
        S_test = np.random.rand(k, nte)
        for _ in range(iter_s):
            S_test = np.transpose(mod.dictupdateIdiv(xte.T, S_test.T, mod.A.T, np.ones(xte.T.shape), 1e-10))
    test_s = time.time() - t1
    pred = np.argmax(mod.B @ S_test, axis=0)
    acc = float(np.mean(pred == yte))
    groups = np.concatenate((np.loadtxt(os.path.join(folder, "train.groups"), dtype=int),
                             np.loadtxt(os.path.join(folder, "test.groups"), dtype=int)))
    S_all = np.concatenate((mod.S[:, :ntr], S_test), axis=1)
    p_hard, p_soft = cluster_score(S_all, groups, False), cluster_score(S_all, groups, True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(dict(impl="reference", model="(" + model + ")", **{"lambda": lam}, tol=tol, seed=seed,
                          fit_s=fit_s, test_s=test_s, iters=done, acc=acc,
                          p_hard=p_hard, p_soft=p_soft, peak_mb=peak)))


def cluster_score(S, groups, soft):
    """The paper's clustering score P (utils_20news.py clust_scores): each
    topic's best share of a newsgroup's documents, averaged over topics;
    hard assigns a document to its largest topic, soft normalises its
    column of S."""
    k, n = S.shape
    if soft:
        colsum = S.sum(axis=0)
        colsum[colsum == 0] = 1
        Sm = S / colsum
    else:
        Sm = np.zeros_like(S)
        nz = np.any(S != 0, axis=0)
        Sm[np.argmax(S, axis=0)[nz], np.arange(n)[nz]] = 1
    scores = []
    for l in range(k):
        best = 0.0
        for g in np.unique(groups):
            member = groups == g
            best = max(best, Sm[l, member].sum() / member.sum())
        scores.append(best)
    return float(np.mean(scores))


if __name__ == "__main__":
    main()
