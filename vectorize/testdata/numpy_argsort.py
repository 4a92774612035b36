"""Generate numpy_argsort.json: numpy's default argsort (kind='quicksort',
an introsort) of small integer arrays with many ties, which TestNumpyArgsort
compares with npArgsort. scikit-learn's CountVectorizer breaks ties at its
max_features cut in this order. Run with Debian's Python (numpy 1.24):

    /usr/bin/python3 numpy_argsort.py
"""
import json
import numpy as np

rng = np.random.RandomState(1)
cases = []
for size in [1, 2, 3, 15, 16, 17, 40, 100, 700, 2000]:
    for hi in [2, 5, 50]:
        a = -rng.randint(1, hi + 1, size=size).astype(np.int64)
        cases.append({'values': a.tolist(), 'order': np.argsort(a).tolist()})
print(np.__version__, len(cases))
with open('numpy_argsort.json', 'w') as f:
    json.dump(cases, f)
