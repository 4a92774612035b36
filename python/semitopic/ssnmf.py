"""A drop-in for the ssnmf package: ``from semitopic.ssnmf import SSNMF``
in place of ``from ssnmf import SSNMF``.

``SSNMF(X, k, **kwargs)`` takes the reference's arguments (modelNum 1–6,
A, S, Y, B, L, W, lam, tol) in its orientation (X is features × samples)
and ``mult(numiters=10, saveerrs=False, eps=1e-10)`` runs its
multiplicative updates in semitopic's Go library (package ssnmf), whose
iterates match the reference's (ssnmf's TestMatchesReference). Like the
reference, the factors not given start uniform in [0, 1) from numpy's
global generator, and mult continues from the current factors. Numpy
arrays only (the reference also takes PyTorch tensors).
"""

import numpy as np

from . import _lib


class SSNMF:
    """(Semi-)supervised NMF with the ssnmf package's interface; see the
    module documentation. The objective of modelNum is
    1: ‖X − AS‖²_F; 2: D(X‖AS); 3: ‖X − AS‖²_F + λ‖Y − BS‖²_F;
    4: ‖X − AS‖²_F + λD(Y‖BS); 5: D(X‖AS) + λ‖Y − BS‖²_F;
    6: D(X‖AS) + λD(Y‖BS), with W and L masking X and Y."""

    def __init__(self, X, k, **kwargs):
        if hasattr(X, "toarray"):
            X = X.toarray()
        self.X = np.asarray(X, dtype=np.float64)
        if self.X.ndim != 2:
            raise ValueError(f"X: {self.X.ndim} dimensions, want a matrix")
        rows, cols = self.X.shape
        self.k = int(k)
        self.modelNum = kwargs.get("modelNum", 1)
        if self.modelNum not in (1, 2, 3, 4, 5, 6):
            raise ValueError(f"modelNum: {self.modelNum!r}, want 1 to 6")
        self.W = kwargs.get("W", np.ones((rows, cols)))
        self.A = kwargs.get("A", np.random.rand(rows, self.k))
        self.S = kwargs.get("S", np.random.rand(self.k, cols))
        self.tol = kwargs.get("tol", 1e-4)
        _shape("A", self.A, (rows, self.k))
        _shape("S", self.S, (self.k, cols))
        _shape("W", self.W, (rows, cols))
        self.Y = kwargs.get("Y", None)
        if self.Y is not None:
            self.Y = np.asarray(self.Y, dtype=np.float64)
            if self.Y.ndim != 2 or self.Y.shape[1] != cols:
                raise ValueError(f"Y: shape {self.Y.shape}, want (classes, {cols}): one column per column of X")
            classes = self.Y.shape[0]
            self.B = kwargs.get("B", np.random.rand(classes, self.k))
            self.lam = kwargs.get("lam", 1)
            self.L = kwargs.get("L", np.ones((classes, cols)))
            _shape("B", self.B, (classes, self.k))
            _shape("L", self.L, (classes, cols))
        else:
            if self.modelNum >= 3:
                raise ValueError(f"Y: modelNum {self.modelNum} is supervised and needs a label matrix Y")
            self.B = None
            self.lam = None
            self.L = None

    def mult(self, numiters=10, saveerrs=False, eps=1e-10, callback=None):
        """Runs up to numiters multiplicative updates from the current
        factors, stopping when an iteration lowers the error by less than
        tol times the first one's. With saveerrs it returns [errs] (models
        1 and 2) or [errs, reconerrs, classerrs, classaccs], each iteration's
        errors as the reference computes them."""
        supervised = self.Y is not None and self.modelNum >= 3
        dense = {"X": self.X.T, "S": np.asarray(self.S, dtype=np.float64).T, "A": np.asarray(self.A, dtype=np.float64).T}
        if not np.all(self.W == 1):
            dense["W"] = np.asarray(self.W, dtype=np.float64).T
        if supervised:
            dense["Y"] = self.Y.T
            dense["B"] = np.asarray(self.B, dtype=np.float64)
            if not np.all(self.L == 1):
                dense["L"] = np.asarray(self.L, dtype=np.float64).T
        req = {
            "k": self.k, "modelNum": int(self.modelNum), "lam": float(self.lam or 0), "tol": float(self.tol),
            "numiters": int(numiters), "eps": float(eps), "saveerrs": bool(saveerrs),
        }
        r = _lib.Result(_lib.call("ssnmf_mult", req, dense=dense, progress=callback))
        self.S = r.matrix("S").T
        self.A = r.matrix("A").T
        if supervised:
            self.B = r.matrix("B")
        meta = r.meta
        self.iters = meta["iterations"]
        r.release()
        if saveerrs:
            if not supervised:
                return [np.array(meta["errs"])]
            return [np.array(meta[n]) for n in ("errs", "reconerrs", "classerrs", "classaccs")]
        return None

    def accuracy(self, **kwargs):
        """The share of columns whose largest entry of Y is where B·S is
        largest."""
        Y = kwargs.get("Y", self.Y)
        B = kwargs.get("B", self.B)
        S = kwargs.get("S", self.S)
        if Y is None:
            raise ValueError("Y: the model is not supervised")
        return float(np.mean(np.argmax(Y, axis=0) == np.argmax(B @ S, axis=0)))

    def fronorm(self, Z, D, S, M=None, **kwargs):
        """‖M∘(Z − DS)‖_F."""
        if M is None:
            M = np.ones(Z.shape)
        return float(np.linalg.norm(M * Z - M * (D @ S), "fro"))

    def Idiv(self, Z, D, S, M=None, **kwargs):
        """The I-divergence D(M∘Z ‖ M∘DS)."""
        eps = kwargs.get("eps", 1e-10)
        if M is None:
            M = np.ones(Z.shape)
        Zhat = M * (D @ S)
        MZ = M * Z
        return float(np.sum(MZ * np.log((MZ + eps) / (Zhat + eps)) - MZ + Zhat))


def _shape(name, a, want):
    if np.shape(a) != want:
        raise ValueError(f"{name}: shape {np.shape(a)}, want {want}")
