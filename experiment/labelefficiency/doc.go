// Package labelefficiency is the benchmark of semi-supervision with few
// labels on corpora none of the models was tuned for (20 Newsgroups, BBC,
// Brown, Reuters): every supervised kind with its defaults and with the
// automatic configuration, against a linear SVM, naive Bayes and label
// spreading on the same labels, with the analysis of why where a goal is
// missed — "semitopic experiment label-efficiency", writing
// docs/results/label-efficiency.md.
package labelefficiency
