#!/usr/bin/python3
"""Generate the scikit-learn fixtures of the nmf package tests.

Run from this folder with Debian's Python (scikit-learn 1.2.1, scipy):

    /usr/bin/python3 gen_sklearn.py

It writes a small sparse non-negative matrix X (40 x 30, rank-4 structure
plus noise), starting factors W0, H0 (k = 4), and what scikit-learn's NMF
(solver='mu', init='custom', tol=0) gives from them:

  sklearn_objectives.txt  lines "loss iterations objective" (_beta_divergence
                          after that many iterations, 0 = at W0, H0)
  sklearn_{fro,kl}_W.mtx, sklearn_{fro,kl}_H.mtx   factors after 100 iterations
  sklearn_nndsvd{,a}_{W,H}.mtx   _initialize_nmf(X, 4, init=...) (the
                          randomized SVD converges to the exact top-4 SVD
                          here, so these do not depend on its random draws)
"""
import numpy as np
import scipy.io as sio
import scipy.sparse as sp
from sklearn.decomposition import non_negative_factorization
from sklearn.decomposition._nmf import _beta_divergence, _initialize_nmf

rng = np.random.RandomState(42)
n, m, k = 40, 30, 4
A = rng.gamma(1.0, 1.0, size=(n, k)) * (rng.rand(n, k) < 0.6)
B = rng.gamma(1.0, 1.0, size=(k, m)) * (rng.rand(k, m) < 0.5)
D = A @ B + 0.01 * rng.rand(n, m)
D[rng.rand(n, m) < 0.45] = 0
X = sp.csr_matrix(np.round(D, 6))
W0 = np.round(np.abs(rng.randn(n, k)) * 0.5 + 0.01, 6)
H0 = np.round(np.abs(rng.randn(k, m)) * 0.5 + 0.01, 6)


def mmwrite(name, a):
    sio.mmwrite(name, a, precision=17)


mmwrite("x.mtx", X)
mmwrite("w0.mtx", W0)
mmwrite("h0.mtx", H0)

with open("sklearn_objectives.txt", "w") as f:
    for loss, short in (("frobenius", "fro"), ("kullback-leibler", "kl")):
        f.write("%s 0 %.17g\n" % (short, _beta_divergence(X, W0, H0, loss)))
        for it in (1, 2, 3, 5, 10, 30, 100):
            W, H, _ = non_negative_factorization(
                X, W=W0.copy(), H=H0.copy(), n_components=k, init="custom",
                solver="mu", beta_loss=loss, tol=0, max_iter=it)
            f.write("%s %d %.17g\n" % (short, it, _beta_divergence(X, W, H, loss)))
        mmwrite("sklearn_%s_W.mtx" % short, W)
        mmwrite("sklearn_%s_H.mtx" % short, H)

for init in ("nndsvd", "nndsvda"):
    W, H = _initialize_nmf(X, k, init=init, random_state=0)
    mmwrite("sklearn_%s_W.mtx" % init, W)
    mmwrite("sklearn_%s_H.mtx" % init, H)
