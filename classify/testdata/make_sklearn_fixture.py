#!/usr/bin/python3
"""Generate sklearn_fixture.json, the scikit-learn reference results the
classify tests compare against.

Run with Debian's Python, which has scikit-learn 1.2.1:

    /usr/bin/python3 classify/testdata/make_sklearn_fixture.py

The toy data are drawn from a seeded NumPy generator: sparse word counts of
documents from 3 classes (and a 2-class subset), each class preferring a few
features. Results are stored with Python's shortest round-trip float repr, so
Go reads back the exact values.
"""
import json
import os

import numpy as np
import scipy.sparse as sp
import sklearn
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import MultinomialNB
from sklearn.preprocessing import normalize
from sklearn.svm import LinearSVC


def make_rates(rng, n_features, n_classes):
    rates = rng.gamma(0.6, 1.0, size=(n_classes, n_features))
    for c in range(n_classes):
        rates[c, rng.choice(n_features, 3, replace=False)] += 1.2
    return rates


def make_data(rng, rates, n):
    y = np.arange(n) % rates.shape[0]
    rng.shuffle(y)
    X = rng.poisson(rates[y] * 0.8).astype(np.float64)
    return X, y


def triplets(X):
    m = sp.coo_matrix(X)
    return [[int(i), int(j), float(v)] for i, j, v in zip(m.row, m.col, m.data)]


def floats(a):
    return np.asarray(a, dtype=np.float64).tolist()


def nb_case(X, y, Xt, **kw):
    m = MultinomialNB(force_alpha=False, **kw).fit(sp.csr_matrix(X), y)
    return {
        "params": {k: (floats(v) if isinstance(v, (list, np.ndarray)) else v) for k, v in kw.items()},
        "feature_log_prob": floats(m.feature_log_prob_),
        "class_log_prior": floats(m.class_log_prior_),
        "predict_log_proba": floats(m.predict_log_proba(sp.csr_matrix(Xt))),
        "predict_proba": floats(m.predict_proba(sp.csr_matrix(Xt))),
        "predict": m.predict(sp.csr_matrix(Xt)).tolist(),
    }


def svc_case(X, y, Xt, **kw):
    m = LinearSVC(random_state=0, **kw).fit(sp.csr_matrix(X), y)
    return {
        "params": kw,
        "coef": floats(m.coef_),
        "intercept": floats(m.intercept_),
        "n_iter": int(m.n_iter_),
        "decision_function": floats(np.atleast_2d(m.decision_function(sp.csr_matrix(Xt)).T).T),
        "predict": m.predict(sp.csr_matrix(Xt)).tolist(),
        "train_accuracy": float(m.score(sp.csr_matrix(X), y)),
    }


def lr_case(X, y, Xt, **kw):
    m = LogisticRegression(multi_class="multinomial", solver="lbfgs", **kw)
    m.fit(sp.csr_matrix(X), y)
    coef, intercept = m.coef_, m.intercept_
    return {
        "params": kw,
        "coef": floats(coef),
        "intercept": floats(intercept),
        "n_iter": int(m.n_iter_[0]),
        "predict_proba": floats(m.predict_proba(sp.csr_matrix(Xt))),
        "predict": m.predict(sp.csr_matrix(Xt)).tolist(),
    }


def dataset(name, X, y, Xt, yt):
    Xn, Xtn = normalize(X), normalize(Xt)
    d = {
        "name": name,
        "rows": X.shape[0], "cols": X.shape[1], "test_rows": Xt.shape[0],
        "X": triplets(X), "y": y.tolist(),
        "Xtest": triplets(Xt), "ytest": yt.tolist(),
        "Xnorm": triplets(Xn), "Xtest_norm": triplets(Xtn),
        "nb": [
            nb_case(X, y, Xt),
            nb_case(X, y, Xt, alpha=0.5, fit_prior=False),
            nb_case(X, y, Xt, alpha=1e-12),
            nb_case(X, y, Xt, class_prior=[0.5] + [0.5 / (len(set(y)) - 1)] * (len(set(y)) - 1)),
            nb_case(Xn, y, Xtn),
        ],
        "svc": [
            svc_case(Xn, y, Xtn),
            svc_case(Xn, y, Xtn, loss="hinge"),
            svc_case(Xn, y, Xtn, tol=1e-9, max_iter=100000),
            svc_case(Xn, y, Xtn, loss="hinge", tol=1e-9, max_iter=100000),
            svc_case(X, y, Xt, C=0.1, intercept_scaling=2.0, tol=1e-9, max_iter=100000),
        ],
        "lr": [
            lr_case(Xn, y, Xtn),
            lr_case(Xn, y, Xtn, C=10.0, tol=1e-10, max_iter=10000),
            lr_case(X, y, Xt, C=0.5, tol=1e-10, max_iter=10000),
            lr_case(Xn, y, Xtn, fit_intercept=False, tol=1e-10, max_iter=10000),
            lr_case(Xn, y, Xtn, max_iter=5),
        ],
    }
    return d


def main():
    rng = np.random.RandomState(20240601)
    rates = make_rates(rng, 15, 3)
    X, y = make_data(rng, rates, 90)
    Xt, yt = make_data(rng, rates, 30)
    out = {
        "sklearn_version": sklearn.__version__,
        "datasets": [dataset("three-class", X, y, Xt, yt)],
    }
    keep, keept = y < 2, yt < 2
    out["datasets"].append(dataset("two-class", X[keep], y[keep], Xt[keept], yt[keept]))
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sklearn_fixture.json")
    with open(path, "w") as f:
        json.dump(out, f)
        f.write("\n")
    print("wrote", path)


if __name__ == "__main__":
    main()
