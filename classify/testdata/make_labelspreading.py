"""Fixtures for classify.LabelSpreading: scikit-learn 1.2.1's LabelSpreading
with the knn kernel (which needs dense input) on two seeded problems (a dense one and a sparse,
text-like one). Run with /usr/bin/python3 from this folder."""
import json
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.neighbors import NearestNeighbors
from sklearn.semi_supervised import LabelSpreading

warnings.simplefilter("ignore", RuntimeWarning)
rng = np.random.RandomState(7)
out = []
for name, n, m, density in [("dense", 80, 6, 1.0), ("sparse", 120, 40, 0.15)]:
    X = sp.random(n, m, density=density, random_state=rng, data_rvs=rng.rand, format="csr")
    Q = sp.random(15, m, density=density, random_state=rng, data_rvs=rng.rand, format="csr")
    truth = rng.randint(0, 3, size=n)
    y = np.full(n, -1)
    lab = rng.choice(n, size=15, replace=False)
    y[lab] = truth[lab]
    for k, alpha in [(7, 0.2), (4, 0.5)]:
        ls = LabelSpreading(kernel="knn", n_neighbors=k, alpha=alpha).fit(X.toarray(), y)
        g = NearestNeighbors(n_neighbors=k).fit(X.toarray()).kneighbors_graph(X.toarray(), k, mode="connectivity").tocsr()
        g.sort_indices()
        out.append({
            "name": name, "k": k, "alpha": alpha,
            "rows": n, "cols": m,
            "indptr": X.indptr.tolist(), "indices": X.indices.tolist(), "data": X.data.tolist(),
            "q_indptr": Q.indptr.tolist(), "q_indices": Q.indices.tolist(), "q_data": Q.data.tolist(),
            "y": y.tolist(),
            "graph_indptr": g.indptr.tolist(), "graph_indices": g.indices.tolist(),
            "classes": ls.classes_.tolist(),
            "distributions": ls.label_distributions_.tolist(),
            "transduction": ls.transduction_.tolist(),
            "n_iter": int(ls.n_iter_),
            # A query whose neighbours the labels never reached gets 0/0:
            # NaN in scikit-learn, written as null (all zero here).
            "predict_proba": [[None if v != v else v for v in row] for row in ls.predict_proba(Q.toarray()).tolist()],
            "predict": ls.predict(Q.toarray()).tolist(),
        })
with open("labelspreading.json", "w") as f:
    json.dump(out, f)
