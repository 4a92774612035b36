// Command vectorize20ng measures the text pipeline on all of 20 Newsgroups
// (18,846 documents): reading the archive, analysing and vectorizing, with a
// chosen pipeline preset. It reports documents per second and the peak
// resident memory of the process (internal/peakmem).
//
//	go run ./bench/vectorize20ng [-preset default] [-remove headers,footers,quotes] [-runs 3]
package main
