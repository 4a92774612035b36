// Command semitopic is the command-line program of the semitopic toolkit for
// semi-supervised topic modeling: it reads corpora in many formats, turns
// them into document-term matrices, and fits, applies, evaluates, reports on
// and serves topic models.
//
// Usage:
//
//	semitopic <command> [arguments]
//
// The commands are:
//
//	corpus stats  count the documents, labels, splits, tokens and vocabulary of a corpus
//	formats       list the input formats with an example of each
//	vectorize     write a corpus as a documents × terms MatrixMarket file
//	fit           fit a topic model on a corpus and save it (a .semitopic file)
//	transform     compute the topic weights of new documents with a saved model
//	predict       predict the labels of new documents with a supervised model
//	topics        list a saved model's topics with their top words and scores
//	report        write a self-contained HTML report of a saved model (package report)
//	serve         serve a saved model over HTTP (package server)
//	workbench     steer a topic model in the browser: edits, refits in seconds, rounds (package workbench/web)
//	evaluate      score a document-topic matrix against labels
//	experiment    reproduce a paper's table on the real corpora into docs/results
//	demo          fit the models on the embedded demo corpus and show what they found
//
// A typical session fits a model once and uses the saved file afterwards:
//
//	semitopic fit --kind tsnmf --format csv docs.csv --labels-from-corpus --out docs.semitopic
//	semitopic predict --model docs.semitopic --format jsonl new.jsonl --out predictions.csv
//	semitopic serve --model docs.semitopic --addr 127.0.0.1:8080
//
// Run "semitopic help" or "semitopic COMMAND --help" for the commands and
// their flags, and "semitopic demo" for a tour on the embedded demo corpus.
// Without installing the program, "go run ./cmd/semitopic ARGS" runs it from
// the repository root.
package main
