"""The shared library: loading it, and calling its operations as jobs.

Every operation of the Go library (internal/capi) runs as a job on a
goroutine: ``call`` starts it, then polls it with a short timeout. ctypes
releases the GIL during each foreign call, so other Python threads run
while Go works; between polls Python handles signals, so Ctrl-C raises
KeyboardInterrupt here, and the job is cancelled before it propagates.
"""

import ctypes
import json
import os
import sys
import threading

import numpy as np
import scipy.sparse as sp

# Status codes of the C ABI (internal/capi.Code).
OK, VALUE, TYPE, NOT_FOUND, RUNTIME, CANCELED, PENDING = range(7)

# How long one poll waits for a job, in milliseconds: the latency of
# Ctrl-C and of progress callbacks.
POLL_MS = 100

_FORK_MESSAGE = (
    "semitopic was loaded in a parent process (pid {parent}) and this process "
    "(pid {child}) was forked from it: the Go runtime inside semitopic does not "
    "survive fork. Start the workers with the 'spawn' or 'forkserver' method "
    "(multiprocessing.get_context('spawn'), or "
    "multiprocessing.set_start_method('spawn')), or import semitopic only in the "
    "workers."
)


class _Input(ctypes.Structure):
    _fields_ = [
        ("rows", ctypes.c_int64),
        ("cols", ctypes.c_int64),
        ("nnz", ctypes.c_int64),
        ("indptr", ctypes.c_void_p),
        ("indptr_size", ctypes.c_int32),
        ("indices", ctypes.c_void_p),
        ("indices_size", ctypes.c_int32),
        ("data", ctypes.c_void_p),
        ("ndense", ctypes.c_int32),
        ("dense", ctypes.POINTER(ctypes.c_void_p)),
        ("dense_len", ctypes.POINTER(ctypes.c_int64)),
        ("bytes", ctypes.c_char_p),
        ("nbytes", ctypes.c_int64),
    ]


_lock = threading.Lock()
_lib = None
_pid = None


def library_path():
    """The path of the shared library: $SEMITOPIC_LIB, else the one in
    the package."""
    env = os.environ.get("SEMITOPIC_LIB")
    if env:
        return env
    name = {"darwin": "libsemitopic.dylib", "win32": "libsemitopic.dll"}.get(sys.platform, "libsemitopic.so")
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), name)


def lib():
    """The loaded library (loaded on first use, in this process)."""
    global _lib, _pid
    with _lock:
        if _lib is not None:
            if os.getpid() != _pid:
                raise RuntimeError(_FORK_MESSAGE.format(parent=_pid, child=os.getpid()))
            return _lib
        path = library_path()
        if not os.path.exists(path):
            raise FileNotFoundError(
                f"semitopic's shared library is not at {path}: build it with "
                "python/build.sh (or set SEMITOPIC_LIB)"
            )
        L = ctypes.CDLL(path)
        p = ctypes.POINTER
        L.st_start.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int64, p(_Input), p(ctypes.c_int64), p(ctypes.c_void_p)]
        L.st_start.restype = ctypes.c_int
        L.st_wait.argtypes = [ctypes.c_int64, ctypes.c_int64, p(ctypes.c_int64), p(ctypes.c_void_p), p(ctypes.c_void_p)]
        L.st_wait.restype = ctypes.c_int
        L.st_cancel.argtypes = [ctypes.c_int64, p(ctypes.c_void_p)]
        L.st_cancel.restype = ctypes.c_int
        L.st_release.argtypes = [ctypes.c_int64]
        L.st_release.restype = None
        L.st_describe.argtypes = [ctypes.c_int64, p(ctypes.c_void_p), p(ctypes.c_void_p)]
        L.st_describe.restype = ctypes.c_int
        L.st_copy_matrix.argtypes = [ctypes.c_int64, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_int64, p(ctypes.c_void_p)]
        L.st_copy_matrix.restype = ctypes.c_int
        L.st_copy_csr.argtypes = [ctypes.c_int64, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, p(ctypes.c_void_p)]
        L.st_copy_csr.restype = ctypes.c_int
        L.st_copy_bytes.argtypes = [ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64, p(ctypes.c_void_p)]
        L.st_copy_bytes.restype = ctypes.c_int
        L.st_free.argtypes = [ctypes.c_void_p]
        L.st_free.restype = None
        _lib, _pid = L, os.getpid()
        return L


def loaded_here():
    """Whether this process loaded the library itself (not a fork of one
    that did)."""
    return _lib is not None and os.getpid() == _pid


def _take_string(L, ptr):
    if not ptr.value:
        return None
    s = ctypes.string_at(ptr.value).decode("utf-8")
    L.st_free(ptr.value)
    return s


class SemitopicError(RuntimeError):
    """An error in the use of the library itself (not in the input)."""


_EXCEPTIONS = {VALUE: ValueError, TYPE: TypeError, NOT_FOUND: FileNotFoundError, RUNTIME: SemitopicError}


def _raise(code, msg, what=None):
    if what:
        msg = f"{what}: {msg}"
    if code == CANCELED:
        raise KeyboardInterrupt(msg)
    raise _EXCEPTIONS.get(code, SemitopicError)(msg)


def _check(L, code, err, what=None):
    if code != OK:
        _raise(code, _take_string(L, err) or f"error code {code}", what)


class Handle:
    """An object of the library (a model or a result), released when
    this Python object is collected."""

    def __init__(self, h):
        self.h = h

    def release(self):
        if self.h and loaded_here():
            lib().st_release(self.h)
        self.h = 0

    def __del__(self):
        try:
            self.release()
        except Exception:
            pass

    def describe(self):
        L = lib()
        out, err = ctypes.c_void_p(), ctypes.c_void_p()
        _check(L, L.st_describe(self.h, ctypes.byref(out), ctypes.byref(err)), err)
        return json.loads(_take_string(L, out))


class Result(Handle):
    """An operation's result: metadata and arrays copied out on demand."""

    def __init__(self, h):
        super().__init__(h)
        self._d = None

    @property
    def desc(self):
        if self._d is None:
            self._d = self.describe()
        return self._d

    @property
    def meta(self):
        return self.desc["meta"]

    def matrix(self, name):
        """A new numpy array holding the result's matrix name."""
        shape = self.desc["matrices"][name]
        out = np.empty((shape["rows"], shape["cols"]), dtype=np.float64)
        L = lib()
        err = ctypes.c_void_p()
        code = L.st_copy_matrix(self.h, name.encode(), out.ctypes.data, out.size, ctypes.byref(err))
        _check(L, code, err)
        return out

    def csr(self, name):
        """A new scipy CSR matrix holding the result's sparse matrix name."""
        s = self.desc["csr"][name]
        rows, cols, nnz = s["rows"], s["cols"], s.get("nnz", 0)
        indptr = np.empty(rows + 1, dtype=np.int64)
        indices = np.empty(nnz, dtype=np.int32)
        data = np.empty(nnz, dtype=np.float64)
        L = lib()
        err = ctypes.c_void_p()
        code = L.st_copy_csr(self.h, name.encode(), indptr.ctypes.data, rows, indices.ctypes.data, data.ctypes.data, nnz, ctypes.byref(err))
        _check(L, code, err)
        return sp.csr_matrix((data, indices, indptr), shape=(rows, cols))

    def bytes(self):
        n = self.desc["bytes"]
        buf = ctypes.create_string_buffer(n)
        L = lib()
        err = ctypes.c_void_p()
        _check(L, L.st_copy_bytes(self.h, buf, n, ctypes.byref(err)), err)
        return buf.raw


def csr_input(X, keep):
    """The st_input of the CSR matrix X (float64 data, int32 or int64
    indices, sorted): its arrays are read in place, without a copy, and
    appended to keep so that they outlive the call."""
    inp = _Input()
    if X is None:
        return inp
    keep.append(X)
    inp.rows, inp.cols = X.shape
    inp.nnz = X.indptr[-1] if X.shape[0] else 0
    indptr = np.ascontiguousarray(X.indptr)
    indices = np.ascontiguousarray(X.indices)
    data = np.ascontiguousarray(X.data, dtype=np.float64)
    keep.extend([indptr, indices, data])
    inp.indptr, inp.indptr_size = indptr.ctypes.data, indptr.dtype.itemsize
    inp.indices, inp.indices_size = indices.ctypes.data, indices.dtype.itemsize
    inp.data = data.ctypes.data if data.size else None
    return inp


def call(op, req=None, target=None, X=None, dense=None, data=None, progress=None, what=None):
    """Runs the operation op and returns its result: a Result, or the
    Handle of a model for the operations that fit or load one.

    req is the JSON request (a dict), target the Handle the operation
    works on, X a CSR matrix (see csr_input), dense a dict of 2-d float64
    arrays, data bytes. progress, when given, receives each progress event
    (a dict: iter, total, objective, seconds, ...). what prefixes error
    messages (the argument at fault)."""
    L = lib()
    req = dict(req or {})
    keep = []
    inp = csr_input(X, keep)
    if dense:
        names = list(dense)
        arrs = [np.ascontiguousarray(dense[n], dtype=np.float64) for n in names]
        keep.extend(arrs)
        req["dense"] = [{"name": n, "rows": a.shape[0], "cols": a.shape[1]} for n, a in zip(names, arrs)]
        ptrs = (ctypes.c_void_p * len(arrs))(*[a.ctypes.data for a in arrs])
        lens = (ctypes.c_int64 * len(arrs))(*[a.size for a in arrs])
        keep.extend([ptrs, lens])
        inp.ndense, inp.dense, inp.dense_len = len(arrs), ptrs, lens
    if data is not None:
        buf = ctypes.create_string_buffer(bytes(data), len(data))
        keep.append(buf)
        inp.bytes, inp.nbytes = ctypes.cast(buf, ctypes.c_char_p), len(data)
    job, err = ctypes.c_int64(), ctypes.c_void_p()
    code = L.st_start(op.encode(), json.dumps(req).encode(), target.h if target else 0, ctypes.byref(inp), ctypes.byref(job), ctypes.byref(err))
    del keep  # Go copied the arrays before st_start returned
    _check(L, code, err, what)
    return _wait(L, job.value, progress, what)


def _wait(L, job, progress, what):
    result, events, err = ctypes.c_int64(), ctypes.c_void_p(), ctypes.c_void_p()
    try:
        while True:
            code = L.st_wait(job, POLL_MS, ctypes.byref(result), ctypes.byref(events), ctypes.byref(err))
            evs = _take_string(L, events)
            events.value = None
            if evs and progress is not None:
                for e in json.loads(evs):
                    progress(e)
            if code == PENDING:
                L.st_free(err.value)
                err.value = None
                continue
            _check(L, code, err, what)
            return result.value
    except BaseException:
        # KeyboardInterrupt (or an exception from the progress callback):
        # stop the Go work before letting it propagate.
        c = ctypes.c_void_p()
        L.st_cancel(job, ctypes.byref(c))
        L.st_free(c.value)
        raise
    finally:
        L.st_release(job)
