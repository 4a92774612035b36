// Package datadir locates the shared benchmark corpora (Reuters-21578,
// 20 Newsgroups, Brown, BBC, stopword lists) that live beside the repository
// in ../shared/data, so that tests and experiments can use them without
// copying them into the repository. The environment variable SEMITOPIC_DATA
// (EnvVar) names another folder.
package datadir
