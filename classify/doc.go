// Package classify provides the baseline document classifiers that the
// semi-supervised topic models are compared against: multinomial naive
// Bayes, a linear support vector machine trained one-vs-rest by dual
// coordinate descent, and multinomial logistic regression. Each one matches
// the scikit-learn 1.2 estimator of the same name with default settings
// (MultinomialNB, LinearSVC, LogisticRegression(multi_class="multinomial",
// solver="lbfgs")) and works on sparse documents × features matrices, which
// it never densifies.
//
// Classes are the integers 0..C-1; C is one more than the largest label
// seen by Fit, and every class in that range must have at least one training
// document. Mapping document labels to class numbers (for example with
// corpus.LabelIndex) is the caller's business.
//
// Bad input — a label count that differs from the number of documents,
// a negative label, a single class, a matrix that fails sparse.CSR.Validate
// (NaN or infinite values), negative counts for naive Bayes, a feature count
// that differs from the training data — is reported as an error, never a
// panic.
//
// LinearSVC can start from another fit's dual variables (Start, Duals):
// a fit on the same rows with more features, say, converges to the same
// optimum in fewer iterations.
//
// LabelSpreading is the semi-supervised baseline: scikit-learn's
// LabelSpreading with the k-nearest-neighbour kernel, which spreads the
// labels of the labeled documents over the graph of nearest neighbours
// (KNNGraph) of all the documents. Unlike the classifiers above, it takes
// −1 as the label of an unlabeled document.
package classify
