#!/usr/bin/python3
"""Generate sklearn_fixture.json: scikit-learn 1.2's LDA computations on a
tiny count matrix with a fixed topic-word parameter lambda.

Given lambda, everything below is deterministic when the E-step starts from
gamma = 1 (random_init=False, as transform and perplexity do), so the Go
tests can compare exactly: the E-step's gamma and sufficient statistics,
transform, score (the approximate bound), perplexity, and the batch and
online M-step updates applied to those statistics.

Each case is computed twice: with scikit-learn as shipped, whose Cython
digamma is accurate to about 3e-9 only, and with that digamma replaced by
scipy.special.psi (accurate to about 1e-15) in the same code paths, which
the Go implementation, with its accurate digamma, matches to ~1e-14.

    /usr/bin/python3 lda/testdata/sklearn_fixture.py > lda/testdata/sklearn_fixture.json
"""
import contextlib
import json
import sys

import numpy as np
import scipy.sparse as sp
import sklearn
from scipy.special import psi
from sklearn.decomposition import LatentDirichletAllocation
from sklearn.decomposition import _lda


def _accurate_1d(doc_topic, doc_topic_prior, out):
    doc_topic += doc_topic_prior
    out[:] = np.exp(psi(doc_topic) - psi(np.sum(doc_topic)))


def _accurate_2d(arr):
    return psi(arr) - psi(np.sum(arr, axis=1))[:, np.newaxis]


@contextlib.contextmanager
def accurate_digamma():
    """Swap scikit-learn's Cython digamma for scipy's in _lda."""
    saved = _lda.cy_dirichlet_expectation_1d, _lda._dirichlet_expectation_2d
    _lda.cy_dirichlet_expectation_1d = {"double": _accurate_1d, "float": _accurate_1d}
    _lda._dirichlet_expectation_2d = _accurate_2d
    try:
        yield
    finally:
        _lda.cy_dirichlet_expectation_1d, _lda._dirichlet_expectation_2d = saved


def case(name, X, lam, alpha, eta, **kw):
    out = compute(name, X, lam, alpha, eta, **kw)
    with accurate_digamma():
        exact = compute(name, X, lam, alpha, eta, **kw)
    out["accurate_digamma"] = {key: exact[key] for key in RESULTS}
    return out


RESULTS = ["gamma", "sstats", "transform", "score", "perplexity", "batch_lambda", "online_lambda"]


def compute(name, X, lam, alpha, eta, **kw):
    X = sp.csr_matrix(np.asarray(X, dtype=np.float64))
    lam = np.asarray(lam, dtype=np.float64)
    k, V = lam.shape
    lda = LatentDirichletAllocation(
        n_components=k, doc_topic_prior=alpha, topic_word_prior=eta, **kw
    )
    # Fit once to set up the attributes, then install lambda.
    lda.fit(X)
    lda.components_ = lam.copy()
    lda.exp_dirichlet_component_ = np.exp(_lda._dirichlet_expectation_2d(lam))
    gamma, sstats = lda._e_step(X, cal_sstats=True, random_init=False)
    batch = lda.topic_word_prior_ + sstats
    # Online step exactly as _em_step computes it, with n_batch_iter_ = 1.
    weight = np.power(lda.learning_offset + 1, -lda.learning_decay)
    ratio = float(X.shape[0] * 3) / X.shape[0]
    online = lam * (1 - weight) + weight * (lda.topic_word_prior_ + ratio * sstats)
    return {
        "name": name,
        "options": {
            "alpha": alpha,
            "eta": eta,
            "learning_decay": lda.learning_decay,
            "learning_offset": lda.learning_offset,
            "mean_change_tol": lda.mean_change_tol,
            "max_doc_update_iter": lda.max_doc_update_iter,
            "online_total_samples": X.shape[0] * 3,
        },
        "x": X.toarray().tolist(),
        "lambda": lam.tolist(),
        "gamma": gamma.tolist(),
        "sstats": sstats.tolist(),
        "transform": lda.transform(X).tolist(),
        "score": float(lda.score(X)),
        "perplexity": float(lda.perplexity(X)),
        "batch_lambda": batch.tolist(),
        "online_lambda": online.tolist(),
    }


def main():
    rng = np.random.RandomState(7)
    # 7 documents x 9 terms with an empty document and a fractional count.
    X = rng.poisson(1.2, size=(7, 9)).astype(float)
    X[3, :] = 0
    X[5, 2] = 2.5
    lam = rng.gamma(2.0, 1.0, size=(3, 9)) + 0.05
    cases = [
        case("default-tol", X, lam, 1 / 3, 1 / 3),
        case("tight-tol", X, lam, 0.1, 0.2, mean_change_tol=1e-12, max_doc_update_iter=500,
             learning_decay=0.6, learning_offset=4.0),
        case("one-iteration", X, lam, 0.5, 0.05, max_doc_update_iter=1),
    ]
    json.dump({"sklearn": sklearn.__version__, "cases": cases}, fp=sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
