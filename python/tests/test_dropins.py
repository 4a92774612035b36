"""The drop-ins against the reference implementations: the fits the
references recorded (corex/testdata, ssnmf/testdata, which the Go tests
pin too), the references' own examples, and the live references where
they are installed."""

import importlib
import json
import os

import numpy as np
import pytest
import scipy.sparse as ss

from semitopic import corextopic as ct
from semitopic.ssnmf import SSNMF

from conftest import ROOT


def reference(name):
    try:
        return importlib.import_module(name)
    except ImportError:
        pytest.skip(f"{name} is not installed (no Python registry is reachable here): "
                    "the drop-in is compared with the reference's recorded fits instead")


def corex_cases():
    with open(os.path.join(ROOT, "corex", "testdata", "reference_fixture.json")) as f:
        return json.load(f)


@pytest.mark.parametrize("case", corex_cases(), ids=lambda c: c["name"])
def test_corex_matches_the_recorded_reference_fits(case):
    X = np.array(case["X"])
    words = ["w%d" % i for i in range(X.shape[1])]
    m = ct.Corex(n_hidden=case["k"], max_iter=case["max_iter"], seed=case["seed"], count=case["count"])
    labels = m.fit_transform(ss.csr_matrix(X), anchors=case["anchors"], anchor_strength=case["strength"], words=words)
    assert len(m.tc_history) == len(case["history"])
    np.testing.assert_allclose(m.tc_history, case["history"], atol=1e-8)
    np.testing.assert_allclose(m.tcs, case["tcs"], atol=1e-8)
    assert abs(m.tc - sum(case["tcs"])) < 1e-8
    np.testing.assert_allclose(m.p_y_given_x.ravel(), case["p"], atol=1e-8)
    np.testing.assert_allclose(m.log_z.ravel(), case["log_z"], atol=1e-8)
    np.testing.assert_allclose(m.mis.ravel(), case["mis"], atol=1e-8)
    np.testing.assert_allclose(m.alpha.ravel(), case["alpha"], atol=1e-8)
    np.testing.assert_array_equal(m.sign.ravel(), case["sign"])
    np.testing.assert_array_equal(labels, m.p_y_given_x > 0.5)
    # Inference on the training documents gives the training topics.
    p, log_z = m.transform(X, details=True)
    np.testing.assert_allclose(p, m.p_y_given_x, atol=1e-12)
    np.testing.assert_array_equal(m.predict(X), m.labels)
    topics = m.get_topics(n_words=3)
    assert len(topics) == case["k"] and all(isinstance(w, str) and isinstance(v, float) for t in topics for w, v in t)


def test_corex_anchors_and_errors():
    X = np.array(corex_cases()[0]["X"])
    words = ["w%d" % i for i in range(X.shape[1])]
    m = ct.Corex(n_hidden=3, seed=1).fit(X, words=words, anchors=[["w0", "w1"], "w8"], anchor_strength=5)
    assert {w for w, _ in m.get_topics(topic=0, n_words=20)} >= {"w0", "w1"}
    assert m.get_topics(topic=1, n_words=20)[0][0] == "w8"
    with pytest.raises(KeyError, match="w999"):
        ct.Corex(n_hidden=2, seed=1).fit(X, words=words, anchors=[["w999"]])
    with pytest.raises(ValueError, match="words: 3 words"):
        ct.Corex(n_hidden=2, seed=1).fit(X, words=["a", "b", "c"])


def test_corex_against_corextopic_live():
    ref = reference("corextopic.corextopic")
    case = corex_cases()[0]
    X = ss.csr_matrix(np.array(case["X"]))
    a = ref.Corex(n_hidden=case["k"], max_iter=case["max_iter"], seed=case["seed"]).fit(X)
    b = ct.Corex(n_hidden=case["k"], max_iter=case["max_iter"], seed=case["seed"]).fit(X)
    assert abs(a.tc - b.tc) < 1e-8


def ssnmf_fixture():
    with open(os.path.join(ROOT, "ssnmf", "testdata", "reference.json")) as f:
        return json.load(f)


FX = ssnmf_fixture()


@pytest.mark.parametrize("case", FX["cases"], ids=lambda c: f"model{c['model']}-{c['weights']}-tol{c['tol']}")
@pytest.mark.parametrize("saveerrs", [True, False])
def test_ssnmf_matches_the_recorded_reference_iterates(case, saveerrs):
    fx = FX
    W = np.array(fx["Wrows"] if case["weights"] == "rows" else fx["Wmask"])
    L = np.array(fx["Lrows"] if case["weights"] == "rows" else fx["Lmask"])
    kw = dict(modelNum=case["model"], W=W, A=np.array(fx["A0"]), S=np.array(fx["S0"]), tol=case["tol"])
    if case["model"] >= 3:
        kw.update(Y=np.array(fx["Y"]), B=np.array(fx["B0"]), L=L, lam=case["lam"])
    m = SSNMF(np.array(fx["X"]), fx["k"], **kw)
    out = m.mult(numiters=case["maxiter"], saveerrs=saveerrs)
    assert m.iters == case["iters"]

    def rel(a, b):
        b = np.array(b)
        return np.abs(a - b).max() / np.abs(b).max()

    assert rel(m.A, case["A"]) < 1e-9 and rel(m.S, case["S"]) < 1e-9
    if case["B"] is not None:
        assert rel(m.B, case["B"]) < 1e-9
    if saveerrs:
        np.testing.assert_allclose(out[0], case["errs"], rtol=1e-9)
        if case["model"] >= 3:
            errs, recon, cls, accs = out
            assert len(recon) == len(cls) == len(accs) == len(errs)
            assert accs[-1] == m.accuracy()
            # errs is R + λQ with R, Q as the reference measures them.
            R = recon**2 if case["model"] in (3, 4) else recon
            Q = cls**2 if case["model"] in (3, 5) else cls
            np.testing.assert_allclose(errs, R + case["lam"] * Q, rtol=1e-9)
    else:
        assert out is None


def readme_data():
    """The ssnmf README's synthetic supervised data (its section 3)."""
    import scipy.optimize

    np.random.seed(1)
    labelmat = np.concatenate((
        np.concatenate((np.ones([1, 10]), np.zeros([1, 30])), axis=1),
        np.concatenate((np.zeros([1, 10]), np.ones([1, 10]), np.zeros([1, 20])), axis=1),
        np.concatenate((np.zeros([1, 20]), np.ones([1, 10]), np.zeros([1, 10])), axis=1),
        np.concatenate((np.zeros([1, 30]), np.ones([1, 10])), axis=1)))
    B = ss.random(4, 10, density=0.2, random_state=1).toarray()
    S = np.zeros([10, 40])
    for i in range(40):
        S[:, i] = scipy.optimize.nnls(B, labelmat[:, i])[0]
    A = np.random.rand(40, 10)
    return A @ S, labelmat


def test_ssnmf_readme_examples():
    # 1. An unsupervised model.
    np.random.seed(2)
    X = np.random.rand(100, 100)
    model = SSNMF(X, 10, modelNum=1)
    A0, S0 = model.A, model.S
    [errs] = model.mult(numiters=100, saveerrs=True)
    size = errs.shape[0]
    rel_error = errs[size - 1] ** 2 / model.fronorm(model.X, A0, S0, model.W) ** 2
    assert 0 < size <= 100 and rel_error < 0.2
    assert np.all(np.diff(errs) <= 1e-12)
    # 3. A supervised model.
    X, labelmat = readme_data()
    model = SSNMF(X, 10, Y=labelmat, lam=100 * np.linalg.norm(X, "fro"), modelNum=3)
    A0, S0 = model.A, model.S
    acc0 = model.accuracy()
    [errs, reconerrs, classerrs, classaccs] = model.mult(numiters=100, saveerrs=True)
    size = reconerrs.shape[0]
    rel_error = reconerrs[size - 1] ** 2 / model.fronorm(model.X, A0, S0, model.W) ** 2
    assert rel_error < 1 and classaccs[size - 1] == 1.0 and acc0 < 1.0
    # 5. With missing data (10% of X masked), model 5.
    W0 = np.ones(X.shape)
    W0[np.random.rand(*X.shape) < 0.1] = 0
    model = SSNMF(X, 10, Y=labelmat, lam=100 * np.linalg.norm(X, "fro"), W=W0, modelNum=5)
    A0, S0 = model.A, model.S
    [errs, reconerrs, classerrs, classaccs] = model.mult(numiters=100, saveerrs=True)
    assert reconerrs[-1] < model.Idiv(model.X, A0, S0, model.W) and classaccs[-1] == 1.0


def test_ssnmf_against_the_reference_live():
    ref = reference("ssnmf")
    X, labelmat = readme_data()
    k = 10
    A, S, B = np.random.rand(40, k), np.random.rand(k, 40), np.random.rand(4, k)
    kw = dict(Y=labelmat, lam=10.0, modelNum=3, A=A, S=S, B=B)
    a = ref.SSNMF(X, k, **kw)
    ea = a.mult(numiters=50, saveerrs=True)
    b = SSNMF(X, k, **kw)
    eb = b.mult(numiters=50, saveerrs=True)
    np.testing.assert_allclose(eb[0], ea[0], rtol=1e-9)
    assert a.accuracy() == b.accuracy()


def test_ssnmf_errors():
    X = np.random.rand(5, 4)
    with pytest.raises(ValueError, match="A: shape"):
        SSNMF(X, 2, A=np.ones((3, 2)))
    with pytest.raises(ValueError, match="modelNum"):
        SSNMF(X, 2, modelNum=7)
    with pytest.raises(ValueError, match="Y: modelNum 3"):
        SSNMF(X, 2, modelNum=3)


def test_corex_pickles_and_transforms_after(tmp_path):
    import pickle

    X = np.array(corex_cases()[1]["X"])
    words = ["w%d" % i for i in range(X.shape[1])]
    m = ct.Corex(n_hidden=3, seed=2).fit(X, words=words, anchors=[["w0"]], anchor_strength=3)
    path = tmp_path / "corex.pkl"
    m.save(path)
    back = ct.load(path)
    assert back.tc == m.tc and back.get_topics() == m.get_topics()
    np.testing.assert_array_equal(back.transform(X, details=True)[0], m.transform(X, details=True)[0])
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(m)).predict(X), m.labels)
