"""Generate reference_fixture.json: CorEx fits of the reference implementation
(gregversteeg/corex_topic, corextopic/corextopic.py) on small planted data.
TestMatchesReference fits the same data with Config.NumpyRandom (numpy's
random stream, so the same start and tie-breaking noise) and compares every
iteration's TC and the final model.

The reference code is not part of this repository. Run with Debian's Python
(numpy, scipy) and the reference module importable, e.g.

    PYTHONPATH=/path/to/dir/with/corextopic /usr/bin/python3 make_fixture.py

where the directory holds corextopic.py (or the installed corextopic package).
"""
import json
import numpy as np
import scipy.sparse as ss

try:
    from corextopic import corextopic as ct
except ImportError:
    import corextopic_ref as ct  # a local copy of corextopic.py


def planted(rng, n_docs, groups, group_words, background):
    """Binary documents: each picks a group; its words appear w.p. 0.5."""
    nv = groups * group_words + background
    X = np.zeros((n_docs, nv))
    for d in range(n_docs):
        g = rng.randint(groups)
        lo = g * group_words
        X[d, lo:lo + group_words] = rng.random_sample(group_words) < 0.5
        X[d, groups * group_words:] = rng.random_sample(background) < 0.08
    return X


def run(name, X, k, seed, max_iter, anchors=None, strength=1, count='binarize'):
    nv = X.shape[1]
    words = ['w%d' % i for i in range(nv)]
    m = ct.Corex(n_hidden=k, max_iter=max_iter, seed=seed, count=count)
    m.fit(ss.csr_matrix(X), anchors=anchors, anchor_strength=strength, words=words)
    return {
        'name': name, 'k': k, 'seed': seed, 'max_iter': max_iter, 'count': count,
        'anchors': anchors, 'strength': strength, 'X': X.tolist(),
        'history': [float(v) for v in m.tc_history],
        'tcs': m.tcs.tolist(), 'mis': m.mis.ravel().tolist(), 'alpha': m.alpha.ravel().tolist(),
        'sign': m.sign.ravel().tolist(),
        'p': m.p_y_given_x.ravel().tolist(), 'log_z': m.log_z.ravel().tolist(),
    }


rng = np.random.RandomState(7)
X1 = planted(rng, 90, 3, 8, 16)
X2 = planted(rng, 70, 4, 6, 10)
counts = (rng.poisson(1.5, size=(60, 30)) * (rng.random_sample((60, 30)) < 0.3)).astype(float)
cases = [
    run('planted-unanchored', X1, 4, 3, 60),
    run('planted-anchored', X1, 4, 5, 40, anchors=[['w0', 'w1'], 'w20', ['w9', 'w0']], strength=3),
    run('single-topic', X2, 1, 2, 30),
    run('fraction-counts', counts, 3, 4, 40, count='fraction'),
]
with open('reference_fixture.json', 'w') as f:
    json.dump(cases, f)
print('\n'.join('%s: TC %.6f after %d iterations' % (c['name'], c['history'][-1], len(c['history'])) for c in cases))
