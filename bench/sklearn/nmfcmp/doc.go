// Command nmfcmp measures semitopic's NMF engine against scikit-learn's
// multiplicative-update NMF on identical input and from identical starting
// factors.
//
// "prepare" builds the Reuters tf-idf matrix (NLTK ApteMod, all 10,788
// documents, read with the reuters-nltk reader and vectorized with the
// tsnmf pipeline preset — WordNet noun lemmas, tokens of 3+ letters without
// NLTK stopwords, tf-idf with L2 rows — without its 250-character document
// filter, keeping the -vocab most frequent terms, 0 for all), draws
// scikit-learn-style random starting factors W0, H0 (|N(0,1)|·√(mean(X)/k))
// and writes X.mtx, W0.mtx and H0.mtx to -dir:
//
//	go run ./bench/sklearn/nmfcmp prepare -dir /tmp/nmf2000 -vocab 2000 -k 90
//
// "fit" reads those files and fits with the given loss, a fixed number of
// iterations and no tolerance (scikit-learn's tol=0), and prints the
// objective (scikit-learn's _beta_divergence scale), the fit's wall time
// and the peak resident memory of the process (internal/peakmem), so
// that the figures cover the same work as bench/sklearn/nmf_compare.py:
//
//	go run ./bench/sklearn/nmfcmp fit -dir /tmp/nmf2000 -loss frobenius -iter 200
//
// nmf_compare.py runs both sides and prints the comparison table.
package main
