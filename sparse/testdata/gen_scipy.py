# Generates the scipy fixtures in sparse/testdata (run with Debian's /usr/bin/python3).
import numpy as np, scipy.sparse as sp, scipy.io as sio
A = sp.coo_matrix(np.array([[1.5, 0, 0, -2.25],
                            [0, 0, 0, 0],
                            [0, 3e-7, 0, 1e10],
                            [0.1, 0, 0, 0],
                            [0, 0, 7, 0]]))
sio.mmwrite("scipy_real.mtx", A, comment="written by scipy.io.mmwrite")
S = sp.coo_matrix(np.array([[2.0, 1, 0], [1, 0, -3], [0, -3, 4]]))
sio.mmwrite("scipy_symmetric.mtx", S, symmetry="symmetric")
I = sp.coo_matrix(np.array([[0, 5, 0], [-7, 0, 12]], dtype=np.int64))
sio.mmwrite("scipy_integer.mtx", I)
P = sp.coo_matrix(np.array([[1, 0, 1], [0, 1, 0]], dtype=np.float64))
sio.mmwrite("scipy_pattern.mtx", P, field="pattern")
D = np.array([[1.0, 0.5, 0], [-1.25, 0, 1e-300]])
sio.mmwrite("scipy_array.mtx", D)
K = np.array([[0, 2.0, -1], [-2, 0, 0.5], [1, -0.5, 0]])
sio.mmwrite("scipy_skew_array.mtx", K, symmetry="skew-symmetric")
