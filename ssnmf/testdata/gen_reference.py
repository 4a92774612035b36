"""Generates reference.json: the SSNMF reference implementation's iterates
on small problems, which ssnmf's TestMatchesReference replays.

The reference is jamiehadd/ssnmf, src/ssnmf/ssnmf_numpy.py (class SSNMF_N);
it is not part of this repository. Run with the folder holding that file:

    SSNMF_REF=/path/to/folder /usr/bin/python3 gen_reference.py

(Debian's Python with numpy.) Matrices are written in the paper's
orientation (features × samples); the Go test transposes them.
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.environ.get("SSNMF_REF", "."))
from ssnmf_numpy import SSNMF_N  # noqa: E402

rng = np.random.RandomState(20201015)
m, n, k, c = 15, 11, 3, 4  # features, samples, topics, classes

X = rng.rand(m, n)
X[rng.rand(m, n) < 0.5] = 0.0  # sparse data with empty entries
Y = rng.rand(c, n) * 2
Y[rng.rand(c, n) < 0.3] = 0.0

# Data weights: "rows" is constant per sample (documents left out of the
# fit), which our sparse path handles; "mask" is a general 0/1 mask (our
# dense path). Label weights: unlabeled samples have zero columns, plus a
# few missing entries in the "mask" case.
Wrows = np.ones((m, n)); Wrows[:, [2, 7]] = 0.0
Wmask = (rng.rand(m, n) < 0.8).astype(float)
Lrows = np.ones((c, n)); Lrows[:, [0, 5, 9]] = 0.0
Lmask = Lrows * (rng.rand(c, n) < 0.85)

A0 = rng.rand(m, k); S0 = rng.rand(k, n); B0 = rng.rand(c, k)

cases = []
for name, W, L in (("rows", Wrows, Lrows), ("mask", Wmask, Lmask)):
    for model in range(1, 7):
        for tol, iters in ((-1.0, 30), (1e-3, 200)):
            kw = dict(modelNum=model, W=W, A=A0.copy(), S=S0.copy(), tol=tol)
            if model >= 3:
                kw.update(Y=Y, B=B0.copy(), L=L, lam=0.7)
            mod = SSNMF_N(X, k, **kw)
            errs = mod.mult(numiters=iters, eps=1e-10)
            cases.append(dict(
                weights=name, model=model, tol=tol, maxiter=iters, lam=0.7,
                iters=mod.iters, errs=[float(e) for e in errs],
                A=mod.A.tolist(), S=mod.S.tolist(),
                B=None if mod.B is None else mod.B.tolist()))

out = dict(X=X.tolist(), Y=Y.tolist(), Wrows=Wrows.tolist(), Wmask=Wmask.tolist(),
           Lrows=Lrows.tolist(), Lmask=Lmask.tolist(),
           A0=A0.tolist(), S0=S0.tolist(), B0=B0.tolist(), k=k, cases=cases)
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "reference.json"), "w") as f:
    json.dump(out, f)
print("wrote", len(cases), "cases")
