"""Print the numpy values npyrand_test.go checks (numpy 1.24's legacy
RandomState): /usr/bin/python3 make_fixture.py"""
import numpy as np
r = np.random.RandomState(1)
print([repr(x) for x in r.random_sample(3)])
r = np.random.RandomState(42)
a = np.arange(10); r.shuffle(a); print(a.tolist())
r = np.random.RandomState(0)
a = np.arange(1000); r.shuffle(a); print(a[:8].tolist(), a[-3:].tolist())
r = np.random.RandomState(7)
r.random_sample(700)  # past one refill of the 624-word state
print(repr(r.random_sample()))
