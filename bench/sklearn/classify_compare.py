#!/usr/bin/python3
"""Train scikit-learn's baselines on the dataset written by classifycmp and
compare them with semitopic's classify package.

    go run ./bench/sklearn/classifycmp [-seed 1] [-out DIR]
    /usr/bin/python3 bench/sklearn/classify_compare.py [DIR] [--runs 3] [--check-tfidf]

Run it with Debian's Python (scikit-learn 1.2.1). It reads DIR/train.mtx,
DIR/test.mtx (documents x terms) and the label files, fits MultinomialNB(),
LinearSVC() and LogisticRegression(multi_class="multinomial", solver="lbfgs")
with default settings (LinearSVC gets random_state=0 so that runs repeat),
and prints test accuracy, the fastest fit and predict times of --runs runs,
and, when DIR/go_results.json exists, the Go figures beside them with the
ratios sklearn time / Go time.

--check-tfidf also fits the SSNMF reference's TfidfVectorizer (token_pattern
"[a-zA-Z]+", NLTK English stopwords, min_df=5, max_df=0.7,
max_features=5000) on DIR/train_docs.jsonl and compares its vocabulary and
values with train.mtx / vocab.txt.
"""
import argparse
import json
import os
import sys
import tempfile
import time
import warnings

import numpy as np
import scipy.io
import scipy.sparse as sp
import sklearn
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import MultinomialNB
from sklearn.svm import LinearSVC


def load(d, name):
    X = sp.csr_matrix(scipy.io.mmread(os.path.join(d, name + ".mtx")))
    with open(os.path.join(d, name + "_labels.txt")) as f:
        y = np.array([int(line) for line in f])
    return X, y


def best_time(fn, runs):
    best, out = None, None
    for _ in range(runs):
        t = time.perf_counter()
        out = fn()
        el = time.perf_counter() - t
        best = el if best is None else min(best, el)
    return best, out


def check_tfidf(d, models):
    import nltk
    from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer

    def texts(name):
        with open(os.path.join(d, name + "_docs.jsonl")) as f:
            return [json.loads(line)["text"] for line in f]

    train_texts = texts("train")
    try:
        stop = nltk.corpus.stopwords.words("english")
        source = "nltk_data"
    except LookupError:
        # NLTK's data is often not installed; the repository embeds the
        # same list.
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "text", "stopwords", "nltk-english.txt")
        with open(path) as f:
            stop = [w.strip() for w in f if w.strip() and not w.startswith("#")]
        source = os.path.normpath(path)
    print(f"tf-idf check: {len(stop)} NLTK stopwords from {source}")
    args = dict(min_df=5, max_df=0.70, token_pattern="[a-zA-Z]+", stop_words=stop)
    v = TfidfVectorizer(max_features=5000, **args)
    Xs = v.fit_transform(train_texts).tocsc()
    sk_vocab = list(v.get_feature_names_out())
    with open(os.path.join(d, "vocab.txt")) as f:
        go_vocab = [line.rstrip("\n") for line in f]
    Xg = sp.csc_matrix(scipy.io.mmread(os.path.join(d, "train.mtx")))
    common = sorted(set(sk_vocab) & set(go_vocab))
    print(f"  scikit-learn {len(sk_vocab)} terms, Go {len(go_vocab)}, {len(common)} in common")
    only_sk = sorted(set(sk_vocab) - set(go_vocab))
    only_go = sorted(set(go_vocab) - set(sk_vocab))
    if only_sk or only_go:
        # max_features keeps the most frequent terms; at the cut-off count
        # the two break ties differently (Go: alphabetical order; scikit-
        # learn: numpy's unstable argsort).
        cv = CountVectorizer(**args)
        tf = np.asarray(cv.fit_transform(train_texts).sum(axis=0)).ravel()
        freq = dict(zip(cv.get_feature_names_out(), tf))
        cut = np.sort(tf)[::-1][len(sk_vocab) - 1]
        differing = only_sk + only_go
        ties = all(freq[t] == cut for t in differing)
        print(f"  {len(only_sk)} terms only in scikit-learn's, {len(only_go)} only in Go's; "
              f"all at the cut-off count {cut}: {ties} ({int((tf == cut).sum())} terms have that count, "
              f"{int((tf > cut).sum())} more)")
        print(f"  only scikit-learn: {only_sk[:8]} ...")
        print(f"  only Go:           {only_go[:8]} ...")
    si = {t: i for i, t in enumerate(sk_vocab)}
    gi = {t: i for i, t in enumerate(go_vocab)}
    a = Xs[:, [si[t] for t in common]]
    b = Xg[:, [gi[t] for t in common]]
    if not only_sk and not only_go:
        print(f"  same vocabulary; largest difference of a tf-idf value: {abs(a - b).max():.3g}")
    else:
        print(f"  stored entries on the common terms: scikit-learn {a.nnz}, Go {b.nnz} "
              f"(values differ through the row norms)")
    # scikit-learn's tf-idf with Go's vocabulary: tokens, stopwords, idf
    # and row norms must then agree to rounding.
    fixed = TfidfVectorizer(vocabulary=go_vocab, token_pattern="[a-zA-Z]+", stop_words=stop)
    fixed.fit(train_texts)
    for name in ("train", "test"):
        Xf = fixed.transform(texts(name))
        Xn = sp.csr_matrix(scipy.io.mmread(os.path.join(d, name + ".mtx")))
        diff = abs(Xf - Xn)
        print(f"  {name}: scikit-learn's tf-idf on Go's vocabulary: {Xf.nnz} vs {Xn.nnz} stored entries, "
              f"largest difference {diff.max() if diff.nnz else 0.0:.3g}")
    # The classifiers on scikit-learn's own tf-idf of the same documents.
    ytr = load(d, "train")[1]
    yte = load(d, "test")[1]
    Xtr, Xte = v.transform(train_texts), v.transform(texts("test"))
    for name, mk in models:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            acc = np.mean(mk().fit(Xtr, ytr).predict(Xte) == yte)
        print(f"  {name} on scikit-learn's tf-idf: test accuracy {100 * acc:.2f}%")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", nargs="?", default=os.path.join(tempfile.gettempdir(), "semitopic-classifycmp"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--check-tfidf", action="store_true")
    args = ap.parse_args()
    d = args.dir
    Xtr, ytr = load(d, "train")
    Xte, yte = load(d, "test")
    print(f"scikit-learn {sklearn.__version__}, numpy {np.__version__}; train {Xtr.shape}, "
          f"test {Xte.shape}, {Xtr.nnz} stored entries in train")
    models = [
        ("MultinomialNB", lambda: MultinomialNB()),
        ("LinearSVC", lambda: LinearSVC(random_state=0)),
        ("LogisticRegression", lambda: LogisticRegression(multi_class="multinomial", solver="lbfgs")),
    ]
    sk = {}
    for name, mk in models:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ConvergenceWarning)
            fit_t, m = best_time(lambda: mk().fit(Xtr, ytr), args.runs)
        pred_t, pred = best_time(lambda: m.predict(Xte), args.runs)
        n_iter = getattr(m, "n_iter_", None)
        sk[name] = {
            "accuracy": float(np.mean(pred == yte)),
            "fit_seconds": fit_t,
            "predict_seconds": pred_t,
            "n_iter": None if n_iter is None else np.atleast_1d(n_iter).tolist(),
            "converged": not any(issubclass(w.category, ConvergenceWarning) for w in caught),
        }
    go = {}
    gp = os.path.join(d, "go_results.json")
    if os.path.exists(gp):
        with open(gp) as f:
            for r in json.load(f)["results"]:
                go[r["name"]] = r
    print()
    print(f"{'classifier':<20} {'sklearn acc':>11} {'Go acc':>8} {'sklearn fit':>12} {'Go fit':>9} "
          f"{'fit ratio':>9} {'sk predict':>10} {'Go predict':>10} {'ratio':>6}")
    for name, _ in models:
        s = sk[name]
        g = go.get(name)
        line = f"{name:<20} {100 * s['accuracy']:10.2f}%"
        if g:
            line += (f" {100 * g['accuracy']:7.2f}% {1000 * s['fit_seconds']:10.1f}ms {1000 * g['fit_seconds']:7.1f}ms"
                     f" {s['fit_seconds'] / g['fit_seconds']:8.1f}x {1000 * s['predict_seconds']:8.1f}ms"
                     f" {1000 * g['predict_seconds']:8.1f}ms {s['predict_seconds'] / g['predict_seconds']:5.1f}x")
        else:
            line += f" {'':>8} {1000 * s['fit_seconds']:10.1f}ms"
        print(line)
    print()
    for name, _ in models:
        s, g = sk[name], go.get(name, {})
        print(f"{name}: scikit-learn iterations {s['n_iter']} converged={s['converged']}; "
              f"Go iterations {g.get('iterations')} converged={g.get('converged')}")
    if args.check_tfidf:
        print()
        check_tfidf(d, models)
    return 0


if __name__ == "__main__":
    sys.exit(main())
