#!/usr/bin/python3
"""Writes ari.json: pairs of labelings and scikit-learn 1.2.1's
adjusted_rand_score on them, for metrics/agreement_test.go.

Run with Debian's Python:  /usr/bin/python3 gen_ari.py

Small labelings are stored as they are ("true", "pred": space-separated
labels). Large ones, whose pair-count products overflow int64
(tp·tn > 2^63 from about n = 60000), are stored as a rule instead of a
list: "rule": {"n": N, "true": [m, a, d, k], "pred": [m, a, d, k]} means
label i = ((i·m + a) // d) % k for i in 0..N-1.
"""
import json

import numpy as np
import sklearn
from sklearn.metrics import adjusted_rand_score
from sklearn.metrics.cluster import pair_confusion_matrix

rng = np.random.default_rng(11)
cases = []


def labels_of(n, rule):
    m, a, d, k = rule
    i = np.arange(n, dtype=np.int64)
    return (i * m + a) // d % k


def add(name, a, b):
    a = [int(x) for x in a]
    b = [int(x) for x in b]
    cases.append({"name": name, "true": " ".join(map(str, a)), "pred": " ".join(map(str, b)),
                  "ari": adjusted_rand_score(a, b)})


def add_rule(name, n, ra, rb):
    a, b = labels_of(n, ra), labels_of(n, rb)
    (tn, fp), (fn, tp) = pair_confusion_matrix(a, b)
    cases.append({"name": name, "rule": {"n": n, "true": ra, "pred": rb},
                  "ari": adjusted_rand_score(a, b),
                  "tp_tn_overflows_int64": int(tp) * int(tn) > 2**63 - 1})


def noisy_copy(a, k, p):
    b = np.array(a)
    flip = rng.random(len(b)) < p
    b[flip] = rng.integers(0, k, flip.sum())
    return b


# The special cases: ARI = 1 whenever fp = fn = 0.
add("empty", [], [])
add("one document", [0], [5])
add("one cluster both", [0] * 7, [3] * 7)
add("all singletons both", list(range(8)), list(rng.permutation(8)))
add("identical", [0, 0, 1, 1, 2, 2], [0, 0, 1, 1, 2, 2])
add("identical up to names", [0, 0, 1, 1, 2, 2], [7, 7, 3, 3, 100, 100])
# One side degenerate, the other not: ARI = 0.
add("one cluster vs singletons", [0] * 6, list(range(6)))
add("singletons vs one cluster", list(range(6)), [0] * 6)
add("one cluster vs two", [0] * 6, [0, 0, 0, 1, 1, 1])
# Hand-sized cases, the scikit-learn documentation's among them.
add("independent 2x2 (the minimum, -0.5)", [0, 0, 1, 1], [0, 1, 0, 1])
add("split cluster", [0, 0, 1, 1], [0, 0, 0, 1])
add("sklearn doc: merged classes", [0, 0, 1, 2], [0, 0, 1, 1])
add("sklearn doc: split class", [0, 0, 1, 1], [0, 0, 1, 2])
add("two documents apart vs together", [0, 1], [0, 0])
add("singletons vs pairs", list(range(10)), [i // 2 for i in range(10)])
# Random labelings.
for n, k1, k2 in [(20, 2, 2), (50, 3, 10), (100, 10, 10), (250, 20, 5), (1000, 30, 60), (2000, 4, 4)]:
    a = rng.integers(0, k1, n)
    add(f"random n={n} k={k1},{k2}", a, rng.integers(0, k2, n))
    add(f"noisy n={n} k={k1}", a, noisy_copy(a, k1, 0.3))
add("sparse label values", rng.choice([3, 17, 1000, 5], 300), rng.choice([0, 99, 42], 300))
sizes = rng.zipf(1.7, 400) % 40
add("skewed", sizes, noisy_copy(sizes, 40, 0.5))
# Large labelings, where tp·tn and the denominator's products need more
# than 64 bits.
add_rule("blocks n=400000 k=10,8", 400000, [1, 0, 20000, 10], [1, 0, 30000, 8])
add_rule("blocks vs residues n=300000", 300000, [1, 0, 4000, 5], [7, 3, 1, 6])
add_rule("two halves vs thirds n=1000000", 1000000, [1, 0, 500000, 2], [1, 0, 333334, 3])

with open("ari.json", "w") as f:
    json.dump({"sklearn": sklearn.__version__, "cases": cases}, f, indent=0)
    f.write("\n")
