// Command classifycmp builds the SSNMF paper's 20 Newsgroups dataset
// (package datasets), writes it for scikit-learn, trains the three baseline
// classifiers of package classify on it and prints their test accuracy and
// times. bench/sklearn/classify_compare.py then trains scikit-learn's
// MultinomialNB, LinearSVC and LogisticRegression on the same files and
// prints both side by side.
//
//	go run ./bench/sklearn/classifycmp [-seed 1] [-runs 3] [-out DIR] [-data PATH]
//	/usr/bin/python3 bench/sklearn/classify_compare.py DIR [--check-tfidf]
//
// DIR receives train.mtx, val.mtx, test.mtx (documents × terms, MatrixMarket),
// train_labels.txt, val_labels.txt, test_labels.txt (one class number per
// line), classes.txt, vocab.txt, {train,val,test}_docs.jsonl (id, class,
// text: for checking the tf-idf against scikit-learn's) and go_results.json.
// Times are the fastest of -runs fits (and predictions) on all cores.
package main
