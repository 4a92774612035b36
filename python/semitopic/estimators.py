"""scikit-learn estimators, one per model kind of semitopic.

Each estimator's parameters are the options its kind takes (the fit
command's flags, with scikit-learn's names for three of them:
``n_components`` for ``--topics``, ``random_state`` for ``--seed`` and
``lam`` for ``--lambda``), plus ``verbose``. Fitting, transforming and
predicting run in the Go library; nothing here computes a model.
"""

import re
import sys

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted, check_non_negative

from . import _model

# Python names of the options whose model.Options JSON name differs.
_FIELD = {"n_components": "k", "random_state": "seed", "lam": "lambda"}
_PYNAME = {v: k for k, v in _FIELD.items()}


def _flag_to_param(msg):
    """An error message of package model with its flags (--max-iter,
    -k/--topics) named as the estimator's parameters."""
    names = {"topics": "n_components", "seed": "random_state", "lambda": "lam", "labels-from-corpus": "y"}

    def param(m):
        flag = m.group(1)
        return names.get(flag, flag.replace("-", "_"))

    return re.sub(r"(?:-k/)?--([a-z][a-z-]*)", param, msg)


class _TopicEstimator(TransformerMixin, BaseEstimator):
    """What every estimator shares; a subclass sets _kind and declares its
    parameters in __init__."""

    _kind = None

    def _options(self):
        o = {"kind": self._kind}
        for name, value in self.get_params(deep=False).items():
            if name == "verbose" or value is None:
                continue
            if name == "random_state":
                if isinstance(value, (int, np.integer)):
                    if value < 0:
                        raise ValueError(f"random_state: {value}, want a non-negative integer")
                    value = int(value)
                else:
                    value = int(check_random_state(value).randint(2**31 - 1))
            elif isinstance(value, (bool, np.bool_)):
                value = bool(value)
            elif isinstance(value, (int, np.integer)):
                value = int(value)
            elif isinstance(value, (float, np.floating)):
                value = float(value)
            elif not isinstance(value, str):
                raise TypeError(f"{name}: {type(value).__name__} {value!r}, want a number or a string")
            o[_FIELD.get(name, name)] = value
        return o

    def _progress(self, callback):
        if callback is not None:
            return callback
        if self.verbose:
            name = type(self).__name__

            def show(e):
                obj = e.get("objective")
                obj = "not evaluated" if obj is None else f"{obj:.6g}"
                print(f"{name}: iteration {e['iter']}, objective {obj}", file=sys.stderr)

            return show
        return None

    def _check_X(self, X, reset):
        if _model.is_text(X):
            if not reset and getattr(self, "vectorizer_", None) is None:
                raise ValueError("X: documents' texts, but the estimator was fitted on a matrix")
            return X
        X = self._validate_data(X, accept_sparse="csr", dtype=np.float64, reset=reset)
        check_non_negative(X, f"{type(self).__name__} (semitopic)")
        if reset and X.shape[0] < 2:
            raise ValueError(f"X: {X.shape[0]} sample(s); a topic model needs at least 2 documents")
        if reset and X.shape[1] < 2:
            raise ValueError(f"X: {X.shape[1]} feature(s); a topic model needs at least 2 terms")
        return X

    def fit(self, X, y=None, anchors=None, callback=None):
        """Fits the model on X (documents × terms, sparse or dense, or a
        list of texts), with labels y (one per document: a label, a list
        of labels, or None / -1 when unlabeled) and anchors (the grammar
        "topic: word, word:3, -word" one topic per line, a path to such a
        file, or a dict of lists of words). callback, when given, receives
        each progress event (a dict: iter, objective, seconds, ...)."""
        X = self._check_X(X, reset=True)
        text = _model.is_text(X)
        vocab = None
        if not text:
            names = getattr(self, "feature_names_in_", None)
            vocab = [str(v) for v in names] if names is not None else None
        y = _as_label_list(y)
        try:
            m = _model.Model.fit(self._options(), X, y, anchors, vocab, self._progress(callback))
        except (ValueError, TypeError) as e:
            raise type(e)(_flag_to_param(str(e))) from None
        self._set_fitted(m, text)
        return self

    def _set_fitted(self, m, text):
        self.model_ = m
        info = m.info
        self.n_components_ = info["topics"]
        self.topic_names_ = list(info["topic_names"])
        self.n_iter_ = info["info"].get("iterations", 0)
        self.converged_ = bool(info["converged"])
        self.objective_ = info["info"].get("objective", 0.0)
        self._components = None
        self._vocabulary = None
        self.vectorizer_ = _Vectorizer(m) if text or info["has_vectorizer"] else None
        names = info["labels"]
        if names:
            vals = [m.label_values.get(n, n) for n in names]
            try:
                self.classes_ = np.array(vals)
            except ValueError:
                self.classes_ = np.array(vals, dtype=object)
        if text and not hasattr(self, "n_features_in_"):
            self.n_features_in_ = info["terms"]

    @property
    def vocabulary_(self):
        """The model's terms and their columns (read on first use)."""
        check_is_fitted(self, "model_")
        if getattr(self, "_vocabulary", None) is None:
            self._vocabulary = dict(zip(self.model_.vocab(), range(self.model_.info["terms"])))
        return self._vocabulary

    @property
    def components_(self):
        """The topics × terms weights (each kind's own word weight, as
        get_topics gives them), read from the model on first use: building
        them sorts every topic's words, which costs a third of a short fit
        on 20 Newsgroups."""
        check_is_fitted(self, "model_")
        if self._components is None:
            self._components = self.model_.components()
        return self._components

    def transform(self, X):
        """The topic weights of X's documents (documents × topics)."""
        check_is_fitted(self, "model_")
        X = self._check_X(X, reset=False)
        return self.model_.transform(X)

    def get_topics(self, n_words=10):
        """Every topic as (name, [(word, weight), ...]), best words first."""
        check_is_fitted(self, "model_")
        return [(t["name"], [(w["word"], w["weight"]) for w in t["words"]]) for t in self.model_.topics(n_words)]

    def save(self, path):
        """Writes the model file (the CLI's format) to path, atomically."""
        check_is_fitted(self, "model_")
        self.model_.save_file(path)

    # Checks of scikit-learn's check_estimator that this estimator skips,
    # with why (python/README.md lists them).
    _xfail = {}

    def _more_tags(self):
        return {
            "requires_positive_X": True,
            "X_types": ["2darray", "string"],
            "preserves_dtype": [np.float64],
            "_xfail_checks": dict(self._xfail),
        }

    def __getstate__(self):
        state = self.__dict__.copy()
        m = state.pop("model_", None)
        if m is not None:
            state["_model_file"] = m.to_bytes()
            state["_label_values"] = m.label_values
        state.pop("vectorizer_", None)
        return state

    def __setstate__(self, state):
        b = state.pop("_model_file", None)
        values = state.pop("_label_values", {})
        self.__dict__.update(state)
        if b is not None:
            m = _model.Model.from_bytes(b)
            m.label_values = values
            self.model_ = m
            self.vectorizer_ = _Vectorizer(m) if m.info["has_vectorizer"] else None


class _Predicting(_TopicEstimator):
    """An estimator whose kind predicts labels once fitted with them."""

    def predict(self, X):
        """Each document's label: the label of highest score (the original
        values of y), or, for a model fitted with lists of labels, the
        list of its predicted labels."""
        check_is_fitted(self, "model_")
        X = self._check_X(X, reset=False)
        scores, labels = self.model_.predict(X)
        if self._multilabel():
            vals = self.model_.label_values
            return [[vals.get(n, n) for n in ls] for ls in labels]
        if scores.shape[1] == 0:
            raise ValueError("the model predicts no labels: fit it with labels (y)")
        return self.classes_[np.argmax(scores, axis=1)]

    def predict_scores(self, X):
        """The label scores (documents × classes_), higher is likelier."""
        check_is_fitted(self, "model_")
        X = self._check_X(X, reset=False)
        return self.model_.predict(X)[0]

    def _multilabel(self):
        return getattr(self, "_y_multilabel", False)

    def fit(self, X, y=None, anchors=None, callback=None):
        y = _as_label_list(y)
        self._y_multilabel = y is not None and any(isinstance(v, (list, tuple, set, frozenset, np.ndarray)) for v in y)
        return super().fit(X, y, anchors=anchors, callback=callback)


def _as_label_list(y):
    """y as a list with one entry per document: a 1-d array's values, or
    a 2-d array's rows (lists of labels)."""
    if y is None or isinstance(y, list):
        return y
    if isinstance(y, tuple):
        return list(y)
    a = np.asarray(y, dtype=object)
    if a.ndim == 1:
        return list(a)
    if a.ndim == 2:
        return [list(r) for r in a]
    raise ValueError(f"y: {a.ndim} dimensions; want one entry per document")


# The checks whose data cannot give a model of a supervised kind: more
# labels than features, or n_components=1 with several labels.
_TOO_FEW_TERMS = (
    "fits 3 or 4 labels on 2 or 3 features: the kind needs a topic per label, and a "
    "factorization has at most min(documents, terms) topics, so the fit is refused "
    "with an error naming both numbers"
)
_ONE_TOPIC = (
    "sets n_components=1 and fits 2 or 3 labels: the kind needs at least one topic "
    "per label, so the fit is refused with an error naming both numbers"
)
_XFAIL_SUPERVISED = {
    "check_estimators_fit_returns_self": _TOO_FEW_TERMS,
    "check_estimators_overwrite_params": _TOO_FEW_TERMS,
    "check_estimator_sparse_data": _TOO_FEW_TERMS,
}
_XFAIL_ONE_TOPIC = {
    "check_methods_sample_order_invariance": _ONE_TOPIC,
    "check_methods_subset_invariance": _ONE_TOPIC,
    "check_dict_unchanged": _ONE_TOPIC,
    "check_dont_overwrite_parameters": _ONE_TOPIC,
    "check_fit2d_predict1d": _ONE_TOPIC,
}


class _Vectorizer:
    """The text pipeline a model was fitted with (read-only): what
    ``vectorizer_`` holds for models fitted on texts."""

    def __init__(self, m):
        self._m = m

    @property
    def vocabulary_(self):
        return dict(zip(self._m.vocab(), range(self._m.info["terms"])))

    def get_feature_names_out(self, input_features=None):
        return np.array(self._m.vocab(), dtype=object)

    def transform(self, docs):
        """The documents' term matrix (scipy CSR) as the model reads them."""
        return self._m.vectorize(docs)


class TSNMF(_Predicting):
    """Topic-supervised NMF (MacMillan & Wilson): labeled documents may use
    only their labels' topics (kind "tsnmf"). gathers is the precision of
    the factor rows the Frobenius updates read: None or "auto" (float32
    from 2**23 stored entries on), "float64" (scikit-learn's numerics at
    any size) or "float32"."""

    _kind = "tsnmf"
    _xfail = {**_XFAIL_SUPERVISED, **_XFAIL_ONE_TOPIC}

    def __init__(self, n_components=None, *, random_state=None, max_iter=None, tol=None, loss=None, gathers=None,
                 init=None, weighting=None, beta=None, seed_rank=None, readout=None, auto=None, verbose=0):
        self.n_components = n_components
        self.random_state = random_state
        self.max_iter = max_iter
        self.tol = tol
        self.loss = loss
        self.gathers = gathers
        self.init = init
        self.weighting = weighting
        self.beta = beta
        self.seed_rank = seed_rank
        self.readout = readout
        self.auto = auto
        self.verbose = verbose


class SSNMF(_Predicting):
    """Semi-supervised NMF (Haddock, Kassab et al.): topics that also
    predict the labels (kind "ssnmf"). For the ssnmf package's own class,
    see semitopic.ssnmf."""

    _kind = "ssnmf"
    _xfail = _XFAIL_SUPERVISED

    def __init__(self, n_components=None, *, random_state=None, max_iter=None, tol=None, loss=None, lam=None,
                 beta=None, hold_labels=None, readout=None, auto=None, verbose=0):
        self.n_components = n_components
        self.random_state = random_state
        self.max_iter = max_iter
        self.tol = tol
        self.loss = loss
        self.lam = lam
        self.beta = beta
        self.hold_labels = hold_labels
        self.readout = readout
        self.auto = auto
        self.verbose = verbose


class ThemeNMF(_Predicting):
    """Theme-supervised NMF (Suyunu): subtopics per labeled theme and
    background topics (kind "theme")."""

    _kind = "theme"

    def __init__(self, *, random_state=None, max_iter=None, tol=None, loss=None, init=None, subtopics=None,
                 mode=None, no_theme_background=None, new_topics=None, readout=None, auto=None, verbose=0):
        self.random_state = random_state
        self.max_iter = max_iter
        self.tol = tol
        self.loss = loss
        self.init = init
        self.subtopics = subtopics
        self.mode = mode
        self.no_theme_background = no_theme_background
        self.new_topics = new_topics
        self.readout = readout
        self.auto = auto
        self.verbose = verbose


class GuidedNMF(_TopicEstimator):
    """NMF guided by seed and exclusion words (kind "nmf"). gathers is as
    TSNMF's: None or "auto" (the default), "float64" or "float32"."""

    _kind = "nmf"

    def fit(self, X, y=None, anchors=None, callback=None):
        """Fits the model on X (see the other estimators' fit); y is
        ignored (the kind learns from no labels), as scikit-learn's NMF
        ignores it, so that the estimator fits in a Pipeline."""
        return super().fit(X, None, anchors=anchors, callback=callback)

    def __init__(self, n_components=10, *, random_state=None, max_iter=None, tol=None, loss=None, gathers=None,
                 init=None, beta=None, seed_rank=None, readout=None, verbose=0):
        self.n_components = n_components
        self.random_state = random_state
        self.max_iter = max_iter
        self.tol = tol
        self.loss = loss
        self.gathers = gathers
        self.init = init
        self.beta = beta
        self.seed_rank = seed_rank
        self.readout = readout
        self.verbose = verbose


class AnchoredCorEx(_Predicting):
    """Anchored CorEx (Gallagher et al.): topics of maximal total
    correlation, steered by anchor words or labels (kind "corex"). For
    corextopic's own class, see semitopic.corextopic."""

    _kind = "corex"
    _xfail = {**_XFAIL_SUPERVISED, **_XFAIL_ONE_TOPIC}

    def __init__(self, n_components=None, *, random_state=None, max_iter=None, tol=None, beta=None, restarts=None,
                 hold_labels=None, readout=None, auto=None, verbose=0):
        self.n_components = n_components
        self.random_state = random_state
        self.max_iter = max_iter
        self.tol = tol
        self.beta = beta
        self.restarts = restarts
        self.hold_labels = hold_labels
        self.readout = readout
        self.auto = auto
        self.verbose = verbose


class SeededLDA(_Predicting):
    """LDA with seed words, z-labels or labels (kind "lda")."""

    _kind = "lda"
    _xfail = {**_XFAIL_SUPERVISED, **_XFAIL_ONE_TOPIC}

    def __init__(self, n_components=None, *, random_state=None, max_iter=None, method=None, beta=None,
                 seed_mode=None, verbose=0):
        self.n_components = n_components
        self.random_state = random_state
        self.max_iter = max_iter
        self.method = method
        self.beta = beta
        self.seed_mode = seed_mode
        self.verbose = verbose


ESTIMATORS = {c._kind: c for c in (TSNMF, SSNMF, ThemeNMF, GuidedNMF, AnchoredCorEx, SeededLDA)}


def load(path):
    """The estimator of a model file (written by the CLI's fit or by
    save): an estimator of its kind, fitted, with default parameters."""
    m = _model.Model.load_file(path)
    cls = ESTIMATORS[m.info["kind"]]
    est = cls()
    est._set_fitted(m, False)
    est.n_features_in_ = m.info["terms"]
    return est
