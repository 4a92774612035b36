"""A fitted model of the Go library (package model) and the conversions
of Python input into what it takes."""

import os

import numpy as np
import scipy.sparse as sp

from . import _lib


def is_text(X):
    """Whether X is a list of documents' texts rather than a matrix."""
    if isinstance(X, str):
        raise TypeError("X: a single string; give a list of documents")
    if isinstance(X, (list, tuple)):
        return len(X) > 0 and all(isinstance(d, str) for d in X)
    if isinstance(X, np.ndarray) and X.ndim == 1 and X.dtype.kind in "OUS":
        return all(isinstance(d, str) for d in X)
    return False


def to_csr(X):
    """X as a CSR matrix with float64 data and sorted indices, without a
    copy when it already is one."""
    if not sp.issparse(X):
        X = sp.csr_matrix(np.asarray(X, dtype=np.float64))
    if X.format != "csr":
        X = X.tocsr()
    if X.dtype != np.float64:
        X = X.astype(np.float64)
    if not X.has_sorted_indices:
        X = X.sorted_indices()
    return X


def anchors_request(anchors):
    """The request fields for anchors given as the grammar (a string with
    a ':'), a path, or a dict of lists of words ("-word" excludes,
    "word:3" sets a strength)."""
    if anchors is None:
        return {}
    if isinstance(anchors, os.PathLike):
        return {"anchors_file": os.fspath(anchors)}
    if isinstance(anchors, str):
        if ":" in anchors or "\n" in anchors:
            return {"anchors": anchors}
        return {"anchors_file": anchors}
    if isinstance(anchors, dict):
        lines = []
        for topic, words in anchors.items():
            if isinstance(words, str):
                words = [words]
            if not isinstance(topic, str) or any(not isinstance(w, str) for w in words):
                raise TypeError("anchors: a dict from topic names to lists of words (strings)")
            for w in words:
                if "," in w or "\n" in w:
                    raise ValueError(f"anchors: topic {topic!r}: word {w!r} holds a comma or a newline")
            lines.append(f"{topic}: {', '.join(words)}")
        return {"anchors": "\n".join(lines)}
    raise TypeError(f"anchors: {type(anchors).__name__}; want the anchors grammar (str), a path or a dict of lists of words")


def labels_request(y, n):
    """y as one list of label names per document (empty when unlabeled:
    None, -1 or NaN), and the original value of each label name."""
    if y is None:
        return None, {}
    if len(y) != n:
        raise ValueError(f"y: {len(y)} entries for {n} documents")
    out, values = [], {}

    def unlabeled(v):
        if v is None:
            return True
        if isinstance(v, (int, np.integer)) and v == -1:
            return True
        if isinstance(v, (float, np.floating)) and (np.isnan(v) or v == -1):
            return True
        return isinstance(v, str) and v == ""

    for v in y:
        if isinstance(v, (list, tuple, set, frozenset, np.ndarray)):
            names = []
            for u in v:
                if not unlabeled(u):
                    names.append(str(u))
                    values.setdefault(str(u), u)
            out.append(names)
        elif unlabeled(v):
            out.append([])
        else:
            out.append([str(v)])
            values.setdefault(str(v), v)
    return out, values


class Model(_lib.Handle):
    """A fitted model of package model: what every estimator holds."""

    def __init__(self, h):
        super().__init__(h)
        self.info = self.describe()

    @classmethod
    def fit(cls, options, X, y=None, anchors=None, vocab=None, progress=None):
        req = {"options": options}
        req.update(anchors_request(anchors))
        if is_text(X):
            req["docs"] = list(X)
            n = len(X)
            Xm = None
        else:
            Xm = to_csr(X)
            n = Xm.shape[0]
            if vocab is not None:
                req["vocab"] = list(vocab)  # else x0, x1, … (named in Go)
        labels, values = labels_request(y, n)
        if labels is not None:
            req["labels"] = labels
        m = cls(_lib.call("fit", req, X=Xm, progress=progress))
        m.label_values = values
        return m

    @classmethod
    def load_file(cls, path):
        m = cls(_lib.call("load_file", {"path": os.fspath(path)}))
        m.label_values = {}
        return m

    @classmethod
    def from_bytes(cls, b):
        m = cls(_lib.call("load", data=b))
        m.label_values = {}
        return m

    def to_bytes(self):
        return _lib.Result(_lib.call("save", target=self)).bytes()

    def save_file(self, path):
        _lib.Result(_lib.call("save_file", {"path": os.fspath(path)}, target=self)).release()

    def _docs(self, X):
        if is_text(X):
            return {"docs": list(X)}, None
        return {}, to_csr(X)

    def transform(self, X):
        req, Xm = self._docs(X)
        return _lib.Result(_lib.call("transform", req, target=self, X=Xm, what="X")).matrix("weights")

    def predict(self, X):
        """Label scores (documents × labels) and each document's labels."""
        req, Xm = self._docs(X)
        r = _lib.Result(_lib.call("predict", req, target=self, X=Xm, what="X"))
        return r.matrix("scores"), r.meta["labels"]

    def vocab(self):
        """The model's terms, in column order."""
        if getattr(self, "_vocab", None) is None:
            self._vocab = _lib.Result(_lib.call("vocab", target=self)).meta
        return self._vocab

    def components(self):
        return _lib.Result(_lib.call("components", target=self)).matrix("components")

    def topics(self, n=10):
        return _lib.Result(_lib.call("topics", {"n": n}, target=self)).meta

    def vectorize(self, docs):
        return _lib.Result(_lib.call("vectorize", {"docs": list(docs)}, target=self)).csr("X")


def kinds():
    """The model kinds of the library with the options each takes."""
    return _lib.Result(_lib.call("kinds")).meta




def load_demo():
    """semitopic's embedded demo corpus: the documents' texts, their labels
    (a label for the few labeled documents, None for the others) and
    their planted themes (the truth, for scoring)."""
    d = _lib.Result(_lib.call("demo")).meta
    labels = [ls[0] if ls else None for ls in d["labels"]]
    return d["texts"], labels, [ls[0] if ls else None for ls in d["truth"]]
