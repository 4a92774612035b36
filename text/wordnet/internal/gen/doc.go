// Command gen builds the lemmatizer data file of package wordnet from the
// WordNet 3.0 database files (Debian's wordnet-base installs them in
// /usr/share/wordnet). It is run by go generate in text/wordnet:
//
//	go run ./internal/gen -src /usr/share/wordnet -out wordnet.dat.gz
//
// The output depends only on the input files, so running it again on the
// same WordNet gives the same bytes.
package main
