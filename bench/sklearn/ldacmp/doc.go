// Command ldacmp measures semitopic's LDA on the 20 Newsgroups training set
// against scikit-learn's LatentDirichletAllocation on identical input.
//
// It reads the 20NG "train" subset (11,314 documents) with headers,
// footers and quotes removed, vectorizes it with the "lda" pipeline preset
// (scikit-learn's tokens and English stopwords, counts of the 20,000 most
// frequent words with min_df 2), optionally writes the matrix as
// MatrixMarket for bench/sklearn/lda_compare.py, fits the model, and prints
// the training perplexity, the fit's wall time and the peak resident memory
// of the process (internal/peakmem).
//
//	go run ./bench/sklearn/ldacmp -write /tmp/20ng_train.mtx
//	OMP_NUM_THREADS=1 /usr/bin/python3 bench/sklearn/lda_compare.py /tmp/20ng_train.mtx
//
// With -read it fits a matrix read from a MatrixMarket file instead, so that
// the peak memory covers the same work as the Python script's.
package main
