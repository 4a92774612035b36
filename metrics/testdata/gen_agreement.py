#!/usr/bin/python3
"""Writes agreement.json: pairs of labelings and scikit-learn 1.2.1's
agreement measures on them, for metrics/agreement_test.go.

Run with Debian's Python:  /usr/bin/python3 gen_agreement.py
"""
import json
import warnings

import numpy as np
import sklearn
from sklearn.metrics.cluster import (adjusted_mutual_info_score,
                                     contingency_matrix,
                                     homogeneity_completeness_v_measure,
                                     mutual_info_score,
                                     normalized_mutual_info_score)
from sklearn.metrics.cluster._expected_mutual_info_fast import \
    expected_mutual_information

warnings.simplefilter("ignore")
rng = np.random.default_rng(7)
AVERAGES = ["arithmetic", "min", "geometric", "max"]
cases = []


def add(name, a, b):
    a = [int(x) for x in a]
    b = [int(x) for x in b]
    case = {"name": name, "true": " ".join(map(str, a)), "pred": " ".join(map(str, b))}
    h, c, v = homogeneity_completeness_v_measure(a, b)
    case.update(h=h, c=c, v=v)
    if len(a):
        case["mi"] = mutual_info_score(a, b)
        cm = contingency_matrix(a, b, sparse=True).astype(np.float64)
        case["emi"] = float(expected_mutual_information(cm, len(a)))
    case["nmi"] = [normalized_mutual_info_score(a, b, average_method=m) for m in AVERAGES]
    case["ami"] = [adjusted_mutual_info_score(a, b, average_method=m) for m in AVERAGES]
    cases.append(case)


def noisy_copy(a, k, p):
    """a with a share p of the labels replaced by random ones in 0..k-1."""
    b = np.array(a)
    flip = rng.random(len(b)) < p
    b[flip] = rng.integers(0, k, flip.sum())
    return b


# Degenerate and hand-sized cases.
add("empty", [], [])
add("one document", [0], [0])
add("one cluster both", [0] * 7, [3] * 7)
add("one cluster vs singletons", [0] * 6, list(range(6)))
add("singletons vs one cluster", list(range(6)), [0] * 6)
add("identical", [0, 0, 1, 1, 2, 2], [0, 0, 1, 1, 2, 2])
add("identical up to names", [0, 0, 1, 1, 2, 2], [7, 7, 3, 3, 100, 100])
add("independent 2x2", [0, 0, 1, 1], [0, 1, 0, 1])
add("split cluster", [0, 0, 1, 1], [0, 0, 0, 1])
for n in [2, 3, 10, 100, 2000]:
    add(f"all singletons n={n}", list(range(n)), list(rng.permutation(n)))
add("singletons vs pairs", list(range(10)), [i // 2 for i in range(10)])
# Random labelings of many sizes and cluster counts.
for n, k1, k2 in [(5, 2, 3), (20, 2, 2), (20, 5, 7), (50, 3, 10), (100, 10, 10),
                  (100, 2, 50), (250, 20, 5), (500, 4, 4), (1000, 30, 60),
                  (1000, 2, 3), (2000, 20, 20)]:
    a = rng.integers(0, k1, n)
    add(f"random n={n} k={k1},{k2}", a, rng.integers(0, k2, n))
    add(f"noisy n={n} k={k1}", a, noisy_copy(a, k1, 0.3))
# Labels that are not 0..k-1, and skewed cluster sizes.
add("sparse label values", rng.choice([3, 17, 1000, 5], 300), rng.choice([0, 99, 42], 300))
sizes = rng.zipf(1.7, 400) % 40
add("skewed", sizes, noisy_copy(sizes, 40, 0.5))
big = rng.integers(0, 20, 1000)
add("identical n=1000 k=20", big, big)
add("identical permuted names n=1000", big, (big * 7 + 3) % 20)

with open("agreement.json", "w") as f:
    json.dump({"sklearn": sklearn.__version__, "averages": AVERAGES, "cases": cases}, f)
    f.write("\n")
