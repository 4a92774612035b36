// Package synth generates synthetic corpora with planted topics and labels
// at any size, for scale benchmarks and tests: a Zipf vocabulary, topics
// that each own a share of it across all frequency ranks, log-normal
// document lengths, a main and a second topic per document, and the main
// topic's class as the label of a chosen fraction of the documents. The
// presets match the shape of the UCI NYTimes and PubMed bag-of-words
// corpora (documents, vocabulary, distinct terms and tokens per
// document). Generation is deterministic for a seed and streams: document
// i depends only on the configuration and i, so Write never holds the
// corpus and uses every core.
package synth
