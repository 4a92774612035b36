import re
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import Pipeline
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.utils.estimator_checks import check_estimator

import semitopic
from semitopic import _model
from semitopic.estimators import _FIELD

from conftest import corpus

ALL = [semitopic.TSNMF, semitopic.SSNMF, semitopic.ThemeNMF, semitopic.GuidedNMF, semitopic.AnchoredCorEx, semitopic.SeededLDA]


def instance(cls):
    # GuidedNMF's default of 10 topics is more than the checks' 2 to 5
    # features; the others default to one topic per label.
    return cls(n_components=2) if cls is semitopic.GuidedNMF else cls()


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_check_estimator(cls):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_estimator(instance(cls))


def test_one_estimator_per_kind_with_the_kinds_options():
    kinds = {k["name"]: k for k in semitopic.kinds()}
    assert set(kinds) == set(semitopic.ESTIMATORS)
    for name, cls in semitopic.ESTIMATORS.items():
        params = set(cls().get_params()) - {"verbose"}
        fields = {_FIELD.get(p, p) for p in params}
        want = {p["field"] for p in kinds[name]["params"]}
        assert fields == want, f"{cls.__name__}: parameters {sorted(fields)}, the kind takes {sorted(want)}"


def test_text_input_labels_and_predict():
    docs, y = corpus()
    m = semitopic.TSNMF(random_state=1).fit(docs, y)
    assert m.vectorizer_ is not None
    assert set(m.classes_) == {"space", "cooking"}
    assert list(m.predict(["rocket orbit moon launch", "oven flour butter recipe"])) == ["space", "cooking"]
    X = m.vectorizer_.transform(docs)
    assert sp.isspmatrix_csr(X) and X.shape == (60, len(m.vocabulary_))
    np.testing.assert_allclose(m.transform(X), m.transform(docs))
    assert m.components_.shape == (m.n_components_, len(m.vocabulary_))
    assert m.n_iter_ > 0 and isinstance(m.converged_, bool)


def test_labels_keep_their_values_and_unlabeled_spellings():
    docs, y = corpus()
    ints = [(0 if v == "space" else 1) if v is not None else -1 for v in y]
    m = semitopic.SSNMF(random_state=1).fit(docs, np.array(ints))
    assert sorted(m.classes_.tolist()) == [0, 1]
    pred = m.predict(["rocket orbit moon", "oven flour butter"])
    assert pred.dtype.kind == "i" and list(pred) == [0, 1]
    # Lists of labels give a multi-label model whose predictions are lists.
    multi = [[v] if v else [] for v in y]
    m = semitopic.TSNMF(random_state=1).fit(docs, multi)
    assert m.predict(["rocket orbit moon"]) == [["space"]]


def test_anchors_as_grammar_path_and_dict(tmp_path):
    docs, _ = corpus()
    grammar = "space: rocket, orbit\ncooking: oven, -rocket"
    path = tmp_path / "anchors.txt"
    path.write_text(grammar)
    tops = []
    for a in (grammar, str(path), path, {"space": ["rocket", "orbit"], "cooking": ["oven", "-rocket"]}):
        m = semitopic.GuidedNMF(n_components=3, random_state=1).fit(docs, anchors=a)
        tops.append(m.get_topics(3))
    assert all(t == tops[0] for t in tops)
    assert tops[0][0][0] == "space" and tops[0][1][0] == "cooking"
    assert "rocket" not in [w for w, _ in m.get_topics(50)[1][1]]


def test_float64_csr_is_not_copied():
    X = sp.random(5, 4, density=0.5, format="csr", random_state=0)
    X.sort_indices()
    assert _model.to_csr(X) is X
    assert _model.to_csr(X.astype(np.int64)).dtype == np.float64


def test_pipeline_and_grid_search():
    docs, y = corpus()
    labels = np.array([v if v else "?" for v in y])
    pipe = Pipeline([
        ("counts", CountVectorizer()),
        ("topics", semitopic.GuidedNMF(n_components=2, random_state=1)),
        ("clf", LogisticRegression()),
    ])
    full = np.array(["space" if i % 2 == 0 else "cooking" for i in range(60)])
    pipe.fit(docs, full)
    assert pipe.score(docs, full) > 0.9
    grid = GridSearchCV(pipe, {"topics__n_components": [2, 3], "topics__loss": ["frobenius", "kl"]}, cv=3)
    grid.fit(docs, full)
    assert grid.best_score_ > 0.9
    assert set(grid.best_params_) == {"topics__n_components", "topics__loss"}
    assert labels.shape == (60,)


def test_grid_search_on_a_supervised_estimator():
    docs, y = corpus()
    X = CountVectorizer().fit_transform(docs)
    full = np.array(["space" if i % 2 == 0 else "cooking" for i in range(60)])
    grid = GridSearchCV(semitopic.TSNMF(random_state=1), {"loss": ["frobenius", "kl"]}, cv=3, scoring="accuracy")
    grid.fit(X, full)
    assert grid.best_score_ > 0.9


def test_errors_name_the_argument(tmp_path):
    docs, y = corpus()
    with pytest.raises(ValueError, match=r"max_iter"):
        semitopic.GuidedNMF(n_components=2, max_iter=-3).fit(docs)
    with pytest.raises(ValueError, match=r"loss"):
        semitopic.GuidedNMF(n_components=2, loss="cosine").fit(docs)
    with pytest.raises(TypeError, match=r"n_components"):
        semitopic.GuidedNMF(n_components=[2]).fit(docs)
    with pytest.raises(FileNotFoundError, match=r"anchors.*nope\.txt"):
        semitopic.GuidedNMF(n_components=2).fit(docs, anchors=str(tmp_path / "nope.txt"))
    with pytest.raises(ValueError, match=r"anchors:1"):
        semitopic.GuidedNMF(n_components=2).fit(docs, anchors="space rocket\n")
    with pytest.raises(ValueError, match=r"y: 3 entries for 60 documents"):
        semitopic.TSNMF().fit(docs, ["a", "b", "c"])
    with pytest.raises(ValueError, match=r"Negative values"):
        semitopic.GuidedNMF(n_components=2).fit(np.array([[1.0, -1.0], [0.0, 1.0]]))
    m = semitopic.GuidedNMF(n_components=2).fit(docs)
    with pytest.raises(ValueError, match=r"predicts no labels|has no attribute"):
        semitopic.TSNMF.predict(m, docs)
    m = semitopic.GuidedNMF(n_components=2).fit(sp.csr_matrix(np.eye(4) + 1))
    with pytest.raises(ValueError, match=r"features"):
        m.transform(sp.csr_matrix(np.ones((2, 3))))
    with pytest.raises(ValueError, match=r"fitted on a matrix"):
        m.transform(["rocket"])


def test_flags_become_parameter_names():
    from semitopic.estimators import _flag_to_param

    assert _flag_to_param("model: -k/--topics = 0 …; --max-iter 3, --seed-rank, --lambda") == "model: n_components = 0 …; max_iter 3, seed_rank, lam"
    assert re.search("random_state", _flag_to_param("--seed"))
