// Command workbench measures the workbench (packages workbench and
// workbench/web) as a person uses it: over HTTP, on loopback, against a
// session served in the same process. It writes docs/results/workbench.md
// and prints the median and 90th percentile of the time from an edit to
// new topics per kind as its last line.
//
//  1. Timing (-timing): on the 20 Newsgroups training set (11,314
//     documents; headers, footers and quotes removed, as the
//     label-efficiency benchmark reads it), k = 20, for each kind
//     (-kinds), a scripted sequence of edits — seed word, exclusion,
//     labels, rename, stopword, removed document, new topic, split,
//     merge, delete, k, and their undoing — each timed from the request
//     POST /api/edit to the topics of the refit (GET /api/wait on the
//     version the edit returned, then GET /api/topics). The kinds that
//     learn from labels start from labels given through the API, a few
//     per class (-label-frac). Then, on a synthetic corpus of -big
//     documents (package synth, built in memory as an already-vectorized
//     corpus), the latency of GET /api/status, /api/topics and a topic's
//     documents while a refit runs, against the same requests while idle.
//  2. Edit effects (-effects): -edits random edits per kind on the same
//     sessions — seed words, exclusions, labels — each refitted, checked
//     and undone: the rate at which a seed word is in its topic's top 10,
//     an excluded word's weight is exactly zero, and a labeled document's
//     predicted label is its label, from the engine's own checks (the
//     round's diff) and independently from /api/topics and /api/docs.
//  3. The simulated person (-active): on the 20 Newsgroups training set,
//     a person labels the 10 documents /api/suggest proposes with their
//     true labels, round after round, against the same person labeling 10
//     random documents, and against a linear SVM trained on the same
//     labels; every model is scored on the test set (the exported model,
//     GET /api/export/model, on the 7,532 test documents).
//
// -corpus bbc runs the same protocol on BBC News, a fifth of each class
// held out (a check of the simulated person's curves on a second corpus).
// With none of -timing, -effects and -active every part runs. -quick runs
// a reduced protocol on the embedded demo corpus in seconds (the
// package's test runs it); its report says so.
//
//	go run ./bench/workbench                    # everything, docs/results/workbench.md
//	go run ./bench/workbench -timing -kinds nmf # one part, one kind
//	go run ./bench/workbench -quick -out /tmp/wb
package main
