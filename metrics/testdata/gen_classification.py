#!/usr/bin/python3
"""Writes classification.json: random single- and multi-label predictions
(with unlabeled documents and abstentions) and scikit-learn 1.2.1's accuracy,
precision, recall, F1 and confusion matrix, for metrics/classify_test.go.

Unlabeled documents (true label -1, or no true labels) are removed before
calling scikit-learn; a prediction of -1 stays in y_pred but is left out of
`labels`, which is how semitopic defines an abstention.

Run with Debian's Python:  /usr/bin/python3 gen_classification.py
"""
import json
import warnings

import numpy as np
import sklearn
from sklearn.metrics import (accuracy_score, confusion_matrix,
                             precision_recall_fscore_support)
from sklearn.preprocessing import MultiLabelBinarizer

warnings.simplefilter("ignore")
rng = np.random.default_rng(3)
single, multi = [], []


def prfs(y_true, y_pred, labels):
    out = {}
    p, r, f, s = precision_recall_fscore_support(y_true, y_pred, labels=labels, average=None)
    out["per_class"] = {"labels": [int(x) for x in labels], "p": p.tolist(), "r": r.tolist(),
                        "f": f.tolist(), "support": s.tolist()}
    for avg in ["micro", "macro", "weighted"]:
        p, r, f, _ = precision_recall_fscore_support(y_true, y_pred, labels=labels, average=avg)
        out[avg] = [float(p), float(r), float(f)]
    return out


for n, k, p_unlab, p_abst, p_right in [(30, 3, 0.1, 0.1, 0.6), (200, 7, 0.2, 0.05, 0.5),
                                        (50, 10, 0.0, 0.0, 0.3), (12, 5, 0.3, 0.3, 0.5),
                                        (400, 4, 0.1, 0.0, 0.9)]:
    y_true = rng.integers(0, k, n)
    y_true[rng.random(n) < p_unlab] = -1
    # Leave class k-1 out of the truth sometimes, to exercise classes that
    # are only predicted.
    y_true[y_true == k - 1] = rng.integers(-1, k - 1, (y_true == k - 1).sum()) if k % 2 else k - 1
    y_pred = np.where(rng.random(n) < p_right, y_true, rng.integers(0, k, n))
    y_pred[rng.random(n) < p_abst] = -1
    y_pred[(y_true == -1) & (y_pred == -1)] = 0
    keep = y_true >= 0
    t, p = y_true[keep], y_pred[keep]
    labels = sorted(set(t.tolist()) | set(p.tolist()) - {-1})
    case = {"k": k, "true": y_true.tolist(), "pred": y_pred.tolist(),
            "accuracy": accuracy_score(t, p),
            "confusion": confusion_matrix(t, p, labels=list(range(k))).tolist()}
    case.update(prfs(t, p, labels))
    single.append(case)

for n, k, p_unlab in [(40, 4, 0.1), (150, 8, 0.2), (25, 3, 0.0)]:
    y_true, y_pred = [], []
    for d in range(n):
        if rng.random() < p_unlab:
            y_true.append([])
        else:
            y_true.append(sorted(rng.choice(k, rng.integers(1, 3), replace=False).tolist()))
        if rng.random() < 0.4 and y_true[-1]:
            y_pred.append(list(y_true[-1]))
        else:
            y_pred.append(sorted(rng.choice(k, rng.integers(0, 4), replace=False).tolist()))
    keep = [d for d in range(n) if y_true[d]]
    mlb = MultiLabelBinarizer(classes=list(range(k)))
    t = mlb.fit_transform([y_true[d] for d in keep])
    p = mlb.transform([y_pred[d] for d in keep])
    case = {"k": k, "true": y_true, "pred": y_pred, "accuracy": accuracy_score(t, p)}
    case.update(prfs(t, p, list(range(k))))
    multi.append(case)

with open("classification.json", "w") as f:
    json.dump({"sklearn": sklearn.__version__, "single": single, "multi": multi}, f)
    f.write("\n")
