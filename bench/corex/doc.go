// Command corex times the Anchored CorEx fit of the speed target:
// 50 topics on the 20 Newsgroups training set vectorized as the reference
// notebook does (11,314 × 19,038 binary, 618,595 non-zeros), at most 200
// iterations. It reports TC, iterations and seconds per run, their median,
// and the peak resident memory of the process (internal/peakmem: reading the matrix
// included). compare.sh runs it beside the reference implementation;
// oldnew.sh runs a git revision's build beside the working tree's.
//
//	go run ./bench/corex [-mtx X.mtx | -write X.mtx] [-k 50] [-seed 1] [-runs 3] [-numpy]
package main
