// Command scale times one fit of a topic model on a sharded corpus, in
// memory or out of core, and prints one JSON line: the corpus's shape, the
// time per iteration (after the first, so that reading and the start are
// left out) and the process's peak resident memory. Each fit runs in its
// own process so that the peak is that fit's; run.sh runs the grid of
// docs/results/scale.md, and scaling.sh the scaling table of
// docs/results/speed.md (every kind and mode at 1 to 16 cores, GOMAXPROCS
// being also the parallel loops' worker count), which -scaling prints;
// side.sh the 300,000-document side-by-side of docs/results/scale.md, and
// table.sh issue 30's table of comparisons (CorEx against corextopic, NMF
// against scikit-learn, the automatic configuration) re-measured in one
// run.
//
//	go run ./bench/scale -shards DIR -kind nmf -mode ooc -k 100 -iters 5
package main
