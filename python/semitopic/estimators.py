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
    msg = msg.replace("-k/--topics", "n_components").replace("--topics", "n_components")
    msg = msg.replace("--seed", "random_state").replace("--lambda", "lam")
    return re.sub(r"--([a-z][a-z-]*)", lambda m: m.group(1).replace("-", "_"), msg)


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
                print(f"{name}: iteration {e['iter']}, objective {e['objective']:.6g}", file=sys.stderr)

            return show
        return None

    def _check_X(self, X, reset):
        if _model.is_text(X):
            if not reset and getattr(self, "vectorizer_", None) is None:
                raise ValueError("X: documents' texts, but the estimator was fitted on a matrix")
            return X
        X = self._validate_data(X, accept_sparse="csr", dtype=np.float64, reset=reset)
        check_non_negative(X, f"{type(self).__name__} (semitopic)")
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
        if y is not None and not isinstance(y, (list, tuple)):
            y = list(np.asarray(y, dtype=object)) if np.ndim(y) == 1 else list(y)
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
        self.components_ = m.components()
        self.vocabulary_ = {w: j for j, w in enumerate(info["vocab"])}
        self.vectorizer_ = _Vectorizer(m) if text or info["has_vectorizer"] else None
        names = info["labels"]
        if names:
            vals = [m.label_values.get(n, n) for n in names]
            try:
                self.classes_ = np.array(vals)
            except ValueError:
                self.classes_ = np.array(vals, dtype=object)
        if text and not hasattr(self, "n_features_in_"):
            self.n_features_in_ = len(info["vocab"])

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

    def _more_tags(self):
        return {"requires_positive_X": True, "X_types": ["2darray", "string"], "preserves_dtype": [np.float64]}

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
        self._y_multilabel = y is not None and any(isinstance(v, (list, tuple, set, frozenset)) for v in y)
        return super().fit(X, y, anchors=anchors, callback=callback)


class _Vectorizer:
    """The text pipeline a model was fitted with (read-only): what
    ``vectorizer_`` holds for models fitted on texts."""

    def __init__(self, m):
        self._m = m
        self.vocabulary_ = {w: j for j, w in enumerate(m.info["vocab"])}

    def get_feature_names_out(self, input_features=None):
        return np.array(self._m.info["vocab"], dtype=object)

    def transform(self, docs):
        """The documents' term matrix (scipy CSR) as the model reads them."""
        return self._m.vectorize(docs)


class TSNMF(_Predicting):
    """Topic-supervised NMF (MacMillan & Wilson): labeled documents may use
    only their labels' topics (kind "tsnmf")."""

    _kind = "tsnmf"

    def __init__(self, n_components=None, *, random_state=None, max_iter=None, tol=None, loss=None, init=None,
                 weighting=None, beta=None, seed_rank=None, readout=None, auto=None, verbose=0):
        self.n_components = n_components
        self.random_state = random_state
        self.max_iter = max_iter
        self.tol = tol
        self.loss = loss
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

    def __init__(self, n_components=None, *, random_state=None, max_iter=None, tol=None, loss=None, lam=None,
                 beta=None, readout=None, auto=None, verbose=0):
        self.n_components = n_components
        self.random_state = random_state
        self.max_iter = max_iter
        self.tol = tol
        self.loss = loss
        self.lam = lam
        self.beta = beta
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
    """NMF guided by seed and exclusion words (kind "nmf")."""

    _kind = "nmf"

    def __init__(self, n_components=10, *, random_state=None, max_iter=None, tol=None, loss=None, init=None,
                 beta=None, seed_rank=None, readout=None, verbose=0):
        self.n_components = n_components
        self.random_state = random_state
        self.max_iter = max_iter
        self.tol = tol
        self.loss = loss
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

    def __init__(self, n_components=None, *, random_state=None, max_iter=None, tol=None, beta=None, restarts=None,
                 readout=None, auto=None, verbose=0):
        self.n_components = n_components
        self.random_state = random_state
        self.max_iter = max_iter
        self.tol = tol
        self.beta = beta
        self.restarts = restarts
        self.readout = readout
        self.auto = auto
        self.verbose = verbose


class SeededLDA(_Predicting):
    """LDA with seed words, z-labels or labels (kind "lda")."""

    _kind = "lda"

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
    if m.info["has_vectorizer"]:
        est.n_features_in_ = len(m.info["vocab"])
    else:
        est.n_features_in_ = len(m.info["vocab"])
    return est
