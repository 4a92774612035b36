// Package vectorize turns documents into a documents × terms sparse matrix:
// it builds a vocabulary by corpus frequency (with min_df, max_df and
// max_features as scikit-learn's CountVectorizer, but with deterministic
// tie-breaking), applies document filters, and weights the counts as term
// frequencies, binary presence or tf-idf. For the same terms, its tf-idf
// equals scikit-learn's TfidfVectorizer: smooth idf ln((1+n)/(1+df)) + 1
// (theme-supervised NMF thesis, Eq. 3.1), optional sublinear tf 1 + ln(tf),
// then L2 row normalisation.
//
// A fitted Vectorizer transforms new documents with the same vocabulary and
// idf and reports how many of their terms were out of vocabulary.
//
// FitTransformStream does what FitTransform does for a corpus too large to
// hold: it reads the documents twice from a Source (such as corpus.Stream),
// a first pass to count the terms and choose the vocabulary, a second to
// give each document's weighted row, with the same values as FitTransform.
// WriteShards builds on it to write a corpus read by a corpus.Reader as a
// sharded corpus (package shard) for out-of-core training, keeping the
// fitted vectorizer beside the shards.
package vectorize
