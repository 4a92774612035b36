"""semitopic as a good Python citizen: Ctrl-C, the GIL, fork, pickle,
progress, and model files shared with the CLI."""

import json
import multiprocessing as mp
import os
import pickle
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import semitopic

from conftest import corpus, package_dir

# A fit that runs until stopped: GuidedNMF with a tolerance no fit meets.
LONG_FIT = """
import signal, sys, time
# Ctrl-C as at a terminal: a child started from a background job inherits
# SIGINT ignored, and Python then installs no KeyboardInterrupt for it.
signal.signal(signal.SIGINT, signal.default_int_handler)
import semitopic
import random
rng = random.Random(1)
words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(6)) for _ in range(800)]
docs = [" ".join(rng.choice(words) for _ in range(40)) for _ in range(3000)]
started = []
def progress(e):
    if not started:
        started.append(1)
        print("started", flush=True)
try:
    semitopic.GuidedNMF(n_components=20, max_iter=10**8, tol=1e-300).fit(docs, callback=progress)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(3)
print("finished", flush=True)
"""


def child_env():
    env = dict(os.environ)
    env["PYTHONPATH"] = package_dir() + os.pathsep + env.get("PYTHONPATH", "")
    return env


def test_ctrl_c_cancels_a_fit_promptly():
    p = subprocess.Popen([sys.executable, "-c", LONG_FIT], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=child_env())
    try:
        assert p.stdout.readline().strip() == "started"
        time.sleep(0.3)
        t0 = time.monotonic()
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=20)
        took = time.monotonic() - t0
    finally:
        p.kill()
    assert p.returncode == 3, (out, err)
    assert "interrupted" in out
    # Promptly: one poll (0.1 s) and one iteration, far less than this.
    assert took < 10, f"the fit took {took:.1f}s to stop"


def test_fits_release_the_gil():
    docs, _ = corpus()
    docs = docs * 50
    stop = threading.Event()

    def progress(e):
        if stop.is_set():
            raise StopIteration("stopped by the test")

    done = []

    def fit():
        try:
            semitopic.GuidedNMF(n_components=3, max_iter=10**8, tol=1e-300).fit(docs, callback=progress)
        except StopIteration:
            done.append(True)

    t = threading.Thread(target=fit)
    t.start()
    time.sleep(0.2)
    # While Go fits, this thread runs Python code: it holds the GIL.
    n, t0 = 0, time.monotonic()
    while time.monotonic() - t0 < 0.3:
        n += 1
    assert t.is_alive(), "the fit ended early"
    stop.set()
    t.join(10)
    assert done == [True]
    assert n > 10000, f"only {n} loops in 0.3 s while the fit ran"


def test_verbose_and_callback_progress(capsys):
    docs, y = corpus()
    events = []
    semitopic.TSNMF(random_state=1, max_iter=20).fit(docs, y, callback=events.append)
    assert events and all({"iter", "objective"} <= set(e) for e in events)
    semitopic.GuidedNMF(n_components=2, verbose=1, max_iter=5, tol=1e-300).fit(docs)
    assert "GuidedNMF: iteration 5" in capsys.readouterr().err
    # LDA's passes whose perplexity is not evaluated (NaN in Go) still
    # reach the callback, with no objective.
    events = []
    semitopic.SeededLDA(n_components=2, random_state=1, max_iter=3).fit(docs, callback=events.append)
    assert [e["iter"] for e in events] == [1, 2, 3] and events[0]["objective"] is None
    semitopic.SeededLDA(n_components=2, random_state=1, max_iter=3, verbose=1).fit(docs)
    assert "SeededLDA: iteration 3, objective not evaluated" in capsys.readouterr().err


def _no_semitopic(x):
    return x * x


def _uses_semitopic(q):
    docs, _ = corpus()
    try:
        semitopic.GuidedNMF(n_components=2).fit(docs)
        q.put("fitted")
    except RuntimeError as e:
        q.put("RuntimeError: " + str(e))


def test_fork_after_a_fit():
    docs, _ = corpus()
    m = semitopic.GuidedNMF(n_components=2, random_state=1).fit(docs)
    before = m.transform(docs)
    fork = mp.get_context("fork")
    # Children that do not call semitopic work.
    with fork.Pool(2) as pool:
        assert pool.map(_no_semitopic, range(5)) == [0, 1, 4, 9, 16]
    # A child that calls semitopic gets a clear error, not a hang or crash.
    q = fork.Queue()
    p = fork.Process(target=_uses_semitopic, args=(q,))
    p.start()
    msg = q.get(timeout=30)
    p.join(30)
    assert msg.startswith("RuntimeError") and "spawn" in msg and "fork" in msg
    assert p.exitcode == 0
    # The parent goes on.
    np.testing.assert_array_equal(m.transform(docs), before)


def test_spawn_children_use_semitopic():
    semitopic.GuidedNMF(n_components=2).fit(corpus()[0])
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    p = ctx.Process(target=_uses_semitopic, args=(q,))
    p.start()
    assert q.get(timeout=60) == "fitted"
    p.join(30)


def test_pickle_round_trip():
    docs, y = corpus()
    for est in (semitopic.TSNMF(random_state=1), semitopic.AnchoredCorEx(random_state=1), semitopic.GuidedNMF(n_components=2)):
        est.fit(docs, y)
        b = pickle.dumps(est)
        back = pickle.loads(b)
        np.testing.assert_allclose(back.transform(docs), est.transform(docs))
        np.testing.assert_allclose(back.components_, est.components_)
        assert back.get_params() == est.get_params()
        if hasattr(est, "classes_"):
            assert list(back.predict(docs)) == list(est.predict(docs))
    assert pickle.loads(pickle.dumps(semitopic.SSNMF(lam=3.0))).lam == 3.0


def test_model_files_shared_with_the_cli(tmp_path, cli):
    docs, y = corpus()
    path = tmp_path / "docs.jsonl"
    with open(path, "w") as f:
        for i, (d, label) in enumerate(zip(docs, y)):
            rec = {"id": f"d{i}", "text": d}
            if label:
                rec["labels"] = [label]
            f.write(json.dumps(rec) + "\n")
    # The CLI writes, Python reads.
    cli_model = tmp_path / "cli.semitopic"
    subprocess.run([cli, "fit", "-f", "jsonl", str(path), "--kind", "tsnmf", "--labels-from-corpus", "--auto=false",
                    "--seed", "1", "--out", str(cli_model)], check=True, capture_output=True)
    est = semitopic.load(cli_model)
    assert isinstance(est, semitopic.TSNMF)
    assert list(est.predict(["rocket orbit moon launch", "oven flour butter"])) == ["space", "cooking"]
    # Python writes, the CLI reads: the same predictions.
    py_model = tmp_path / "py.semitopic"
    semitopic.TSNMF(random_state=1).fit(docs, y).save(py_model)
    out = subprocess.run([cli, "predict", "--model", str(py_model), "-f", "jsonl", str(path), "-o", str(tmp_path / "p.jsonl")],
                         check=True, capture_output=True, text=True)
    preds = [json.loads(line) for line in open(tmp_path / "p.jsonl")]
    want = semitopic.load(py_model).predict(docs)
    got = [p.get("labels", p.get("label")) for p in preds]
    got = [g[0] if isinstance(g, list) else g for g in got]
    assert got == list(want), out.stderr
    with pytest.raises(FileNotFoundError):
        semitopic.load(tmp_path / "missing.semitopic")
