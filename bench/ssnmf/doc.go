// Command ssnmf measures one SSNMF fit on the paper's 20 Newsgroups
// protocol, for the side-by-side with the reference implementation
// (jamiehadd/ssnmf, dense NumPy) that ref_fit.py runs; run.sh runs both and
// prints the table.
//
// "export" draws the dataset of one seed (datasets.SSNMF20News: 5 classes
// from 13 newsgroups, balanced, 60/20/20) and writes, as the reference's
// final fits use them, the training and validation documents together
// (tf-idf refitted on them, the reference's X_train_full) and the test
// documents vectorized with that tf-idf:
//
//	go run ./bench/ssnmf export -dir /tmp/ssnmf20ng -seed 0
//
// writes train.mtx, test.mtx (documents × terms), train.labels,
// test.labels (one class 0–4 per line), train.groups, test.groups (one
// newsgroup 0–12 per line) and vocab.txt.
//
// "fit" reads them, fits one model (rank 13, at most 50 iterations) on the
// training documents, represents the test documents with the topics fixed
// (NNLS or 20 multiplicative updates) and prints one JSON line: fit and
// test seconds, iterations, test accuracy, the hard and soft clustering
// scores P of all documents (the paper's Table 8) and the process's peak resident
// memory (internal/peakmem, which includes reading the files). With
// -masked it fits as the reference's evaluation.py does: the test documents
// stacked under the training ones with zero data and label weight.
//
//	go run ./bench/ssnmf fit -dir /tmp/ssnmf20ng -model D,F -lambda 100 -tol 1e-3
package main
