"""A drop-in for corextopic: ``from semitopic import corextopic as ct``
in place of ``from corextopic import corextopic as ct``.

``Corex`` takes corextopic's arguments and gives its attributes and
methods, with the fit run by semitopic's Go library (package corex) on
corextopic's own random stream (numpy's legacy Mersenne Twister seeded as
``np.random.seed(seed)``): a seed gives the fit corextopic gives, the same
total correlation to floating-point rounding (see corex's
TestMatchesReference). What differs: ``seed=None`` draws the seed from
numpy's global generator (corextopic reseeds it with entropy); anchors
naming a word not in ``words`` raise ``AnchorError`` (a KeyError, as
corextopic, and a ValueError); ``tree=False`` is refused, as corextopic
never implemented it.
"""

import pickle

import numpy as np

from . import _lib
from ._model import to_csr


class AnchorError(KeyError, ValueError):
    """An anchor that names no column."""

    def __str__(self):
        return str(self.args[0]) if self.args else ""


class Corex:
    """Anchored CorEx topic model with corextopic's interface.

    Parameters are corextopic's: n_hidden, max_iter, eps (the convergence
    tolerance on TC), seed, verbose, count ('binarize' or 'fraction'),
    tree (True only). Other keyword arguments (such as words, which the
    corextopic notebook passes here) are accepted and ignored, as
    corextopic does.
    """

    def __init__(self, n_hidden=2, max_iter=200, eps=1e-5, seed=None, verbose=False, count="binarize", tree=True, **kwargs):
        if not tree:
            raise ValueError("tree=False is not implemented (nor is it in corextopic)")
        if seed is None:
            seed = int(np.random.randint(2**32 - 1, dtype=np.int64))
        self.n_hidden = n_hidden
        self.max_iter = max_iter
        self.eps = eps
        self.seed = seed
        self.verbose = verbose
        self.count = count
        self.tree = tree
        self._model = None

    # Fitting.

    def fit(self, X, anchors=None, anchor_strength=1, words=None, docs=None, callback=None):
        """Fits CorEx on X (documents × words: sparse or dense, binary or
        counts). anchors lists, for the first topics in order, a word or
        column index or a list of them; anchor_strength is β. callback,
        when given, receives each iteration's progress (a dict)."""
        self.fit_transform(X, anchors=anchors, anchor_strength=anchor_strength, words=words, docs=docs, callback=callback)
        return self

    def fit_transform(self, X, anchors=None, anchor_strength=1, words=None, docs=None, callback=None):
        """Fits CorEx (see fit) and returns the training labels."""
        Xm = to_csr(X)
        if words is not None and len(words) != Xm.shape[1]:
            raise ValueError(f"words: {len(words)} words for the {Xm.shape[1]} columns of X")
        self.words = list(words) if words is not None else None
        self.docs = docs
        self.n_samples, self.n_visible = Xm.shape
        req = {
            "n_hidden": int(self.n_hidden), "max_iter": int(self.max_iter), "eps": float(self.eps),
            "seed": int(self.seed), "count": self.count, "anchor_strength": float(anchor_strength),
        }
        if self.words is not None:
            req["words"] = [str(w) for w in self.words]
        if anchors is not None:
            req["anchors"] = self._anchor_columns(list(anchors))
        progress = callback
        if progress is None and self.verbose:
            def progress(e):
                print("tc:", e["objective"])
        self._model = _lib.Handle(_lib.call("corex_fit", req, X=Xm, progress=progress))
        self._read()
        return self.labels

    def _anchor_columns(self, anchors):
        index = {w: j for j, w in enumerate(self.words)} if self.words is not None else None
        out = []
        for topic, a in enumerate(anchors):
            if not isinstance(a, (list, tuple, np.ndarray)):
                a = [a]
            cols = []
            for w in a:
                if isinstance(w, str):
                    if index is None:
                        raise AnchorError(f"anchors: topic {topic}: word {w!r} given without words to name the columns of X")
                    if w not in index:
                        raise AnchorError(f"anchors: topic {topic}: anchor word {w!r} is not in words")
                    cols.append(index[w])
                else:
                    cols.append(int(w))
            out.append(cols)
        return out

    def _read(self):
        d = self._model.describe()
        self.tcs = np.array(d["tcs"])
        self.tc_history = list(d["tc_history"])
        self.n_iter_ = d["iterations"]
        self._fit_seconds = d["fit_seconds"]
        self.warnings = d.get("warnings") or []
        r = _lib.Result(_lib.call("corex_infer", target=self._model))
        self.p_y_given_x = r.matrix("p_y_given_x")
        self.log_p_y_given_x = r.matrix("log_p_y_given_x")
        self.log_z = r.matrix("log_z")
        self.alpha = r.matrix("alpha")
        self.mis = r.matrix("mis")
        self._sign = r.matrix("sign")
        r.release()

    # corextopic's attributes.

    @property
    def tc(self):
        """The total correlation explained by all the topics (nats)."""
        return float(np.sum(self.tcs))

    @property
    def labels(self):
        """The training documents' topics: p(y_j = 1 | x) > 0.5."""
        return self.label(self.p_y_given_x)

    @property
    def clusters(self):
        """Each word's topic: the one of largest α."""
        return np.argmax(self.alpha, axis=0)

    @property
    def sign(self):
        """Whether a word's presence (+1) or absence (−1) informs a topic."""
        return self._sign

    def label(self, p_y_given_x):
        return (p_y_given_x > 0.5).astype(bool)

    # Inference.

    def transform(self, X, details=False):
        """The topics of new documents: labels, or with details
        (p_y_given_x, log_z)."""
        if self._model is None:
            raise ValueError("Corex: fit before transform")
        if details == "surprise":
            raise ValueError("details='surprise' (experimental in corextopic) is not implemented")
        r = _lib.Result(_lib.call("corex_infer", target=self._model, X=to_csr(X), what="X"))
        p, log_z = r.matrix("p_y_given_x"), r.matrix("log_z")
        if details:
            return p, log_z
        return self.label(p)

    def predict(self, X):
        return self.transform(X, details=False)

    def predict_proba(self, X):
        return self.transform(X, details=True)

    # Topics and documents.

    def get_topics(self, n_words=10, topic=None, print_words=True):
        """Each topic's top words as (word, sign·MI) pairs, in corextopic's
        order (α·MI); one topic's list when topic is given. Without words,
        or with print_words=False, column indices stand for the words."""
        if self._model is None:
            raise ValueError("Corex: fit before get_topics")
        ts = _lib.Result(_lib.call("corex_topics", {"n": int(n_words)}, target=self._model)).meta
        use_words = print_words and self.words is not None
        out = [[(w["word"] if use_words else w["index"], w["sign"] * w["mi"]) for w in t] for t in ts]
        if topic is not None:
            return out[topic]
        return out

    def get_top_docs(self, n_docs=10, topic=None, sort_by="log_prob", print_docs=True):
        """Each topic's top training documents as (document, value) pairs,
        by log p(y|x) ('log_prob') or pointwise TC ('tc')."""
        if sort_by == "log_prob":
            values = self.log_p_y_given_x
        elif sort_by == "tc":
            values = self.log_z
        else:
            raise ValueError(f"sort_by: {sort_by!r}, want 'log_prob' or 'tc'")
        order = np.argsort(-values, axis=0, kind="stable")
        use_docs = print_docs and self.docs is not None
        topics = range(values.shape[1]) if topic is None else [topic]
        out = [[(self.docs[i] if use_docs else int(i), values[i, n]) for i in order[:n_docs, n]] for n in topics]
        return out[0] if topic is not None else out

    def set_words(self, words):
        self.words = list(words) if words is not None else None

    def set_docs(self, docs):
        self.docs = docs

    # Saving.

    def save(self, filename, ensure_compatibility=True):
        """Pickles the model to filename."""
        with open(filename, "wb") as f:
            pickle.dump(self, f)

    def __getstate__(self):
        # The Go model travels as its corex.State (values and matrices).
        state = self.__dict__.copy()
        m = state.pop("_model")
        if m is not None:
            r = _lib.Result(_lib.call("corex_state", target=m))
            state["_corex_state"] = (r.meta, {n: r.matrix(n) for n in ("alpha", "mi", "mi_nats", "sign", "info")})
        return state

    def __setstate__(self, state):
        saved = state.pop("_corex_state", None)
        self.__dict__.update(state)
        self._model = None
        if saved is not None:
            meta, mats = saved
            self._model = _lib.Handle(_lib.call("corex_from_state", {"state": meta["state"], "words": meta["words"]}, dense=mats))


def load(filename):
    """Unpickles a Corex saved with save."""
    with open(filename, "rb") as f:
        return pickle.load(f)
