// Command metricscmp compares package metrics' clustering agreement measures
// with scikit-learn's on the labelings written by
// bench/sklearn/metrics_compare.py, which also runs it:
//
//	/usr/bin/python3 bench/sklearn/metrics_compare.py [--seed 1] [--cases 40] [--out FILE]
//	go run ./bench/sklearn/metricscmp -in FILE [-tol 1e-9] [-quiet]
//
// For every pair of labelings it prints homogeneity, completeness, V-measure,
// NMI and AMI (arithmetic, min, geometric and max normalisation) and the
// adjusted Rand index from both libraries and their difference, then the largest difference per measure
// and the time each library took. It exits with status 1 if a difference
// exceeds -tol.
//
// One kind of value is reported but not held to the tolerance: an AMI whose
// normalizer equals the expected mutual information in exact arithmetic
// (one labeling all singletons, so every arrangement has the same MI). Its
// value is 0/0, and both libraries return a ratio of rounding errors that
// depends on the last bits of log, lgamma and exp (see package metrics'
// agreement tests); such lines are marked "0/0".
package main
