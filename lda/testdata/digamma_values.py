#!/usr/bin/python3
"""Print the reference digamma values of digamma_test.go: psi(x) to 30
significant digits with mpmath, as Go table entries."""
import mpmath

mpmath.mp.dps = 40
xs = ["1e-300", "1e-12", "1e-7", "1e-6", "1.0000001e-6", "1e-5", "0.001", "0.05", "0.1",
      "0.3333333333333333", "0.5", "1", "1.4616321449683622", "1.5", "2", "2.5", "3.7",
      "5.999999", "6", "6.5", "8.999999", "9", "9.5", "10", "10.000001", "12.3", "50",
      "100", "1234.5", "1e5", "1e8", "1e15", "1e300"]
for s in xs:
    x = mpmath.mpf(s)
    print("\t{%s, %s}," % (s, mpmath.nstr(mpmath.digamma(x), 30)))
