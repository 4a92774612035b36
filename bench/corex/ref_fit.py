"""Time the reference implementation (gregversteeg/corex_topic) on a
MatrixMarket matrix: python3 ref_fit.py X.mtx [topics] [seed] [max_iter].
Prints one
JSON line: TC (nats), iterations, seconds of the fit, peak resident memory
(ru_maxrss, reading the matrix included). The reference is not part of this
repository: put the directory holding corextopic.py (or the installed
corextopic package) on PYTHONPATH."""
import json
import resource
import sys
import time

import scipy.io
import scipy.sparse as ss

try:
    from corextopic import corextopic as ct
except ImportError:
    import corextopic as ct

path = sys.argv[1]
k = int(sys.argv[2]) if len(sys.argv) > 2 else 50
seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
max_iter = int(sys.argv[4]) if len(sys.argv) > 4 else 200
X = ss.csr_matrix(scipy.io.mmread(path))
start = time.time()
m = ct.Corex(n_hidden=k, max_iter=max_iter, seed=seed)
m.fit(X)
seconds = time.time() - start
print(json.dumps({
    "tc": float(m.tc), "iterations": len(m.tc_history), "seconds": round(seconds, 2),
    "seconds_per_iteration": round(seconds / max(len(m.tc_history), 1), 3),
    "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
}))
